"""The outbox: what a committed change must show is recorded in its transaction, and
each pending publication is taken by exactly one publisher, also after a crash."""

from __future__ import annotations

import asyncio

import pytest

from bot.games.delivery import PUBLISH_LEASE, RECOVERY_GRACE, Delivery
from bot.games.errors import GameFinished
from bot.games.service import GameService
from bot.storage import Storage
from rules.game import GameOptions
from rules.moves import PlayCard
from tests.bot.conftest import ALICE, BOB, FakeClock


async def _game_and_move(db: Storage, clock: FakeClock, *, outbox: bool = True):
    service = GameService(db, clock=clock, turn_timeout=3600, outbox=outbox)
    record = await service.create_game(
        guild_id=1, channel_id=2, players=(ALICE, BOB), options=GameOptions(), seed=5, first_player=0
    )
    if outbox:  # the game's first publication, made as the table makes it
        delivery = Delivery(db.delivery, clock=clock)
        entry = await delivery.claim_start(record.id, record.version)
        assert entry is not None
        await delivery.done(entry)
    move = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
    outcome = await service.apply(record.id, ALICE, move, expected_version=record.version)
    return service, outcome


async def test_a_new_game_records_its_first_publication(db: Storage, clock: FakeClock) -> None:
    service = GameService(db, clock=clock, outbox=True)
    record = await service.create_game(
        guild_id=1, channel_id=2, players=(ALICE, BOB), options=GameOptions(), seed=5, first_player=0
    )
    clock.now += RECOVERY_GRACE
    publishers = [Delivery(db.delivery, clock=clock) for _ in range(3)]
    pending = await publishers[0].pending()
    assert [(e.game_id, e.version, e.kind) for e in pending] == [(record.id, record.version, "turn")]
    claims = await asyncio.gather(*(p.claim_start(record.id, record.version) for p in publishers))
    assert [c for c in claims if c is not None] == [pending[0].id]  # one publisher takes it
    await publishers[0].done(pending[0].id)
    assert await publishers[1].claim_start(record.id, record.version) is None  # published


async def test_a_game_whose_creation_rolls_back_owes_nothing(db: Storage, clock: FakeClock) -> None:
    service = GameService(db, clock=clock, outbox=True)
    with pytest.raises(RuntimeError):
        async with db.transaction() as tx:
            await service.insert_game(
                tx, guild_id=1, channel_id=2, players=(ALICE, BOB), options=GameOptions()
            )
            raise RuntimeError("the challenge was answered meanwhile")
    clock.now += RECOVERY_GRACE
    assert await Delivery(db.delivery, clock=clock).pending() == []


async def test_a_commit_records_its_publication(db: Storage, clock: FakeClock) -> None:
    _, outcome = await _game_and_move(db, clock)
    clock.now += RECOVERY_GRACE
    pending = await Delivery(db.delivery, clock=clock).pending()
    assert [(e.id, e.game_id, e.version, e.kind) for e in pending] == [
        (outcome.outbox_id, outcome.game.id, outcome.game.version, "turn")
    ]


async def test_without_a_publisher_nothing_is_recorded(db: Storage, clock: FakeClock) -> None:
    _, outcome = await _game_and_move(db, clock, outbox=False)
    clock.now += RECOVERY_GRACE
    assert outcome.outbox_id is None and await Delivery(db.delivery, clock=clock).pending() == []


async def test_a_publication_is_claimed_once_and_retaken_after_its_lease(
    db: Storage, clock: FakeClock
) -> None:
    _, outcome = await _game_and_move(db, clock)
    assert outcome.outbox_id is not None
    publishers = [Delivery(db.delivery, clock=clock) for _ in range(4)]
    claims = await asyncio.gather(*(p.claim(outcome.outbox_id) for p in publishers))
    assert sorted(claims) == [False, False, False, True]
    clock.now += RECOVERY_GRACE
    assert await publishers[0].pending() == []  # held: its publisher is at work
    clock.now += PUBLISH_LEASE  # ... and died: the lease ran out
    assert [e.id for e in await publishers[1].pending()] == [outcome.outbox_id]
    assert await publishers[1].claim(outcome.outbox_id)
    await publishers[1].done(outcome.outbox_id)
    clock.now += 2 * PUBLISH_LEASE
    assert await publishers[2].pending() == []
    assert not await publishers[3].claim(outcome.outbox_id)


async def test_a_failed_commit_leaves_no_publication(db: Storage, clock: FakeClock) -> None:
    service, outcome = await _game_and_move(db, clock)
    other = GameService(db, clock=clock, outbox=True)
    record = await other.get(outcome.game.id)
    await service.resign(record.id, BOB, expected_version=record.version)  # moves it on
    with pytest.raises(GameFinished):
        await other.forfeit(record.id, 1, expected_version=record.version)
    clock.now += RECOVERY_GRACE
    kinds = [e.kind for e in await Delivery(db.delivery, clock=clock).pending()]
    assert kinds == ["turn", "turn"]  # the move's and the resignation's, not the forfeit's


async def test_a_claimed_reminder_is_in_the_outbox(db: Storage, clock: FakeClock) -> None:
    service, outcome = await _game_and_move(db, clock)
    claims = await asyncio.gather(
        *(service.claim_reminder(outcome.game.id, outcome.game.version) for _ in range(3))
    )
    assert [c for c, _ in claims].count(True) == 1
    entry = next(e for c, e in claims if c)
    clock.now += RECOVERY_GRACE
    reminders = [e for e in await Delivery(db.delivery, clock=clock).pending() if e.kind == "reminder"]
    assert [e.id for e in reminders] == [entry]

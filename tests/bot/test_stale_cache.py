"""A process whose cached game is stale reloads it instead of refusing.

Two ``GameService`` instances on one database stand for two bot processes: each has its
own cache and locks, and only the database is shared. On both backends.
"""

from __future__ import annotations

import pytest

from bot.games.errors import GameFinished, StaleControl
from bot.games.live import LiveGame
from bot.games.service import GameService
from bot.storage import ConcurrentUpdate, Storage
from rules.game import GameOptions
from rules.moves import PlayCard
from tests.bot.conftest import ALICE, BOB, FakeClock


async def _two_services(db: Storage, clock: FakeClock) -> tuple[GameService, GameService, LiveGame]:
    here = GameService(db, clock=clock, turn_timeout=3600)
    there = GameService(db, clock=clock, turn_timeout=3600)
    record = await here.create_game(
        guild_id=1, channel_id=2, players=(ALICE, BOB), options=GameOptions(), seed=21, first_player=0
    )
    assert (await there.get(record.id)).version == record.version  # both have it cached
    return here, there, record


def _a_play(record: LiveGame) -> PlayCard:
    return next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))


async def _move_there(there: GameService, game_id: int) -> LiveGame:
    record = await there.get(game_id)
    user = record.current_user
    assert user is not None
    outcome = await there.apply(game_id, user, _a_play(record), expected_version=record.version)
    return outcome.game


async def test_a_control_newer_than_the_cache_reloads_and_applies(db: Storage, clock: FakeClock) -> None:
    here, there, record = await _two_services(db, clock)
    moved = await _move_there(there, record.id)
    assert (await here.get(record.id)).version == record.version  # stale, as cached
    # The DM that the other process edited carries the new version.
    outcome = await here.apply(record.id, BOB, _a_play(moved), expected_version=moved.version)
    assert outcome.previous_version == moved.version
    row = await db.games.get_game(record.id)
    assert row is not None and row.version == outcome.game.version
    assert len(await db.games.moves(record.id)) == outcome.game.version


async def test_a_control_older_than_the_stored_game_has_moved_on(db: Storage, clock: FakeClock) -> None:
    here, there, record = await _two_services(db, clock)
    moved = await _move_there(there, record.id)
    # here still caches version 0, so the control looks current to it; the database's
    # compare-and-set refuses, here reloads, and the user gets the ordinary answer.
    with pytest.raises(StaleControl) as refused:
        await here.apply(record.id, ALICE, _a_play(record), expected_version=record.version)
    assert (refused.value.params["expected"], refused.value.params["actual"]) == (0, moved.version)
    assert (await here.get(record.id)).version == moved.version  # reloaded
    assert len(await db.games.moves(record.id)) == moved.version  # nothing of the loser stored


async def test_a_typed_move_goes_to_the_stored_position(db: Storage, clock: FakeClock) -> None:
    here, there, record = await _two_services(db, clock)
    moved = await _move_there(there, record.id)
    # It is Bob's turn in the database, Alice's in here's stale copy.
    outcome = await here.apply(record.id, BOB, _a_play(moved))
    assert outcome.previous_version == moved.version
    assert outcome.game.current_user == ALICE


async def test_the_controls_own_redraw_reloads(db: Storage, clock: FakeClock) -> None:
    here, there, record = await _two_services(db, clock)
    moved = await _move_there(there, record.id)
    assert (await here.current(record.id, moved.version)).version == moved.version
    with pytest.raises(StaleControl):
        await here.current(record.id, record.version)


async def test_a_resignation_elsewhere_finishes_the_game_here(db: Storage, clock: FakeClock) -> None:
    here, there, record = await _two_services(db, clock)
    await there.resign(record.id, BOB, expected_version=record.version)
    with pytest.raises(GameFinished):
        await here.apply(record.id, ALICE, _a_play(record), expected_version=record.version)
    with pytest.raises(GameFinished):
        await here.forfeit(record.id, 0, expected_version=record.version)
    results = await db.ratings.recent_results()
    assert [r.game_id for r in results] == [record.id]  # one result, the resignation's


async def test_a_lost_race_in_storage_is_a_concurrent_update(db: Storage, clock: FakeClock) -> None:
    """Both backends report a writer that lost the race the same way."""
    here, _, record = await _two_services(db, clock)
    await _move_there(here, record.id)
    with pytest.raises(ConcurrentUpdate):
        await db.games.append_moves(record.id, [(1, 0, "pass")], version=1, now=clock())
    with pytest.raises(ConcurrentUpdate):
        await db.games.save_game_state(
            record.id,
            expected_version=record.version,
            version=1,
            state=record.game.to_dict(),
            status="active",
            turn_started_at=None,
            deadline=None,
            reminded=False,
            now=clock(),
        )

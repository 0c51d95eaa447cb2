from __future__ import annotations

import asyncio
import logging
import random

import pytest

from bot.games.errors import AmbiguousGame, GameFinished, GameNotFound, NoActiveGame, NotAPlayer, StaleControl
from bot.games.live import LiveGame, options_to_dict
from bot.games.service import GameService
from bot.storage import Repositories, ResultRow, Storage, open_database
from rules.errors import IllegalMove, NotationError, NotYourTurn
from rules.game import Game, GameOptions
from rules.moves import Draw, PlayCard
from tests.bot.conftest import ALICE, BOB, CAROL, FakeClock, play_randomly

BASE = GameOptions()
TACTICS = GameOptions(ruleset="battle-line", tactics=True, claim_timing="turn-start")


async def new_game(service: GameService, *, channel: int = 50, players=(ALICE, BOB), **kw) -> LiveGame:
    return await service.create_game(
        guild_id=5,
        channel_id=channel,
        players=players,
        options=kw.pop("options", BASE),
        seed=kw.pop("seed", 1),
        **kw,
    )


async def check_replay(db: Storage, game_id: int) -> Game:
    """The stored move log replays to the stored snapshot."""
    row = await db.games.get_game(game_id)
    assert row is not None
    log = [(m.player, m.move) for m in await db.games.moves(game_id)]
    assert [m.seq for m in await db.games.moves(game_id)] == list(range(1, len(log) + 1))
    replayed = Game.replay(row.seed, GameOptions.from_dict(row.options), log, first_player=row.first_player)
    assert replayed.to_dict() == row.state
    assert replayed.version == row.version
    return replayed


@pytest.mark.parametrize("options", [BASE, TACTICS])
def test_options_round_trip(options: GameOptions) -> None:
    assert GameOptions.from_dict(options_to_dict(options)) == options


async def test_create_game_is_stored(service: GameService, db: Storage, clock: FakeClock) -> None:
    record = await new_game(service, first_player=1)
    assert record.is_active and record.version == 0
    assert record.players == (ALICE, BOB) and record.current_player == 1 and record.current_user == BOB
    assert (
        record.player_of(ALICE) == 0 and record.player_of(CAROL) is None and record.opponent_of(BOB) == ALICE
    )
    assert record.deadline == clock.now + 3600
    fresh = await GameService(db).get(record.id)  # no cache: from the database
    assert fresh.game.to_dict() == record.game.to_dict()
    assert (fresh.first_player, fresh.seed, fresh.options) == (1, 1, BASE)


async def test_apply_plays_and_draws_in_one_request(
    service: GameService, db: Storage, clock: FakeClock
) -> None:
    record = await new_game(service, first_player=0)
    move = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
    clock.now += 10
    outcome = await service.apply(record.id, ALICE, move, expected_version=0)
    # Base game: the draw is forced, so the turn passes at once.
    assert [type(a.move) for a in outcome.applied] == [PlayCard, Draw]
    assert outcome.applied[1].drawn is not None
    assert outcome.turn_changed and not outcome.finished and outcome.previous_version == 0
    assert outcome.game.version == 2 and outcome.game.current_user == BOB
    assert outcome.game.turn_started_at == clock.now and outcome.game.deadline == clock.now + 3600
    assert [m.move for m in await db.games.moves(record.id)] == [str(move), "draw clan"]
    assert record.version == 0  # the record handed out earlier is a snapshot, unchanged
    await check_replay(db, record.id)


async def test_move_as_text(service: GameService) -> None:
    record = await new_game(service, first_player=0)
    move = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
    outcome = await service.apply(record.id, ALICE, str(move).upper())
    assert outcome.applied[0].move == move
    with pytest.raises(NotationError):
        await service.apply(record.id, BOB, "dance")
    with pytest.raises(NotationError):  # resigning goes through resign(), not a move
        await service.apply(record.id, BOB, "resign")


async def test_refusals_change_nothing(service: GameService, db: Storage) -> None:
    record = await new_game(service, first_player=0)
    move = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
    with pytest.raises(GameNotFound) as not_found:
        await service.apply(999, ALICE, move)
    assert not_found.value.code == "game_not_found" and not_found.value.params == {"game_id": 999}
    with pytest.raises(NotAPlayer):
        await service.apply(record.id, CAROL, move)
    with pytest.raises(NotYourTurn):
        await service.apply(record.id, BOB, move)
    with pytest.raises(StaleControl) as stale:
        await service.apply(record.id, ALICE, move, expected_version=3)
    assert stale.value.params == {"game_id": record.id, "expected": 3, "actual": 0}
    not_in_hand = next(PlayCard(card, 1) for card in record.game.hand(1) if card not in record.game.hand(0))
    with pytest.raises(IllegalMove) as illegal:
        await service.apply(record.id, ALICE, not_in_hand)
    assert illegal.value.code == "card_not_in_hand"
    assert (await service.get(record.id)).version == 0
    assert await db.games.moves(record.id) == []
    assert (await db.games.get_game(record.id)).version == 0  # type: ignore[union-attr]


async def test_stale_button_after_the_move(service: GameService) -> None:
    record = await new_game(service, first_player=0)
    move = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
    await service.apply(record.id, ALICE, move, expected_version=0)
    with pytest.raises(StaleControl):  # the same click, again
        await service.apply(record.id, ALICE, move, expected_version=0)
    with pytest.raises(NotYourTurn):  # the same request without a version
        await service.apply(record.id, ALICE, move)


@pytest.mark.parametrize("options", [BASE, TACTICS])
async def test_whole_game_result_and_replay(service: GameService, db: Storage, options: GameOptions) -> None:
    record = await new_game(service, options=options, seed=42)
    finished = await play_randomly(service, record, random.Random(3))
    assert finished is not None and finished.finished
    result = finished.game.result
    assert result is not None and finished.game.status == "finished"
    assert finished.game.deadline is None
    stored = await db.ratings.get_result(record.id)
    assert stored == finished.result
    assert stored is not None and stored.reason == result.reason and stored.winner == result.winner
    if result.winner is not None:
        assert stored.winner_id == record.players[result.winner]
    assert (await db.games.get_game(record.id)).status == "finished"  # type: ignore[union-attr]
    await check_replay(db, record.id)
    with pytest.raises(GameFinished):
        await service.apply(record.id, ALICE, "pass")
    with pytest.raises(GameFinished):
        await service.resign(record.id, ALICE)
    assert (await service.get(record.id)).status == "finished"
    assert await service.active_games_for(ALICE) == []


async def test_resign(service: GameService, db: Storage) -> None:
    record = await new_game(service, first_player=0)
    with pytest.raises(NotAPlayer):
        await service.resign(record.id, CAROL)
    outcome = await service.resign(record.id, BOB)  # not BOB's turn: resigning is always allowed
    assert outcome.finished and outcome.result is not None
    assert (outcome.result.winner_id, outcome.result.reason) == (ALICE, "resigned")
    assert [m.move for m in await db.games.moves(record.id)] == ["resign"]
    await check_replay(db, record.id)


@pytest.mark.parametrize(("reason", "word"), [("withdrawn", "withdraw"), ("kicked", "kick")])
async def test_a_tournament_withdrawal_or_removal_is_stored_as_such(
    service: GameService, db: Storage, reason: str, word: str
) -> None:
    record = await new_game(service, first_player=0)
    outcome = await service.resign(record.id, BOB, reason=reason)  # not BOB's turn
    assert outcome.finished and outcome.result is not None
    assert (outcome.result.winner_id, outcome.result.loser_id, outcome.result.reason) == (ALICE, BOB, reason)
    assert [str(a.move) for a in outcome.applied] == [word]
    assert [m.move for m in await db.games.moves(record.id)][-1] == word
    assert (await service.reload(record.id)).game.result.reason == reason
    await check_replay(db, record.id)
    with pytest.raises(GameFinished):
        await service.resign(record.id, ALICE, reason=reason)


async def test_forfeit_overdue(service: GameService, db: Storage, clock: FakeClock) -> None:
    slow = await new_game(service, first_player=0)
    clock.now += 1800
    moving = await new_game(service, channel=51, players=(CAROL, BOB), first_player=0)
    clock.now += 1800  # slow is due now, moving is not
    assert [g.id for g in await service.games_due()] == [slow.id]
    outcomes = await service.forfeit_overdue()
    assert [o.game.id for o in outcomes] == [slow.id]
    assert outcomes[0].result is not None
    assert (outcomes[0].result.loser_id, outcomes[0].result.reason) == (ALICE, "timeout")
    assert await service.forfeit_overdue() == []
    assert (await service.get(moving.id)).is_active
    await check_replay(db, slow.id)


async def test_forfeit_skips_a_game_that_moved(service: GameService, clock: FakeClock) -> None:
    record = await new_game(service, first_player=0)
    clock.now += 4000
    move = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
    await service.apply(record.id, ALICE, move)  # moved just in time, before the timer loop ran
    with pytest.raises(StaleControl):
        await service.forfeit(record.id, 0, expected_version=record.version)
    assert await service.forfeit_overdue() == []  # the new turn has a new deadline


async def test_reminders(service: GameService, clock: FakeClock) -> None:
    record = await new_game(service, first_player=0)
    clock.now += 100
    assert [g.id for g in await service.games_to_remind(after=100)] == [record.id]
    assert await service.mark_reminded(record.id, record.version)
    assert (await service.get(record.id)).reminded
    assert await service.games_to_remind(after=100) == []
    move = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
    await service.apply(record.id, ALICE, move)
    assert not (await service.get(record.id)).reminded  # a new turn, a new reminder


async def test_find_game_for(service: GameService) -> None:
    with pytest.raises(NoActiveGame):
        await service.find_game_for(ALICE, 50)
    first = await new_game(service, channel=50)
    assert (await service.find_game_for(ALICE, 99)).id == first.id  # the only one, elsewhere
    second = await new_game(service, channel=60, players=(CAROL, ALICE))
    assert (await service.find_game_for(ALICE, 50)).id == first.id  # the one in this channel
    assert (await service.find_game_for(ALICE, 60)).id == second.id
    with pytest.raises(AmbiguousGame) as ambiguous:
        await service.find_game_for(ALICE, 99)
    assert [g.id for g in ambiguous.value.games] == [first.id, second.id]
    assert ambiguous.value.code == "ambiguous_game"
    third = await new_game(service, channel=50, players=(ALICE, CAROL))
    with pytest.raises(AmbiguousGame):
        await service.find_game_for(ALICE, 50)
    assert (await service.find_game_for(ALICE, 50, game_id=third.id)).id == third.id
    assert (await service.find_game_for(BOB, 1, game_id=second.id)).id == second.id  # a spectator
    with pytest.raises(GameNotFound):
        await service.find_game_for(ALICE, 50, game_id=12345)


async def test_message_ids_persist(service: GameService, db: Storage) -> None:
    record = await new_game(service)
    updated = await service.set_message_ids(record.id, board_message_id=77)
    updated = await service.set_message_ids(record.id, dm_message_ids={0: 88})
    assert (updated.board_message_id, updated.dm_message_ids) == (77, (88, None))
    assert (await service.get(record.id)).board_message_id == 77
    fresh = await GameService(db).get(record.id)
    assert (fresh.board_message_id, fresh.dm_message_ids) == (77, (88, None))
    move = record.game.legal_moves()[0]
    user = record.current_user
    assert user is not None
    outcome = await service.apply(record.id, user, move)
    assert outcome.game.board_message_id == 77  # a move keeps them


async def test_restart_continues_from_the_database(db_target: str, clock: FakeClock) -> None:
    async with open_database(db_target) as db:
        await db.migrate()
        record = await new_game(GameService(db, clock=clock), seed=9)
        service = GameService(db, clock=clock)
        for _ in range(6):
            current = await service.get(record.id)
            assert current.current_user is not None
            await service.apply(record.id, current.current_user, current.game.legal_moves()[0])
        before = (await service.get(record.id)).game.to_dict()
    async with open_database(db_target) as db:
        await db.migrate()
        after = await GameService(db, clock=clock).get(record.id)
        assert after.game.to_dict() == before
        await check_replay(db, record.id)


async def test_result_hooks_commit_with_the_result(service: GameService, db: Storage) -> None:
    seen: list[tuple[int, ResultRow]] = []

    async def hook(database: Repositories, record: LiveGame, result: ResultRow) -> None:
        seen.append((record.id, result))
        await database.players.set_meta(f"rated:{record.id}", "yes")

    service.result_hooks.append(hook)
    record = await new_game(service)
    await service.resign(record.id, ALICE)
    assert seen and seen[0][0] == record.id
    assert await db.players.get_meta(f"rated:{record.id}") == "yes"

    async def failing(database: Repositories, record: LiveGame, result: ResultRow) -> None:
        raise RuntimeError("ratings broke")

    service.result_hooks[:] = [failing]
    other = await new_game(service, channel=51, players=(CAROL, BOB))
    with pytest.raises(RuntimeError):
        await service.resign(other.id, CAROL)
    # The finishing move rolled back with the hook: the game goes on.
    assert (await service.get(other.id)).is_active
    assert await db.ratings.get_result(other.id) is None
    assert await db.games.moves(other.id) == []


async def test_logs_never_show_drawn_cards(service: GameService, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    record = await new_game(service, seed=5)
    drawn = []
    for _ in range(10):
        current = await service.get(record.id)
        assert current.current_user is not None
        outcome = await service.apply(record.id, current.current_user, current.game.legal_moves()[0])
        drawn += [str(a.drawn) for a in outcome.applied if a.drawn is not None]
    hands = [str(c) for p in (0, 1) for c in (await service.get(record.id)).game.hand(p)]
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert drawn and "Game" in text
    for card in drawn + hands:
        assert card not in text.split(), card


async def test_a_cancelled_request_still_stores_its_whole_move(service: GameService, db: Storage) -> None:
    record = await new_game(service, first_player=0)
    move = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
    request = asyncio.create_task(service.apply(record.id, ALICE, move))
    await asyncio.sleep(0)  # the request has started
    request.cancel()
    with pytest.raises(asyncio.CancelledError):
        await request
    for _ in range(200):  # the move finishes on its own
        row = await db.games.get_game(record.id)
        if row is not None and row.version == 2:
            break
        await asyncio.sleep(0.01)
    assert len(await db.games.moves(record.id)) == 2
    assert (await service.get(record.id)).version == 2  # and the cache agrees
    with pytest.raises(NotYourTurn):
        await service.apply(record.id, ALICE, move)

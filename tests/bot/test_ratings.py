"""Elo ratings: the maths against values worked out by hand, and the service updating
them in the transaction that records the result.

Hand calculations (K = 40 for a player's first 10 games, 24 after; scale 400):

* 1500 v 1500, expected 0.5 each. A win: 1500 + 40 * 0.5 = 1520, the loser 1480.
* 1520 v 1480: E(1520) = 1 / (1 + 10^(-40/400)) = 1 / 1.7943282 = 0.5573116.
  The 1480 player wins: 1520 - 40 * 0.5573116 = 1497.7075, 1480 + 22.2925 = 1502.2925.
  A draw: 1520 + 40 * (0.5 - 0.5573116) = 1517.7075, 1480 + 2.2925 = 1482.2925.
* 1600 (10 games, K 24) v 1400 (3 games, K 40): E(1600) = 1 / (1 + 10^-0.5) = 0.7597469.
  The 1400 player wins: 1600 - 24 * 0.7597469 = 1581.7661, 1400 + 40 * 0.7597469 = 1430.3899.
"""

from __future__ import annotations

import pytest

from bot.community import stats
from bot.community.ratings import elo_update
from bot.games.service import GameService
from bot.storage import Database, RatingRow, ResultRow
from rules.game import GameOptions
from tests.bot.conftest import ALICE, BOB, CAROL

GUILD = 77


def test_elo_by_hand() -> None:
    assert elo_update((1500, 1500), 1.0, games_played=(0, 0)).after == (1520, 1480)
    lost = elo_update((1520, 1480), 0.0, games_played=(1, 1)).after
    assert lost == pytest.approx((1497.7075, 1502.2925), abs=1e-4)
    drawn = elo_update((1520, 1480), 0.5, games_played=(1, 1)).after
    assert drawn == pytest.approx((1517.7075, 1482.2925), abs=1e-4)
    mixed = elo_update((1600, 1400), 0.0, games_played=(10, 3)).after
    assert mixed == pytest.approx((1581.7661, 1430.3899), abs=1e-4)


def test_streaks_and_match_winner() -> None:
    assert stats.streaks(["win", "win", "loss", "win", "win", "win", "draw"]) == (2, 3)
    assert stats.streaks(["draw", "win"]) == (0, 1)
    assert stats.streaks([]) == (0, 0)


async def _game(service: GameService, guild_id: int | None = GUILD, players=(ALICE, BOB)):
    return await service.create_game(
        guild_id=guild_id, channel_id=5, players=players, options=GameOptions(), seed=1
    )


async def _rating(db: Database, scope: str, user_id: int) -> RatingRow:
    row = await db.ratings.get_rating(scope, user_id)
    assert row is not None
    return row


async def test_resign_and_timeout_are_losses_rated_in_server_and_global(
    service: GameService, db: Database
) -> None:
    stats.install(service)
    record = await _game(service)
    await service.resign(record.id, ALICE)  # Bob wins: 1520 / 1480 in both scopes
    for scope in ("global", f"guild:{GUILD}"):
        bob, alice = await _rating(db, scope, BOB), await _rating(db, scope, ALICE)
        assert (bob.rating, bob.wins, bob.losses, bob.games) == (1520, 1, 0, 1)
        assert (alice.rating, alice.wins, alice.losses, alice.games) == (1480, 0, 1, 1)
    assert sorted(await db.ratings.rating_changes(record.id)) == [
        ("global", ALICE, 1500, 1480),
        ("global", BOB, 1500, 1520),
        (f"guild:{GUILD}", ALICE, 1500, 1480),
        (f"guild:{GUILD}", BOB, 1500, 1520),
    ]
    # Bob (1520) runs out of time against Alice (1480): she gains 22.2925.
    record = await _game(service)
    bob_player = record.player_of(BOB)
    assert bob_player is not None
    await service.forfeit(record.id, bob_player)
    alice = await _rating(db, "global", ALICE)
    assert alice.rating == pytest.approx(1502.2925, abs=1e-4)
    assert (alice.wins, alice.losses, alice.draws, alice.games) == (1, 1, 0, 2)
    assert (await _rating(db, "global", BOB)).rating == pytest.approx(1497.7075, abs=1e-4)


@pytest.mark.parametrize("reason", ["withdrawn", "kicked"])
async def test_a_tournament_withdrawal_or_removal_is_rated_like_a_resignation(
    service: GameService, db: Database, reason: str
) -> None:
    stats.install(service)
    record = await _game(service)
    await service.resign(record.id, ALICE, reason=reason)
    for scope in ("global", f"guild:{GUILD}"):
        bob, alice = await _rating(db, scope, BOB), await _rating(db, scope, ALICE)
        assert (bob.rating, bob.wins, bob.losses, bob.games) == (1520, 1, 0, 1)
        assert (alice.rating, alice.wins, alice.losses, alice.games) == (1480, 0, 1, 1)


async def test_a_dm_game_counts_for_the_global_rating_only(service: GameService, db: Database) -> None:
    stats.install(service)
    record = await _game(service, guild_id=None, players=(ALICE, CAROL))
    await service.resign(record.id, CAROL)
    assert (await _rating(db, "global", ALICE)).rating == 1520
    assert await db.ratings.get_rating(f"guild:{GUILD}", ALICE) is None
    assert await db.ratings.leaderboard_size(f"guild:{GUILD}") == 0
    assert await db.ratings.leaderboard_size("global") == 2


async def test_a_draw_is_rated_as_a_draw(service: GameService, db: Database) -> None:
    # Start from 1520 / 1480 after one game each, then record a both-passed draw.
    record = await _game(service)
    for user_id, rating, wins, losses in ((ALICE, 1520.0, 1, 0), (BOB, 1480.0, 0, 1)):
        await db.ratings.save_rating(RatingRow("global", user_id, rating, 1, wins, losses, 0, 1.0))
    async with db.transaction():
        result = await db.ratings.record_result(
            record.id,
            guild_id=None,
            players=(ALICE, BOB),
            winner=None,
            reason="both_passed",
            stones=(3, 3),
            moves=80,
            now=2.0,
        )
        await stats.rate(db.ratings, result)
    alice, bob = await _rating(db, "global", ALICE), await _rating(db, "global", BOB)
    assert alice.rating == pytest.approx(1517.7075, abs=1e-4)
    assert bob.rating == pytest.approx(1482.2925, abs=1e-4)
    assert (alice.draws, bob.draws, alice.games) == (1, 1, 2)


async def test_established_player_moves_by_k24(service: GameService, db: Database) -> None:
    stats.install(service)
    await db.players.ensure_players([ALICE, BOB], 0.0)
    await db.ratings.save_rating(RatingRow("global", ALICE, 1600.0, 10, 6, 4, 0, 1.0))
    await db.ratings.save_rating(RatingRow("global", BOB, 1400.0, 3, 1, 2, 0, 1.0))
    record = await _game(service, guild_id=None)
    await service.resign(record.id, ALICE)
    assert (await _rating(db, "global", ALICE)).rating == pytest.approx(1581.7661, abs=1e-4)
    assert (await _rating(db, "global", BOB)).rating == pytest.approx(1430.3899, abs=1e-4)


async def test_ratings_roll_back_with_the_result(service: GameService, db: Database) -> None:
    stats.install(service)

    async def broken(db: Database, record: object, result: ResultRow) -> None:
        raise RuntimeError("disk full")

    service.result_hooks.append(broken)
    record = await _game(service)
    with pytest.raises(RuntimeError):
        await service.resign(record.id, ALICE)
    assert await db.ratings.get_result(record.id) is None
    assert await db.ratings.get_rating("global", ALICE) is None
    assert await db.ratings.rating_changes(record.id) == []
    assert (await service.get(record.id)).is_active


async def test_match_scores_and_next_game(service: GameService, db: Database) -> None:
    stats.install(service)
    match = await db.challenges.insert_match(
        guild_id=GUILD, channel_id=5, players=(ALICE, BOB), options=GameOptions().to_dict(), target=7, now=1.0
    )
    first = await service.create_game(
        guild_id=GUILD, channel_id=5, players=(ALICE, BOB), options=GameOptions(), match_id=match.id
    )
    await service.resign(first.id, ALICE)  # Bob 5 points, Alice 0 stones
    match = await db.challenges.get_match(match.id)
    assert match is not None and match.scores == (0, 5) and match.status == "active" and match.games == 1
    second_id = await stats.next_match_game(db.challenges, match.id)
    assert second_id is not None and second_id != first.id
    second = await service.get(second_id)
    assert second.match_id == match.id and second.players == (ALICE, BOB)
    assert second.first_player == 1  # Bob won: Bob starts
    await service.resign(second.id, BOB)  # Alice 5: 5-5, nobody at 7 -> a third game
    third_id = await stats.next_match_game(db.challenges, match.id)
    assert third_id is not None and third_id != second.id
    assert (await service.get(third_id)).first_player == 0  # Alice won: Alice starts
    await service.resign(third_id, ALICE)  # Bob 10 - 5: Bob wins the match
    match = await db.challenges.get_match(match.id)
    assert match is not None and match.status == "finished" and match.winner_id == BOB
    assert match.scores == (5, 10) and match.games == 3
    assert await stats.next_match_game(db.challenges, match.id) is None
    # Every game was rated once: Bob 2-1.
    bob = await _rating(db, "global", BOB)
    assert (bob.games, bob.wins, bob.losses) == (3, 2, 1)

"""The tournament value types and the time-out withdrawal rule (bot/tournaments/model.py)."""

from __future__ import annotations

import pytest

from bot.tournaments.model import GameResult, History, Pairing, withdrawn_for_timeouts


def lost_on_time(round_no: int, loser: int, winner: int = 9) -> GameResult:
    return GameResult(round_no, loser, winner, winner, reason="timeout")


def test_two_losses_in_a_row_on_time_withdraw() -> None:
    assert withdrawn_for_timeouts([lost_on_time(1, 1), lost_on_time(2, 1)], 1)
    assert not withdrawn_for_timeouts([lost_on_time(1, 1), lost_on_time(2, 1)], 9)


def test_a_game_in_between_breaks_the_row() -> None:
    normal = GameResult(2, 1, 8, 8)  # lost, but not on time
    assert not withdrawn_for_timeouts([lost_on_time(1, 1), normal, lost_on_time(3, 1)], 1)
    won_on_time = GameResult(2, 1, 8, 1, reason="timeout")
    assert not withdrawn_for_timeouts([lost_on_time(1, 1), won_on_time, lost_on_time(3, 1)], 1)
    draw = GameResult(2, 1, 8, None)
    assert not withdrawn_for_timeouts([lost_on_time(1, 1), draw, lost_on_time(3, 1)], 1)


def test_the_order_is_by_round_not_as_given() -> None:
    games = [lost_on_time(3, 1), GameResult(2, 1, 8, 8), lost_on_time(1, 1)]
    assert not withdrawn_for_timeouts(games, 1)
    assert (
        withdrawn_for_timeouts([lost_on_time(3, 1), lost_on_time(1, 1), GameResult(2, 1, 8, 1)], 1) is False
    )
    # A bye (round 2) is no game: rounds 1 and 3 are two games in a row.
    assert withdrawn_for_timeouts([lost_on_time(3, 1), lost_on_time(1, 1), GameResult(4, 1, 8, 1)], 1)
    assert withdrawn_for_timeouts([lost_on_time(3, 1), GameResult(1, 1, 8, 1), lost_on_time(2, 1)], 1)


def test_values_are_checked() -> None:
    with pytest.raises(ValueError):
        GameResult(1, 1, 1, None)
    with pytest.raises(ValueError):
        GameResult(1, 1, 2, 3)
    with pytest.raises(ValueError):
        History(byes=(Pairing(1, 1, 2),))
    game = GameResult(1, 1, 2, 2, 3, 4)
    assert (game.half_points(1), game.half_points(2), game.opponent(1), game.stones(2)) == (0, 2, 2, 4)
    assert Pairing(1, 5, None).is_bye and Pairing(1, 5, 6).players == (5, 6)

"""The Elo maths of bot/community/ratings.py (the rating updates themselves: test_ratings.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.community.ratings import (
    K_FACTOR,
    PROVISIONAL_GAMES,
    PROVISIONAL_K_FACTOR,
    elo_update,
    expected_score,
    guild_scope,
    k_factor,
    score_for,
)

ratings = st.floats(min_value=100, max_value=3000, allow_nan=False)
games = st.integers(min_value=0, max_value=500)


def test_known_values() -> None:
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1900, 1500) == pytest.approx(10 / 11)
    assert k_factor(0) == k_factor(PROVISIONAL_GAMES - 1) == PROVISIONAL_K_FACTOR
    assert k_factor(PROVISIONAL_GAMES) == K_FACTOR
    assert score_for(0) == 1.0 and score_for(1) == 0.0 and score_for(None) == 0.5
    assert guild_scope(42) == "guild:42"
    with pytest.raises(ValueError):
        elo_update((1500, 1500), 2.0)


@given(ratings, ratings)
def test_expected_scores_add_up_to_one(a: float, b: float) -> None:
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1.0)
    # A difference far below a rating point (1e-14) is lost in 10 ** (d / 400): equal.
    assert (expected_score(a, b) > 0.5) == (a > b) or abs(a - b) < 1e-9


@given(ratings, ratings, st.sampled_from([0.0, 0.5, 1.0]), games)
def test_equal_k_is_zero_sum_and_the_winner_gains(a: float, b: float, score: float, played: int) -> None:
    update = elo_update((a, b), score, games_played=(played, played))
    assert sum(update.delta) == pytest.approx(0.0, abs=1e-9)
    if score == 1.0:
        assert update.delta[0] > 0 > update.delta[1]
    if score == 0.0:
        assert update.delta[0] < 0 < update.delta[1]
    assert abs(update.delta[0]) <= k_factor(played)

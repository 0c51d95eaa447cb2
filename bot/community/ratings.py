"""Player ratings: plain Elo, pure maths (no I/O).

Why Elo and not Glicko-2: our games are played one at a time, asynchronously, over days
and the leaderboard is per server with a handful of regulars. Glicko-2 shines when many
games are grouped into rating periods and players' activity varies; with one update per
game its period bookkeeping and volatility add parameters that small communities cannot
calibrate, and its output (rating with a deviation) is harder to explain in one line of
Discord text. Elo updates once per result, is deterministic and order-dependent in an
obvious way, and is what board-game players already know. New players' uncertainty is
handled the usual Elo way: a larger K-factor for the first ``PROVISIONAL_GAMES`` games.

The storage keeps ``games``, ``wins``, ``losses`` and ``draws`` per player and scope
(``global`` or ``guild:<id>``) next to the rating, and every change per game, so a
later switch of system can recompute everything from the ``results`` table.
"""

from __future__ import annotations

from dataclasses import dataclass

INITIAL_RATING = 1500.0
K_FACTOR = 24.0  # established players
PROVISIONAL_K_FACTOR = 40.0  # the first games move a new player's rating faster
PROVISIONAL_GAMES = 10
SCALE = 400.0  # 400 points of difference: the stronger player is expected to score 10:1

GLOBAL_SCOPE = "global"


def guild_scope(guild_id: int) -> str:
    return f"guild:{guild_id}"


def expected_score(rating: float, opponent: float) -> float:
    """The score (1 win, 0.5 draw, 0 loss) a player of ``rating`` is expected to make."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / SCALE))


def k_factor(games_played: int) -> float:
    """K for a player who had played ``games_played`` rated games before this one."""
    return PROVISIONAL_K_FACTOR if games_played < PROVISIONAL_GAMES else K_FACTOR


@dataclass(frozen=True)
class EloUpdate:
    before: tuple[float, float]
    after: tuple[float, float]

    @property
    def delta(self) -> tuple[float, float]:
        return (self.after[0] - self.before[0], self.after[1] - self.before[1])


def elo_update(
    ratings: tuple[float, float], score: float, *, games_played: tuple[int, int] = (PROVISIONAL_GAMES,) * 2
) -> EloUpdate:
    """New ratings after one game. ``score`` is player 0's: 1 win, 0.5 draw, 0 loss.

    With equal K-factors the update is zero-sum; during a provisional period only the
    new player's rating moves faster.
    """
    if not 0.0 <= score <= 1.0:
        raise ValueError("score must be between 0 and 1")
    a, b = ratings
    expected_a = expected_score(a, b)
    new_a = a + k_factor(games_played[0]) * (score - expected_a)
    new_b = b + k_factor(games_played[1]) * ((1.0 - score) - (1.0 - expected_a))
    return EloUpdate(before=(a, b), after=(new_a, new_b))


def score_for(winner: int | None) -> float:
    """Player 0's score for a result whose winner is 0, 1 or None (a draw)."""
    return 0.5 if winner is None else (1.0 if winner == 0 else 0.0)

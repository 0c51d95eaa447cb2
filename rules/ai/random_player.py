"""The random player: any legal move, but it never leaves a free claim on the table."""

from __future__ import annotations

import random

from rules.moves import Claim, Move


def choose(moves: list[Move], rng: random.Random) -> Move:
    if not moves:
        raise ValueError("no legal move: it is not this player's turn")
    claims = [m for m in moves if isinstance(m, Claim)]
    if claims:
        return min(claims, key=lambda m: m.stone)
    return moves[rng.randrange(len(moves))]

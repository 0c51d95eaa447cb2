"""Round robin: everyone meets everyone exactly once, by Berger tables.

Players are numbered 1..n in the order given (the caller passes them by seed); with an
odd number a phantom ``n + 1`` joins, and whoever meets it has the round's bye. In
round ``r`` (1-based) the table is the list ``A`` of players 1..n-1 turned by
``(r - 1) * n / 2`` places (``n`` even here): player ``n`` meets ``A[0]``, and ``A[k]``
meets ``A[n - 1 - k]``, ``A[k]`` moving first. Player ``n`` moves first in even rounds,
``A[0]`` in odd ones. For six players this prints FIDE's Berger table:

    round 1: 1-6 2-5 3-4      round 2: 6-4 5-3 1-2      round 3: 2-6 3-1 4-5
    round 4: 6-5 1-4 2-3      round 5: 3-6 4-2 5-1

A withdrawn entrant keeps their place in the table (the schedule never changes); their
remaining games become byes of their opponents (:func:`berger_round` with entrants).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournaments.model import Entrant, Pairing

__all__ = ["berger_round", "berger_table", "round_robin_rounds", "round_robin_schedule"]


def round_robin_rounds(players: int) -> int:
    """n - 1 rounds for an even n, n for an odd one (each player sits one out)."""
    if players < 2:
        return 0
    return players - 1 if players % 2 == 0 else players


def berger_table(size: int, round_no: int) -> list[tuple[int, int]]:
    """Round ``round_no`` (1-based) of the Berger table for ``size`` (even) numbers:
    (first, second) pairs of 1-based numbers, board by board."""
    if size < 2 or size % 2:
        raise ValueError("a Berger table needs an even size of at least 2")
    if not 1 <= round_no <= size - 1:
        raise ValueError(f"round {round_no} is not in 1..{size - 1}")
    ring = size - 1
    shift = (round_no - 1) * (size // 2)
    table = [(k + shift) % ring + 1 for k in range(ring)]
    boards = [(table[0], size) if round_no % 2 else (size, table[0])]
    boards += [(table[k], table[ring - k]) for k in range(1, size // 2)]
    return boards


def berger_round(players: Sequence[Entrant] | Sequence[int], round_no: int) -> list[Pairing]:
    """Round ``round_no`` of the round robin of ``players`` (in seed order): the boards,
    then the byes (the odd one out; the opponents of withdrawn entrants)."""
    ids = [p.user_id if isinstance(p, Entrant) else p for p in players]
    withdrawn = {p.user_id for p in players if isinstance(p, Entrant) and p.withdrawn}
    if len(set(ids)) != len(ids):
        raise ValueError("a player is listed twice")
    if len(ids) < 2:
        return []
    size = len(ids) + len(ids) % 2
    boards: list[Pairing] = []
    byes: list[Pairing] = []
    for a, b in berger_table(size, round_no):
        first = ids[a - 1] if a <= len(ids) else None
        second = ids[b - 1] if b <= len(ids) else None
        if first is None or second is None:
            sitting_out = second if first is None else first
            assert sitting_out is not None
            if sitting_out not in withdrawn:
                byes.append(Pairing(round_no, sitting_out, None))
        elif first in withdrawn or second in withdrawn:
            byes += [Pairing(round_no, p, None) for p in (first, second) if p not in withdrawn]
        else:
            boards.append(Pairing(round_no, first, second))
    return boards + byes


def round_robin_schedule(players: Sequence[Entrant] | Sequence[int]) -> list[list[Pairing]]:
    """Every round of the round robin, from round 1."""
    return [berger_round(players, r) for r in range(1, round_robin_rounds(len(players)) + 1)]

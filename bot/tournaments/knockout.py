"""Knockout: a seeded bracket, its rounds and its text.

Entrants are seeded by rating (higher first; then user id). The bracket has the next
power of two of places; the places left over are byes, and they go to the top seeds:
the standard order puts seed ``s`` against seed ``size + 1 - s`` in round 1, so with 6
players of 8 places seeds 1 and 2 meet the phantom seeds 8 and 7. Each tie is a match
of ``best_of`` games on the existing match machinery (the caller's); here a tie is a
:class:`~bot.tournaments.model.Pairing` (``white`` the higher seed, ``black`` None for a
bye) and its winner a user id. The pairings of a round are in bracket order: ties ``2k``
and ``2k + 1`` feed tie ``k`` of the next round.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from bot.tournaments.model import Entrant, Pairing

__all__ = ["BEST_OF", "bracket_order", "bracket_text", "next_knockout_round", "seed_bracket", "seeded"]

#: The lengths a knockout tie may have, in games.
BEST_OF = (1, 3, 5)
WIDTH = 40
_NAME = 15  # each name's room on a tie's line


def seeded(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The entrants by seed: rating, higher first, then user id."""
    return sorted(entrants, key=lambda e: (-e.rating, e.user_id))


def bracket_order(size: int) -> list[int]:
    """Seeds 1..size (a power of two) in bracket order: 1, size, ... so that neighbours
    in pairs meet in round 1 and the top two seeds can meet only in the final."""
    if size < 1 or size & (size - 1):
        raise ValueError("a bracket's size is a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def seed_bracket(entrants: Sequence[Entrant]) -> list[Pairing]:
    """Round 1 of the bracket of ``entrants`` (the withdrawn left out): the ties in bracket
    order, a bye (``black`` None) for each top seed without an opponent."""
    players = seeded([e for e in entrants if not e.withdrawn])
    if len(players) < 2:
        return [Pairing(1, p.user_id, None) for p in players]
    size = 1 << (len(players) - 1).bit_length()
    order = bracket_order(size)
    ties = []
    for k in range(0, size, 2):
        high, low = order[k], order[k + 1]  # high < low
        ties.append(
            Pairing(1, players[high - 1].user_id, players[low - 1].user_id if low <= len(players) else None)
        )
    return ties


def _winner(tie: Pairing, winners: Collection[int]) -> int:
    if tie.black is None:
        return tie.white
    won = [p for p in tie.players if p in winners]
    if len(won) != 1:
        raise ValueError(f"the tie {tie.white} - {tie.black} of round {tie.round} has no single winner")
    return won[0]


def next_knockout_round(
    entrants: Sequence[Entrant], ties: Sequence[Pairing], winners: Collection[int]
) -> list[Pairing]:
    """The next round after ``ties`` (one round, in bracket order) given the winners of its
    ties (a bye's player goes through); ``[]`` after the final. The higher seed of each
    new tie is ``white``."""
    if len(ties) <= 1:
        return []
    if len(ties) % 2:
        raise ValueError("a knockout round has an even number of ties")
    seed = {e.user_id: s for s, e in enumerate(seeded(entrants))}
    round_no = ties[0].round + 1
    through = [_winner(tie, winners) for tie in ties]
    out = []
    for a, b in zip(through[::2], through[1::2], strict=True):
        high, low = (a, b) if seed.get(a, len(seed)) <= seed.get(b, len(seed)) else (b, a)
        out.append(Pairing(round_no, high, low))
    return out


def _fit(name: str, width: int) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def bracket_text(
    rounds: Sequence[Sequence[Pairing]],
    names: Mapping[int, str],
    *,
    scores: Mapping[tuple[int, int], tuple[int, int]] | None = None,
    champion: int | None = None,
    titles: Sequence[str] | None = None,
    bye: str = "bye",
) -> list[str]:
    """The bracket as lines of at most 40 characters, round by round: a title line (from
    ``titles``, else ``R1``, ``R2``, ...), then a line per tie: ``*`` before the player who
    went through (found in the next round; the last round's: ``champion``), the names
    (taken as given: escape them for markdown first; each cut to 15 characters) and the
    score in games, from ``scores`` by (round, white) as (white's wins, black's wins).
    ``bye`` is the word a bye shows."""
    scores = scores or {}
    lines: list[str] = []
    for index, ties in enumerate(rounds):
        if index + 1 < len(rounds):
            winners = {p for tie in rounds[index + 1] for p in tie.players}
        else:
            winners = {champion} if champion is not None else set()
        title = titles[index] if titles is not None and index < len(titles) else f"R{index + 1}"
        lines.append(_fit(title, WIDTH))
        for tie in ties:
            white = _fit(names.get(tie.white, str(tie.white)), _NAME)
            w_mark = "*" if tie.white in winners or tie.black is None else " "
            if tie.black is None:
                lines.append(_fit(f"{w_mark}{white:<{_NAME}}  {bye}", WIDTH))
                continue
            black = _fit(names.get(tie.black, str(tie.black)), _NAME)
            b_mark = "*" if tie.black in winners else " "
            score = scores.get((tie.round, tie.white))
            middle = f"{score[0]}-{score[1]}" if score is not None else "-"
            lines.append(f"{w_mark}{white:<{_NAME}} {middle:^5} {b_mark}{black}".rstrip())
    return lines

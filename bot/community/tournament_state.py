"""A tournament's state as stored, read for what shows it: the standings message
(``cogs/tournaments.py``), the service's rounds and the web ladder
(``bot/web/tournaments.py``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.storage import EntrantRow, MatchRow, PairingRow, TournamentRow, TournamentStore
from bot.tournaments import Entrant, GameResult, Pairing
from rules.values import parse_reason


@dataclass(frozen=True)
class TournamentState:
    """A tournament as its messages show it."""

    row: TournamentRow
    entrants: list[EntrantRow]
    pairings: list[PairingRow]
    results: list[GameResult]

    def core_entrants(self) -> list[Entrant]:
        return [Entrant(e.user_id, e.rating, e.status != "in") for e in self.entrants]

    def byes(self) -> list[Pairing]:
        """The byes and walkovers given so far, as byes of the player who went through."""
        out = []
        for p in self.pairings:
            if p.done and p.game_id is None and p.match_id is None and p.winner_id is not None:
                out.append(Pairing(p.round, p.winner_id, None))
        return out


async def read_state(store: TournamentStore, row: TournamentRow) -> TournamentState:
    """``row``'s tournament as stored: its entrants, pairings and finished games (what
    the standings message and the web ladder show)."""
    games = await store.games(row.id)
    results = [
        GameResult(
            g.round,
            g.first,
            g.second,
            g.winner_id,
            g.first_stones,
            g.second_stones,
            parse_reason(g.reason),
        )
        for g in games
    ]
    return TournamentState(row, await store.entrants(row.id), await store.pairings(row.id), results)


@dataclass(frozen=True)
class Bracket:
    """A knockout as :func:`bracket_text` takes it: the ties round by round, the games
    won in each best-of tie by (round, white) as (white's, black's), and the champion."""

    rounds: list[list[Pairing]]
    scores: dict[tuple[int, int], tuple[int, int]]
    champion: int | None


async def read_bracket(
    state: TournamentState, get_match: Callable[[int], Awaitable[MatchRow | None]]
) -> Bracket:
    """The knockout ``state`` as a :class:`Bracket`; ``get_match`` reads a tie's match."""
    rounds: dict[int, list[Pairing]] = {}
    scores: dict[tuple[int, int], tuple[int, int]] = {}
    for p in state.pairings:
        rounds.setdefault(p.round, []).append(Pairing(p.round, p.white, p.black))
        if p.match_id is not None:
            match = await get_match(p.match_id)
            if match is not None:
                a, b = match.scores
                scores[(p.round, p.white)] = (a, b) if match.players[0] == p.white else (b, a)
    champion = None
    if state.row.status == "finished" and state.pairings:
        champion = state.pairings[-1].winner_id
    return Bracket([rounds[r] for r in sorted(rounds)], scores, champion)


__all__ = ["Bracket", "TournamentState", "read_bracket", "read_state"]

"""Which tournament a game is played for, as its board, DMs and result show it.

A game's tournament and round never change once the game exists (its pairing is
stored in the transaction that creates it), so they are kept per game in a small LRU;
the tournament's row is read each time, because its status does change: the games of
a cancelled tournament go on as casual games and lose their label (and get a Rematch
button at the end, like any casual game). A game of no
tournament costs one indexed read, once per process.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.live import LiveGame
from bot.games.lru import LRU
from bot.storage import TournamentRow, TournamentStore

GAMES_KEPT = 2048


@dataclass(frozen=True)
class GameLabel:
    """A tournament's game: the tournament (running or finished) and its round."""

    tournament: TournamentRow
    round: int


class TournamentLabels:
    def __init__(self, store: TournamentStore) -> None:
        self._store = store
        # game id -> (tournament id, round), or 0 for a game of no tournament
        self._games: LRU[int, tuple[int, int] | int] = LRU(GAMES_KEPT)

    async def label(self, record: LiveGame) -> GameLabel | None:
        """The tournament ``record`` is played for, None for a casual game (a cancelled
        tournament's game included)."""
        known = self._games.get(record.id)
        if known is None:
            pairing = await self._store.pairing_of(game_id=record.id, match_id=record.match_id)
            known = 0 if pairing is None else (pairing.tournament_id, pairing.round)
            self._games.put(record.id, known)
        if isinstance(known, int):
            return None
        row = await self._store.get(known[0])
        if row is None or row.status in ("open", "cancelled"):
            return None
        return GameLabel(row, known[1])


__all__ = ["GameLabel", "TournamentLabels"]

"""Tournaments, the pure core: the formats' pairings, standings and brackets.

No I/O, no asyncio, no Discord: values in, values out (``docs/tournaments.md``). The
storage, the services and the commands are built on top of these functions.

- :mod:`.model`: the value types (:class:`Entrant`, :class:`Pairing`, :class:`GameResult`,
  :class:`History`) and the time-out withdrawal rule;
- :mod:`.swiss`: :func:`pair_swiss`, a Swiss round as a maximum-weight matching;
- :mod:`.round_robin`: Berger tables;
- :mod:`.knockout`: the seeded bracket, its next round and its text;
- :mod:`.standings`: points and tie-breaks, and their lines of text.
"""

from __future__ import annotations

from bot.tournaments.knockout import bracket_text, next_knockout_round, seed_bracket
from bot.tournaments.model import (
    FORMATS,
    Entrant,
    Format,
    GameResult,
    History,
    Pairing,
    withdrawn_for_timeouts,
)
from bot.tournaments.round_robin import berger_round, round_robin_schedule
from bot.tournaments.standings import Standing, standings, standings_lines
from bot.tournaments.swiss import default_swiss_rounds, pair_swiss

__all__ = [
    "FORMATS",
    "Entrant",
    "Format",
    "GameResult",
    "History",
    "Pairing",
    "Standing",
    "berger_round",
    "bracket_text",
    "default_swiss_rounds",
    "next_knockout_round",
    "pair_swiss",
    "round_robin_schedule",
    "seed_bracket",
    "standings",
    "standings_lines",
    "withdrawn_for_timeouts",
]

"""The server's tournaments on the ladder page: the data of the Discord standings
message (``cogs/tournaments.py``), for ``pages.tournaments_section``."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.community.tournament_state import TournamentState, read_bracket, read_state
from bot.storage import MatchRow, TournamentRow, TournamentStore
from bot.text.catalogue import t
from bot.tournaments import bracket_text, standings
from bot.tournaments.standings import Order, format_points
from bot.web import pages
from bot.web.now_playing import InPlay

LADDER_TOURNAMENTS = 10  # the newest tournaments a ladder shows

MatchReader = Callable[[int], Awaitable[MatchRow | None]]  # a knockout tie's match


class Names(Protocol):
    async def name(self, user_id: int, guild_id: int | None = None) -> str: ...


async def tournament_views(
    store: TournamentStore | None,
    matches: MatchReader | None,
    names: Names,
    guild_id: int,
    watching: InPlay | None = None,
) -> list[pages.TournamentView]:
    """The server's newest tournaments as the ladder shows them: the data of the
    Discord standings message (``cogs.tournament_standings.standings_text``), as HTML's."""
    if store is None:
        return []
    rows = await store.of_guild(guild_id, ("open", "running", "finished"))
    shown = []
    for row in rows[:LADDER_TOURNAMENTS]:
        state = await read_state(store, row) if row.status != "open" else None
        shown.append(await _tournament(matches, names, row.guild_id, state, row, watching or InPlay()))
    return shown


async def _tournament(
    matches: MatchReader | None,
    names_of: Names,
    guild_id: int,
    state: TournamentState | None,
    row: TournamentRow,
    watching: InPlay,
) -> pages.TournamentView:
    status = t("web.running") if row.status == "running" else t(f"tournament.status.{row.status}")
    round_text = "–" if row.status == "open" else f"{row.round} / {row.rounds or '?'}"
    view = pages.TournamentView(
        id=row.id,
        name=row.name,
        format=t(f"tournament.format.{row.format}"),
        round=round_text,
        status=status,
        standings=[],
        bracket=[],
        pairings_round=row.round,
        pairings=[],
        round_robin=row.format == "round-robin",
    )
    if state is None:
        return view
    ids = [entrant.user_id for entrant in state.entrants]
    ids += [p for pairing in state.pairings for p in (pairing.white, pairing.black) if p is not None]
    names = {user_id: await names_of.name(user_id, guild_id) for user_id in dict.fromkeys(ids)}
    standing_rows: list[pages.StandingRow] = []
    bracket: list[str] = []
    scores: dict[tuple[int, int], tuple[int, int]] = {}
    if row.format == "knockout":
        if matches is not None:
            shape = await read_bracket(state, matches)
            scores = shape.scores
            bracket = bracket_text(
                shape.rounds,
                names,
                scores=scores,
                champion=shape.champion,
                titles=[t("web.round_title", round=n + 1) for n in range(len(shape.rounds))],
                bye=t("tournament.bye"),
            )
    else:
        order: Order = "round-robin" if row.format == "round-robin" else "swiss"
        for standing in standings(state.core_entrants(), state.results, state.byes(), order=order):
            standing_rows.append(
                pages.StandingRow(
                    rank=standing.rank,
                    name=names.get(standing.user_id, f"#{standing.user_id}"),
                    points=format_points(standing.points),
                    tiebreak=format_points(
                        standing.direct if order == "round-robin" else standing.buchholz_cut1
                    ),
                    sonneborn=format_points(standing.sonneborn_berger),
                    stones=standing.stones,
                    withdrawn=standing.withdrawn,
                )
            )
    lines = []
    for pairing in state.pairings:
        if pairing.round != row.round:
            continue
        if pairing.black is None:
            result = ""
        elif not pairing.done:
            result = t("web.in_play")
        elif (pairing.round, pairing.white) in scores:
            won, lost = scores[(pairing.round, pairing.white)]
            result = f"{won}-{lost}"
        elif pairing.winner_id is None:
            result = "½-½"
        else:
            result = "1-0" if pairing.winner_id == pairing.white else "0-1"
        watch = None
        if not pairing.done and pairing.black is not None:
            if pairing.game_id is not None:
                watch = watching.by_game.get(pairing.game_id)
            elif pairing.match_id is not None:
                watch = watching.by_match.get(pairing.match_id)
        lines.append(
            pages.PairingLine(
                board=pairing.board,
                white=names.get(pairing.white, f"#{pairing.white}"),
                black=None if pairing.black is None else names.get(pairing.black, f"#{pairing.black}"),
                result=result,
                watch=watch,
            )
        )
    return dataclasses.replace(view, standings=standing_rows, bracket=bracket, pairings=lines)

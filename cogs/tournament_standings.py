"""A tournament's standings (or bracket) and podium, as the channel and the standings
command show them, and the words they share with the sign-up and the rounds.

The standings count the rounds that are over (``after round N``; ``final`` once the
tournament is); a new standings message is posted after each round and the previous
one is edited to point at it, so the latest is at the bottom of the channel. Places
are shared by players equal on every column; a removed (kicked) player is marked and
never on the podium. Every name a member typed is escaped here.
"""

from __future__ import annotations

import logging

import discord

from bot.app import SchottenBot
from bot.community.tournaments import TournamentState, read_bracket
from bot.storage import TournamentRow
from bot.text import i18n
from bot.text.catalogue import t
from bot.tournaments import GameResult, Pairing, bracket_text, standings, standings_lines
from bot.tournaments.standings import Order, Standing
from cogs.table.messages import duration
from cogs.ui.replies import MAX_MESSAGE, NO_MENTIONS

log = logging.getLogger(__name__)

MEDALS = ("🥇", "🥈", "🥉")


def escaped(text: str) -> str:
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def title(row: TournamentRow) -> str:
    return t(
        "tournament.title", id=row.id, name=escaped(row.name), format=t(f"tournament.format.{row.format}")
    )


async def names_of(bot: SchottenBot, guild_id: int, user_ids: list[int]) -> dict[int, str]:
    return {user_id: await bot.names.name(user_id, guild_id) for user_id in user_ids}


def fit(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def rounds_over(state: TournamentState) -> int:
    """How many rounds are over: all of them once finished, else those whose every
    pairing is decided."""
    row = state.row
    if row.status == "finished":
        return row.round
    current = [p for p in state.pairings if p.round == row.round]
    return row.round if current and all(p.done for p in current) else max(0, row.round - 1)


def _order(row: TournamentRow) -> Order:
    return "round-robin" if row.format == "round-robin" else "swiss"


def ranked(state: TournamentState, up_to: int | None = None) -> list[Standing]:
    """The standings after round ``up_to`` (default: every game stored)."""
    results: list[GameResult] = [r for r in state.results if up_to is None or r.round <= up_to]
    byes: list[Pairing] = [b for b in state.byes() if up_to is None or b.round <= up_to]
    return standings(state.core_entrants(), results, byes, order=_order(state.row))


def _kicked(state: TournamentState) -> set[int]:
    return {e.user_id for e in state.entrants if e.status == "kicked"}


async def standings_text(bot: SchottenBot, state: TournamentState) -> str:
    """The standings (or the bracket) after the rounds that are over, with a legend."""
    row = state.row
    done = rounds_over(state)
    final = row.status == "finished"
    ids = [e.user_id for e in state.entrants]
    raw = await names_of(bot, row.guild_id, ids)
    names = {user_id: name.replace("`", "'") for user_id, name in raw.items()}
    if row.format == "knockout":
        bracket = await read_bracket(state, bot.matches.get)
        lines = bracket_text(
            bracket.rounds, names, scores=bracket.scores, champion=bracket.champion, bye=t("tournament.bye")
        )
        kind = "bracket"
    else:
        order = _order(row)
        lines = standings_lines(
            ranked(state, done),
            names,
            labels=(
                t("tournament.col.points"),
                t("tournament.col.direct" if order == "round-robin" else "tournament.col.buchholz"),
                t("tournament.col.sb"),
                t("tournament.col.stones"),
            ),
            removed=_kicked(state),
            order=order,
        )
        kind = "standings"
    if final:
        head = t(f"tournament.{kind}_final", title=title(row))
    elif done:
        head = t(f"tournament.{kind}_after", title=title(row), round=done)
    else:
        head = t(f"tournament.{kind}_none", title=title(row))
    body = "\n".join(lines) or t("tournament.nobody")
    legend = t(f"tournament.legend.{row.format}")
    return fit(f"{head}\n```\n{body}\n```\n-# {legend}")


def _link(row: TournamentRow, message_id: int) -> str:
    return f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{message_id}"


async def post_standings(bot: SchottenBot, tournament_id: int) -> None:
    """Post the standings anew (after a round, or the final ones) and edit the previous
    standings message to point at the new one."""
    state = await bot.tournaments.state(tournament_id)
    row = state.row
    channel = bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    with i18n.use(await bot.languages.for_guild(row.guild_id)):
        text = await standings_text(bot, state)
    message = await channel.send(text, allowed_mentions=NO_MENTIONS)
    await bot.tournaments.set_message(row.id, "standings", message.id)
    previous = row.standings_message_id
    if previous is None or previous == message.id:
        return
    with i18n.use(await bot.languages.for_guild(row.guild_id)):
        pointer = t("tournament.standings_moved", title=title(row), link=_link(row, message.id))
    try:
        await channel.get_partial_message(previous).edit(content=pointer, allowed_mentions=NO_MENTIONS)
    except discord.HTTPException:
        log.info("could not point the old standings of tournament %s at the new ones", row.id)


def podium_places(state: TournamentState) -> list[list[int]]:
    """The podium, place by place (each a list: places are shared), kicked players left
    out. A knockout: the champion, the finalist, then both semi-final losers sharing
    third; otherwise the final standings' first three places."""
    row = state.row
    kicked = _kicked(state)
    places: list[list[int]] = []
    if row.format == "knockout":
        final = [p for p in state.pairings if p.round == row.round]
        if final and final[0].winner_id is not None:
            champion = final[0].winner_id
            places = [[champion], [p for p in (final[0].white, final[0].black) if p not in (None, champion)]]
            semis = [p for p in state.pairings if p.round == row.round - 1 and p.black is not None]
            places.append([p for s in semis for p in (s.white, s.black) if p not in (None, s.winner_id)])
    else:
        by_rank: dict[int, list[int]] = {}
        for standing in ranked(state):
            if standing.user_id not in kicked:
                by_rank.setdefault(standing.rank, []).append(standing.user_id)
        # Renumber without the kicked: places follow on, shared ones count for each player.
        place = 1
        for rank in sorted(by_rank):
            if place > len(MEDALS):
                break
            places.append(by_rank[rank])
            place += len(by_rank[rank])
        return places
    return [[p for p in group if p not in kicked and p is not None] for group in places]


async def announce_podium(bot: SchottenBot, tournament_id: int) -> None:
    state = await bot.tournaments.state(tournament_id)
    row = state.row
    places = podium_places(state)
    ids = [p for group in places for p in group]
    names = {i: escaped(n) for i, n in (await names_of(bot, row.guild_id, ids)).items()}
    channel = bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    with i18n.use(await bot.languages.for_guild(row.guild_id)):
        lines = [t("tournament.podium", title=title(row))]
        place = 0
        for group in places:
            if group and place < len(MEDALS):
                lines.append(f"{MEDALS[place]} {', '.join(names[p] for p in group)}")
            place += max(1, len(group)) if row.format != "knockout" else 1
    await channel.send(fit("\n".join(lines)), allowed_mentions=NO_MENTIONS)


__all__ = [
    "announce_podium",
    "duration",
    "escaped",
    "fit",
    "names_of",
    "podium_places",
    "post_standings",
    "ranked",
    "rounds_over",
    "standings_text",
    "title",
]

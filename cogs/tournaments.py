"""Tournaments on Discord: the sign-up message and its Join and Leave buttons, the
rounds' announcements, the standings message kept up to date and the podium.

The ``/schotten tournament ...`` commands (:mod:`cogs.schotten`) call the functions
here; the stored state is :class:`bot.community.tournaments.TournamentService`'s. After
every game that ends, :func:`after_game` (a hook of the publisher) advances the game's
tournament: the caller that creates the next round announces it and starts its games
like a challenge's (the board mentioning the player to move, the hands in DMs); the
timers' round (:func:`advance_due`) does the same for what a crash left. Every name a
member typed (the tournament's, display names) is escaped here; messages mention
nobody but the players whose games start.
"""

from __future__ import annotations

import logging
import re
from typing import Self

import discord

from bot.app import SchottenBot
from bot.community.tournaments import Advance, TournamentState, read_bracket
from bot.games.errors import ServiceError
from bot.games.live import LiveGame
from bot.storage import TournamentRow
from bot.text import i18n
from bot.text.catalogue import t
from bot.tournaments import bracket_text, standings, standings_lines
from cogs.table.requests import Publishing, publishing
from cogs.ui import Interaction
from cogs.ui.components import Button, Component, buttons
from cogs.ui.replies import (
    MAX_MESSAGE,
    NO_MENTIONS,
    answer,
    answer_public,
    defer_early,
    defer_public,
    public_language,
)
from rules.game import GameOptions

log = logging.getLogger(__name__)

MAX_LISTED = 40  # entrants named on the sign-up message


def escaped(text: str) -> str:
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def title(row: TournamentRow) -> str:
    return t(
        "tournament.title", id=row.id, name=escaped(row.name), format=t(f"tournament.format.{row.format}")
    )


async def _names(bot: SchottenBot, guild_id: int, user_ids: list[int]) -> dict[int, str]:
    return {user_id: await bot.names.name(user_id, guild_id) for user_id in user_ids}


def _fit(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


# ---------------------------------------------------------------- sign-up


async def signup_text(bot: SchottenBot, state: TournamentState) -> str:
    row = state.row
    players = [e.user_id for e in state.entrants if e.status == "in"]
    names = await _names(bot, row.guild_id, players[:MAX_LISTED])
    listed = ", ".join(escaped(names[p]) for p in players[:MAX_LISTED]) or t("tournament.nobody")
    if len(players) > MAX_LISTED:
        listed += t("tournament.more", count=len(players) - MAX_LISTED)
    details = t(
        "tournament.details",
        organiser=f"<@{row.organiser_id}>",
        turn_time=int(row.turn_time // 60),
    )
    if row.format == "knockout":
        details += t("tournament.best_of", best_of=row.best_of)
    if row.format == "swiss" and row.rounds:
        details += t("tournament.rounds", rounds=row.rounds)
    key = "tournament.signup" if row.status == "open" else f"tournament.signup_{row.status}"
    return _fit(
        t(key, title=title(row), details=details, count=len(players), players=listed)
        + (t("tournament.max", limit=row.max_players) if row.max_players and row.status == "open" else "")
    )


def signup_view(tournament_id: int, *, disabled: bool = False) -> discord.ui.View:
    return buttons(
        SignupButton(tournament_id, True, disabled=disabled),
        SignupButton(tournament_id, False, disabled=disabled),
    )


async def refresh_signup(bot: SchottenBot, tournament_id: int) -> None:
    state = await bot.tournaments.state(tournament_id)
    row = state.row
    if row.signup_message_id is None:
        return
    channel = bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    with i18n.use(await bot.languages.for_guild(row.guild_id)):
        text, view = await signup_text(bot, state), signup_view(row.id, disabled=row.status != "open")
    try:
        await channel.get_partial_message(row.signup_message_id).edit(
            content=text, view=view, allowed_mentions=NO_MENTIONS
        )
    except discord.HTTPException:
        log.info("could not update the sign-up of tournament %s", row.id)


class SignupButton(Component[Button], template=r"st:tour:(?P<id>\d+):(?P<what>join|leave)"):
    """Join or Leave under a tournament's sign-up message."""

    def __init__(self, tournament_id: int, join: bool, *, disabled: bool = False) -> None:
        self.tournament_id, self.join = tournament_id, join
        what = "join" if join else "leave"
        super().__init__(
            discord.ui.Button(
                label=t(f"tournament.{what}"),
                style=discord.ButtonStyle.success if join else discord.ButtonStyle.secondary,
                custom_id=f"st:tour:{tournament_id}:{what}",
                disabled=disabled,
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["id"]), match["what"] == "join")

    async def run(self, interaction: Interaction) -> None:
        bot = interaction.client
        bot.names.remember(interaction.user)
        await defer_early(interaction)  # before the database: answered within 3 s
        if self.join:
            row = await bot.tournaments.join(self.tournament_id, interaction.user.id)
            reply = t("tournament.joined", name=escaped(row.name))
        else:
            await leave(interaction, self.tournament_id, exact=True)
            return
        await answer(interaction, reply)
        await refresh_signup(bot, self.tournament_id)


# ---------------------------------------------------------------- commands


async def create(
    interaction: Interaction,
    *,
    name: str,
    format: str,
    rounds: int | None,
    best_of: int | None,
    options: GameOptions,
    turn_time: float | None,
    max_players: int | None,
) -> None:
    bot = interaction.client
    if interaction.guild_id is None or interaction.channel_id is None:
        raise ServiceError("tournament_guild_only")
    perms = interaction.permissions
    if not (perms.manage_guild or perms.manage_events):
        raise ServiceError("tournament_permission")
    # Before the database: answered within 3 s (a refusal found in it is then public).
    await defer_public(interaction)
    row = await bot.tournaments.create(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        organiser_id=interaction.user.id,
        name=name,
        format=format,
        rounds=rounds,
        best_of=best_of,
        options=options,
        turn_time=turn_time,
        max_players=max_players,
    )
    bot.names.remember(interaction.user)
    state = await bot.tournaments.state(row.id)
    with i18n.use(await public_language(interaction)):
        text, view = await signup_text(bot, state), signup_view(row.id)
    message = await answer_public(interaction, text, view=view)
    await bot.tournaments.set_message(row.id, "signup", message.id)


def _manager(interaction: Interaction) -> bool:
    return bool(interaction.permissions.manage_guild)


async def start(interaction: Interaction, tournament: int | None) -> None:
    bot = interaction.client
    publisher = publishing(bot)
    await defer_early(interaction)  # before the database: answered within 3 s
    row = await bot.tournaments.find(interaction.guild_id, interaction.channel_id, tournament)
    made = await bot.tournaments.start(row.id, interaction.user.id, manager=_manager(interaction))
    await answer(interaction, t("tournament.started", name=escaped(row.name)))
    await refresh_signup(bot, row.id)
    await show_rounds(bot, publisher, [made])
    for more in await bot.tournaments.advance(row.id):  # a round of byes only, say
        await show_rounds(bot, publisher, [more])


async def leave(
    interaction: Interaction, tournament: int | None, *, member: int | None = None, exact: bool = False
) -> None:
    """Leave (or, with ``member``, kick) the tournament; games in progress are resigned.
    ``exact``: ``tournament`` is the id of a Leave button's own tournament."""
    bot = interaction.client
    await defer_early(interaction)  # before the database: answered within 3 s
    if exact and tournament is not None:
        row = await bot.tournaments.get(tournament)
    else:
        row = await bot.tournaments.find(interaction.guild_id, interaction.channel_id, tournament)
    if member is None:
        gone = await bot.tournaments.leave(row.id, interaction.user.id)
        text = t("tournament.left", name=escaped(row.name))
    else:
        gone = await bot.tournaments.kick(row.id, member, interaction.user.id, manager=_manager(interaction))
        text = t("tournament.kicked", name=escaped(row.name), member=f"<@{member}>")
    for game_id in gone.games:
        try:
            outcome = await bot.service.resign(game_id, gone.user_id)
        except ServiceError:
            continue  # ended meanwhile
        await publishing(bot).publish(outcome)
    await answer(interaction, text)
    if gone.before_start:
        await refresh_signup(bot, row.id)
    else:
        await after_tournament_change(bot, publishing(bot), row.id)


async def cancel(interaction: Interaction, tournament: int | None) -> None:
    bot = interaction.client
    await defer_early(interaction)  # before the database: answered within 3 s
    row = await bot.tournaments.find(interaction.guild_id, interaction.channel_id, tournament)
    row = await bot.tournaments.cancel(row.id, interaction.user.id, manager=_manager(interaction))
    await answer(interaction, t("tournament.cancelled", name=escaped(row.name)))
    await refresh_signup(bot, row.id)
    channel = bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    with i18n.use(await bot.languages.for_guild(row.guild_id)):
        text = t("tournament.cancelled_public", title=title(row))
    await channel.send(text, allowed_mentions=NO_MENTIONS)


async def standings_command(interaction: Interaction, tournament: int | None) -> None:
    bot = interaction.client
    await defer_early(interaction)  # before the database: answered within 3 s
    row = await bot.tournaments.find(interaction.guild_id, interaction.channel_id, tournament)
    with i18n.use(await public_language(interaction)):
        text = await standings_text(bot, await bot.tournaments.state(row.id))
    await answer(interaction, text)


async def list_command(interaction: Interaction) -> None:
    bot = interaction.client
    if interaction.guild_id is None:
        raise ServiceError("tournament_guild_only")
    await defer_early(interaction)  # before the database: answered within 3 s
    rows = await bot.tournaments.of_guild(interaction.guild_id)
    if not rows:
        await answer(interaction, t("tournament.list_none"))
        return
    lines = [t("tournament.list_header")]
    for row in rows[:25]:
        state = t(f"tournament.status.{row.status}", round=row.round, rounds=row.rounds or "?")
        lines.append(t("tournament.list_line", title=title(row), state=state, channel=f"<#{row.channel_id}>"))
    await answer(interaction, _fit("\n".join(lines)))


# ---------------------------------------------------------------- rounds


async def standings_text(bot: SchottenBot, state: TournamentState) -> str:
    row = state.row
    ids = [e.user_id for e in state.entrants]
    raw = await _names(bot, row.guild_id, ids)
    names = {user_id: name.replace("`", "'") for user_id, name in raw.items()}
    if row.format == "knockout":
        bracket = await read_bracket(state, bot.matches.get)
        lines = bracket_text(
            bracket.rounds,
            names,
            scores=bracket.scores,
            champion=bracket.champion,
            bye=t("tournament.bye"),
        )
    else:
        rows = standings(state.core_entrants(), state.results, state.byes())
        lines = standings_lines(
            rows, names, labels=(t("tournament.col.points"), "BH", "SB", t("tournament.col.stones"))
        )
    head = t("tournament.standings", title=title(row), round=row.round, rounds=row.rounds or "?")
    body = "\n".join(lines) or t("tournament.nobody")
    return _fit(f"{head}\n```\n{body}\n```")


async def refresh_standings(bot: SchottenBot, tournament_id: int) -> None:
    """Edit the standings message (post it if there is none yet)."""
    state = await bot.tournaments.state(tournament_id)
    row = state.row
    channel = bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    with i18n.use(await bot.languages.for_guild(row.guild_id)):
        text = await standings_text(bot, state)
    if row.standings_message_id is not None:
        try:
            await channel.get_partial_message(row.standings_message_id).edit(
                content=text, allowed_mentions=NO_MENTIONS
            )
            return
        except discord.NotFound:
            pass
        except discord.HTTPException:
            log.info("could not update the standings of tournament %s", row.id)
            return
    message = await channel.send(text, allowed_mentions=NO_MENTIONS)
    await bot.tournaments.set_message(row.id, "standings", message.id)


async def show_rounds(bot: SchottenBot, publisher: Publishing, made: list[Advance]) -> None:
    """Announce what :meth:`advance` created (this caller's only): a round's pairings,
    pinging the players whose games start, then the games; or the podium."""
    for step in made:
        row = step.tournament
        channel = bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        ids = sorted(
            {p for pairing in step.pairings for p in (pairing.white, pairing.black) if p is not None}
        )
        if step.finished:
            await refresh_standings(bot, row.id)
            await announce_podium(bot, row.id)
            continue
        names = {i: escaped(n) for i, n in (await _names(bot, row.guild_id, ids)).items()}
        playing = {p for g in step.games for p in g.players}
        with i18n.use(await bot.languages.for_guild(row.guild_id)):
            lines = [t("tournament.round", title=title(row), round=step.round, rounds=row.rounds or "?")]
            by_players = {g.players: g.id for g in step.games}
            for pairing in step.pairings:
                if pairing.black is None:
                    lines.append(t("tournament.round_bye", player=names[pairing.white]))
                elif (pairing.white, pairing.black) in by_players:
                    lines.append(
                        t(
                            "tournament.round_game",
                            white=f"<@{pairing.white}>",
                            black=f"<@{pairing.black}>",
                            game_id=by_players[(pairing.white, pairing.black)],
                        )
                    )
                else:
                    winner = pairing.winner_id or pairing.white
                    lines.append(t("tournament.round_walkover", player=names[winner]))
        await channel.send(
            _fit("\n".join(lines)),
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(p) for p in sorted(playing)], roles=False, everyone=False
            ),
        )
        for record in step.games:
            try:
                await publisher.start(record, announced=True)  # pinged just above
            except Exception:
                log.exception(
                    "starting game %d of tournament %d failed (the outbox retries)", record.id, row.id
                )
        await refresh_standings(bot, row.id)


async def announce_podium(bot: SchottenBot, tournament_id: int) -> None:
    state = await bot.tournaments.state(tournament_id)
    row = state.row
    if row.format == "knockout":
        final = [p for p in state.pairings if p.round == row.round]
        top: list[int] = []
        if final and final[0].winner_id is not None:
            top = [final[0].winner_id]
            top += [p for p in (final[0].white, final[0].black) if p is not None and p not in top]
    else:
        top = [s.user_id for s in standings(state.core_entrants(), state.results, state.byes())][:3]
    names = {i: escaped(n) for i, n in (await _names(bot, row.guild_id, top)).items()}
    channel = bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    with i18n.use(await bot.languages.for_guild(row.guild_id)):
        medals = ["🥇", "🥈", "🥉"]
        lines = [t("tournament.podium", title=title(row))]
        lines += [f"{medals[i]} {names[user_id]}" for i, user_id in enumerate(top)]
    await channel.send("\n".join(lines), allowed_mentions=NO_MENTIONS)


async def after_tournament_change(bot: SchottenBot, publisher: Publishing, tournament_id: int) -> None:
    made = await bot.tournaments.advance(tournament_id)
    if made:
        await show_rounds(bot, publisher, made)
    else:
        await refresh_standings(bot, tournament_id)


async def after_game(bot: SchottenBot, publisher: Publishing, record: LiveGame) -> None:
    """A game ended (and was published): advance its tournament, if it has one."""
    tournament_id = await bot.tournaments.tournament_of(record)
    if tournament_id is not None:
        await after_tournament_change(bot, publisher, tournament_id)


async def advance_due(bot: SchottenBot, publisher: Publishing) -> None:
    """The timers' round: every running tournament whose round is over moves on."""
    await show_rounds(bot, publisher, await bot.tournaments.advance_due())


__all__ = [
    "SignupButton",
    "advance_due",
    "after_game",
    "cancel",
    "create",
    "leave",
    "list_command",
    "signup_text",
    "standings_command",
    "standings_text",
    "start",
]

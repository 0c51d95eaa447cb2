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
from discord import app_commands

from bot.app import SchottenBot
from bot.community.tournaments import Advance, TournamentState
from bot.games.errors import ServiceError
from bot.games.live import LiveGame
from bot.storage import DatabaseUnavailable, TournamentRow
from bot.text import i18n
from bot.text.catalogue import t
from cogs.table.requests import Publishing, publishing
from cogs.tournament_standings import (
    announce_podium,
    duration,
    escaped,
    fit,
    names_of,
    post_standings,
    standings_text,
    title,
)
from cogs.ui import Interaction
from cogs.ui.checks import require_own_subject
from cogs.ui.components import Button, Component, buttons
from cogs.ui.replies import (
    MAX_MESSAGE,
    NO_MENTIONS,
    answer,
    answer_public,
    committed,
    defer_early,
    defer_public,
    public_language,
)
from rules.game import GameOptions, GivingUp

log = logging.getLogger(__name__)

MAX_LISTED = 40  # entrants named on the sign-up message
MAX_CHOICES = 25  # Discord's limit on autocomplete choices


# ---------------------------------------------------------------- sign-up


async def signup_text(bot: SchottenBot, state: TournamentState) -> str:
    """The sign-up message: open, then closed (running), over or cancelled; after the
    start the players who withdrew or were removed are marked."""
    row = state.row
    shown = [e for e in state.entrants if e.status == "in" or row.status != "open"]
    listed_ids = [e.user_id for e in shown[:MAX_LISTED]]
    names = await names_of(bot, row.guild_id, listed_ids)
    marks = {
        "in": "tournament.player",
        "withdrawn": "tournament.player_withdrawn",
        "kicked": "tournament.player_kicked",
    }
    listed = ", ".join(t(marks[e.status], name=escaped(names[e.user_id])) for e in shown[:MAX_LISTED])
    listed = listed or t("tournament.nobody")
    if len(shown) > MAX_LISTED:
        listed += t("tournament.more", count=len(shown) - MAX_LISTED)
    details = t("tournament.details", organiser=f"<@{row.organiser_id}>", turn_time=duration(row.turn_time))
    if row.format == "knockout":
        details += t("tournament.best_of", best_of=row.best_of)
    if row.rounds and (row.format == "swiss" or row.status != "open"):
        details += t("tournament.rounds", rounds=row.rounds)
    key = "tournament.signup" if row.status == "open" else f"tournament.signup_{row.status}"
    return fit(
        t(key, title=title(row), details=details, count=len(shown), players=listed)
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
        await require_own_subject(interaction)  # only on its own tournament's sign-up
        if self.join:
            row = await bot.tournaments.join(self.tournament_id, interaction.user.id)
            reply = t("tournament.joined", title=title(row))
            committed(interaction, f"{reply} {t('saved.not_shown')}")
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
    committed(interaction, t("saved.tournament", name=escaped(row.name), id=row.id))
    bot.names.remember(interaction.user)
    state = await bot.tournaments.state(row.id)
    with i18n.use(await public_language(interaction)):
        text, view = await signup_text(bot, state), signup_view(row.id)
    message = await answer_public(interaction, text, view=view)
    await bot.tournaments.set_message(row.id, "signup", message.id)


def _manager(interaction: Interaction) -> bool:
    return bool(interaction.permissions.manage_guild)


async def tournament_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
    """Autocomplete of the ``tournament`` option: this server's tournaments (open and
    running first, then finished), matching what was typed by number or name."""
    if interaction.guild_id is None:
        return []
    typed = current.strip().lower().lstrip("#")
    choices = []
    for row in await interaction.client.tournaments.of_guild(interaction.guild_id):
        status = t(f"tournament.status.{row.status}", round=row.round, rounds=row.rounds or "?")
        label = t("tournament.choice", id=row.id, name=row.name, status=status)
        if typed in str(row.id) or typed in row.name.lower():
            choices.append(app_commands.Choice(name=label[:100], value=row.id))
    return choices[:MAX_CHOICES]


async def _find(interaction: Interaction, tournament: int | None, *, finished: bool = False) -> TournamentRow:
    bot = interaction.client
    return await bot.tournaments.find(
        interaction.guild_id, interaction.channel_id, tournament, finished=finished
    )


async def start(interaction: Interaction, tournament: int | None) -> None:
    bot = interaction.client
    publisher = publishing(bot)
    await defer_early(interaction)  # before the database: answered within 3 s
    row = await _find(interaction, tournament)
    made = await bot.tournaments.start(row.id, interaction.user.id, manager=_manager(interaction))
    started = t("tournament.started", title=title(row))
    committed(interaction, f"{started} {t('saved.not_shown')}")
    await answer(interaction, started)
    await refresh_signup(bot, row.id)
    await show_rounds(bot, publisher, [made])
    for more in await bot.tournaments.advance(row.id):  # a round of byes only, say
        await show_rounds(bot, publisher, [more])


async def leave(
    interaction: Interaction, tournament: int | None, *, member: int | None = None, exact: bool = False
) -> None:
    """Leave (or, with ``member``, kick) the tournament; games in progress are lost,
    their result saying that the player withdrew (reason "withdrawn") or was removed
    ("kicked"). A kicked player is told by DM. ``exact``: ``tournament`` is the id of a
    Leave button's own tournament."""
    bot = interaction.client
    await defer_early(interaction)  # before the database: answered within 3 s
    row = (
        await bot.tournaments.get(tournament)
        if exact and tournament is not None
        else await _find(interaction, tournament)
    )
    if member is None:
        gone = await bot.tournaments.leave(row.id, interaction.user.id)
        text = t("tournament.left", title=title(row))
    else:
        gone = await bot.tournaments.kick(row.id, member, interaction.user.id, manager=_manager(interaction))
        text = t("tournament.kicked", title=title(row), member=f"<@{member}>")
    committed(interaction, f"{text} {t('saved.not_shown')}")
    unresigned = []
    reason: GivingUp = "withdrawn" if member is None else "kicked"
    for game_id in gone.games:
        try:
            outcome = await bot.service.resign(game_id, gone.user_id, reason=reason)
        except ServiceError:
            continue  # ended meanwhile
        except DatabaseUnavailable as error:  # not ended, or not known to be
            log.warning("could not end game %d of a withdrawal: %s", game_id, error)
            unresigned.append(game_id)
            continue
        try:
            await publishing(bot).publish(outcome)
        except Exception:  # ended and stored: the outbox publishes it
            log.exception("publishing the end of game %d of a withdrawal failed", game_id)
    if unresigned:
        games = ", ".join(f"#{game_id}" for game_id in unresigned)
        text = f"{text} {t('saved.unresigned', games=games)}"
        committed(interaction, f"{text} {t('saved.not_shown')}")
    await answer(interaction, text)
    if member is not None:
        with i18n.use(await bot.languages.for_user(member)):
            await _direct(bot, member, t("tournament.kicked_dm", title=title(row)))
    await refresh_signup(bot, row.id)
    if not gone.before_start:
        await after_tournament_change(bot, publishing(bot), row.id)


async def _direct(bot: SchottenBot, user_id: int, text: str) -> None:
    """A DM to ``user_id``; one who does not accept DMs is skipped (logged)."""
    try:
        channel = await bot.create_dm(discord.Object(user_id))
        await channel.send(text, allowed_mentions=NO_MENTIONS)
    except discord.HTTPException:
        log.info("could not DM user %s about a tournament", user_id)


async def cancel(interaction: Interaction, tournament: int | None) -> None:
    """Cancel; the games in progress go on as casual, unrated games, and each of their
    players is told by DM (the channel by the public notice)."""
    bot = interaction.client
    await defer_early(interaction)  # before the database: answered within 3 s
    row = await _find(interaction, tournament)
    done = await bot.tournaments.cancel(row.id, interaction.user.id, manager=_manager(interaction))
    row = done.tournament
    cancelled = t("tournament.cancelled", title=title(row))
    committed(interaction, f"{cancelled} {t('saved.not_shown')}")
    await answer(interaction, cancelled)
    await refresh_signup(bot, row.id)
    channel = bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    with i18n.use(await bot.languages.for_guild(row.guild_id)):
        text = t("tournament.cancelled_public", title=title(row))
    await channel.send(text, allowed_mentions=NO_MENTIONS)
    for game_id, players in done.games:
        for user_id in players:
            with i18n.use(await bot.languages.for_user(user_id)):
                await _direct(bot, user_id, t("tournament.cancelled_dm", title=title(row), game_id=game_id))
        try:
            await publishing(bot).refresh(game_id)  # the board without its tournament label
        except Exception:
            log.exception("refreshing game %d of cancelled tournament %d failed", game_id, row.id)


async def standings_command(interaction: Interaction, tournament: int | None) -> None:
    """A private reply, in the member's own language; after the last tournament ended,
    its final standings."""
    bot = interaction.client
    await defer_early(interaction)  # before the database: answered within 3 s
    row = await _find(interaction, tournament, finished=True)
    await answer(interaction, await standings_text(bot, await bot.tournaments.state(row.id)))


async def list_command(interaction: Interaction) -> None:
    """The server's tournaments: running, then open, then finished (newest first), as
    many as fit in one message; what does not fit is counted."""
    bot = interaction.client
    if interaction.guild_id is None:
        raise ServiceError("tournament_guild_only")
    await defer_early(interaction)  # before the database: answered within 3 s
    rows = await bot.tournaments.of_guild(interaction.guild_id)
    if not rows:
        await answer(interaction, t("tournament.list_none"))
        return
    order = {"running": 0, "open": 1, "finished": 2}
    rows = sorted(rows, key=lambda r: (order.get(r.status, 3), -r.id))
    lines = [t("tournament.list_header")]
    for index, row in enumerate(rows):
        state = t(f"tournament.status.{row.status}", round=row.round, rounds=row.rounds or "?")
        line = t("tournament.list_line", title=title(row), state=state, channel=f"<#{row.channel_id}>")
        rest = len(rows) - index - 1  # after this one: room is kept to count them
        if len("\n".join([*lines, line, t("tournament.list_more", n=rest) if rest else ""])) > MAX_MESSAGE:
            lines.append(t("tournament.list_more", n=rest + 1))
            break
        lines.append(line)
    await answer(interaction, fit("\n".join(lines)))


# ---------------------------------------------------------------- rounds


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
            await post_standings(bot, row.id)
            await announce_podium(bot, row.id)
            await refresh_signup(bot, row.id)
            continue
        if step.round > 1:
            await post_standings(bot, row.id)  # after the round that just ended
        names = {i: escaped(n) for i, n in (await names_of(bot, row.guild_id, ids)).items()}
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
            fit("\n".join(lines)),
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


async def after_tournament_change(bot: SchottenBot, publisher: Publishing, tournament_id: int) -> None:
    """A game ended or a player left: the next round (or the end), if it is due. The
    standings are posted when a round ends, not edited during one."""
    made = await bot.tournaments.advance(tournament_id)
    if made:
        await show_rounds(bot, publisher, made)


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
    "tournament_choices",
]

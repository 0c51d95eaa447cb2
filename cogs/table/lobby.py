"""Before a game: challenges and their answers, rematches, practice games against the AI.

A challenge is a public message with Accept and Decline buttons
(:class:`ChallengeButton`, keyed by the challenge id, so they work after a restart).
Only the challenged member can answer; :class:`bot.games.challenges.ChallengeService`
makes every answer atomic. The Rematch button (:class:`RematchButton`, under a finished
game's end announcement) makes an ordinary challenge with the finished game's options.
A practice game's second seat is the bot itself, played by :mod:`bot.games.opponent`;
challenging the bot starts one at once. A new game is handed to the publishing side
(:func:`cogs.table.requests.publishing`) to show its board and DMs.
"""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime
from typing import Self

import discord

from bot.app import SchottenBot
from bot.games.challenges import Challenge
from bot.games.errors import ServiceError
from bot.games.opponent import DEFAULT_LEVEL
from bot.storage import ChallengeRow, DatabaseUnavailable
from bot.text import i18n
from bot.text.catalogue import t
from cogs.table.requests import publishing, tell_dm_tip
from cogs.ui import Interaction
from cogs.ui.checks import require_own_subject
from cogs.ui.components import Button, Component, buttons
from cogs.ui.replies import (
    NO_MENTIONS,
    answer_public,
    committed,
    defer_public,
    defer_update,
    public_language,
    update,
)
from rules.ai import LEVELS
from rules.game import GameOptions
from rules.rulesets import get_ruleset

log = logging.getLogger(__name__)


def _variant(options: GameOptions, points: int | None) -> str:
    if options.tactics and options.claim_timing == "turn-start":
        variant = t("challenge.variant.both")
    elif options.tactics:
        variant = t("challenge.variant.tactics")
    elif options.claim_timing == "turn-start":
        variant = t("challenge.variant.turn_start")
    else:
        variant = ""
    return variant + (t("challenge.variant.match", points=points) if points else "")


def challenge_text(challenge: Challenge, rematch_of: int | None = None) -> str:
    row = challenge.row
    return t(
        "challenge.message" if rematch_of is None else "rematch.message",
        challenger=f"<@{row.challenger_id}>",
        opponent=f"<@{row.opponent_id}>",
        ruleset=get_ruleset(challenge.options.ruleset).title,
        variant=_variant(challenge.options, challenge.points),
        game_id=rematch_of,
        expires=discord.utils.format_dt(datetime.fromtimestamp(row.expires_at, tz=UTC), "R"),
    )


def _who(row: ChallengeRow) -> dict[str, str]:
    return {"challenger": f"<@{row.challenger_id}>", "opponent": f"<@{row.opponent_id}>"}


async def challenge(
    interaction: Interaction,
    opponent: discord.User | discord.Member,
    options: GameOptions,
    *,
    points: int | None = None,
    rematch_of: int | None = None,
) -> None:
    """``/schotten challenge`` (and a Rematch): ``points`` plays a match to that many
    points; ``rematch_of`` is the finished game whose Rematch button was pressed."""
    bot, user = interaction.client, interaction.user
    if interaction.guild is None or interaction.channel_id is None:
        raise ServiceError("challenge_guild_only")
    if opponent.id == user.id:
        raise ServiceError("challenge_self")
    if bot.user is not None and opponent.id == bot.user.id:
        await practice(interaction, options)  # challenging the bot itself
        return
    if opponent.bot:
        raise ServiceError("challenge_bot")
    if not isinstance(opponent, discord.Member):
        raise ServiceError("not_a_member")
    bot.names.remember(user)
    bot.names.remember(opponent)
    # Before the database: answered within 3 s. A refusal found in the database (a
    # challenge pending, a limit) then fills the public message (a Rematch's: private).
    await defer_public(interaction)
    made = await bot.challenges.create(
        guild_id=interaction.guild.id,
        channel_id=interaction.channel_id,
        challenger_id=user.id,
        opponent_id=opponent.id,
        options=options,
        points=points,
    )
    committed(interaction, t("saved.challenge"))
    with i18n.use(await _public_language(interaction)):
        text, answers = challenge_text(made, rematch_of), challenge_view(made.id)
    message = await answer_public(
        interaction,
        text,
        view=answers,
        allowed_mentions=discord.AllowedMentions(users=[opponent], roles=False, everyone=False),
    )
    try:
        await bot.challenges.set_message(made.id, message.id)
    except DatabaseUnavailable as error:
        # The challenge stands, posted, and its buttons work (they carry its id); only
        # its expiry will not edit the message.
        log.warning("could not store the message of challenge %s: %s", made.id, error)


async def _public_language(interaction: Interaction) -> str:
    """The language of a public answer after a commit: the server's, or the member's
    own when the database cannot tell (the message is posted either way)."""
    try:
        return await public_language(interaction)
    except DatabaseUnavailable as error:
        log.warning("could not read the language of server %s: %s", interaction.guild_id, error)
        return i18n.current()


async def expire_due(bot: SchottenBot) -> int:
    """Expire the challenges past their time and say so on their messages."""
    expired = await bot.challenges.expire_due()
    for expiring in expired:
        row = expiring.row
        if row.message_id is None:
            continue
        channel = bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        with i18n.use(await bot.languages.for_guild(row.guild_id)):
            text, answers = t("challenge.expired", **_who(row)), challenge_view(row.id, disabled=True)
        try:
            await channel.get_partial_message(row.message_id).edit(
                content=text, view=answers, allowed_mentions=NO_MENTIONS
            )
        except discord.HTTPException:
            log.info("could not update expired challenge %s", row.id)
    return len(expired)


async def practice(interaction: Interaction, options: GameOptions, level: str = DEFAULT_LEVEL) -> None:
    """A game of the interaction's user against the AI, here (a server channel or the
    bot's DM); the AI moves at once if it begins."""
    bot = interaction.client
    me = bot.user
    if me is None:
        raise ServiceError("service_error")
    user = interaction.user
    level = level if level in LEVELS else DEFAULT_LEVEL
    channel_id = interaction.channel_id if interaction.guild is not None else None
    # Before the (public) defer, so that a refusal is answered privately: one read,
    # bounded by DATABASE_TIMEOUT (under Discord's 3 s), the only database call before it.
    await bot.opponent.check_new_game(user.id, channel_id)
    await defer_public(interaction)
    bot.names.remember(user)
    bot.names.remember(me)
    record = await bot.opponent.start_game(
        user_id=user.id,
        bot_id=me.id,
        guild_id=interaction.guild_id,
        channel_id=channel_id,
        options=options,
        level=level,
    )
    committed(interaction, t("saved.practice", game_id=record.id))
    log.info("Practice game %d started (level %s)", record.id, level)
    key = "practice.started" if channel_id is not None else "practice.started_dm"
    with i18n.use(await _public_language(interaction)):
        text = t(key, mention=user.mention, level=t(f"level.{level}"), game_id=record.id)
    await answer_public(interaction, text)
    await publishing(bot).start(record)
    bot.opponent.notice(await bot.service.get(record.id))
    await tell_dm_tip(interaction, record.id)


# ---------------------------------------------------------------- buttons


class ChallengeButton(Component[Button], template=r"st:chal:(?P<id>\d+):(?P<answer>accept|decline)"):
    """Accept or Decline under a challenge: only the challenged member may answer."""

    def __init__(self, challenge_id: int, accept: bool, *, disabled: bool = False) -> None:
        self.challenge_id, self.accept = challenge_id, accept
        answer = "accept" if accept else "decline"
        super().__init__(
            discord.ui.Button(
                label=t(f"challenge.{answer}"),
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.danger,
                custom_id=f"st:chal:{challenge_id}:{answer}",
                disabled=disabled,
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["id"]), match["answer"] == "accept")

    async def run(self, interaction: Interaction) -> None:
        bot, challenge_id = interaction.client, self.challenge_id
        # Before the database (and creating the game and sending DMs may take a
        # moment): answered within 3 s; a refusal is then a private follow-up.
        await defer_update(interaction)
        await require_own_subject(interaction)  # only on its own challenge's message
        if not self.accept:
            declined = await bot.challenges.decline(challenge_id, interaction.user.id)
            committed(interaction, t("saved.declined"))
            with i18n.use(await _public_language(interaction)):
                text = t("challenge.declined", **_who(declined.row))
                answers = challenge_view(challenge_id, disabled=True)
            await update(interaction, content=text, view=answers)
            return
        await bot.challenges.check(challenge_id, interaction.user.id)
        bot.names.remember(interaction.user)
        accepted, record = await bot.challenges.accept(challenge_id, interaction.user.id)
        committed(interaction, t("saved.accepted", game_id=record.id))
        with i18n.use(await _public_language(interaction)):
            text = t("challenge.accepted", game_id=record.id, **_who(accepted.row))
            answers = challenge_view(challenge_id, disabled=True)
        await interaction.edit_original_response(content=text, view=answers, allowed_mentions=NO_MENTIONS)
        await publishing(bot).start(record)
        await tell_dm_tip(interaction, record.id)


class RematchButton(Component[Button], template=r"st:rematch:(?P<game>\d+)"):
    """On the end announcement: either player of the finished game challenges the other,
    with its options (and its target, for a match that is over)."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=t("rematch.button"),
                style=discord.ButtonStyle.primary,
                custom_id=f"st:rematch:{game_id}",
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]))

    async def run(self, interaction: Interaction) -> None:
        bot, game_id = interaction.client, self.game_id
        # Before the database: answered within 3 s; the challenge is then a public
        # follow-up, a refusal a private one.
        await defer_update(interaction)
        await require_own_subject(interaction)  # only under its own game's end
        record = await bot.service.get(game_id)
        if record.is_active:
            raise ServiceError("rematch_in_progress", game_id=game_id)
        if record.player_of(interaction.user.id) is None:
            raise ServiceError("rematch_not_player", game_id=game_id)
        if interaction.guild is None or record.channel_id is None:
            raise ServiceError("rematch_no_channel")
        points = None
        if record.match_id is not None:
            match = await bot.matches.get(record.match_id)
            if match is not None and match.status == "active":
                raise ServiceError("rematch_match_running", match_id=match.id)
            points = None if match is None else match.target
        other_id = record.opponent_of(interaction.user.id)
        assert other_id is not None
        opponent = interaction.guild.get_member(other_id)
        if opponent is None:
            try:
                opponent = await interaction.guild.fetch_member(other_id)
            except discord.NotFound:
                raise ServiceError("not_a_member") from None
        await challenge(interaction, opponent, record.options, points=points, rematch_of=game_id)


def challenge_view(challenge_id: int, *, disabled: bool = False) -> discord.ui.View:
    return buttons(
        ChallengeButton(challenge_id, True, disabled=disabled),
        ChallengeButton(challenge_id, False, disabled=disabled),
    )


def rematch_view(game_id: int) -> discord.ui.View:
    return buttons(RematchButton(game_id))


__all__ = [
    "ChallengeButton",
    "RematchButton",
    "challenge",
    "challenge_text",
    "challenge_view",
    "expire_due",
    "practice",
    "rematch_view",
]

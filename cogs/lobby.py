"""Before a game: challenges and their answers, rematches, practice games against the AI.

A challenge is a public message with Accept and Decline buttons
(:class:`~cogs.ui.components.ChallengeButton`, keyed by the challenge id, so they work
after a restart). Only the challenged member can answer; :class:`bot.games.challenges.ChallengeService`
makes every answer atomic. A Rematch button makes an ordinary challenge with the finished
game's options. A practice game's second seat is the bot itself, played by
:mod:`bot.games.opponent`; challenging the bot starts one at once.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import discord

from bot.app import SchottenBot
from bot.games.challenges import Challenge
from bot.games.errors import ServiceError
from bot.games.opponent import DEFAULT_LEVEL
from bot.storage import ChallengeRow
from bot.text import i18n
from bot.text.catalogue import t
from cogs.table import Table
from cogs.ui import Interaction
from cogs.ui.layouts import challenge_view
from cogs.ui.replies import NO_MENTIONS, public_language
from rules.ai import LEVELS
from rules.game import GameOptions
from rules.rulesets import get_ruleset

log = logging.getLogger(__name__)

AI_SEAT = 1  # the person is engine player 0; who moves first still comes from the seed


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


class Lobby:
    def __init__(self, bot: SchottenBot, table: Table) -> None:
        self.bot = bot
        self.table = table

    async def challenge(
        self,
        interaction: Interaction,
        opponent: discord.User | discord.Member,
        options: GameOptions,
        *,
        points: int | None = None,
        rematch_of: int | None = None,
    ) -> None:
        """``/schotten challenge`` (and a Rematch): ``points`` plays a match to that many
        points; ``rematch_of`` is the finished game whose Rematch button was pressed."""
        user = interaction.user
        if interaction.guild is None or interaction.channel_id is None:
            raise ServiceError("challenge_guild_only")
        if opponent.id == user.id:
            raise ServiceError("challenge_self")
        if self.bot.user is not None and opponent.id == self.bot.user.id:
            await self.practice(interaction, options)  # challenging the bot itself
            return
        if opponent.bot:
            raise ServiceError("challenge_bot")
        if not isinstance(opponent, discord.Member):
            raise ServiceError("not_a_member")
        self.bot.names.remember(user)
        self.bot.names.remember(opponent)
        challenge = await self.bot.challenges.create(
            guild_id=interaction.guild.id,
            channel_id=interaction.channel_id,
            challenger_id=user.id,
            opponent_id=opponent.id,
            options=options,
            points=points,
        )
        with i18n.use(await public_language(interaction)):
            text, buttons = challenge_text(challenge, rematch_of), challenge_view(challenge.id)
        await interaction.response.send_message(
            text,
            view=buttons,
            allowed_mentions=discord.AllowedMentions(users=[opponent], roles=False, everyone=False),
        )
        message = await interaction.original_response()
        await self.bot.challenges.set_message(challenge.id, message.id)

    async def answer(self, interaction: Interaction, challenge_id: int, *, accept: bool) -> None:
        challenges = self.bot.challenges
        if not accept:
            declined = await challenges.decline(challenge_id, interaction.user.id)
            with i18n.use(await public_language(interaction)):
                text, buttons = (
                    t("challenge.declined", **_who(declined.row)),
                    challenge_view(challenge_id, disabled=True),
                )
            await interaction.response.edit_message(content=text, view=buttons, allowed_mentions=NO_MENTIONS)
            return
        await challenges.check(challenge_id, interaction.user.id)
        # Creating the game and sending DMs may take a moment: answer within 3 s.
        await interaction.response.defer()
        self.bot.names.remember(interaction.user)
        challenge, record = await challenges.accept(challenge_id, interaction.user.id)
        with i18n.use(await public_language(interaction)):
            text = t("challenge.accepted", game_id=record.id, **_who(challenge.row))
            buttons = challenge_view(challenge_id, disabled=True)
        await interaction.edit_original_response(content=text, view=buttons, allowed_mentions=NO_MENTIONS)
        await self.table.start(record)
        await self.table.tell_dm_tip(interaction, record.id)

    async def expire_due(self) -> int:
        """Expire the challenges past their time and say so on their messages."""
        expired = await self.bot.challenges.expire_due()
        for challenge in expired:
            row = challenge.row
            if row.message_id is None:
                continue
            channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
            with i18n.use(await self.bot.languages.for_guild(row.guild_id)):
                text, buttons = t("challenge.expired", **_who(row)), challenge_view(row.id, disabled=True)
            try:
                await channel.get_partial_message(row.message_id).edit(
                    content=text, view=buttons, allowed_mentions=NO_MENTIONS
                )
            except discord.HTTPException:
                log.info("could not update expired challenge %s", row.id)
        return len(expired)

    async def rematch(self, interaction: Interaction, game_id: int) -> None:
        """Either player of a finished game challenges the other, with its options (and
        its target, for a match that is over)."""
        record = await self.bot.service.get(game_id)
        if record.is_active:
            raise ServiceError("rematch_in_progress", game_id=game_id)
        if record.player_of(interaction.user.id) is None:
            raise ServiceError("rematch_not_player", game_id=game_id)
        if interaction.guild is None or record.channel_id is None:
            raise ServiceError("rematch_no_channel")
        points = None
        if record.match_id is not None:
            match = await self.bot.matches.get(record.match_id)
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
        await self.challenge(interaction, opponent, record.options, points=points, rematch_of=game_id)

    async def practice(
        self, interaction: Interaction, options: GameOptions, level: str = DEFAULT_LEVEL
    ) -> None:
        """A game of the interaction's user against the AI, here (a server channel or the
        bot's DM); the AI moves at once if it begins."""
        me = self.bot.user
        if me is None:
            raise ServiceError("service_error")
        user = interaction.user
        level = level if level in LEVELS else DEFAULT_LEVEL
        channel_id = interaction.channel_id if interaction.guild is not None else None
        # Before the (public) defer, so that a refusal is answered privately.
        await self.bot.opponent.check_new_game(user.id, channel_id)
        await interaction.response.defer(thinking=True)
        self.bot.names.remember(user)
        self.bot.names.remember(me)
        record = await self.bot.service.create_game(
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            players=(user.id, me.id),
            options=options,
            ai_player=AI_SEAT,
            ai_level=level,
        )
        log.info("Practice game %d started (level %s)", record.id, level)
        key = "practice.started" if channel_id is not None else "practice.started_dm"
        with i18n.use(await public_language(interaction)):
            text = t(key, mention=user.mention, level=t(f"level.{level}"), game_id=record.id)
        await interaction.followup.send(text, allowed_mentions=NO_MENTIONS)
        await self.table.start(record)
        self.bot.opponent.notice(await self.bot.service.get(record.id))
        await self.table.tell_dm_tip(interaction, record.id)


__all__ = ["AI_SEAT", "Lobby", "challenge_text"]

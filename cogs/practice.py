"""Practice games against the bot's AI (issue 7): ``/schotten practice [difficulty]``,
and ``/schotten challenge`` with the bot itself as the opponent.

The game is an ordinary game whose second seat is the bot's own user id
(``ai_player=1``, the difficulty stored with the game). :mod:`bot.opponent` plays that
seat in a worker pool and publishes through the same :meth:`cogs.table.Table.publish`
as a person's move. This cog wires the opponent to the table, resumes the AI's turns
after a restart, and adds the ``practice`` subcommand to the ``/schotten`` group.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ServiceError
from bot.opponent import DEFAULT_LEVEL
from bot.text import t
from cogs.table import table_for
from rules.ai import LEVELS
from rules.game import GameOptions

log = logging.getLogger(__name__)

AI_SEAT = 1  # the person is engine player 0; who moves first still comes from the seed


def is_me(bot: Any, user: discord.abc.User) -> bool:
    return bot.user is not None and user.id == bot.user.id


async def start_practice(
    interaction: discord.Interaction, options: GameOptions, level: str = DEFAULT_LEVEL
) -> None:
    """Start a game of the interaction's user against the AI, here (a server channel or
    the bot's DM), and let the AI move if it begins."""
    bot: Any = interaction.client
    user = interaction.user
    if bot.user is None:
        raise ServiceError("service_error")
    level = level if level in LEVELS else DEFAULT_LEVEL
    in_guild = interaction.guild is not None
    channel_id = interaction.channel_id if in_guild else None
    for record in await bot.service.active_games_for(user.id):
        if record.vs_ai and record.channel_id == channel_id:
            raise ServiceError("practice_existing", game_id=record.id)
    await interaction.response.defer(thinking=True)
    table = table_for(bot)
    table.remember_name(user)
    table.remember_name(bot.user)
    record = await bot.service.create_game(
        guild_id=interaction.guild.id if interaction.guild is not None else None,
        channel_id=channel_id,
        players=(user.id, bot.user.id),
        options=options,
        ai_player=AI_SEAT,
        ai_level=level,
    )
    log.info("Practice game %d started (level %s)", record.id, level)
    key = "practice.started" if in_guild else "practice.started_dm"
    await interaction.followup.send(
        t(key, mention=user.mention, level=t(f"level.{level}"), game_id=record.id),
        allowed_mentions=discord.AllowedMentions.none(),
    )
    await table.start(record)
    bot.opponent.notice(await bot.service.get(record.id))
    if await table._take_dm_tip(record.id, user.id):
        await interaction.followup.send(t("dm.closed"), ephemeral=True)


def practice_command() -> app_commands.Command[Any, ..., None]:
    """A fresh ``/schotten practice`` command (each bot gets its own: a command has one
    parent group)."""

    @app_commands.command(name="practice", description=t("cmd.practice"))
    @app_commands.describe(
        difficulty=t("cmd.practice.difficulty"),
        tactics=t("cmd.challenge.tactics"),
        claims=t("cmd.challenge.claims"),
        ruleset=t("cmd.challenge.ruleset"),
    )
    @app_commands.choices(
        difficulty=[app_commands.Choice(name=t(f"choice.level.{level}"), value=level) for level in LEVELS],
        claims=[
            app_commands.Choice(name=t("choice.claims.anytime"), value="anytime"),
            app_commands.Choice(name=t("choice.claims.turn_start"), value="turn-start"),
        ],
        ruleset=[
            app_commands.Choice(name=t("choice.ruleset.schotten_totten"), value="schotten-totten"),
            app_commands.Choice(name=t("choice.ruleset.battle_line"), value="battle-line"),
        ],
    )
    async def practice(
        interaction: discord.Interaction,
        difficulty: str = DEFAULT_LEVEL,
        tactics: bool = False,
        claims: str = "anytime",
        ruleset: str = "schotten-totten",
    ) -> None:
        options = GameOptions(ruleset=ruleset, tactics=tactics, claim_timing=claims)  # type: ignore[arg-type]
        await start_practice(interaction, options, difficulty)

    return practice


class Practice(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        bot: Any = self.bot
        bot.opponent.publish = table_for(bot).publish

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        # After a restart: the AI moves on where it is to move. Idempotent on reconnects.
        await self.bot.opponent.resume()  # type: ignore[attr-defined]


def _group(bot: commands.Bot) -> app_commands.Group:
    group = bot.tree.get_command("schotten")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("cogs.practice needs the /schotten group (cogs.game) loaded first")
    return group


async def setup(bot: commands.Bot) -> None:
    group = _group(bot)
    group.remove_command("practice")
    group.add_command(practice_command())
    await bot.add_cog(Practice(bot))


async def teardown(bot: commands.Bot) -> None:
    group = bot.tree.get_command("schotten")
    if isinstance(group, app_commands.Group):
        group.remove_command("practice")

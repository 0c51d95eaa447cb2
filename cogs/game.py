"""The ``/schotten`` command group: challenge, play, claim, pass, hand, board, resign,
games, rules.

Every command works in a server channel and in the bot's DM. ``game`` defaults to the
caller's game in this channel, else their only active game; when that is ambiguous the
error lists the games. Replies that show a hand are ephemeral.

Later commands (tactics, leaderboard, rematch) join this group from their own
extension: ``bot.tree.get_command("schotten").add_command(...)`` in ``setup``.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ServiceError
from bot.render import card_text, code_block, render_board, render_hand, sort_hand
from bot.text import t
from cogs.challenge import create_challenge
from cogs.table import table_for
from rules.game import GameOptions
from rules.moves import Claim, Draw, Pass, PlayCard

log = logging.getLogger(__name__)

RULES_TOPICS = ("overview", "turn", "formations", "claims", "end", "tactics", "decisions")
# One topic per tactic card (issue 5); their texts are "rules.<topic>" in bot/text.py.
TACTIC_TOPICS = (
    "leader",
    "reinforcement",
    "shield-bearer",
    "fog",
    "mud",
    "scout",
    "redeploy",
    "deserter",
    "traitor",
)


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class Schotten(commands.GroupCog, group_name="schotten", group_description=t("cmd.group")):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def table(self) -> Any:
        return table_for(self.bot)

    @property
    def service(self) -> Any:
        return self.bot.service  # type: ignore[attr-defined]

    async def _game(self, interaction: discord.Interaction, game: int | None) -> Any:
        record = await self.service.find_game_for(interaction.user.id, interaction.channel_id, game)
        return record

    # ------------------------------------------------------------ challenge

    @app_commands.command(name="challenge", description=t("cmd.challenge"))
    @app_commands.describe(
        opponent=t("cmd.challenge.opponent"),
        tactics=t("cmd.challenge.tactics"),
        claims=t("cmd.challenge.claims"),
        ruleset=t("cmd.challenge.ruleset"),
        points=t("cmd.challenge.points"),
    )
    @app_commands.choices(
        claims=[
            app_commands.Choice(name=t("choice.claims.anytime"), value="anytime"),
            app_commands.Choice(name=t("choice.claims.turn_start"), value="turn-start"),
        ],
        ruleset=[
            app_commands.Choice(name=t("choice.ruleset.schotten_totten"), value="schotten-totten"),
            app_commands.Choice(name=t("choice.ruleset.battle_line"), value="battle-line"),
        ],
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User,
        tactics: bool = False,
        claims: str = "anytime",
        ruleset: str = "schotten-totten",
        points: app_commands.Range[int, 5, 100] | None = None,
    ) -> None:
        options = GameOptions(ruleset=ruleset, tactics=tactics, claim_timing=claims)  # type: ignore[arg-type]
        await create_challenge(interaction, opponent, options, points=points)

    # ---------------------------------------------------------------- moves

    @app_commands.command(name="play", description=t("cmd.play"))
    @app_commands.describe(card=t("cmd.play.card"), stone=t("cmd.play.stone"), game=t("cmd.game"))
    async def play(
        self,
        interaction: discord.Interaction,
        card: str,
        stone: app_commands.Range[int, 1, 9],
        game: int | None = None,
    ) -> None:
        record = await self._game(interaction, game)
        move = self.table.parse(record, f"play {card.strip()} {stone}")
        await self.table.move(interaction, record, move)

    @play.autocomplete("card")
    async def play_card_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        # Only the caller's own hand, and only to the caller.
        try:
            game = getattr(interaction.namespace, "game", None)
            record = await self._game(interaction, game)
            player = record.player_of(interaction.user.id)
            if player is None:
                return []
            view = record.game.view(player)
        except (ServiceError, app_commands.AppCommandError):
            return []
        playable = {m.card for m in view.legal_moves() if isinstance(m, PlayCard)}
        cards = sort_hand(playable or view.hand)
        typed = current.strip().upper()
        return [
            app_commands.Choice(name=card_text(c), value=card_text(c))
            for c in cards
            if card_text(c).upper().startswith(typed)
        ][:25]

    @play.autocomplete("game")
    async def play_game_autocomplete(self, interaction: discord.Interaction, current: str) -> Any:
        return await self.game_autocomplete(interaction, current)

    @app_commands.command(name="claim", description=t("cmd.claim"))
    @app_commands.describe(stone=t("cmd.claim.stone"), game=t("cmd.game"))
    async def claim(
        self, interaction: discord.Interaction, stone: app_commands.Range[int, 1, 9], game: int | None = None
    ) -> None:
        record = await self._game(interaction, game)
        await self.table.move(interaction, record, Claim(stone))

    @app_commands.command(name="pass", description=t("cmd.pass"))
    @app_commands.describe(game=t("cmd.game"))
    async def pass_(self, interaction: discord.Interaction, game: int | None = None) -> None:
        record = await self._game(interaction, game)
        move: Any = Pass()
        if record.game.phase == "draw":
            # After playing, with a stone still claimable, "pass" means "end my turn".
            draws = [m for m in record.game.legal_moves() if isinstance(m, Draw)]
            if draws and record.player_of(interaction.user.id) == record.current_player:
                move = draws[0]
        await self.table.move(interaction, record, move)

    @app_commands.command(name="resign", description=t("cmd.resign"))
    @app_commands.describe(game=t("cmd.game"))
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        record = await self._game(interaction, game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await self.service.resign(record.id, interaction.user.id)
        await self.table.publish(outcome)
        await interaction.followup.send(t("ok.resigned", game_id=record.id), ephemeral=True)

    # ----------------------------------------------------------------- info

    @app_commands.command(name="hand", description=t("cmd.hand"))
    @app_commands.describe(game=t("cmd.game"))
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        record = await self._game(interaction, game)
        await self.table.show_hand(interaction, record.id)

    @app_commands.command(name="board", description=t("cmd.board"))
    @app_commands.describe(game=t("cmd.game"))
    async def board(self, interaction: discord.Interaction, game: int | None = None) -> None:
        record = await self._game(interaction, game)
        names = await self.table.names(record)
        player = record.player_of(interaction.user.id)
        # Public information only, from the caller's side when they play.
        view = record.game.view(player if player is not None else 0)
        text = code_block(render_board(view, names, game_id=record.id))
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="games", description=t("cmd.games"))
    async def games(self, interaction: discord.Interaction) -> None:
        records = await self.service.active_games_for(interaction.user.id)
        if not records:
            await interaction.response.send_message(t("games.none"), ephemeral=True)
            return
        lines = [t("games.header")]
        for record in records:
            names = await self.table.names(record)
            player = record.player_of(interaction.user.id) or 0
            place = f"<#{record.channel_id}>" if record.guild_id else t("games.dm_place")
            turn = t("games.your_turn") if record.current_player == player else t("games.their_turn")
            lines.append(
                t("games.line", game_id=record.id, opponent=names[1 - player], place=place, turn=turn)
            )
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @app_commands.command(name="rules", description=t("cmd.rules"))
    @app_commands.describe(topic=t("cmd.rules.topic"))
    @app_commands.choices(
        topic=[app_commands.Choice(name=topic, value=topic) for topic in RULES_TOPICS + TACTIC_TOPICS]
    )
    async def rules(self, interaction: discord.Interaction, topic: str = "overview") -> None:
        text = t(f"rules.{topic}", topics=t("rules.topics"))
        await interaction.response.send_message(text, ephemeral=True)

    # --------------------------------------------------------- autocomplete

    async def game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        records = await self.service.active_games_for(interaction.user.id)
        choices = []
        for record in records:
            names = await self.table.names(record)
            player = record.player_of(interaction.user.id) or 0
            label = t("games.ambiguous_line", game_id=record.id, opponent=names[1 - player])
            if current.strip() in str(record.id) or current.strip().lower() in label.lower():
                choices.append(app_commands.Choice(name=label[:100], value=record.id))
        return choices[:25]

    @claim.autocomplete("game")
    async def claim_game_autocomplete(self, interaction: discord.Interaction, current: str) -> Any:
        return await self.game_autocomplete(interaction, current)

    @pass_.autocomplete("game")
    async def pass_game_autocomplete(self, interaction: discord.Interaction, current: str) -> Any:
        return await self.game_autocomplete(interaction, current)

    @resign.autocomplete("game")
    async def resign_game_autocomplete(self, interaction: discord.Interaction, current: str) -> Any:
        return await self.game_autocomplete(interaction, current)

    @hand.autocomplete("game")
    async def hand_game_autocomplete(self, interaction: discord.Interaction, current: str) -> Any:
        return await self.game_autocomplete(interaction, current)

    @board.autocomplete("game")
    async def board_game_autocomplete(self, interaction: discord.Interaction, current: str) -> Any:
        return await self.game_autocomplete(interaction, current)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Schotten(bot))


__all__ = ["RULES_TOPICS", "Schotten", "render_hand"]

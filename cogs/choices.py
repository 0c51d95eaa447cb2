"""Autocomplete for the slash commands: the caller's games, the cards they can play,
their legal moves. Every suggestion goes to the caller only, and is drawn from the
caller's own view of the game."""

from __future__ import annotations

from discord import app_commands

from bot.games.errors import ServiceError
from bot.games.live import LiveGame
from bot.text.catalogue import t
from bot.text.notation import move_text
from bot.text.render import card_text, describe_move, sort_hand
from cogs.ui import Interaction
from rules.moves import Move, PlayCard
from rules.view import PlayerView

MAX_CHOICES = 25  # Discord's limit


async def _caller_view(interaction: Interaction) -> tuple[LiveGame, PlayerView] | None:
    """The game the command is about (its ``game`` option, else the usual default) and
    the caller's view of it; None for a spectator or when there is no such game."""
    game = getattr(interaction.namespace, "game", None)
    try:
        record = await interaction.client.service.find_game_for(
            interaction.user.id, interaction.channel_id, game if isinstance(game, int) else None
        )
    except ServiceError:
        return None
    player = record.player_of(interaction.user.id)
    return None if player is None else (record, record.game.view(player))


async def games(interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
    bot = interaction.client
    typed = current.strip().lower()
    choices = []
    for record in await bot.service.active_games_for(interaction.user.id):
        opponent = record.opponent_of(interaction.user.id)
        name = await bot.names.name(opponent, record.guild_id) if opponent is not None else ""
        label = t("games.ambiguous_line", game_id=record.id, opponent=name)
        if typed in str(record.id) or typed in label.lower():
            choices.append(app_commands.Choice(name=label[:100], value=record.id))
    return choices[:MAX_CHOICES]


async def cards(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await _caller_view(interaction)
    if found is None:
        return []
    view = found[1]
    playable = {m.card for m in view.legal_moves() if isinstance(m, PlayCard)}
    typed = current.strip().upper()
    texts = [card_text(c) for c in sort_hand(playable or view.hand)]
    return [app_commands.Choice(name=c, value=c) for c in texts if c.upper().startswith(typed)][:MAX_CHOICES]


def _suggestion_order(move: Move) -> int:
    # Plays are the most numerous: list everything else first so it is not cut off.
    return 1 if isinstance(move, PlayCard) else 0


async def moves(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    found = await _caller_view(interaction)
    if found is None:
        return []
    words = current.lower().split()
    choices = []
    for move in sorted(found[1].legal_moves(), key=_suggestion_order):
        name = describe_move(move)
        if all(w in f"{move_text(move)} {name}".lower() for w in words):
            choices.append(app_commands.Choice(name=name[:100], value=move_text(move)))
            if len(choices) == MAX_CHOICES:
                break
    return choices


__all__ = ["cards", "games", "moves"]

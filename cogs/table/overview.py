"""What a member asks to see: a game's board (``/schotten board``) and their games in
progress (``/schotten games``). Public information only: a hand is never shown here
(``/schotten hand``, :func:`cogs.table.requests.show_hand`, shows one's own)."""

from __future__ import annotations

from bot.games.errors import GameNotFound
from bot.games.live import LiveGame
from bot.text.catalogue import t
from bot.text.render import code_block, render_board
from cogs.table import requests
from cogs.table.messages import Picture, in_code, in_text
from cogs.table.requests import ShowTextButton
from cogs.ui import Interaction
from cogs.ui.components import buttons
from cogs.ui.replies import MAX_MESSAGE, answer


async def show_board(interaction: Interaction, record: LiveGame) -> None:
    """The board of ``record`` from the caller's side when they play, as text or as a
    picture (the member's style). Only the game's own server, or its players, may look:
    game ids are sequential."""
    bot = interaction.client
    player = record.player_of(interaction.user.id)
    if player is None and (record.guild_id is None or record.guild_id != interaction.guild_id):
        raise GameNotFound(record.id)
    names = await bot.names.pair(record.players, record.guild_id)
    if await bot.styles.for_user(interaction.user.id) == "picture":
        # The public view, from the caller's side when they play; the text a click away.
        side = player if player is not None else 0
        data = await bot.pictures.board(
            record.game.public_view(), names, game_id=record.id, bottom=side, you=player
        )
        picture = Picture(
            data, f"board-{record.id}-{record.version}.png", t("picture.board_alt", game_id=record.id)
        )
        text_button = buttons(ShowTextButton(record.id, record.version, "b"))
        message = await answer(interaction, "", view=text_button, file=picture.file())
        await requests.bind_private(interaction, message, record.id)
        return
    view = record.game.view(player if player is not None else 0)  # its public parts only
    await answer(interaction, code_block(render_board(view, in_code(names), game_id=record.id)))


async def list_games(interaction: Interaction) -> None:
    """The caller's games in progress, a line each: the opponent, where, whose turn; as
    many as one message holds, then how many more."""
    bot = interaction.client
    records = await bot.service.active_games_for(interaction.user.id)
    if not records:
        await answer(interaction, t("games.none"))
        return
    lines = [t("games.header")]
    size = len(lines[0])
    for shown, record in enumerate(records):
        player = record.player_of(interaction.user.id) or 0
        opponent = in_text(await bot.names.pair(record.players, record.guild_id))[1 - player]
        place = f"<#{record.channel_id}>" if record.guild_id else t("games.dm_place")
        turn = t("games.your_turn") if record.current_player == player else t("games.their_turn")
        line = t("games.line", game_id=record.id, opponent=opponent, place=place, turn=turn)
        # Discord refuses a message over 2,000 characters: room is kept for the
        # line that says how many more there are, unless this is the last game.
        left = len(records) - shown - 1
        room = size + 1 + len(line) + (1 + len(t("games.more", n=left)) if left else 0)
        if room > MAX_MESSAGE:
            lines.append(t("games.more", n=left + 1))
            break
        lines.append(line)
        size += 1 + len(line)
    await answer(interaction, "\n".join(lines))

"""The game table on Discord: everything between the game service and the messages.

:class:`Table` (one per bot, :func:`table_for`) is the single place that

* makes a move for a user (:meth:`Table.move`): defer, ``service.apply`` (which commits),
  then publish, then answer the user;
* publishes an outcome (:meth:`Table.publish`): claim announcements, the board (a new
  message mentioning the player to move when the turn changes, else edited in place),
  the end announcement, and both players' DM messages edited in place. AI moves (issue
  7) and timer forfeits go through :meth:`Table.publish` too;
* starts a game (:meth:`Table.start`): the first board and both DMs;
* shows a hand privately (:meth:`Table.show_hand`) and updates selections (:meth:`select`).

A hand only ever goes to its owner: into their DM or an ephemeral reply.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.errors import GameFinished, NotAPlayer, StaleControl
from bot.render import code_block, render_board, render_hand, render_last, render_result
from bot.text import t
from cogs.controls import board_view, hand_controls
from cogs.matches import after_end, end_extras, match_line
from cogs.tactics import status_lines as tactic_status_lines
from rules.game import Applied
from rules.moves import Claim, Pass, PlayCard, parse_move
from rules.rulesets import get_ruleset

log = logging.getLogger(__name__)

CANNOT_DM = 50007
_NO_MENTIONS = discord.AllowedMentions.none()


def table_for(bot: Any) -> Table:
    table = getattr(bot, "_schotten_table", None)
    if table is None:
        table = Table(bot)
        bot._schotten_table = table
    return table


def opponent_namer(bot: Any, user_id: int) -> Any:
    """A function record -> the opponent's display name, for error texts."""
    table = table_for(bot)

    def name(record: Any) -> str:
        players = tuple(record.players)
        other = players[1] if players[0] == user_id else players[0]
        return table.cached_name(other)

    return name


@dataclass
class _Seat:
    record: Any
    player: int


class Table:
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self._names: dict[int, str] = {}
        # Caches of what the database keeps across restarts (migration 4):
        self._dm_closed: dict[int, bool] = {}  # user id -> their DMs refused us (dm_status)
        self._dm_tip_pending: set[tuple[int, int]] = set()  # (game id, user id) to tell once (dm_tips)
        self._dm_tips_loaded = False
        self._publish_locks: dict[int, asyncio.Lock] = {}
        self._dm_channels: dict[int, discord.DMChannel] = {}
        self._pings: dict[int, int | None] = {}  # game id -> its games.ping_message_id
        self._views: dict[tuple[int, int], tuple[int, Any]] = {}  # (game, seat) -> (version, view)

    @property
    def service(self) -> Any:
        return self.bot.service

    @property
    def db(self) -> Any:
        return self.bot.db

    # ---------------------------------------------------------------- names

    def cached_name(self, user_id: int) -> str:
        name = self._names.get(user_id)
        if name is None:
            user = self.bot.get_user(user_id)
            name = user.display_name if user is not None else f"<@{user_id}>"
        return name

    async def name(self, user_id: int, guild_id: int | None = None) -> str:
        if user_id in self._names:
            return self._names[user_id]
        name = None
        guild = self.bot.get_guild(guild_id) if guild_id else None
        member = guild.get_member(user_id) if guild is not None else None
        if member is not None:
            name = member.display_name
        else:
            user = self.bot.get_user(user_id)
            if user is None:
                try:
                    user = await self.bot.fetch_user(user_id)
                except discord.HTTPException:
                    user = None
            if user is not None:
                name = user.display_name
        name = name or f"#{user_id}"
        self._names[user_id] = name
        return name

    async def names(self, record: Any) -> tuple[str, str]:
        p0, p1 = record.players
        return await self.name(p0, record.guild_id), await self.name(p1, record.guild_id)

    def remember_name(self, user: discord.abc.User) -> None:
        self._names[user.id] = user.display_name

    # ---------------------------------------------------------------- seats

    def seat(self, record: Any, user_id: int) -> int:
        """The engine player (0/1) of ``user_id`` in ``record``, or NotAPlayer."""
        try:
            return tuple(record.players).index(user_id)
        except ValueError:
            raise NotAPlayer(record.id, user_id) from None

    # ---------------------------------------------------------------- texts

    def board_text(self, record: Any, names: Sequence[str], *, mention: int | None = None) -> str:
        text = code_block(render_board(self.view(record, 0), names, bottom=0, game_id=record.id))
        score = match_line(self.bot, record, names)  # a match's score (issue 6)
        if score:
            text = score + "\n" + text
        if mention is not None:
            text = t("board.your_turn", mention=f"<@{mention}>") + "\n" + text
        return text

    def hand_text(
        self,
        record: Any,
        player: int,
        names: Sequence[str],
        *,
        drawn: Any = None,
    ) -> str:
        """What a player sees privately: the opponent's last turn, the board from their
        side, their hand and whose turn it is."""
        view = self.view(record, player)
        opponent = names[1 - player]
        lines = [f"**{t('hand.title', game_id=record.id, opponent=opponent)}**"]
        last_moves = view.last_moves
        if last_moves and last_moves[-1][0] == 1 - player:
            last = render_last(last_moves, names)
            if last:
                lines.append(last)
        if drawn is not None:
            # Scout draws up to three: a list (all private to this player).
            shown = " ".join(map(str, drawn)) if isinstance(drawn, list) else str(drawn)
            lines.append(t("hand.drew", card=shown))
        lines.append(code_block(render_board(view, names)))
        hand = render_hand(view)
        lines.append(t("hand.cards", cards=hand) if hand else t("hand.empty"))
        lines.extend(tactic_status_lines(view))  # Scout's steps, cards put back (issue 5)
        if view.result is not None:
            lines.append(t("hand.over", result=render_result(view.result, names)))
        elif view.current_player == player:
            lines.append(t("hand.your_turn"))
        else:
            lines.append(t("hand.their_turn", opponent=opponent))
        return "\n".join(lines)

    def controls(self, record: Any, player: int, **selection: Any) -> discord.ui.View | None:
        return hand_controls(record.id, record.version, self.view(record, player), **selection)

    def view(self, record: Any, player: int) -> Any:
        """``record.game.view(player)``, memoised: a view computes the legal moves (claim
        proofs included) and one move is rendered several times."""
        # Only the latest version is ever asked for again: keep one view per seat, so
        # the cache stays as small as the number of games (stale views filled it before).
        key = (record.id, player)
        hit = self._views.get(key)
        if hit is None or hit[0] != record.version:
            if len(self._views) > 4096:
                self._views.clear()  # finished games' views
            hit = self._views[key] = (record.version, record.game.view(player))
        return hit[1]

    # ---------------------------------------------------------------- start

    async def start(self, record: Any) -> None:
        """Post the first board and send both players their hand. Called once the game
        is committed."""
        names = await self.names(record)
        game = record.game
        channel = self._channel(record)
        board_id = None
        if channel is not None:
            mover = game.current_player
            message = await channel.send(
                self.board_text(record, names, mention=record.players[mover] if mover is not None else None),
                view=board_view(record.id),
                allowed_mentions=self._mentions(record, mover),
            )
            board_id = message.id
        dm_ids: dict[int, int | None] = {}
        for player in (0, 1):
            dm_ids[player] = await self._send_dm(record, player, names)
        await self.service.set_message_ids(record.id, board_message_id=board_id, dm_message_ids=dm_ids)

    # ---------------------------------------------------------------- moves

    def parse(self, record: Any, text: str) -> Any:
        return parse_move(text, max_value=get_ruleset(record.game.options.ruleset).max_value)

    async def play_text(
        self, interaction: discord.Interaction, game_id: int, text: str, version: int | None = None
    ) -> None:
        record = await self.service.get(game_id)
        await self.move(interaction, record, self.parse(record, text), expected_version=version)

    async def move(
        self,
        interaction: discord.Interaction,
        record: Any,
        move: Any,
        *,
        expected_version: int | None = None,
    ) -> None:
        """Make ``move`` for the interaction's user; answer them, then publish.

        The interaction is deferred first: under load a move can wait behind others for
        the database, and Discord wants an answer within 3 seconds. The answer proper
        comes once the service has committed the move.
        """
        component = interaction.type is discord.InteractionType.component
        self.remember_name(interaction.user)
        if component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await self.service.apply(
            record.id, interaction.user.id, move, expected_version=expected_version
        )
        record = outcome.game
        player = self.seat(record, interaction.user.id)
        names = await self.names(record)
        content = self.hand_text(record, player, names, drawn=_drawn(outcome, player))
        controls = self.controls(record, player)
        in_own_dm = (
            component
            and interaction.message is not None
            and interaction.message.id == record.dm_message_ids[player]
        )
        if component:
            # The clicked message (the DM, or an ephemeral "Show my hand") shows the
            # new hand at once; publish() leaves the mover's DM alone in that case.
            await interaction.edit_original_response(content=content, view=controls)
        else:
            await interaction.followup.send(content, view=controls or discord.utils.MISSING, ephemeral=True)
        await self.publish(outcome, skip_dm=player if in_own_dm else None)
        if await self._take_dm_tip(record.id, interaction.user.id):
            await interaction.followup.send(t("dm.closed"), ephemeral=True)

    async def select(
        self,
        interaction: discord.Interaction,
        game_id: int,
        version: int,
        *,
        card: str | None,
        stone: int | None,
    ) -> None:
        """A card or stone was chosen: redraw the controls with the selection."""
        record = await self.service.get(game_id)
        player = self.seat(record, interaction.user.id)
        if record.game.is_over:
            raise GameFinished(game_id)
        if record.version != version:
            raise StaleControl(game_id, version, record.version)
        await interaction.response.edit_message(view=self.controls(record, player, card=card, stone=stone))

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        record = await self.service.get(game_id)
        player = self.seat(record, interaction.user.id)
        if record.game.is_over:
            raise GameFinished(game_id)
        self.remember_name(interaction.user)
        names = await self.names(record)
        text = self.hand_text(record, player, names)
        if await self._take_dm_tip(game_id, interaction.user.id):
            text = t("dm.closed") + "\n\n" + text
        await interaction.response.send_message(
            text, view=self.controls(record, player) or discord.utils.MISSING, ephemeral=True
        )

    # ---------------------------------------------------------------- publish

    async def publish(self, outcome: Any, *, skip_dm: int | None = None) -> None:
        """Show a committed outcome everywhere: claims, board, end, both DMs (but not
        the DM of ``skip_dm``, already updated by the move's own response)."""
        record = outcome.game
        lock = self._publish_locks.setdefault(record.id, asyncio.Lock())
        async with lock:
            # Publishing the latest record keeps the messages right even if two
            # outcomes of one game are published out of order.
            latest = await self.service.get(record.id)
            superseded = latest.version > record.version
            await self._publish(
                record,
                list(outcome.applied),
                turn_changed=outcome.turn_changed,
                superseded=superseded,
                skip_dm=skip_dm,
            )
        if record.game.is_over:
            self._publish_locks.pop(record.id, None)
            await after_end(self, record)  # the next game of a match (issue 6)
        opponent = getattr(self.bot, "opponent", None)
        if opponent is not None:
            opponent.notice(record)  # the AI's turn, if it is (issue 7, bot/opponent.py)

    async def _publish(
        self,
        record: Any,
        applied: list[Applied],
        *,
        turn_changed: bool,
        superseded: bool = False,
        skip_dm: int | None = None,
    ) -> None:
        """``superseded``: a later move is already committed and will be published too, so
        only this outcome's announcements are made, not the board or the DMs."""
        names = await self.names(record)
        game = record.game
        channel = self._channel(record)
        if channel is not None:
            for entry in applied:
                for stone, owner in entry.decided:
                    if isinstance(entry.move, Claim) or entry.result is None:
                        await channel.send(
                            t("announce.claim", name=names[owner], stone=stone), allowed_mentions=_NO_MENTIONS
                        )
            if not superseded:
                await self._update_board(record, names, turn_changed=turn_changed)
            if game.is_over:
                # Ratings, match score and the Rematch button (issue 6).
                extra, end_view = await end_extras(self.bot, record, names)
                await channel.send(
                    t("announce.end", game_id=record.id, result=render_result(game.result, names)) + extra,
                    view=end_view or discord.utils.MISSING,
                    allowed_mentions=_NO_MENTIONS,
                )
        if superseded:
            return
        for player in (0, 1):
            drawn = [e.drawn for e in applied if e.player == player and e.drawn is not None] or None
            await self._update_dm(record, player, names, drawn=drawn)

    async def _update_board(self, record: Any, names: Sequence[str], *, turn_changed: bool) -> None:
        """Edit the board in place; when the turn changes, mention the player to move in
        a short new message (an edit notifies nobody) and delete the previous one.

        The board keeps its message id for the whole game; the mention's id is stored
        (``games.ping_message_id``), one small write per turn, so that after a restart the
        old mention is still deleted.
        """
        channel = self._channel(record)
        game = record.game
        view = board_view(record.id, finished=game.is_over)
        board_id = record.board_message_id
        edited = False
        if board_id is not None:
            try:
                await channel.get_partial_message(board_id).edit(
                    content=self.board_text(record, names), view=view, allowed_mentions=_NO_MENTIONS
                )
                edited = True
            except discord.NotFound:
                log.info("board message of game %s is gone; posting a new one", record.id)
        if not edited:
            message = await channel.send(
                self.board_text(record, names), view=view, allowed_mentions=_NO_MENTIONS
            )
            board_id = message.id
            await self.service.set_message_ids(record.id, board_message_id=board_id)
        if turn_changed or game.is_over:
            await self._ping(record, channel, board_id)

    async def _ping(self, record: Any, channel: Any, board_id: int) -> None:
        """Mention the player to move once for this turn (nobody once the game is over)."""
        if record.id in self._pings:
            previous = self._pings.pop(record.id)
        else:  # not seen since the bot started
            previous = await self.db.get_ping_message_id(record.id)
        new_id = None
        mover = record.current_user
        if mover is not None and mover != getattr(self.bot.user, "id", None):
            guild = record.guild_id or "@me"
            link = f"https://discord.com/channels/{guild}/{record.channel_id}/{board_id}"
            message = await channel.send(
                t("board.your_turn_ping", mention=f"<@{mover}>", game_id=record.id, link=link),
                allowed_mentions=self._mentions(record, record.current_player),
                suppress_embeds=True,
            )
            new_id = message.id
        if new_id is not None or previous is not None:
            await self.db.set_ping_message_id(record.id, new_id)
        if not record.game.is_over:
            self._pings[record.id] = new_id
        if previous is not None:
            try:
                await channel.get_partial_message(previous).delete()
            except discord.HTTPException:
                log.info("could not delete an old turn mention of game %s", record.id)

    async def _update_dm(self, record: Any, player: int, names: Sequence[str], *, drawn: Any = None) -> None:
        user_id = record.players[player]
        message_id = record.dm_message_ids[player]
        if message_id is None:
            if await self._dm_is_closed(user_id):
                return
            new_id = await self._send_dm(record, player, names, drawn=drawn)
            if new_id is not None:
                await self.service.set_message_ids(record.id, dm_message_ids={player: new_id})
            return
        channel = await self._dm_channel(user_id)
        if channel is None:
            return
        content = self.hand_text(record, player, names, drawn=drawn)
        view = self.controls(record, player)
        try:
            # Our own DM message, edited through the REST API: unlike an interaction
            # token this never expires.
            await channel.get_partial_message(message_id).edit(content=content, view=view)
        except discord.NotFound:
            new_id = await self._send_dm(record, player, names, drawn=drawn)
            await self.service.set_message_ids(record.id, dm_message_ids={player: new_id})
        except discord.Forbidden:
            await self._set_dm_closed(user_id, True)

    async def _send_dm(
        self, record: Any, player: int, names: Sequence[str], *, drawn: Any = None
    ) -> int | None:
        user_id = record.players[player]
        if getattr(record, "ai_player", None) == player:
            return None  # the bot's own AI seat: the bot never DMs itself
        channel = await self._dm_channel(user_id)
        if channel is None:
            return None
        try:
            message = await channel.send(
                self.hand_text(record, player, names, drawn=drawn),
                view=self.controls(record, player) or discord.utils.MISSING,
            )
        except discord.Forbidden as error:
            if error.code == CANNOT_DM:
                log.info("user %s does not accept DMs (game %s)", user_id, record.id)
            else:
                log.warning("DM to user %s refused (game %s): code %s", user_id, record.id, error.code)
            await self._set_dm_closed(user_id, True)
            if await self.db.queue_dm_tip(record.id, user_id, now=self.service.clock()):
                self._dm_tip_pending.add((record.id, user_id))
            return None
        await self._set_dm_closed(user_id, False)  # they opened their DMs again
        return message.id

    async def _dm_channel(self, user_id: int) -> discord.DMChannel | None:
        channel = self._dm_channels.get(user_id)
        if channel is not None:
            return channel
        user = self.bot.get_user(user_id)
        try:
            if user is None:
                user = await self.bot.fetch_user(user_id)
            channel = user.dm_channel or await user.create_dm()
        except discord.HTTPException:
            log.warning("cannot open a DM channel with user %s", user_id)
            return None
        self._dm_channels[user_id] = channel
        return channel

    async def _dm_is_closed(self, user_id: int) -> bool:
        closed = self._dm_closed.get(user_id)
        if closed is None:
            closed = self._dm_closed[user_id] = await self.db.dm_closed(user_id)
        return closed

    async def _set_dm_closed(self, user_id: int, closed: bool) -> None:
        """Remember, in the database too, whether the user's DMs refuse us (written on a
        change only)."""
        if await self._dm_is_closed(user_id) != closed:
            await self.db.set_dm_closed(user_id, closed, now=self.service.clock())
            self._dm_closed[user_id] = closed

    async def _take_dm_tip(self, game_id: int, user_id: int) -> bool:
        """True once per player and game after a DM to them was refused: the caller then
        tells them, privately, how to open their DMs. Stored, so a restart does not repeat it."""
        if not self._dm_tips_loaded:
            pending = await self.db.pending_dm_tips()
            if not self._dm_tips_loaded:
                self._dm_tip_pending.update(pending)
                self._dm_tips_loaded = True
        key = (game_id, user_id)
        if key not in self._dm_tip_pending:
            return False
        self._dm_tip_pending.discard(key)
        return bool(await self.db.take_dm_tip(game_id, user_id, now=self.service.clock()))

    # ---------------------------------------------------------------- helpers

    def _channel(self, record: Any) -> Any:
        if record.channel_id is None:
            return None
        return self.bot.get_channel(record.channel_id) or self.bot.get_partial_messageable(
            record.channel_id, guild_id=record.guild_id
        )

    def _mentions(self, record: Any, mover: int | None) -> discord.AllowedMentions:
        if mover is None:
            return _NO_MENTIONS
        return discord.AllowedMentions(
            users=[discord.Object(record.players[mover])], roles=False, everyone=False
        )


def _drawn(outcome: Any, player: int) -> Any:
    """Every card ``player`` drew in this outcome (Scout's forced draws too), or None."""
    return [e.drawn for e in outcome.applied if e.player == player and e.drawn is not None] or None


__all__ = ["Claim", "Pass", "PlayCard", "Table", "opponent_namer", "table_for"]

"""The game table on Discord: everything between the game service and the messages.

:class:`Table` (one per bot, made by :mod:`cogs.schotten`) is the single place that

* makes a move for a user (:meth:`Table.move`): defer, ``service.apply`` (which commits),
  answer the user, then publish;
* publishes an outcome (:meth:`Table.publish`): claim announcements, the board (edited
  in place, with a short new message mentioning the player to move when the turn
  changes), the end announcement, and both players' DM messages edited in place. AI
  moves and timer forfeits are published the same way;
* starts a game (:meth:`Table.start`): the first board and both DMs;
* shows a hand privately (:meth:`Table.show_hand`) and redraws a player's controls
  with what they have chosen so far (:meth:`Table.select`).

A hand only ever goes to its owner: into their DM or an ephemeral reply.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import UTC, datetime

import discord

from bot import i18n
from bot.app import SchottenBot
from bot.errors import GameFinished, ServiceError
from bot.lru import LRU
from bot.ratings import GLOBAL_SCOPE, guild_scope
from bot.service import GameRecord, GameService, MoveOutcome
from bot.text import t
from cogs.table.messages import Names, announce_claim, board_text, end_text, hand_text, in_text, turn_mention
from cogs.ui import Interaction
from cogs.ui.components import Selection
from cogs.ui.layouts import board_view, hand_controls, rematch_view
from cogs.ui.replies import NO_MENTIONS
from rules.cards import Card
from rules.game import Applied
from rules.moves import Claim, Move
from rules.view import PlayerView

log = logging.getLogger(__name__)

CANNOT_DM = 50007  # Discord's error code: the user does not accept DMs from us
VIEWS_KEPT = 32  # a move renders each seat's view a few times; a view is cheap to redo


def _drawn(applied: Sequence[Applied], player: int) -> list[Card]:
    """Every card ``player`` drew in these moves (a Scout's draws too)."""
    return [e.drawn for e in applied if e.player == player and e.drawn is not None]


def _private(interaction: Interaction) -> bool:
    """Whether the message a control sits on is seen by the clicking user only (their
    DM with the bot, or an ephemeral reply): the only places a hand may be drawn."""
    message = interaction.message
    return message is not None and (message.guild is None or message.flags.ephemeral)


def _mentioning(user_id: int | None) -> discord.AllowedMentions:
    if user_id is None:
        return NO_MENTIONS
    return discord.AllowedMentions(users=[discord.Object(user_id)], roles=False, everyone=False)


class Table:
    def __init__(self, bot: SchottenBot) -> None:
        self.bot = bot
        self._publish_locks: dict[int, asyncio.Lock] = {}
        self._dm_channels: dict[int, discord.DMChannel] = {}
        # (game, seat) -> (version, view): the latest views only, a few games' worth
        self._views: LRU[tuple[int, int], tuple[int, PlayerView]] = LRU(VIEWS_KEPT)

    @property
    def service(self) -> GameService:
        return self.bot.service

    async def names(self, record: GameRecord) -> Names:
        return await self.bot.names.pair(record.players, record.guild_id)

    def channel(self, record: GameRecord) -> discord.PartialMessageable | None:
        """The game's channel (None for a game in the bot's DM)."""
        if record.channel_id is None:
            return None
        return self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)

    def view(self, record: GameRecord, player: int) -> PlayerView:
        """``record.game.view(player)``, memoised: a view computes the legal moves (claim
        proofs included) and one move is rendered several times. One view per seat."""
        key = (record.id, player)
        hit = self._views.get(key)
        if hit is None or hit[0] != record.version:
            hit = (record.version, record.game.view(player))
            self._views.put(key, hit)
        return hit[1]

    def controls(
        self, record: GameRecord, player: int, selection: Selection | None = None
    ) -> discord.ui.View | None:
        return hand_controls(record.id, record.version, self.view(record, player), selection or Selection())

    def board(self, record: GameRecord, names: Names) -> str:
        match = self.bot.matches.cached(record.match_id) if record.match_id is not None else None
        return board_text(record, self.view(record, 0), names, match)

    def hand(self, record: GameRecord, player: int, names: Names, drawn: Sequence[Card] = ()) -> str:
        return hand_text(record, self.view(record, player), names, drawn)

    # ---------------------------------------------------------------- start

    async def start(self, record: GameRecord) -> None:
        """Post the first board and send both players their hand. Called once the game
        is committed."""
        names = await self.names(record)
        channel = self.channel(record)
        board_id = None
        if channel is not None:
            mover = record.current_user
            with i18n.use(await self._channel_language(record)):
                board = self.board(record, names)
                message = await channel.send(
                    board if mover is None else turn_mention(mover) + "\n" + board,
                    view=board_view(record.id),
                    allowed_mentions=_mentioning(mover),
                )
            board_id = message.id
        dm_ids = {player: await self._send_dm(record, player, names) for player in (0, 1)}
        await self.service.set_message_ids(record.id, board_message_id=board_id, dm_message_ids=dm_ids)

    async def tell_dm_tip(self, interaction: Interaction, game_id: int) -> None:
        """Once per game, privately: the user's DMs refused us, and how to open them."""
        if await self.bot.delivery.take_dm_tip(game_id, interaction.user.id):
            await interaction.followup.send(t("dm.closed"), ephemeral=True)

    # ---------------------------------------------------------------- a player's requests

    async def move(self, interaction: Interaction, game_id: int, version: int | None, move: Move) -> None:
        """Make ``move`` for the interaction's user; answer them, then publish.

        The interaction is deferred first: under load a move can wait behind others for
        the database, and Discord wants an answer within 3 seconds. The answer proper
        comes once the service has committed the move. ``version``: the game's version
        the control was made for (None: a typed command, which means "now").
        """
        component = interaction.type is discord.InteractionType.component
        if component and not _private(interaction):
            raise ServiceError("controls_not_private")
        self.bot.names.remember(interaction.user)
        if component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await self.service.apply(game_id, interaction.user.id, move, expected_version=version)
        record = outcome.game
        player = record.require_player(interaction.user.id)
        names = await self.names(record)
        content = self.hand(record, player, names, _drawn(outcome.applied, player))
        controls = self.controls(record, player)
        if component:
            # The clicked message (the DM, or an ephemeral "Show my hand") shows the
            # new hand at once; publish() then leaves that DM alone.
            await interaction.edit_original_response(content=content, view=controls)
        else:
            await interaction.followup.send(content, view=controls or discord.utils.MISSING, ephemeral=True)
        in_own_dm = (
            component
            and interaction.message is not None
            and interaction.message.id == record.dm_message_ids[player]
        )
        await self.publish(outcome, skip_dm=player if in_own_dm else None)
        await self.tell_dm_tip(interaction, record.id)

    async def select(
        self, interaction: Interaction, game_id: int, version: int, selection: Selection
    ) -> None:
        """A card, stone or ruse step was chosen: redraw the controls with it."""
        if not _private(interaction):
            raise ServiceError("controls_not_private")
        # Read again if the control is newer than this process's copy (another process
        # published that version); StaleControl only for a control older than the game.
        record = await self.service.current(game_id, version)
        player = record.require_player(interaction.user.id)
        await interaction.response.edit_message(view=self.controls(record, player, selection))

    async def show_hand(self, interaction: Interaction, game_id: int) -> None:
        # As stored: another process may have moved the game since this one cached it.
        record = await self.service.reload(game_id)
        player = record.require_player(interaction.user.id)
        if record.game.is_over:
            raise GameFinished(game_id)
        self.bot.names.remember(interaction.user)
        text = self.hand(record, player, await self.names(record))
        if await self.bot.delivery.take_dm_tip(game_id, interaction.user.id):
            text = t("dm.closed") + "\n\n" + text
        controls = self.controls(record, player)
        await interaction.response.send_message(text, view=controls or discord.utils.MISSING, ephemeral=True)

    # ---------------------------------------------------------------- publish

    async def publish(self, outcome: MoveOutcome, *, skip_dm: int | None = None) -> None:
        """Show a committed outcome everywhere: claims, board, end, both DMs (but not
        the DM of ``skip_dm``, already updated by the move's own response).

        The outcome's outbox entry is claimed first and marked done after: if this
        process dies (or Discord fails) in between, :meth:`publish_pending` of some
        process publishes it later; if another process holds it, it is left to that one."""
        record = outcome.game
        entry = outcome.outbox_id
        if entry is not None and not await self.bot.delivery.claim(entry):
            return
        lock = self._publish_locks.setdefault(record.id, asyncio.Lock())
        async with lock:
            # Publishing the latest record keeps the messages right even if two
            # outcomes of one game are published out of order.
            latest = await self.service.get(record.id)
            superseded = latest.version > record.version
            await self._publish(outcome, superseded=superseded, skip_dm=skip_dm)
        if entry is not None:
            await self.bot.delivery.done(entry)
        if record.game.is_over:
            self._forget(record.id)
            await self._start_next_of_match(record)
        self.bot.opponent.notice(record)  # the AI's turn, if it is

    async def publish_pending(self) -> int:
        """Publish what committed changes still owe (the outbox), each by one process:
        left by a crash, or by a publication that failed. Rendered again from the stored
        game. Returns how many were published."""
        published = 0
        for entry in await self.bot.delivery.pending():
            if not await self.bot.delivery.claim(entry.id):
                continue  # another process took it
            try:
                published += await self._publish_entry(entry.game_id, entry.version, entry.kind)
            except Exception:
                # The lease runs out and the next round tries again; the others go on.
                log.exception("publishing the outbox entry %d of game %d failed", entry.id, entry.game_id)
                continue
            await self.bot.delivery.done(entry.id)
        if published:
            log.info("Published %d pending publication(s) from the outbox", published)
        return published

    async def _publish_entry(self, game_id: int, version: int, kind: str) -> bool:
        try:
            record = await self.service.reload(game_id)
        except ServiceError:
            return False  # gone or unreadable (logged by the service): nothing to show
        if kind == "reminder":
            if not record.is_active or record.version != version:
                return False  # moved on meanwhile: no reminder is due
            await self.remind(record)
            return True
        if record.version != version:
            return False  # a later change is stored; its own publication shows it
        await self.publish(MoveOutcome(game=record, previous_version=version, turn_changed=kind == "turn"))
        return True

    async def remind(self, record: GameRecord, *, outbox_id: int | None = None) -> None:
        """Remind the player to move that their time runs out (once per turn: the
        caller has claimed it with ``service.claim_reminder``)."""
        if outbox_id is not None and not await self.bot.delivery.claim(outbox_id):
            return
        channel = self.channel(record)
        if channel is not None and record.current_user is not None and record.deadline is not None:
            deadline = discord.utils.format_dt(datetime.fromtimestamp(record.deadline, tz=UTC), "R")
            with i18n.use(await self._channel_language(record)):
                text = t(
                    "timer.reminder",
                    mention=f"<@{record.current_user}>",
                    game_id=record.id,
                    deadline=deadline,
                )
            try:
                await channel.send(text, allowed_mentions=_mentioning(record.current_user))
            except discord.HTTPException:
                log.info("could not remind game %s", record.id)
        if outbox_id is not None:
            await self.bot.delivery.done(outbox_id)

    def games_in_memory(self) -> set[int]:
        """The games this table holds anything of (publish locks, memoised views)."""
        return set(self._publish_locks) | {game_id for game_id, _ in self._views}

    async def refresh(self, game_id: int) -> None:
        """Show the stored state again (board and both DMs), forgetting what was memoised:
        for a game changed behind the service's back."""
        for player in (0, 1):
            self._views.pop((game_id, player))
        await self.publish(MoveOutcome(game=await self.service.reload(game_id)))

    def _forget(self, game_id: int) -> None:
        """A finished game's in-memory entries (what is stored stays)."""
        self._publish_locks.pop(game_id, None)
        for player in (0, 1):
            self._views.pop((game_id, player))
        self.bot.delivery.forget_game(game_id)

    async def _publish(self, outcome: MoveOutcome, *, superseded: bool, skip_dm: int | None) -> None:
        """``superseded``: a later move is already committed and will be published too, so
        only this outcome's announcements are made, not the board or the DMs."""
        record = outcome.game
        names = await self.names(record)
        channel = self.channel(record)
        if channel is not None:
            await self._publish_in_channel(outcome, channel, names, superseded=superseded)
        if superseded:
            return
        for player in (0, 1):
            if player != skip_dm:
                await self._update_dm(record, player, names, _drawn(outcome.applied, player))

    async def _channel_language(self, record: GameRecord) -> str:
        return await self.bot.languages.for_guild(record.guild_id)

    async def _publish_in_channel(
        self, outcome: MoveOutcome, channel: discord.PartialMessageable, names: Names, *, superseded: bool
    ) -> None:
        """Claims, the board and the end, in the server's language."""
        record = outcome.game
        with i18n.use(await self._channel_language(record)):
            for entry in outcome.applied:
                for stone, owner in entry.decided:
                    if isinstance(entry.move, Claim) or entry.result is None:
                        await channel.send(announce_claim(names, owner, stone), allowed_mentions=NO_MENTIONS)
            if not superseded:
                await self._update_board(record, channel, names, turn_changed=outcome.turn_changed)
            if record.game.is_over:
                await self._announce_end(record, channel, names)

    async def _announce_end(
        self, record: GameRecord, channel: discord.PartialMessageable, names: Names
    ) -> None:
        """The result, rating changes, a match's score, and the Rematch button."""
        scope = GLOBAL_SCOPE if record.guild_id is None else guild_scope(record.guild_id)
        changes = await self.bot.rankings.changes(record.id, scope)
        match = await self.bot.matches.refresh(record.match_id) if record.match_id is not None else None
        match_over = match is None or match.status == "finished"
        offer_rematch = not record.vs_ai and match_over
        await channel.send(
            end_text(record, names, changes, match),
            view=rematch_view(record.id) if offer_rematch else discord.utils.MISSING,
            allowed_mentions=NO_MENTIONS,
        )

    async def _start_next_of_match(self, record: GameRecord) -> None:
        """After a game of a match ended: announce and start the next one, which the
        result's transaction created."""
        if record.match_id is None:
            return
        game_id = await self.bot.matches.next_game(record.match_id)
        if game_id is None:
            return
        following = await self.service.get(game_id)
        if following.board_message_id is not None or any(following.dm_message_ids):
            return  # already started
        channel = self.channel(following)
        if channel is not None and following.current_player is not None:
            names = await self.names(following)
            with i18n.use(await self._channel_language(following)):
                text = t(
                    "match.next",
                    match_id=record.match_id,
                    game_id=following.id,
                    name=in_text(names)[following.current_player],
                )
            await channel.send(text, allowed_mentions=NO_MENTIONS)
        await self.start(following)

    async def _update_board(
        self, record: GameRecord, channel: discord.PartialMessageable, names: Names, *, turn_changed: bool
    ) -> None:
        """Edit the board in place; when the turn changes, mention the player to move in
        a short new message (an edit notifies nobody) and delete the previous one."""
        view = board_view(record.id, finished=record.game.is_over)
        board_id = record.board_message_id
        edited = False
        if board_id is not None:
            try:
                await channel.get_partial_message(board_id).edit(
                    content=self.board(record, names), view=view, allowed_mentions=NO_MENTIONS
                )
                edited = True
            except discord.NotFound:
                log.info("board message of game %s is gone; posting a new one", record.id)
        if not edited:
            message = await channel.send(self.board(record, names), view=view, allowed_mentions=NO_MENTIONS)
            board_id = message.id
            await self.service.set_message_ids(record.id, board_message_id=board_id)
        if (turn_changed or record.game.is_over) and board_id is not None:
            await self._ping(record, channel, board_id)

    async def _ping(self, record: GameRecord, channel: discord.PartialMessageable, board_id: int) -> None:
        """Mention the player to move once for this turn (nobody once the game is over).
        The mention's id is stored, so that after a restart the old one is still deleted."""
        delivery = self.bot.delivery
        previous = await delivery.ping_message(record.id)
        new_id = None
        mover = record.current_user
        if mover is not None and (self.bot.user is None or mover != self.bot.user.id):
            guild = record.guild_id or "@me"
            link = f"https://discord.com/channels/{guild}/{record.channel_id}/{board_id}"
            message = await channel.send(
                t("board.your_turn_ping", mention=f"<@{mover}>", game_id=record.id, link=link),
                allowed_mentions=_mentioning(mover),
                suppress_embeds=True,
            )
            new_id = message.id
        await delivery.set_ping_message(record.id, new_id)
        if previous is not None:
            try:
                await channel.get_partial_message(previous).delete()
            except discord.HTTPException:
                log.info("could not delete an old turn mention of game %s", record.id)

    # ---------------------------------------------------------------- DMs

    async def _update_dm(self, record: GameRecord, player: int, names: Names, drawn: Sequence[Card]) -> None:
        user_id = record.players[player]
        message_id = record.dm_message_ids[player]
        if message_id is None:
            if record.ai_player == player or await self.bot.delivery.dm_closed(user_id):
                return
            new_id = await self._send_dm(record, player, names, drawn)
            if new_id is not None:
                await self.service.set_message_ids(record.id, dm_message_ids={player: new_id})
            return
        channel = await self._dm_channel(user_id)
        if channel is None:
            return
        with i18n.use(await self.bot.languages.for_user(user_id)):
            content, controls = self.hand(record, player, names, drawn), self.controls(record, player)
        try:
            # Our own DM message, edited through the REST API: unlike an interaction
            # token this never expires.
            await channel.get_partial_message(message_id).edit(content=content, view=controls)
        except discord.NotFound:
            new_id = await self._send_dm(record, player, names, drawn)
            await self.service.set_message_ids(record.id, dm_message_ids={player: new_id})
        except discord.Forbidden:
            await self.bot.delivery.set_dm_closed(user_id, True)

    async def _send_dm(
        self, record: GameRecord, player: int, names: Names, drawn: Sequence[Card] = ()
    ) -> int | None:
        if record.ai_player == player:
            return None  # the bot's own AI seat: the bot never DMs itself
        user_id = record.players[player]
        channel = await self._dm_channel(user_id)
        if channel is None:
            return None
        with i18n.use(await self.bot.languages.for_user(user_id)):
            content, controls = self.hand(record, player, names, drawn), self.controls(record, player)
        try:
            message = await channel.send(content, view=controls or discord.utils.MISSING)
        except discord.Forbidden as error:
            if error.code == CANNOT_DM:
                log.info("user %s does not accept DMs (game %s)", user_id, record.id)
            else:
                log.warning("DM to user %s refused (game %s): code %s", user_id, record.id, error.code)
            await self.bot.delivery.set_dm_closed(user_id, True)
            await self.bot.delivery.owe_dm_tip(record.id, user_id)
            return None
        await self.bot.delivery.set_dm_closed(user_id, False)  # they opened their DMs again
        return message.id

    async def _dm_channel(self, user_id: int) -> discord.DMChannel | None:
        channel = self._dm_channels.get(user_id)
        if channel is not None:
            return channel
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            channel = user.dm_channel or await user.create_dm()
        except discord.HTTPException:
            log.warning("cannot open a DM channel with user %s", user_id)
            return None
        self._dm_channels[user_id] = channel
        return channel


__all__ = ["CANNOT_DM", "Table"]

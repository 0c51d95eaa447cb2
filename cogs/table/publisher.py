"""The publishing side of the table: everything Discord shows of a game but the answers
to a player's own requests (those are :mod:`cogs.table.requests`).

:class:`Publisher` (one per bot, made by :mod:`cogs.schotten`) is the single place that

* publishes an outcome (:meth:`Publisher.publish`): the board, the end announcement, and
  the DM messages the outcome changes, edited in place (:meth:`Publisher._plan`: at most
  three calls against Discord's global rate limit for a move that does not end the
  game). The board lives in the game's own thread where the server has them
  (:mod:`cogs.table.threads`), else in its channel. When the turn passes it pings the
  player to move if they want it now (:mod:`cogs.table.pings`): a ping is a new board
  (an edit notifies nobody), the previous one deleted; without a ping the board in a
  thread is edited in place, the one in a channel is posted anew (it would be buried
  under other games). Claims of the latest turn are written on it. A player's moves,
  AI moves and timer forfeits are published the same way;
* starts a game (:meth:`Publisher.start`): its thread, the first board and both DMs,
  from the outbox entry the game's creation recorded;
* publishes what a crashed or failed publication left in the outbox
  (:meth:`Publisher.publish_pending`), adopting what Discord had already taken, and
  reminds the player to move (:meth:`Publisher.remind`);
* draws a seat's hand and controls (:meth:`Publisher.hand`, :meth:`Publisher.controls`,
  :meth:`Publisher.seat`) from views memoised per seat, for the DMs and for the request
  side's answers.

Boards and hands are text, or pictures where the server (the channel's board) or the
member (their DM and private replies) chose the picture style (``bot.styles``): the
same message with the picture attached, the text one click away (Show as text). A
picture is drawn from the game's public view only (``bot.pictures``, in a thread,
cached), a hand picture from its owner's view, for its owner; attaching it costs no
call more (the edit or send carries it).

A hand only ever goes to its owner: into their DM or an ephemeral reply.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import discord

from bot.app import SchottenBot
from bot.community.ratings import GLOBAL_SCOPE, guild_scope
from bot.games.errors import ServiceError
from bot.games.live import LiveGame, MoveOutcome
from bot.games.lru import LRU
from bot.text import i18n
from bot.text.catalogue import t
from cogs.table.dms import DirectMessages, nonce, recent_messages
from cogs.table.layouts import board_view, hand_controls, with_text_button
from cogs.table.lobby import rematch_view
from cogs.table.messages import (
    Names,
    Picture,
    attachments,
    board_message,
    board_text,
    end_text,
    hand_text,
    tournament_lines,
    upload,
)
from cogs.table.pings import mentioning, reminder_ping, to_move, turn_of, turn_ping
from cogs.table.requests import Seat, Selection, ShowHandButton, drawn_by
from cogs.table.threads import Threads, link
from cogs.ui.links import with_link, with_seat_link
from cogs.ui.replies import NO_MENTIONS
from rules.cards import Card
from rules.view import PlayerView

log = logging.getLogger(__name__)

VIEWS_KEPT = 32  # a move renders each seat's view a few times; a view is cheap to redo
BOARD_BUTTON = ShowHandButton.__discord_ui_compiled_template__


def _boards_of(messages: Iterable[discord.Message], game_id: int) -> list[tuple[discord.Message, int | None]]:
    """The boards of ``game_id`` among ``messages`` with the version each shows (None:
    a board posted before boards carried it), recognised by their Show-my-hand button."""
    boards = []
    for message in messages:
        for row in message.components:
            for item in getattr(row, "children", ()):
                found = BOARD_BUTTON.fullmatch(getattr(item, "custom_id", None) or "")
                if found is not None and int(found["game"]) == game_id:
                    version = found["version"]
                    boards.append((message, None if version is None else int(version)))
    return boards


@dataclass(frozen=True)
class _Plan:
    """What one publication changes on Discord (see :meth:`Publisher._plan`)."""

    new_board: bool  # a member's new turn: the board posted anew (in a thread: if it pings)
    dms: frozenset[int]  # the players whose DM is refreshed
    start: bool = False  # the game's first publication


BOTH = frozenset({0, 1})


class Publisher(DirectMessages):
    def __init__(self, bot: SchottenBot) -> None:
        self.bot = bot
        self._publish_locks: dict[int, asyncio.Lock] = {}
        self._dm_channels: dict[int, discord.DMChannel] = {}
        # (game, seat) -> (version, view): the latest views only, a few games' worth
        self._views: LRU[tuple[int, int], tuple[int, PlayerView]] = LRU(VIEWS_KEPT)
        self.threads = Threads(bot)  # where each game's board lives
        # Called after every game that ends, once published (e.g. a tournament's next
        # round); each one's failure is logged, the others still run.
        self.after_end: list[Callable[[LiveGame], Awaitable[None]]] = []

    async def names(self, record: LiveGame) -> Names:
        return await self.bot.names.pair(record.players, record.guild_id)

    def channel(self, record: LiveGame) -> discord.PartialMessageable | None:
        """The game's channel (None for a game in the bot's DM)."""
        if record.channel_id is None:
            return None
        return self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)

    def view(self, record: LiveGame, player: int) -> PlayerView:
        """``record.game.view(player)``, memoised: a view computes the legal moves (claim
        proofs included) and one move is rendered several times. One view per seat."""
        key = (record.id, player)
        hit = self._views.get(key)
        if hit is None or hit[0] != record.version:
            hit = (record.version, record.game.view(player))
            self._views.put(key, hit)
        return hit[1]

    def controls(
        self, record: LiveGame, player: int, selection: Selection | None = None, *, as_text: bool = False
    ) -> discord.ui.View | None:
        """``player``'s controls; ``as_text``: with Show as text (beside a picture)."""
        view = self.view(record, player)
        controls = hand_controls(record.id, record.version, view, selection or Selection(), hint=record.vs_ai)
        return with_text_button(controls, record.id, record.version) if as_text else controls

    def board(self, record: LiveGame, names: Names) -> str:
        """The channel's text board (no mention): what Show as text answers."""
        match = self.bot.matches.cached(record.match_id) if record.match_id is not None else None
        return board_text(record, self.view(record, 0), names, match)

    def hand(self, record: LiveGame, player: int, names: Names, drawn: Sequence[Card] = ()) -> str:
        return hand_text(record, self.view(record, player), names, drawn)

    async def seat(self, record: LiveGame, player: int, names: Names, drawn: Sequence[Card] = ()) -> Seat:
        """``player``'s private message in their style, in the current language: the text
        hand message and controls, or its caption, the picture of their board (from the
        public view) and their own hand, and the controls with Show as text."""
        header = tournament_lines(record, await self.bot.tournaments.label(record))
        if await self.bot.styles.for_user(record.players[player]) != "picture":
            text = hand_text(record, self.view(record, player), names, drawn, header=header)
            controls = await with_seat_link(self.controls(record, player), self.bot, record, player)
            return Seat(text, controls)
        view = self.view(record, player)
        data = await self.bot.pictures.seat(view.public(), names, view.hand, game_id=record.id, player=player)
        picture = Picture(
            data, f"game-{record.id}-{record.version}.png", t("picture.seat_alt", game_id=record.id)
        )
        caption = hand_text(record, view, names, drawn, board=False, header=header)
        controls = await with_seat_link(self.controls(record, player, as_text=True), self.bot, record, player)
        return Seat(caption, controls, picture)

    # ---------------------------------------------------------------- start

    async def start(self, record: LiveGame, *, announced: bool = False) -> None:
        """Publish a new game: its thread, its first board (pinging the player to move
        if they want it) and both hands. The transaction that created the game recorded
        this publication in the outbox; claiming it here makes it once, whoever else
        (another process, the recovery after a crash) is at it. ``announced``: an
        announcement (a tournament round's) has just pinged the players, so the first
        turn is not pinged again."""
        entry = None
        if self.bot.service.outbox:
            entry = await self.bot.delivery.claim_start(record.id, record.version)
            if entry is None:
                return  # published already, or another process is at it
        if announced:
            await self.bot.delivery.mark_pinged(record.id, turn_of(record))
        async with self._publish_lock(record.id):
            await self._show(record, _Plan(new_board=True, dms=BOTH, start=True))
        if entry is not None:
            await self.bot.delivery.done(entry)

    # ---------------------------------------------------------------- publish

    async def publish(
        self,
        outcome: MoveOutcome,
        *,
        skip_dm: int | None = None,
        recovering: bool = False,
        refresh_dm: int | None = None,
    ) -> None:
        """Show a committed outcome: the board, the end, the DMs its plan names (see
        :meth:`_plan`; not the DM of ``skip_dm``, already updated by the move's own
        response). ``recovering``: made again by :meth:`publish_pending`, which may
        find that an interrupted attempt already posted some of it. ``refresh_dm``: a
        player whose DM is refreshed as well (a move made at the table, which no
        answer in Discord showed: their DM would keep the hand they had).

        The outcome's outbox entry is claimed first and marked done after: if this
        process dies (or Discord fails) in between, :meth:`publish_pending` of some
        process publishes it later; if another process holds it, it is left to that one."""
        record = outcome.game
        entry = outcome.outbox_id
        if entry is not None and not await self.bot.delivery.claim(entry):
            return
        async with self._publish_lock(record.id):
            # Publishing the latest record keeps the messages right even if two
            # outcomes of one game are published out of order.
            latest = await self.bot.service.get(record.id)
            if latest.version > record.version:
                # A later change is committed and publishes itself. A move of the same
                # turn would only edit the board, so the turn change is shown here, from
                # the latest state; anything else (the end too) is left to the later
                # publication.
                if outcome.turn_changed and not latest.game.is_over:
                    await self._show(latest, self._plan(latest, turn_changed=True), recovering=recovering)
            else:
                # The same game as the outcome's, but with the message ids as this process
                # knows them now: an earlier outcome published late may have posted a
                # board since. (An older cached copy, from another process's move, is
                # not used.)
                shown = latest if latest.version == record.version else record
                drawn = {player: drawn_by(outcome.applied, player) for player in (0, 1)}
                plan = self._plan(shown, turn_changed=outcome.turn_changed, skip_dm=skip_dm)
                if refresh_dm is not None:
                    plan = dataclasses.replace(plan, dms=plan.dms | {refresh_dm})
                await self._show(shown, plan, drawn, recovering=recovering)
        if entry is not None:
            await self.bot.delivery.done(entry)
        if record.game.is_over:
            self._forget(record.id)
            await self.bot.delivery.forget_private_replies(record.id)
            await self._start_next_of_match(record)
            for hook in self.after_end:
                try:
                    await hook(record)
                except Exception:
                    log.exception("a hook after the end of game %d failed", record.id)
        self.bot.opponent.notice(record)  # the AI's turn, if it is

    def _plan(self, record: LiveGame, *, turn_changed: bool, skip_dm: int | None = None) -> _Plan:
        """What a publication of ``record`` changes. At most three calls that count
        against Discord's global rate limit for an ordinary move:

        * a new turn: the board posted anew, pinging the player to move if they want it
          (an edit notifies nobody), and the previous board deleted (in a thread, without
          a ping: the board edited in place); that player's DM. The
          mover's DM is not touched: their move's own response updated it (a click in
          the DM), or its controls are of no use until their next turn, when it is
          refreshed as "that player's DM";
        * a move that keeps the turn (a claim, a card before the draw): the board edited
          in place; the mover's DM unless their response updated it;
        * the end: the board edited, the end announcement, the DMs of both players but
          a mover's whose click in that DM already showed the end (three; four for a
          typed move, a resignation or a forfeit: no DM of theirs may keep saying it
          is their turn, with live controls);
        * a game nobody has seen yet (no board, no DM: its start, or a later move of a
          game whose start was never published): the board and both DMs.

        The turn goes to the AI without a new board: nobody is to be told. A player
        without a DM message gets one (unless their DMs refuse us)."""
        if record.board_message_id is None and record.dm_message_ids == (None, None):
            return _Plan(new_board=True, dms=BOTH, start=True)
        if record.game.is_over:
            return _Plan(new_board=False, dms=BOTH - {skip_dm})
        current = record.current_player
        assert current is not None  # the game is not over
        if turn_changed:
            return _Plan(new_board=to_move(self.bot, record) is not None, dms=frozenset({current}))
        return _Plan(new_board=False, dms=frozenset({current}) - {skip_dm})

    def _publish_lock(self, game_id: int) -> asyncio.Lock:
        return self._publish_locks.setdefault(game_id, asyncio.Lock())

    async def publish_pending(self) -> int:
        """Publish what committed changes still owe (the outbox), each by one process:
        left by a crash, or by a publication that failed. Rendered again from the stored
        game, looking first for what an interrupted attempt already posted. Returns how
        many were published."""
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
            record = await self.bot.service.reload(game_id)
        except ServiceError:
            return False  # gone or unreadable (logged by the service): nothing to show
        if kind == "reminder":
            if not record.is_active or record.version != version:
                return False  # moved on meanwhile: no reminder is due
            await self.remind(record, recovering=True)
            return True
        # A later change is stored: its own publication shows it. But when this entry
        # owed a turn change and the later moves kept the turn (their publications only
        # edit the board, notifying nobody), the new turn is shown here, from the stored
        # game; a later publication of that same version then adopts this board.
        if record.version != version and (kind != "turn" or not record.is_active):
            return False
        outcome = MoveOutcome(game=record, previous_version=version, turn_changed=kind == "turn")
        await self.publish(outcome, recovering=True)
        return True

    async def remind(
        self, record: LiveGame, *, outbox_id: int | None = None, recovering: bool = False
    ) -> None:
        """Remind the player to move that their time runs out (once per turn: the
        caller has claimed it with ``service.claim_reminder``)."""
        if outbox_id is not None and not await self.bot.delivery.claim(outbox_id):
            return
        channel = self.channel(record)
        if channel is not None and record.current_user is not None and record.deadline is not None:
            thread_id = await self.threads.thread_of(record)
            if thread_id is not None:
                channel = self.threads.channel(record, thread_id)
            deadline = discord.utils.format_dt(datetime.fromtimestamp(record.deadline, tz=UTC), "R")
            with i18n.use(await self._channel_language(record)):
                text = t(
                    "timer.reminder",
                    mention=f"<@{record.current_user}>",
                    game_id=record.id,
                    deadline=deadline,
                )
            try:
                if not (recovering and await self._posted(channel, text)):
                    await channel.send(
                        text,
                        allowed_mentions=mentioning(await reminder_ping(self.bot, record)),
                        nonce=nonce(record, "r"),
                    )
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
        record = await self.bot.service.reload(game_id)
        async with self._publish_lock(game_id):
            await self._show(record, _Plan(new_board=False, dms=BOTH))

    def _forget(self, game_id: int) -> None:
        """A finished game's in-memory entries (what is stored stays)."""
        self._publish_locks.pop(game_id, None)
        for player in (0, 1):
            self._views.pop((game_id, player))
        self.bot.delivery.forget_game(game_id)
        self.bot.pictures.forget(game_id)
        self.threads.forget(game_id)

    async def _show(
        self,
        record: LiveGame,
        plan: _Plan,
        drawn: Mapping[int, Sequence[Card]] | None = None,
        *,
        recovering: bool = False,
    ) -> None:
        """Make ``plan`` for ``record``: the channel first (board, end), then the DMs."""
        names = await self.names(record)
        channel = self.channel(record)
        if channel is not None:
            await self._show_in_channel(record, channel, names, plan, recovering=recovering)
        for player in (0, 1):
            if player in plan.dms or record.dm_message_ids[player] is None:
                cards = (drawn or {}).get(player, ())
                await self._update_dm(record, player, names, cards, first=plan.start, recovering=recovering)

    async def _channel_language(self, record: LiveGame) -> str:
        return await self.bot.languages.for_guild(record.guild_id)

    async def _show_in_channel(
        self,
        record: LiveGame,
        channel: discord.PartialMessageable,
        names: Names,
        plan: _Plan,
        *,
        recovering: bool,
    ) -> None:
        """The board (in the game's thread, if it has one) and the end (in the channel),
        in the server's language."""
        over = record.game.is_over
        if plan.start and record.match_id is not None:
            await self.bot.matches.refresh(record.match_id)  # its score line, current
        if plan.start:
            thread_id = await self.threads.place(record, names, recovering=recovering)
        else:
            thread_id = await self.threads.thread_of(record)
        board_channel = channel if thread_id is None else self.threads.channel(record, thread_id)
        ping = await turn_ping(self.bot, record) if plan.new_board else None
        # In a thread the board moves down only to ping: nothing else buries it there.
        repost = plan.new_board and (plan.start or thread_id is None or ping is not None)
        with i18n.use(await self._channel_language(record)):
            # Only where a message would be posted again: what an interrupted attempt
            # already posted is adopted, not repeated (one history request each, on
            # this rare path only).
            recent = await recent_messages(self.bot, board_channel) if recovering and repost else None
            if repost:
                await self._post_board(record, board_channel, names, recent, ping)
            else:
                await self._edit_board(record, board_channel, names)
            if over:
                ended = await recent_messages(self.bot, channel) if recovering else None
                await self._announce_end(record, channel, names, ended, thread_id)
        if repost or over:
            await self._drop_turn_mention(record, channel)
        if over and thread_id is not None:
            await self.threads.archive(record, thread_id)

    async def _board_message(
        self, record: LiveGame, names: Names, mention: int | None = None
    ) -> tuple[str, Picture | None, discord.ui.View]:
        """The channel's board message in the server's style (and the current language):
        its text (opening with ``mention``'s turn, when it pings), its picture (None: the
        text style) and its buttons. The picture is the public view, player 0 below the
        stones as on the text board."""
        match = self.bot.matches.cached(record.match_id) if record.match_id is not None else None
        finished = record.game.is_over
        header = tournament_lines(record, await self.bot.tournaments.label(record))
        if await self.bot.styles.for_guild(record.guild_id) != "picture":
            content = board_message(
                record, self.view(record, 0), names, match, mention=mention, header=header
            )
            view = board_view(record.id, record.version, finished=finished)
            return content, None, await with_link(view, self.bot, "watch", record.id, record.guild_id)
        content = board_message(
            record, self.view(record, 0), names, match, mention=mention, board=False, header=header
        )
        data = await self.bot.pictures.board(record.game.public_view(), names, game_id=record.id, bottom=0)
        picture = Picture(
            data, f"board-{record.id}-{record.version}.png", t("picture.board_alt", game_id=record.id)
        )
        view = board_view(record.id, record.version, finished=finished, picture=True)
        return content, picture, await with_link(view, self.bot, "watch", record.id, record.guild_id)

    async def _post_board(
        self,
        record: LiveGame,
        channel: discord.PartialMessageable,
        names: Names,
        recent: Sequence[discord.Message] | None,
        ping: int | None,
    ) -> None:
        """Post the board anew (pinging ``ping``, if any) and delete the previous one: an
        edit would notify nobody, and a separate mention would cost a message more, and
        its deletion another. When recovering, a board of this version that an
        interrupted attempt posted is adopted, and every older board of the game in
        sight is deleted (the previous one's id may not have been stored)."""
        content, picture, view = await self._board_message(record, names, ping or await self._pinged(record))
        previous = record.board_message_id
        boards = _boards_of(recent or (), record.id)
        posted = next((message for message, version in boards if version == record.version), None)
        if posted is None:
            message = await channel.send(
                content,
                view=view,
                file=upload(picture),
                allowed_mentions=mentioning(ping),
                nonce=nonce(record, "b"),
            )
            board_id = message.id
        else:
            board_id = posted.id
            log.info("board of game %s at version %s was posted already; adopted", record.id, record.version)
        if ping is not None:
            await self.bot.delivery.mark_pinged(record.id, turn_of(record))  # this turn's one ping
        if board_id != previous:
            await self.bot.service.set_message_ids(record.id, board_message_id=board_id)
        stale = ({previous} | {message.id for message, _ in boards}) - {board_id, None}
        for message_id in sorted(m for m in stale if m is not None):
            try:
                await channel.get_partial_message(message_id).delete()
            except discord.HTTPException:
                log.info("could not delete an old board of game %s", record.id)

    async def _edit_board(self, record: LiveGame, channel: discord.PartialMessageable, names: Names) -> None:
        """Edit the board in place (a move that keeps the turn, the end, a turn without a
        ping in a thread); post it if it is gone. A turn that had its ping keeps saying
        so (an edit notifies nobody)."""
        content, picture, view = await self._board_message(record, names, await self._pinged(record))
        if record.board_message_id is not None:
            try:
                # One call, the new picture (or none, for text) replacing the old one.
                await channel.get_partial_message(record.board_message_id).edit(
                    content=content, view=view, attachments=attachments(picture), allowed_mentions=NO_MENTIONS
                )
                return
            except discord.NotFound:
                log.info("board message of game %s is gone; posting a new one", record.id)
        message = await channel.send(
            content, view=view, file=upload(picture), allowed_mentions=NO_MENTIONS, nonce=nonce(record, "b")
        )
        await self.bot.service.set_message_ids(record.id, board_message_id=message.id)

    async def _pinged(self, record: LiveGame) -> int | None:
        """The player to move if their turn has had its ping: the board keeps saying it
        is their turn (without notifying them again)."""
        mover = to_move(self.bot, record)
        if mover is None or not await self.bot.delivery.pinged(record.id, turn_of(record)):
            return None
        return mover

    async def _drop_turn_mention(self, record: LiveGame, channel: discord.PartialMessageable) -> None:
        """Delete the separate "your turn" message that boards posted before the mention
        moved into the board itself left standing (its id is stored, so once)."""
        delivery = self.bot.delivery
        previous = await delivery.ping_message(record.id)
        if previous is None:
            return
        await delivery.set_ping_message(record.id, None)
        try:
            await channel.get_partial_message(previous).delete()
        except discord.HTTPException:
            log.info("could not delete an old turn mention of game %s", record.id)

    async def _posted(self, channel: discord.abc.Messageable, content: str) -> bool:
        """Whether the bot's recent messages in ``channel`` hold ``content`` already."""
        return any(message.content == content for message in await recent_messages(self.bot, channel))

    async def _announce_end(
        self,
        record: LiveGame,
        channel: discord.PartialMessageable,
        names: Names,
        recent: Sequence[discord.Message] | None,
        thread_id: int | None,
    ) -> None:
        """The result, rating changes, a match's score, the link to the game's thread
        and the Rematch button (not for a tournament's game: the next round is the
        tournament's)."""
        scope = GLOBAL_SCOPE if record.guild_id is None else guild_scope(record.guild_id)
        changes = await self.bot.rankings.changes(record.id, scope)
        match = await self.bot.matches.refresh(record.match_id) if record.match_id is not None else None
        match_over = match is None or match.status == "finished"
        label = await self.bot.tournaments.label(record)
        offer_rematch = not record.vs_ai and match_over and label is None
        text = end_text(record, names, changes, match)
        if thread_id is not None:
            text += "\n" + link(thread_id)
        if recent is not None and any(message.content == text for message in recent):
            return  # announced by an interrupted attempt
        view = await with_link(
            rematch_view(record.id) if offer_rematch else None, self.bot, "replay", record.id, record.guild_id
        )
        await channel.send(
            text,
            view=view or discord.utils.MISSING,
            allowed_mentions=NO_MENTIONS,
            nonce=nonce(record, "e"),
        )

    async def _start_next_of_match(self, record: LiveGame) -> None:
        """After a game of a match ended: start the next one, which the result's
        transaction created (its first board says so)."""
        if record.match_id is None:
            return
        game_id = await self.bot.matches.next_game(record.match_id)
        if game_id is not None:
            await self.start(await self.bot.service.get(game_id))


__all__ = ["Publisher"]

"""``GameService``: the one place where a move is applied.

Every request goes the same way: take the game's lock, load the game, check that the
game is active, that the caller plays in it and that the control they used is current,
let the engine check the move, apply it (and the moves the rules force after it) to a
copy, commit the new log entries, the snapshot and the version in one transaction, and
only then publish the copy and return what changed. Two identical requests that arrive
together therefore apply once; the second is refused by the version check
(``StaleControl``) or by the engine (``NotYourTurn`` and friends).

Several bot processes may share one database, and any of them may receive any request,
so the lock and the cache only serve this process: the database decides. The commit is
a compare-and-set on the game's version; when it fails (``ConcurrentUpdate``: another
process committed first) the service reloads the game and checks the request again, so
the loser of a race gets the ordinary ``StaleControl`` (or the engine's refusal), and a
typed command is applied to the current position. A control made for a version newer
than the cached copy (shown by another process) also reloads the game first: only a
control older than the stored game has "moved on".

The cogs announce a ``MoveOutcome``; they never touch the engine's state themselves.
Cards drawn (``Applied.drawn``) are private to the mover: never log or broadcast them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections import defaultdict
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, TypeVar

from bot import metrics
from bot.games.commit import CONFIRM_DELAYS, GameStorage, ResultHook, read_back, store
from bot.games.errors import (
    AmbiguousGame,
    GameFinished,
    GameNotFound,
    GameUnreadable,
    MoveNotSaved,
    NoActiveGame,
    StaleControl,
)
from bot.games.live import LiveGame, MoveOutcome, apply_forced, from_row, log_entries, options_to_dict
from bot.games.lru import LRU
from bot.storage import (
    UNSET,
    ConcurrentUpdate,
    DatabaseUnavailable,
    GameRow,
    OutcomeUnknown,
    Repositories,
    Unset,
    outcome_unknown,
)
from rules.game import GIVE_UP, Applied, Game, GameOptions, GivingUp
from rules.moves import Move, parse_move

log = logging.getLogger(__name__)

T = TypeVar("T")

# Games kept loaded: a bound on memory. Each is about a hundred objects that every full
# garbage collection walks; one read again costs a database read and a parse, which a
# move then pays (bench/gc_pauses.py: 64 cached games of 300 in play cost a third of the
# moves/s, 1000 kept the longest pause under 10 ms).
CACHED_GAMES = 1000
# Commits tried per request when other processes keep winning the race: each retry
# reloads the game, so a request with a control's version stops after the first.
COMMIT_ATTEMPTS = 5


def _retrieve(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()  # retrieved: no "never retrieved" warning when nobody waits any more


async def _to_the_end(request: Coroutine[Any, Any, T]) -> T:
    """Run a request to its end even if the caller is cancelled (an interaction timing
    out, the bot shutting down): a move is then stored wholly, the game's lock is held
    until it is, and the cache never disagrees with the database."""
    task = asyncio.ensure_future(request)
    task.add_done_callback(_retrieve)
    return await asyncio.shield(task)


class GameService:
    """Creates games and applies moves; the only writer of game state.

    ``turn_timeout`` (seconds) sets each turn's deadline. ``result_hooks`` run inside
    the transaction that finishes a game (after its result row is written), with that
    transaction's repositories, e.g. to update ratings, so that a result and its rating
    change commit together.

    ``outbox``: every commit (and every reminder claimed) also records, in the same
    transaction, the publication it owes (``MoveOutcome.outbox_id``), for the bot to
    publish and then mark done; one left pending by a crash is published later. Only
    the bot sets it: without a publisher (scripts, the terminal game) nothing would
    ever take those rows.
    """

    def __init__(
        self,
        db: GameStorage,
        *,
        clock: Callable[[], float] = time.time,
        turn_timeout: float = 86400,
        cached_games: int = CACHED_GAMES,
        outbox: bool = False,
    ) -> None:
        self.db = db
        self.clock = clock
        self.outbox = outbox
        self.turn_timeout = turn_timeout
        self.result_hooks: list[ResultHook] = []
        # Told every game committed (after the commit), e.g. the web pages' feeds
        # (bot/web/feeds.py): plain callables that must not block or raise.
        self.listeners: list[Callable[[LiveGame], None]] = []
        self.confirm_delays: Sequence[float] = CONFIRM_DELAYS
        # The games moved most recently; the others are read again when asked for.
        self._cache: LRU[int, LiveGame] = LRU(cached_games)
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    # -- reading ---------------------------------------------------------------------

    async def get(self, game_id: int) -> LiveGame:
        """The game with this id, finished or not. Raises ``GameNotFound``."""
        cached = self._cache.get(game_id)
        if cached is not None:
            return cached
        record = await self._read(game_id)
        if record.is_active:
            # A move committed while we were reading has cached a newer record: keep it.
            current = self._cache.get(game_id)
            if current is not None and current.version >= record.version:
                return current
            self._cache.put(game_id, record)
        return record

    def games_in_memory(self) -> set[int]:
        """The games this process holds anything of (cached records, locks)."""
        return set(self._cache) | set(self._locks)

    async def reload(self, game_id: int) -> LiveGame:
        """The game as stored now, whatever this process cached (another process, or an
        operator's repair, may have changed it)."""
        async with self._locks[game_id]:
            self._cache.pop(game_id)
            return await self.get(game_id)

    async def active_games_for(self, user_id: int) -> list[LiveGame]:
        """The user's active games, oldest first."""
        return self._records(await self.db.games.active_games(user_id))

    async def find_game_for(
        self, user_id: int, channel_id: int | None, game_id: int | None = None
    ) -> LiveGame:
        """The game a command without an explicit game means.

        An explicit ``game_id`` wins (any game, also finished, also as a spectator);
        else the caller's active game in this channel or thread; else their only one.
        Raises ``GameNotFound``, ``AmbiguousGame`` (with ``.games``) or ``NoActiveGame``.
        """
        if game_id is not None:
            return await self.get(game_id)
        games = await self.active_games_for(user_id)
        here = [g for g in games if channel_id is not None and channel_id in (g.channel_id, g.thread_id)]
        for candidates in (here, games):
            if len(candidates) == 1:
                return candidates[0]
            if len(candidates) > 1:
                raise AmbiguousGame(candidates)
        raise NoActiveGame(user_id)

    async def games_due(self, now: float | None = None) -> list[LiveGame]:
        """Active games whose player to move is out of time (see ``forfeit_overdue``)."""
        now = self.clock() if now is None else now
        return self._records(await self.db.games.games_due(now))

    async def games_to_remind(self, after: float, now: float | None = None) -> list[LiveGame]:
        """Active games whose turn began ``after`` seconds ago or more, not yet reminded."""
        now = self.clock() if now is None else now
        return self._records(await self.db.games.games_to_remind(now, after))

    # -- creating --------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        players: tuple[int, int],
        options: GameOptions,
        seed: int | None = None,
        first_player: int | None = None,
        match_id: int | None = None,
        ai_player: int | None = None,
        ai_level: str | None = None,
    ) -> LiveGame:
        """Start a game; ``players[0]`` becomes engine player 0. ``ai_player``: the seat
        the bot's own AI plays (``players[ai_player]`` is the bot's user id), at
        ``ai_level``; the AI's turns have no deadline."""
        async with self.db.transaction() as tx:
            record = await self.insert_game(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                players=players,
                options=options,
                seed=seed,
                first_player=first_player,
                match_id=match_id,
                ai_player=ai_player,
                ai_level=ai_level,
            )
        self._cache.put(record.id, record)
        return record

    async def insert_game(
        self,
        tx: Repositories,
        *,
        guild_id: int | None,
        channel_id: int | None,
        players: tuple[int, int],
        options: GameOptions,
        seed: int | None = None,
        first_player: int | None = None,
        match_id: int | None = None,
        ai_player: int | None = None,
        ai_level: str | None = None,
        turn_timeout: float | None = None,
    ) -> LiveGame:
        """:meth:`create_game` inside the caller's transaction ``tx`` (a challenge's
        answer, a match's next game). Forced moves at the start, if any, are applied
        first. With the outbox, the game's first publication is recorded in the same
        transaction. ``turn_timeout``: this game's seconds per turn (a tournament's), else
        the service's."""
        if players[0] == players[1]:
            raise ValueError("a game needs two different players")
        if ai_player not in (None, 0, 1):
            raise ValueError("ai_player must be 0, 1 or None")
        seed = secrets.randbits(62) if seed is None else seed
        game = Game.new(seed=seed, options=options, first_player=first_player)
        starter = game.first_player
        assert starter is not None  # Game.new always decides who starts
        apply_forced(game)
        now = self.clock()
        deadline = None if game.is_over else self._deadline(ai_player, game, now, turn_timeout)
        game_id = await tx.games.insert_game(
            guild_id=guild_id,
            channel_id=channel_id,
            players=players,
            options=options_to_dict(options),
            seed=seed,
            first_player=starter,
            match_id=match_id,
            state=game.to_dict(),
            version=game.version,
            now=now,
            deadline=deadline,
            ai_player=ai_player,
            ai_level=ai_level,
            turn_timeout=turn_timeout,
        )
        if game.log:
            await tx.games.append_moves(game_id, log_entries(game, 0), version=game.version, now=now)
        if self.outbox:
            # The first board and both hands: owed from this commit on, like a move's. Of
            # kind "turn" (the player to move is mentioned); the table claims it with
            # Delivery.claim_start, by game and version.
            await tx.delivery.add_outbox(game_id, game.version, "turn", now=now)
        log.info("Game %d created (guild %s, channel %s)", game_id, guild_id, channel_id)
        return LiveGame(
            id=game_id,
            guild_id=guild_id,
            channel_id=channel_id,
            players=players,
            options=options,
            seed=seed,
            status="active",
            game=game,
            version=game.version,
            created_at=now,
            updated_at=now,
            turn_started_at=now,
            deadline=deadline,
            match_id=match_id,
            first_player=starter,
            ai_player=ai_player,
            ai_level=ai_level,
            turn_timeout=turn_timeout,
        )

    # -- moving ----------------------------------------------------------------------

    async def apply(
        self, game_id: int, user_id: int, move: Move | str, *, expected_version: int | None = None
    ) -> MoveOutcome:
        """Apply ``user_id``'s ``move`` to the game. The bot's controls and commands send
        ``Move`` values; text in the move notation (scripts, tests) is parsed here, as a
        move of the rules only (resigning goes through :meth:`resign`).

        ``expected_version`` is the version the control was made for; if the game is
        elsewhere now, ``StaleControl`` is raised and nothing changes. Raises
        ``GameNotFound``, ``GameFinished``, ``NotAPlayer``, ``StaleControl``, or the
        engine's ``IllegalMove``/``NotationError`` unchanged.
        """
        return await _to_the_end(self._apply(game_id, user_id, move, expected_version))

    async def _apply(
        self, game_id: int, user_id: int, move: Move | str, expected_version: int | None
    ) -> MoveOutcome:
        def step(record: LiveGame) -> tuple[Game, list[Applied]]:
            player = record.require_player(user_id)
            parsed = (
                parse_move(move, max_value=record.game.ruleset.max_value) if isinstance(move, str) else move
            )
            game = record.game.clone()
            applied = [game.apply(parsed, player=player)]  # validates; raises before any change
            applied += apply_forced(game)
            return game, applied

        outcome = await self._change(game_id, expected_version, step)
        log.info(
            "Game %d: %s by player %d -> version %d",
            game_id,
            type(move).__name__ if not isinstance(move, str) else "move",
            outcome.game.require_player(user_id),
            outcome.game.version,
        )
        return outcome

    async def resign(
        self,
        game_id: int,
        user_id: int,
        *,
        expected_version: int | None = None,
        reason: GivingUp = "resigned",
    ) -> MoveOutcome:
        """``user_id`` gives up; the opponent wins. ``reason``: "resigned", or "withdrawn"
        and "kicked" for a player who left the game's tournament or was removed from it."""
        loser: Callable[[LiveGame], int] = lambda record: record.require_player(user_id)  # noqa: E731
        return await _to_the_end(self._end(game_id, loser, GIVE_UP[reason], expected_version))

    async def forfeit(self, game_id: int, player: int, *, expected_version: int | None = None) -> MoveOutcome:
        """Engine ``player`` loses on time (reason "timeout")."""
        return await _to_the_end(self._end(game_id, lambda _record: player, Game.forfeit, expected_version))

    async def _end(
        self,
        game_id: int,
        loser: Callable[[LiveGame], int],
        end: Callable[[Game, int], Applied],
        expected_version: int | None,
    ) -> MoveOutcome:
        """The game ended by ``end`` (``Game.resign``, ``Game.forfeit``, ...), lost by the
        engine player ``loser`` names in the game's record."""

        def step(record: LiveGame) -> tuple[Game, list[Applied]]:
            game = record.game.clone()
            return game, [end(game, loser(record))]

        outcome = await self._change(game_id, expected_version, step)
        log.info("Game %d: player %d lost (%s)", game_id, loser(outcome.game), end.__name__)
        return outcome

    async def forfeit_overdue(self, now: float | None = None) -> list[MoveOutcome]:
        """Forfeit every game whose player to move is past the deadline. Safe to call
        from a timer loop after a restart: a game that moved meanwhile is skipped."""
        now = self.clock() if now is None else now
        outcomes = []
        for record in await self.games_due(now):
            player = record.current_player
            if player is None:
                continue
            try:
                outcomes.append(await self.forfeit(record.id, player, expected_version=record.version))
            except (StaleControl, GameFinished):
                continue  # somebody moved (or resigned) in the meantime
        return outcomes

    async def mark_reminded(self, game_id: int, version: int) -> bool:
        """Claim the reminder of the player to move at ``version``: True for the one
        caller (of any process) that did, False if done already or moved on."""
        claimed, _ = await self.claim_reminder(game_id, version)
        return claimed

    async def claim_reminder(self, game_id: int, version: int) -> tuple[bool, int | None]:
        """:meth:`mark_reminded`, and with the outbox the id of the reminder to send,
        recorded in the same transaction (None without the outbox)."""
        entry = None
        async with self._locks[game_id]:
            async with self.db.transaction() as tx:
                done = await tx.games.mark_reminded(game_id, version)
                if done and self.outbox:
                    entry = await tx.delivery.add_outbox(game_id, version, "reminder", now=self.clock())
            cached = self._cache.get(game_id)
            if done and cached is not None and cached.version == version:
                self._cache.put(game_id, dataclasses.replace(cached, reminded=True))
            return done, entry

    async def set_message_ids(
        self,
        game_id: int,
        *,
        board_message_id: int | Unset | None = UNSET,
        dm_message_ids: dict[int, int | None] | None = None,
        thread_id: int | Unset | None = UNSET,
    ) -> LiveGame:
        """Remember the board, DM (by engine player 0/1) and thread ids, for edits after a
        restart. Unchanged ones are left alone."""
        async with self._locks[game_id]:
            record = await self.get(game_id)
            await self.db.games.set_message_ids(
                game_id, board_message_id=board_message_id, dm_message_ids=dm_message_ids, thread_id=thread_id
            )
            dms = list(record.dm_message_ids)
            for player, message_id in (dm_message_ids or {}).items():
                dms[player] = message_id
            record = dataclasses.replace(
                record,
                board_message_id=record.board_message_id
                if isinstance(board_message_id, Unset)
                else board_message_id,
                dm_message_ids=(dms[0], dms[1]),
                thread_id=record.thread_id if isinstance(thread_id, Unset) else thread_id,
            )
            if record.is_active:
                self._cache.put(game_id, record)
        if not record.is_active:
            self._locks.pop(game_id, None)
        return record

    # -- internals -------------------------------------------------------------------

    async def current(self, game_id: int, expected_version: int) -> LiveGame:
        """The active game at ``expected_version`` (a control's), read again from the
        database if the cached copy is older. Raises ``GameFinished`` or ``StaleControl``."""
        async with self._locks[game_id]:
            return await self._active(game_id, expected_version)

    async def _active(self, game_id: int, expected_version: int | None) -> LiveGame:
        """The game, active, at ``expected_version`` unless that is None. Call it holding
        the game's lock."""
        record = await self.get(game_id)
        if expected_version is not None and expected_version > record.version:
            # The control was made from a newer state than ours: another process moved
            # this game. Our copy is stale, not the control.
            self._cache.pop(game_id)
            record = await self.get(game_id)
        if not record.is_active or record.game.is_over:
            raise GameFinished(game_id)
        if expected_version is not None and expected_version != record.version:
            raise StaleControl(game_id, expected_version, record.version)
        return record

    async def _change(
        self,
        game_id: int,
        expected_version: int | None,
        step: Callable[[LiveGame], tuple[Game, list[Applied]]],
    ) -> MoveOutcome:
        """Apply ``step`` (which changes a copy of the game, or raises) and commit it.

        If another process commits this game first, the compare-and-set fails; the game
        is read again and ``step`` checked against it (a control's version then no longer
        matches: ``StaleControl``). ``ConcurrentUpdate`` never leaves the service."""
        async with self._locks[game_id]:
            if expected_version is None:
                # A typed command means "now": check it against the stored game, which
                # another process may have moved since this one cached it.
                self._cache.pop(game_id)
            for _ in range(COMMIT_ATTEMPTS):
                record = await self._active(game_id, expected_version)
                game, applied = step(record)
                try:
                    return await self._commit(record, game, applied)
                except ConcurrentUpdate:
                    # _commit has dropped the cached copy: the next round reads it again.
                    log.info("Game %d: another process moved it first; reloaded", game_id)
            record = await self._active(game_id, None)
            expected = record.version if expected_version is None else expected_version
            raise StaleControl(game_id, expected, record.version)

    def _deadline(
        self, ai_player: int | None, game: Game, now: float, timeout: float | None = None
    ) -> float | None:
        """The deadline of the turn starting now: none for the bot's AI (it always moves,
        so the timers never remind or forfeit it)."""
        if ai_player is not None and game.current_player == ai_player:
            return None
        return now + (self.turn_timeout if timeout is None else timeout)

    async def _commit(self, record: LiveGame, game: Game, applied: Sequence[Applied]) -> MoveOutcome:
        """Store ``game`` (a changed copy of ``record.game``) and publish it."""
        now = self.clock()
        finished = game.is_over
        turn_changed = not finished and game.current_player != record.game.current_player
        if finished:
            turn_started_at, deadline, reminded = None, None, False
        elif turn_changed:
            turn_started_at, deadline, reminded = (
                now,
                self._deadline(record.ai_player, game, now, record.turn_timeout),
                False,
            )
        else:
            turn_started_at, deadline, reminded = record.turn_started_at, record.deadline, record.reminded
        new = dataclasses.replace(
            record,
            game=game,
            version=game.version,
            status="finished" if finished else "active",
            updated_at=now,
            turn_started_at=turn_started_at,
            deadline=deadline,
            reminded=reminded,
        )
        entries = log_entries(game, len(record.game.log))
        confirmed = False  # stored, as read back after a commit that failed
        try:
            outbox_id, result_row = await store(
                self.db,
                record,
                new,
                entries,
                turn_changed=turn_changed,
                now=now,
                outbox=self.outbox,
                result_hooks=self.result_hooks,
            )
        except ConcurrentUpdate:
            self._cache.pop(record.id)  # the next request reloads it
            raise
        except Exception as error:
            # Whether or not the commit reached the disk, the next request reloads it.
            self._cache.pop(record.id)
            if not outcome_unknown(error):
                raise
            # The database went away during the transaction, maybe after its COMMIT was
            # durable: ask it what it holds before anybody is told anything.
            log.warning(
                "Game %d: the commit of version %d failed (%s); reading it back",
                record.id,
                game.version,
                type(error).__name__,
            )
            stored = await read_back(
                self.db, record, game, entries, now=now, outbox=self.outbox, delays=self.confirm_delays
            )
            if stored is None:
                if isinstance(error, DatabaseUnavailable) and not isinstance(error, OutcomeUnknown):
                    raise error  # refused before its COMMIT, as read back: "unreachable", now sure
                raise MoveNotSaved(record.id) from error
            log.info("Game %d: version %d was stored after all", record.id, game.version)
            outbox_id, result_row = stored
            confirmed = True
        except BaseException:
            self._cache.pop(record.id)
            raise
        if finished:
            self._cache.pop(record.id)
            self._locks.pop(record.id, None)  # a finished game takes no more requests
            log.info("Game %d finished: %s", record.id, game.result)
        elif not confirmed:  # (read back: another process may have moved it on since)
            self._cache.put(record.id, new)
        metrics.MOVES.inc(len(entries))
        for listener in self.listeners:
            try:
                listener(new)
            except Exception:
                log.exception("Game %d: a commit listener failed", record.id)
        return MoveOutcome(
            game=new,
            applied=list(applied),
            finished=finished,
            previous_version=record.version,
            turn_changed=turn_changed,
            result=result_row,
            outbox_id=outbox_id,
        )

    async def _read(self, game_id: int) -> LiveGame:
        row = await self.db.games.get_game(game_id)
        if row is None:
            raise GameNotFound(game_id)
        return from_row(row)

    def _records(self, rows: Sequence[GameRow]) -> list[LiveGame]:
        """The readable games of ``rows``: one unreadable row (logged) never hides the rest."""
        records = []
        for row in rows:
            try:
                records.append(self._cached_or(row))
            except GameUnreadable:
                continue
        return records

    def _cached_or(self, row: GameRow) -> LiveGame:
        cached = self._cache.get(row.id)
        if cached is not None and cached.version >= row.version:
            return cached
        record = from_row(row)
        if record.is_active:
            self._cache.put(row.id, record)
        return record

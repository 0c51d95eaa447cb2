"""The bot's own AI opponent: ``/schotten practice`` and challenging the bot.

A game against the AI is an ordinary game whose seat ``record.ai_player`` belongs to the
bot's own user id; the service treats it like any player. :class:`Opponent` (one per
bot, ``bot.opponent``) plays that seat:

* After every published outcome the table calls :meth:`Opponent.notice`. When the AI is
  to move, one task per game plays the AI's whole turn: claims, the play or pass, the
  draw choice, move after move until the turn passes to the person or the game ends.
* Each decision is ``rules.ai.choose_move(view, level=..., seed=...)`` computed in a
  worker (a ``ProcessPoolExecutor`` of ``AI_WORKERS`` processes, created on first use),
  never on the event loop. Only the AI's :class:`~rules.view.PlayerView` is sent to the
  worker, never the person's hand. The searches go through a
  :class:`~bot.games.scheduler.FairScheduler`: each is for a member (the person of the
  game, the asker of a hint), and one member's queued searches never hold up another
  member's by more than the searches already running. A broken pool is replaced once.
* The move goes through ``service.apply(game_id, bot_user_id, move, expected_version)``
  like a person's, then through the same ``publish`` (the table's): the same board and
  DM updates.
* ``/schotten hint`` asks :meth:`Opponent.hint` for the hard AI's suggestion to the
  person: computed in the same workers from the person's own view (what they know, no
  more), once per position, at most ``hints_per_minute`` new searches per member and
  minute (:class:`HintRate`, counted in this process: the AI's work is per process).
* After a restart :meth:`Opponent.resume` restarts every game where the AI is to move.
  A turn whose task failed (the database went away while the AI thought or moved) is
  restarted by the timers' next round (:meth:`Opponent.restart_stalled`), once nothing
  was stored in that game for ``STALLED_AFTER`` seconds.

The AI's turns have no deadline (the service leaves it empty), so the timers never
remind or forfeit it. Games against the AI are flagged (``LiveGame.vs_ai``, column
``games.ai_player``) so that ratings can leave them out.
"""

from __future__ import annotations

import asyncio
import logging
import math
import multiprocessing
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from functools import partial
from typing import TYPE_CHECKING

from bot.games.errors import GameFinished, LimitReached, ServiceError, StaleControl
from bot.games.lru import LRU
from bot.games.scheduler import FairScheduler
from rules.ai import LEVELS, Budget, Hint, choose_move, hint, parse_level
from rules.errors import IllegalMove
from rules.moves import Move
from rules.view import PlayerView

if TYPE_CHECKING:
    from bot.games.live import LiveGame, MoveOutcome
    from bot.games.service import GameService
    from rules.game import GameOptions

log = logging.getLogger(__name__)

#: The AI's seat in a practice game: the person is engine player 0 (who moves first
#: still comes from the seed).
AI_SEAT = 1

DEFAULT_LEVEL = "medium"
#: A turn is a handful of moves (claims, play, draw), but when the person can only pass
#: (the service applies forced passes for them) the AI moves again and again; a whole
#: game has fewer moves than this, so it only bounds a buggy loop.
MAX_MOVES_IN_A_ROW = 500
#: Hints remembered per (game, version, player): asking again for the same position
#: (a double click, an impatient retry) costs nothing and cannot queue search after
#: search in front of the AI's own moves.
HINTS_KEPT = 256
#: An AI turn with nothing stored for this long, and no task of this process playing it,
#: has stalled (its task failed); the timers' round restarts it. Longer than the AI
#: thinks, so that a process does not start a turn another process is still playing.
STALLED_AFTER = 30.0

Publish = Callable[["MoveOutcome"], Awaitable[None]]


def decide(view: PlayerView, level: str, seed: int, budget: Budget | int | float | None = None) -> Move:
    """The AI's move; runs in a worker process (a top-level function, so it pickles)."""
    return choose_move(view, level=level, seed=seed, budget=budget)


def suggest(view: PlayerView, seed: int, budget: Budget | int | float | None = None) -> Hint:
    """The hard AI's suggestion for a person; runs in a worker process like :func:`decide`."""
    return hint(view, seed=seed, budget=budget)


def _person(record: LiveGame) -> int:
    """The member a game against the AI is for: whose queue its AI moves join."""
    assert record.ai_player is not None
    return record.players[1 - record.ai_player]


def ai_seed(record: LiveGame) -> int:
    """Reproducible per position of a game, different from game to game."""
    return (record.seed * 1_000_003 + record.version) % (1 << 62)


class HintRate:
    """At most ``per_minute`` hint searches per member in any 60 seconds (0: no limit).

    Counted in this process, like the searches themselves (each process has its own
    workers). Members are forgotten once their last search is a minute old."""

    WINDOW = 60.0

    def __init__(self, per_minute: int, clock: Callable[[], float]) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self._asked: dict[int, deque[float]] = {}

    def _recent(self, user_id: int, now: float) -> deque[float]:
        times = self._asked.get(user_id)
        if times is None:
            return deque()
        while times and times[0] <= now - self.WINDOW:
            times.popleft()
        if not times:
            del self._asked[user_id]
        return times

    def check(self, user_id: int) -> None:
        """Raise ``LimitReached`` (with the seconds until the next hint) when over the limit."""
        if not self.per_minute:
            return
        now = self.clock()
        times = self._recent(user_id, now)
        if len(times) >= self.per_minute:
            wait = max(1, math.ceil(times[0] + self.WINDOW - now))
            raise LimitReached("limit_hints", limit=self.per_minute, seconds=wait)

    def take(self, user_id: int) -> None:
        """Count one hint search for ``user_id`` (after :meth:`check`)."""
        if self.per_minute:
            self._recent(user_id, self.clock())  # drop what is a minute old first
            self._asked.setdefault(user_id, deque()).append(self.clock())


class Opponent:
    """Plays the AI's seat of every game against the bot.

    ``executor``: where decisions are computed. None (production): a process pool of
    ``workers`` processes, created on first use and shut down by :meth:`close`. Tests may
    pass a ``ThreadPoolExecutor``; an executor passed in is not shut down here.
    ``publish``: shows an outcome on Discord (the table's ``publish``, set by the
    practice cog); None publishes nothing. ``hints_per_minute``: new hint searches a
    member may ask for per minute (0: any number); ``max_games``: practice games a
    member may have open at once (0: any number), checked by :meth:`check_new_game`.
    """

    def __init__(
        self,
        service: GameService,
        *,
        workers: int = 1,
        executor: Executor | None = None,
        publish: Publish | None = None,
        budget: Budget | int | float | None = None,
        hints_per_minute: int = 0,
        max_games: int = 0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.workers = max(1, workers)
        self.publish = publish
        self.budget = budget
        self.max_games = max_games
        self.clock = clock
        self.hint_rate = HintRate(hints_per_minute, clock)
        if executor is None:
            self.scheduler = FairScheduler(slots=self.workers, factory=self._new_pool)
        else:
            # An executor passed in (tests) may run more at once than ``workers``; the
            # scheduler still hands it one job per worker at a time.
            self.scheduler = FairScheduler(slots=self.workers, executor=executor)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._hints: LRU[tuple[int, int, int], asyncio.Future[Hint]] = LRU(HINTS_KEPT)
        self.closed = False

    # ------------------------------------------------------------------ executor

    def _new_pool(self) -> Executor:
        # "spawn": a fresh interpreter, not a fork of a process with threads
        # (aiosqlite, the gateway) whose locks could be held at fork time.
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"))

    @property
    def executor(self) -> Executor:
        """The executor the searches run in (the pool is created on first use)."""
        return self.scheduler.executor

    async def think(self, record: LiveGame) -> Move:
        """The AI's next move in ``record``, computed in the executor."""
        assert record.ai_player is not None
        view = record.game.view(record.ai_player)  # the AI's view only
        level = str(parse_level(record.ai_level or DEFAULT_LEVEL))
        job = partial(decide, view, level, ai_seed(record), self.budget)
        return await self.scheduler.run(_person(record), job, urgent=True)

    async def hint(self, record: LiveGame, player: int) -> Hint:
        """What the hard AI would play for ``player`` now, and why: from that player's
        own view (a hint knows what they know), computed in the executor once per
        position. A new search beyond the member's hints per minute raises
        ``LimitReached``; asking again for the same position is free."""
        key = (record.id, record.version, player)
        pending = self._hints.get(key)
        if pending is None:
            asker = record.players[player]
            self.hint_rate.check(asker)
            self.hint_rate.take(asker)
            job = partial(suggest, record.game.view(player), ai_seed(record), self.budget)
            pending = asyncio.ensure_future(self.scheduler.run(asker, job))
            self._hints.put(key, pending)
        try:
            return await asyncio.shield(pending)
        except Exception:
            self._hints.pop(key)  # a failed search is not remembered
            raise

    async def start_game(
        self,
        *,
        user_id: int,
        bot_id: int,
        guild_id: int | None,
        channel_id: int | None,
        options: GameOptions,
        level: str,
    ) -> LiveGame:
        """A practice game of ``user_id`` against the AI (seat ``AI_SEAT``), checked by
        :meth:`check_new_game` and inserted in one transaction that holds the member's
        row: two requests at once, in one process or several, cannot pass the limits
        together."""
        async with self.service.db.transaction() as tx:
            await tx.players.lock(user_id, self.clock())
            await self.check_new_game(user_id, channel_id)
            return await self.service.insert_game(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                players=(user_id, bot_id),
                options=options,
                ai_player=AI_SEAT,
                ai_level=level,
            )

    async def check_new_game(self, user_id: int, channel_id: int | None) -> None:
        """Refuse a new practice game for ``user_id`` here: one is open in this channel
        (``practice_existing``) or ``max_games`` are open anywhere (``LimitReached``).
        Counted from the database, so every process agrees (exactly, inside
        :meth:`start_game`'s transaction; before it, as a quick private refusal)."""
        games = [record for record in await self.service.active_games_for(user_id) if record.vs_ai]
        for record in games:
            if record.channel_id == channel_id:
                raise ServiceError("practice_existing", game_id=record.id)
        if self.max_games and len(games) >= self.max_games:
            raise LimitReached(
                "limit_practice_games",
                limit=self.max_games,
                game_ids=", ".join(f"#{record.id}" for record in games),
            )

    # ------------------------------------------------------------------ turns

    def is_running(self, game_id: int) -> bool:
        task = self._tasks.get(game_id)
        return task is not None and not task.done()

    def notice(self, record: LiveGame) -> bool:
        """Called after an outcome is published (or a game started): if the AI is to
        move in ``record``'s game, play its turn in the background. True if started."""
        if self.closed or not record.is_active or not record.ai_to_move:
            return False
        if self.is_running(record.id):
            return False  # that task re-reads the game before every move
        task = asyncio.get_running_loop().create_task(self._play(record.id), name=f"ai-game-{record.id}")
        self._tasks[record.id] = task
        return True

    async def resume(self) -> int:
        """After a (re)start: play on every game where the AI is to move. Returns how many."""
        started = 0
        for row in await self.service.db.games.all_active_games():
            if row.ai_player is None:
                continue
            try:
                record = await self.service.get(row.id)
            except ServiceError:
                continue  # gone, or unreadable (logged by the service)
            started += self.notice(record)
        if started:
            log.info("Resumed the AI's turn in %d game(s)", started)
        return started

    async def restart_stalled(self, now: float | None = None) -> int:
        """The timers' round: restart the AI's turn in every game where the AI is to move,
        nothing was stored for ``STALLED_AFTER`` seconds and no task of this process plays
        it (one failed: a database error while it thought or moved). Returns how many."""
        if self.closed:
            return 0
        now = self.clock() if now is None else now
        started = 0
        for game_id in await self.service.db.games.ai_turns_since(now - STALLED_AFTER):
            if self.is_running(game_id):
                continue
            try:
                record = await self.service.reload(game_id)  # as stored, not as cached
            except ServiceError:
                continue  # gone, or unreadable (logged by the service)
            if self.notice(record):
                started += 1
                log.warning("Restarted the AI's stalled turn in game %d", game_id)
        return started

    async def wait_idle(self) -> None:
        """Wait until no AI turn is being played (for tests and the benchmark)."""
        while True:
            tasks = [task for task in self._tasks.values() if not task.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _play(self, game_id: int) -> None:
        try:
            for _ in range(MAX_MOVES_IN_A_ROW):
                if not await self._move(game_id):
                    return
            log.error("AI made %d moves in a row in game %d; stopped", MAX_MOVES_IN_A_ROW, game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI turn failed in game %d", game_id)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]

    async def _move(self, game_id: int) -> bool:
        """One AI move if the AI is to move; False when there is nothing (more) to do."""
        record = await self.service.get(game_id)
        if self.closed or not record.is_active or not record.ai_to_move:
            return False
        assert record.ai_player is not None
        try:
            move = await self.think(record)
        except Exception:
            # A bug in the AI must not stall the game: any legal move keeps it going.
            log.exception("AI failed to choose a move in game %d; playing a random one", game_id)
            move = choose_move(record.game.view(record.ai_player), level="random", seed=ai_seed(record))
        if self.closed:
            return False
        user_id = record.players[record.ai_player]
        try:
            outcome = await self.service.apply(game_id, user_id, move, expected_version=record.version)
        except (StaleControl, GameFinished):
            return True  # the person resigned or the game moved on: look again
        except IllegalMove as error:
            # Its code only: an engine message may name a card of the AI's hand.
            log.error("AI chose an illegal move (%s) in game %d; playing a random one", error.code, game_id)
            fallback = choose_move(record.game.view(record.ai_player), level="random", seed=ai_seed(record))
            outcome = await self.service.apply(game_id, user_id, fallback, expected_version=record.version)
        log.debug("AI moved in game %d -> version %d", game_id, outcome.game.version)
        if self.publish is not None:
            try:
                await self.publish(outcome)
            except Exception:
                # The move is committed; the next publish shows the latest state anyway.
                log.exception("publishing the AI's move in game %d failed", game_id)
        return True

    # ------------------------------------------------------------------ shutdown

    async def close(self) -> None:
        """Stop playing and shut the worker pool down (called by ``Bot.close``)."""
        self.closed = True
        tasks = [task for task in self._tasks.values() if not task.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
        self.scheduler.close()


__all__ = [
    "AI_SEAT",
    "DEFAULT_LEVEL",
    "LEVELS",
    "STALLED_AFTER",
    "HintRate",
    "Opponent",
    "ai_seed",
    "decide",
    "suggest",
]

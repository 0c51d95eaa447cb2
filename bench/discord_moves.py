"""Benchmark: many concurrent games driven through simcord, the whole stack per move.

    python bench/discord_moves.py [--games 100] [--burst 1 10 100] [--moves 1000]
                                  [--rate 20 50 100] [--duration 10] [--dm 300] [--seed 1]

Each game is started the way members start one (``/schotten challenge``, Accept). In the
burst and rate modes a move is the next move of a game's player to move, sent as a
``/schotten play|claim|pass`` interaction; its time runs from its arrival to the moment
the bot has finished with it: gateway parsing, the command, the game service (lock,
engine, SQLite commit on a file database in WAL mode), rendering, the DM edits, the
board message and the ephemeral answer. Queueing behind other moves is included. The
dm mode makes moves the way a player with open DMs does: card select, stone select,
Play (three interactions; a claim or an end of turn is one button), one move at a time;
its time is the sum, over its clicks, of the time from the click to the bot's last REST
request for it. Between two clicks simcord settles, and its settling can idle for up to
50 ms on a sleeping timer (in our runs, the sleep of the timers cog's discord.ext.tasks
loop), which is not the bot's time: the p99 from the first click to the end of the last
settling is printed beside it. Two load shapes:

* burst (closed loop): round after round, ``burst`` games each receive a move, all
  emitted at the same instant; the next round starts when everything has settled.
  Moves/s is moves over the time from each wave's first emit to the bot finishing its
  last move of the wave.
* rate (open loop): moves arrive as a Poisson process of ``R`` moves/s across all games
  (exponential inter-arrival times, seeded); each arrival is the next move of a random
  game that has no move in flight. A move's time starts at its *scheduled* arrival, so
  a driver delayed by a busy loop does not hide queueing. Moves/s is moves completed
  over the time from the first arrival to the last completion.

The driver picks moves from the true game state (it plays both sides); the bot sees
only interactions. Finished games are replaced by new ones outside the measurements.

Where the time goes: the bot shares its one event loop (one thread) with simcord,
which simulates Discord's REST API and gateway in-process. The script measures the
loop thread's CPU time (``time.thread_time``) over each measured stretch and splits it,
exclusively (nested sections are not counted twice), into:

* simulated Discord: simcord's HTTP router (``simcord.http.router.dispatch``: routing,
  request log deep copies, the route handlers) and gateway emission
  (``BackendBase.emit``: transcript, deep copy of each payload), minus the discord.py
  parsers they call. In production this is Discord's work, on Discord's machines.
* the bot: discord.py's gateway parsers, app-command handling (``CommandTree._call``,
  which runs the cog, discord.py's client-side REST plumbing and the response
  parsing) and component handling (``ViewStore.schedule_dynamic_item_call``, the same
  for buttons and selects; both reported as "command"), the game service
  (``GameService._apply``, excluding waits on the database thread) and the render
  functions.
* bench harness: the driver building interactions, and simcord's settling in burst mode
  (its scans grow with the tasks in flight; with bursts of 100 they dominate the loop
  and so the burst latencies).
* unattributed: the rest of the loop thread (asyncio scheduling, simcord's task
  tracking, any bot work in tasks outside the command).

The timing wrappers themselves cost a few percent of the loop's CPU.

CPU on other threads (aiosqlite's thread runs the SQLite statements) is reported
separately; fsync waits are not CPU and appear only in latency. Garbage collections on
the loop thread are a category of their own, with the longest full collection: they
pause the loop, so a single one shows up in the tail latencies. simcord records every
REST request and gateway payload, which nothing in production would hold; these logs are
dropped before each measured stretch (``--keep-logs`` keeps them).

Discord's own limits: Discord documents a global limit of about 50 REST requests/s per
bot for most endpoints (its developer-support article "My Bot is Being Rate Limited";
per-route and per-channel limits come on top). Interaction responses
(``/interactions/<id>/<token>/callback``) and the follow-ups and edits made with an
interaction's token (``/webhooks/<application>/<token>/...``) do not count against it;
every other call does. The script counts both, and the counted calls per kind of move
(a request is a move's when it names the game's channel or a player's DM channel). A
move that passes the turn costs 3 counted calls (the board posted anew with the mention
of the player to move, the previous board deleted, that player's DM edited); one that
keeps the turn 1 through the DM controls (the board edited; the hand is updated by the
interaction) or 2 typed (and the mover's DM); the last move of a game 3 (board, end
announcement, the other player's DM; the mover sees the end in their answer). A typed
move also makes 2 interaction calls (the deferral and the follow-up), so about 5 calls
in all. At about 3 counted calls per move Discord lets
one bot make some 16-17 moves/s; the open-loop rates above that are a stress test of
the bot, not a load Discord would deliver.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import logging
import os
import platform
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord
import simcord
import simcord.http.router as simcord_router
from discord.ui.view import ViewStore
from simcord import interactions as _ix
from simcord.backend.ops.base import BackendBase
from simcord.enums import AppCommandType, InteractionType

import cogs.table.messages as messages_module
import cogs.table.requests as requests_module
from bot.app import create_bot
from bot.community.preferences import Preferences
from bot.games.service import GameService
from rules.moves import Claim, Draw, Pass, PlayCard
from tests.cogs.helpers import dm_turn

TARGET_P99_MS = 50.0
DISCORD_GLOBAL_REQUESTS_PER_S = 50

DISCORD = "simulated Discord"
BOT_PARTS = ("gateway parse", "command", "service", "render")
HARNESS = "bench harness"
OTHER = "unattributed"
GC = "garbage collection"


class Profile:
    """Exclusive CPU time of the loop thread per category.

    A stack of categories: entering a section charges the thread CPU time since the
    last switch to the section below and pushes the new one; leaving charges it to the
    section and pops. Coroutines are timed step by step (each ``send``), so the time a
    coroutine spends suspended is charged to whatever runs meanwhile."""

    def __init__(self) -> None:
        self.thread = threading.get_ident()
        self.totals: dict[str, float] = defaultdict(float)
        self.stack = [OTHER]
        self.mark = time.thread_time()
        self.full_collections = 0
        self.gc_started = self.longest_full_collection = 0.0

    def _switch(self) -> None:
        now = time.thread_time()
        self.totals[self.stack[-1]] += now - self.mark
        self.mark = now

    def enter(self, category: str) -> None:
        self._switch()
        self.stack.append(category)

    def leave(self) -> None:
        self._switch()
        self.stack.pop()

    def snapshot(self) -> dict[str, float]:
        self._switch()
        return dict(self.totals)

    def wrap_sync(self, func: Callable[..., Any], category: str) -> Callable[..., Any]:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if threading.get_ident() != self.thread:
                return func(*args, **kwargs)
            self.enter(category)
            try:
                return func(*args, **kwargs)
            finally:
                self.leave()

        return wrapper

    def wrap_async(self, func: Callable[..., Any], category: str) -> Callable[..., Any]:
        profile = self

        @functools.wraps(func)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            return await _Steps(profile, category, func(*args, **kwargs))

        return wrapper


class _Steps:
    """Awaitable driving a coroutine, each step inside a profile section."""

    def __init__(self, profile: Profile, category: str, coro: Any) -> None:
        self.profile, self.category, self.coro = profile, category, coro

    def __await__(self) -> Generator[Any, Any, Any]:
        inner = self.coro.__await__()
        value: Any = None
        error: BaseException | None = None
        while True:
            self.profile.enter(self.category)
            try:
                yielded = inner.send(value) if error is None else inner.throw(error)
            except StopIteration as stop:
                return stop.value
            finally:
                self.profile.leave()
            try:
                value, error = (yield yielded), None
            except BaseException as exc:  # cancellation included: hand it to the coroutine
                value, error = None, exc


# When the bot last made a REST request: the end of its visible work on an interaction.
LAST_REQUEST = [0.0]


def _stamped(dispatch: Callable[..., Any]) -> Callable[..., Any]:
    def stamped(*args: Any, **kwargs: Any) -> Any:
        LAST_REQUEST[0] = time.perf_counter()
        return dispatch(*args, **kwargs)

    return stamped


def instrument(profile: Profile) -> None:
    """Wrap simcord's REST router and gateway emission, and the bot's main sections."""
    simcord_router.dispatch = profile.wrap_sync(_stamped(simcord_router.dispatch), DISCORD)
    BackendBase.emit = profile.wrap_sync(BackendBase.emit, DISCORD)  # type: ignore[method-assign]
    discord.app_commands.CommandTree._call = profile.wrap_async(  # type: ignore[method-assign]
        discord.app_commands.CommandTree._call, "command"
    )
    # Buttons and selects: discord.py builds the DynamicItem and runs its callback here.
    ViewStore.schedule_dynamic_item_call = profile.wrap_async(  # type: ignore[method-assign]
        ViewStore.schedule_dynamic_item_call, "command"
    )
    GameService._apply = profile.wrap_async(GameService._apply, "service")  # type: ignore[method-assign]
    for name in ("render_board", "render_hand", "render_last", "render_result", "code_block"):
        setattr(messages_module, name, profile.wrap_sync(getattr(messages_module, name), "render"))


def instrument_gc(profile: Profile) -> None:
    """Charge the loop thread's garbage collections to their own category: simcord keeps
    every payload (its transcript and request log), so full collections grow with the
    run and can pause the loop for a long time."""

    def callback(phase: str, info: dict[str, int]) -> None:
        if threading.get_ident() != profile.thread:
            return
        if phase == "start":
            profile.enter(GC)
            profile.gc_started = time.perf_counter()
        elif profile.stack[-1] == GC:
            profile.leave()
        if phase == "stop" and info["generation"] == 2:
            profile.full_collections += 1
            pause = time.perf_counter() - profile.gc_started
            profile.longest_full_collection = max(profile.longest_full_collection, pause)

    gc.callbacks.append(callback)


def instrument_parsers(profile: Profile, bot: Any) -> None:
    parsers = bot._connection.parsers
    for event, parser in list(parsers.items()):
        parsers[event] = profile.wrap_sync(parser, "gateway parse")


class Timer:
    """Wraps make_move: records arrival -> done for every benchmarked interaction."""

    def __init__(self) -> None:
        self.started: dict[int, float] = {}
        self.game_of: dict[int, int] = {}  # interaction id -> game id, while in flight
        self.latencies: list[float] = []
        self.errors = 0
        self.last_done = 0.0
        original = requests_module.make_move
        timer = self

        async def timed_move(interaction: Any, *args: Any, **kwargs: Any) -> None:
            try:
                await original(interaction, *args, **kwargs)
            except Exception:
                timer.errors += 1
                raise
            finally:
                start = timer.started.pop(interaction.id, None)
                timer.game_of.pop(interaction.id, None)
                if start is not None:
                    timer.last_done = time.perf_counter()
                    timer.latencies.append(timer.last_done - start)

        requests_module.make_move = timed_move


class Meter:
    """Loop-thread CPU per category, other threads' CPU and REST calls, summed over the
    measured stretches of one mode."""

    def __init__(self, profile: Profile, env: simcord.Env, *, keep_logs: bool) -> None:
        self.profile, self.env, self.keep_logs = profile, env, keep_logs
        self.cpu: dict[str, float] = defaultdict(float)
        self.loop_cpu = self.process_cpu = 0.0
        self.rest = self.rest_interaction = self.collections = 0
        self.longest_gc = 0.0

    def start(self) -> None:
        if not self.keep_logs:
            # simcord records every request and gateway payload (for test failure
            # reports): thousands of moves' worth of objects for the garbage collector
            # to scan, which production would not have. Drop them, unmeasured.
            self.env.backend.http_requests.clear()
            self.env.backend.transcript.clear()
        self._cpu = self.profile.snapshot()
        self._thread, self._process = time.thread_time(), time.process_time()
        self._requests = len(self.env.backend.http_requests)
        self._collections = self.profile.full_collections
        self.profile.longest_full_collection = 0.0

    def stop(self) -> None:
        after = self.profile.snapshot()
        for category, seconds in after.items():
            self.cpu[category] += seconds - self._cpu.get(category, 0.0)
        self.loop_cpu += time.thread_time() - self._thread
        self.process_cpu += time.process_time() - self._process
        new = self.env.backend.http_requests[self._requests :]
        self.rest += len(new)
        self.collections += self.profile.full_collections - self._collections
        self.longest_gc = max(self.longest_gc, self.profile.longest_full_collection)
        self.rest_interaction += sum(1 for r in new if r.path.startswith(("/interactions/", "/webhooks/")))

    def breakdown(self, moves: int) -> dict[str, float]:
        per = {k: v * 1000 / moves for k, v in self.cpu.items()}
        bot = sum(per.get(k, 0.0) for k in BOT_PARTS)
        return {
            "loop_ms": self.loop_cpu * 1000 / moves,
            "discord_ms": per.get(DISCORD, 0.0),
            "bot_ms": bot,
            **{f"{k}_ms": per.get(k, 0.0) for k in BOT_PARTS},
            "harness_ms": per.get(HARNESS, 0.0),
            "gc_ms": per.get(GC, 0.0),
            "full_gcs": self.collections,
            "longest_gc_ms": self.longest_gc * 1000,
            "other_ms": per.get(OTHER, 0.0),
            "threads_ms": (self.process_cpu - self.loop_cpu) * 1000 / moves,
            "rest_per_move": self.rest / moves,
            "rest_interaction_per_move": self.rest_interaction / moves,
        }


def counted(requests: list[Any]) -> list[Any]:
    """The requests that count against Discord's global limit: all but the interaction
    endpoints (``/interactions/<id>/<token>/callback``, ``/webhooks/<app>/<token>...``)."""
    return [r for r in requests if not r.path.startswith(("/interactions/", "/webhooks/"))]


def move_kind(before: Any, after: Any) -> str:
    """The kind of the move that took ``before`` to ``after`` (one move, possibly followed
    by forced ones): what was played, and whether the turn passed; "end" for the last."""
    if after.game.is_over:
        return "end of game"
    first = after.game.log[len(before.game.log)][1]
    name = {PlayCard: "card", Claim: "claim", Pass: "pass", Draw: "draw"}.get(type(first), "tactic")
    return f"{name}, {'turn passes' if after.current_player != before.current_player else 'same turn'}"


class PerKind:
    """Counted REST calls per kind of move. A request is the move's if it names the
    game's channel or one of its players' DM channels (one game per channel and per
    player here, and at most one move of a game in flight); any other (opening a DM
    channel) is reported apart."""

    def __init__(self) -> None:
        self.calls: dict[str, list[int]] = defaultdict(list)
        self.unattributed = 0

    def add(self, moves: dict[int, tuple[str, set[int]]], requests: list[Any]) -> None:
        """``moves``: game id -> (kind, the game's channel ids), for moves that ran
        alongside ``requests``."""
        owner = {cid: game for game, (_, cids) in moves.items() for cid in cids}
        per_game: dict[int, int] = defaultdict(int)
        for request in counted(requests):
            parts = request.path.split("/")
            game = owner.get(int(parts[2])) if parts[1] == "channels" and parts[2].isdigit() else None
            if game is None:
                self.unattributed += 1
            else:
                per_game[game] += 1
        for game, (kind, _) in moves.items():
            self.calls[kind].append(per_game[game])

    def lines(self) -> list[str]:
        rows = []
        for kind in sorted(self.calls):
            values = self.calls[kind]
            rows.append(
                f"{kind:>24}: {statistics.mean(values):.2f} avg, {max(values)} max ({len(values)} moves)"
            )
        rows.append(f"{'not of one move':>24}: {self.unattributed} (opening DM channels)")
        return rows


def visible_command(env: simcord.Env, actor: Any, channel: Any, name: str) -> dict[str, Any]:
    """The command ``name`` as ``actor``'s command picker in ``channel`` shows it."""
    for command in env.backend.visible_commands(user_id=actor.id, channel_id=channel.id):
        if command["name"] == name:
            return command
    raise LookupError(f"/{name} is not visible to {actor.id} in {channel.id}")


def emit_slash(
    env: simcord.Env, actor: Any, channel: Any, root: dict[str, Any], name: str, options: dict
) -> int:
    """Emit one slash-command interaction without waiting for the bot (simcord's
    ``actor.slash`` emits and then settles; a burst needs many in flight at once)."""
    parts = name.split()
    leaf, nesting = _ix.walk_to_subcommand(root, parts[1:])
    leaf_options, resolved = _ix.build_options(actor, name, leaf, options, channel_id=channel.id)
    data: dict[str, Any] = {
        "id": root["id"],
        "name": root["name"],
        "type": root.get("type", AppCommandType.CHAT_INPUT),
        "options": _ix.nest_options(root, nesting, leaf_options),
    }
    if resolved:
        data["resolved"] = resolved
    record, payload = _ix.base_payload(
        env.backend,
        type=InteractionType.APPLICATION_COMMAND,
        channel_id=channel.id,
        guild_id=actor.guild.id,
        user_id=actor.id,
        data=data,
    )
    env.backend.emit("INTERACTION_CREATE", payload)
    return record.id


def choose(record: Any, rng: random.Random) -> tuple[str, dict[str, Any]]:
    legal = record.game.legal_moves()
    claims = [m for m in legal if isinstance(m, Claim)]
    if claims:
        return "schotten claim", {"stone": rng.choice(claims).stone, "game": record.id}
    plays = [m for m in legal if isinstance(m, PlayCard)]
    if plays:
        move = rng.choice(plays)
        return "schotten play", {"card": str(move.card), "stone": move.stone, "game": record.id}
    # "pass" also ends a turn that could still claim (a Draw is then the move).
    assert any(isinstance(m, (Pass, Draw)) for m in legal), legal
    return "schotten pass", {"game": record.id}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def summarize(mode: str, latencies: list[float], moves: int, wall: float, **extra: Any) -> dict[str, Any]:
    return {
        "mode": mode,
        "moves": moves,
        "p50_ms": statistics.median(latencies) * 1000,
        "p95_ms": percentile(latencies, 95) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "max_ms": max(latencies) * 1000,
        "moves_per_s": moves / wall,
        **extra,
    }


async def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    """One bot, ``args.games`` games in progress; each burst size, then each rate."""
    rng = random.Random(args.seed)
    results = []
    profile = Profile()
    instrument(profile)
    instrument_gc(profile)
    with tempfile.TemporaryDirectory() as tmp:
        # Boards in the channel, a ping every turn: the calls counted per move are the
        # channel's (bench/discord_pings.py compares with a thread per game).
        Preferences.threads_default, Preferences.pings_default = False, "every-turn"
        bot = create_bot(database=os.path.join(tmp, "bench.sqlite"))
        bot.freeze_startup_objects = True  # as `python -m bot` does
        timer = Timer()
        async with simcord.run(bot, settle_timeout=300) as env:
            instrument_parsers(profile, bot)
            env.settle = profile.wrap_async(env.settle, HARNESS)  # type: ignore[method-assign]
            guild = env.create_guild()
            channels = [guild.create_text_channel(f"table-{i}") for i in range(args.games)]
            members = [guild.add_member(env.create_user(f"player{i}")) for i in range(2 * args.games)]
            by_id = {m.id: m for m in members}
            channel_of: dict[int, Any] = {}
            root = visible_command(env, members[0], channels[0], "schotten")

            async def start_game(slot: int) -> int:
                a, b, channel = members[2 * slot], members[2 * slot + 1], channels[slot]
                shown = await a.slash(channel, "schotten challenge", opponent=b)
                assert shown.response is not None
                accepted = await b.click(shown.response, label="Accept")
                assert accepted.response is not None
                game_id = int(accepted.response.content.split("#")[1].split(" ")[0].rstrip("."))
                channel_of[game_id] = channel
                return game_id

            def send_move(record: Any, arrival: float) -> None:
                """Build and emit the interaction (the driver's work; the emission
                itself is simulated Discord's)."""
                profile.enter(HARNESS)
                try:
                    name, options = choose(record, rng)
                    actor = by_id[record.current_user]
                    interaction_id = emit_slash(env, actor, channel_of[record.id], root, name, options)
                finally:
                    profile.leave()
                # The emission only schedules the bot's handling: the move is not done yet.
                timer.started[interaction_id] = arrival
                timer.game_of[interaction_id] = record.id

            slots = {slot: await start_game(slot) for slot in range(args.games)}
            finished = 0

            def channel_ids(record: Any) -> set[int]:
                """The game's channel and its players' DM channels."""
                return {channel_of[record.id].id} | {by_id[u].user.dm_channel.id for u in record.players}

            async def replace_finished() -> int:
                count = 0
                for slot, game_id in slots.items():
                    if (await bot.service.get(game_id)).game.is_over:
                        count += 1
                        slots[slot] = await start_game(slot)
                return count

            for burst in args.burst:
                timer.latencies.clear()
                meter = Meter(profile, env, keep_logs=args.keep_logs)
                per_kind = PerKind()
                errors_before = timer.errors
                moves = 0
                wall = 0.0
                while moves < args.moves:
                    wave = rng.sample(sorted(slots), min(burst, len(slots)))
                    records = [await bot.service.get(slots[slot]) for slot in wave]
                    meter.start()
                    mark = len(env.backend.http_requests)
                    start = time.perf_counter()
                    for record in records:
                        send_move(record, time.perf_counter())
                    await env.settle(timeout=300)
                    meter.stop()
                    kinds = {}
                    for record in records:
                        kinds[record.id] = (
                            move_kind(record, await bot.service.get(record.id)),
                            channel_ids(record),
                        )
                    per_kind.add(kinds, env.backend.http_requests[mark:])
                    # Until the bot finished its last move of the wave: simcord's own
                    # settling afterwards is not the bot's time.
                    wall += timer.last_done - start
                    moves += len(records)
                    finished += await replace_finished()
                result = summarize(
                    f"burst {burst}",
                    timer.latencies,
                    moves,
                    wall,
                    errors=timer.errors - errors_before,
                    finished=finished,
                    per_kind=per_kind,
                    **meter.breakdown(moves),
                )
                report(result)
                results.append(result)

            for rate in args.rate:
                timer.latencies.clear()
                meter = Meter(profile, env, keep_logs=args.keep_logs)
                errors_before = timer.errors
                arrivals = random.Random(f"{args.seed}:{rate}")
                count = round(rate * args.duration)
                over: set[int] = set()
                dropped = 0
                max_lag = 0.0
                meter.start()
                first = time.perf_counter() + 0.01
                at = first
                for _ in range(count):
                    await asyncio.sleep(max(0.0, at - time.perf_counter()))
                    max_lag = max(max_lag, time.perf_counter() - at)
                    busy = set(timer.game_of.values())
                    idle = [g for g in slots.values() if g not in busy and g not in over]
                    chosen = None
                    while idle:
                        game_id = idle.pop(rng.randrange(len(idle)))
                        candidate = await bot.service.get(game_id)
                        if not candidate.game.is_over:
                            chosen = candidate
                            break
                        over.add(game_id)
                    if chosen is None:
                        dropped += 1  # every game busy or finished: the arrival is lost
                    else:
                        send_move(chosen, at)
                    at += arrivals.expovariate(rate)
                deadline = time.perf_counter() + 300
                while timer.started and time.perf_counter() < deadline:
                    await asyncio.sleep(0.002)
                meter.stop()
                moves = len(timer.latencies)
                wall = timer.last_done - first
                lost = len(timer.started)
                timer.started.clear()
                timer.game_of.clear()
                await env.settle(timeout=300)
                finished += await replace_finished()
                result = summarize(
                    f"rate {rate:g}/s",
                    timer.latencies,
                    moves,
                    wall,
                    errors=timer.errors - errors_before,
                    finished=finished,
                    dropped=dropped,
                    unfinished=lost,
                    max_lag_ms=max_lag * 1000,
                    **meter.breakdown(moves),
                )
                report(result)
                results.append(result)
            if args.dm:
                result = await dm_moves(
                    bot, env, profile, slots, by_id, rng, args, replace_finished, channel_ids
                )
                result["finished"] += finished
                report(result)
                results.append(result)
        await bot.db.close()
    return results


async def dm_moves(
    bot: Any,
    env: simcord.Env,
    profile: Profile,
    slots: dict[int, int],
    by_id: dict[int, Any],
    rng: random.Random,
    args: argparse.Namespace,
    replace_finished: Callable[[], Any],
    channel_ids: Callable[[Any], set[int]],
) -> dict[str, Any]:
    """Moves made the way a player with open DMs makes them: a card in the card select,
    a stone in the stone select, then Play (a claim, a pass or an end of turn is one
    button). One move at a time; its time is each click's, from the click to the bot's
    last REST request for it (``LAST_REQUEST``), summed. The wall time, which adds
    simcord's settling between clicks, is reported as ``wall_p99_ms``."""
    latencies: list[float] = []
    walls: list[float] = []
    meter = Meter(profile, env, keep_logs=args.keep_logs)
    per_kind = PerKind()
    interactions = 0
    finished = 0
    handling = [0.0]  # this move's time so far: each click to the bot's last REST request
    actor_type = type(next(iter(by_id.values())).user)
    originals = {name: getattr(actor_type, name) for name in ("click", "select")}

    def timed(original: Callable[..., Any]) -> Callable[..., Any]:
        async def act(*a: Any, **k: Any) -> Any:
            began = time.perf_counter()
            result = await original(*a, **k)
            handling[0] += max(LAST_REQUEST[0], began) - began
            return result

        return act

    for name, original in originals.items():
        setattr(actor_type, name, timed(original))
    while len(latencies) < args.dm:
        record = await bot.service.get(slots[rng.choice(sorted(slots))])
        actor = by_id[record.current_user]
        meter.start()
        mark = len(env.backend.http_requests)
        handling[0] = 0.0
        start = time.perf_counter()
        done = await dm_turn(actor, rng, record.id)
        walls.append(time.perf_counter() - start)
        latencies.append(handling[0])
        meter.stop()
        kind = move_kind(record, await bot.service.get(record.id))
        per_kind.add({record.id: (kind, channel_ids(record))}, env.backend.http_requests[mark:])
        interactions += 3 if done.startswith("play") else 1
        finished += await replace_finished()
    moves = len(latencies)
    result = summarize(
        f"dm {args.dm}",
        latencies,
        moves,
        sum(walls),  # moves/s one at a time, settling included
        finished=finished,
        per_kind=per_kind,
        **meter.breakdown(moves),
    )
    for name, original in originals.items():
        setattr(actor_type, name, original)
    result["interactions_per_move"] = interactions / moves
    result["wall_p99_ms"] = percentile(walls, 99) * 1000
    return result


def report(r: dict[str, Any]) -> None:
    notes = [f"{r[k]} {k}" for k in ("errors", "dropped", "unfinished") if r.get(k)]
    if "interactions_per_move" in r:
        notes.append(f"{r['interactions_per_move']:.1f} interactions/move")
    if "wall_p99_ms" in r:
        notes.append(f"p99 {r['wall_p99_ms']:.0f} ms with simcord's settling between clicks")
    if "max_lag_ms" in r:
        notes.append(f"driver lag max {r['max_lag_ms']:.1f} ms")
    print(
        f"{r['mode']:>13} {r['moves']:>6} {r['p50_ms']:>7.1f} {r['p95_ms']:>7.1f} {r['p99_ms']:>7.1f}"
        f" {r['max_ms']:>7.1f} {r['moves_per_s']:>8.0f} {r['finished']:>9}"
        + (f"  ({', '.join(notes)})" if notes else ""),
        flush=True,
    )
    print(
        f"{'':>13} loop CPU per move: {r['loop_ms']:.2f} ms, of which simulated Discord"
        f" {r['discord_ms']:.2f} ms, the bot {r['bot_ms']:.2f} ms"
        f" (gateway parse {r['gateway parse_ms']:.2f}, command {r['command_ms']:.2f},"
        f" service {r['service_ms']:.2f}, render {r['render_ms']:.2f}),"
        f" harness {r['harness_ms']:.2f}, garbage collection {r['gc_ms']:.2f}"
        f" ({r['full_gcs']} full, longest {r['longest_gc_ms']:.0f} ms), unattributed {r['other_ms']:.2f};"
        f" other threads {r['threads_ms']:.2f} ms; {r['rest_per_move']:.1f} REST calls/move"
        f" ({r['rest_interaction_per_move']:.1f} to interaction endpoints)",
        flush=True,
    )
    if "per_kind" in r:
        print(f"{'':>13} REST calls against the global limit, per kind of move:", flush=True)
        for line in r["per_kind"].lines():
            print(f"{'':>13} {line}", flush=True)


def conclude(results: list[dict[str, Any]]) -> None:
    print(f"\nTarget: p99 <= {TARGET_P99_MS:.0f} ms per move.")
    for r in results:
        verdict = "meets" if r["p99_ms"] <= TARGET_P99_MS else "MISSES"
        share = r["discord_ms"] / r["loop_ms"] if r["loop_ms"] else 0.0
        print(
            f"  {r['mode']:>13}: p99 {r['p99_ms']:7.1f} ms, {r['moves_per_s']:5.0f} moves/s -> {verdict}"
            f" the target; simulated Discord is {share:.0%} of the loop's CPU"
        )
    rest = statistics.mean(r["rest_per_move"] for r in results)
    other = rest - statistics.mean(r["rest_interaction_per_move"] for r in results)
    print(
        f"\nDiscord documents a global limit of about {DISCORD_GLOBAL_REQUESTS_PER_S} REST requests/s"
        f" per bot (most endpoints; per-route limits on top). At {rest:.1f} calls per move"
        f" ({other:.1f} outside interaction endpoints) that is"
        f" ~{DISCORD_GLOBAL_REQUESTS_PER_S / rest:.0f}-{DISCORD_GLOBAL_REQUESTS_PER_S / other:.0f} moves/s:"
        " higher rates are a stress test of the bot, not a load Discord would deliver to one bot."
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100, help="games in progress at once (default 100)")
    parser.add_argument(
        "--burst", type=int, nargs="*", default=[1, 10, 100], help="moves emitted at the same instant"
    )
    parser.add_argument("--moves", type=int, default=1000, help="moves measured per burst size")
    parser.add_argument(
        "--rate", type=float, nargs="*", default=[20, 50, 100], help="open-loop arrivals, moves/s"
    )
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of arrivals per rate")
    parser.add_argument(
        "--dm",
        type=int,
        default=300,
        help="moves made through the DM controls, one at a time (0: none; default 300)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--keep-logs",
        action="store_true",
        help="keep simcord's request log and transcript (by default dropped before each measured stretch)",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPU(s)")
    print(f"{args.games} games in progress (one per channel), file SQLite database (WAL, synchronous=FULL)")
    columns: tuple[tuple[str, int], ...] = ("mode", 13), ("moves", 6), ("p50 ms", 7), ("p95 ms", 7)
    columns += ("p99 ms", 7), ("max ms", 7)
    columns += ("moves/s", 8), ("finished", 9)
    print(" ".join(name.rjust(width) for name, width in columns))
    sys.stdout.flush()
    conclude(asyncio.run(run(args)))


if __name__ == "__main__":
    main()

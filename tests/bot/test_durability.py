"""Crash durability: a worker applying moves to several games is killed with SIGKILL
at random moments. After every kill each game loads, every move the worker had
reported as committed is there, and replaying each move log gives the saved state.

On both backends: a SQLite file, and a PostgreSQL database whose server stays up while
its client is killed (the server must roll back the client's open transaction)."""

from __future__ import annotations

import asyncio
import itertools
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

import asyncpg
import pytest

from bot.games.delivery import PUBLISH_LEASE
from bot.games.service import GameService
from bot.storage import open_database
from rules.game import Game

WORKER = Path(__file__).with_name("durability_worker.py")
ROOT = Path(__file__).resolve().parents[2]
KILLS = {"sqlite": 25, "postgres": 12}
GAMES = 4

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


class Worker:
    """One life of a worker process: its output lines, read as they come."""

    def __init__(self, script: Path, *args: object) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(script), *map(str, args)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        self.lines: list[str] = []
        self.ready = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:  # drain the pipe continuously, so the worker never blocks on it
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)
            if line == "ready\n":
                self.ready.set()

    def wait_ready(self) -> None:
        if not self.ready.wait(timeout=60):
            self.proc.kill()
            raise AssertionError(f"worker did not start: {self.proc.communicate()[1]}")

    def alive(self) -> None:
        assert self.proc.poll() is None, self.proc.stderr.read() if self.proc.stderr else ""

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.reader.join(timeout=10)

    def reported(self) -> list[list[str]]:
        """The words of each complete line: a line cut by the kill has no newline yet,
        it was never fully reported."""
        return [line.split() for line in self.lines if line.endswith("\n")]


def run_and_kill(db_path: str, seed: int, rng: random.Random) -> list[tuple[int, int]]:
    """Start the worker, let it work for a random moment, SIGKILL it; returns the
    commits it reported."""
    worker = Worker(WORKER, db_path, GAMES, seed)
    try:
        worker.wait_ready()
        time.sleep(rng.uniform(0.01, 0.4))
        worker.alive()
    finally:
        worker.kill()
    assert worker.proc.returncode == -signal.SIGKILL
    return [(int(words[1]), int(words[2])) for words in worker.reported() if words[0] == "committed"]


async def game_ids(target: str) -> list[int]:
    if target.startswith("postgresql://"):
        conn = await asyncpg.connect(target)
        try:
            return [row["id"] for row in await conn.fetch("SELECT id FROM games ORDER BY id")]
        finally:
            await conn.close()
    with sqlite3.connect(target) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return [row[0] for row in conn.execute("SELECT id FROM games ORDER BY id")]


async def check(target: str, reported: dict[int, int]) -> int:
    """Every game loads and replays to its snapshot; nothing reported is missing.
    Returns how many moves are stored."""
    total = 0
    async with open_database(target) as db:
        await db.migrate()
        service = GameService(db)
        ids = await game_ids(target)
        assert set(reported) <= set(ids)
        for game_id in ids:
            record = await service.get(game_id)
            moves = await db.games.moves(game_id)
            assert [m.seq for m in moves] == list(range(1, len(moves) + 1))
            assert record.version == len(moves) == record.game.version
            assert record.version >= reported.get(game_id, 0), f"game {game_id} lost committed moves"
            replayed = Game.replay(
                record.seed,
                record.options,
                [(m.player, m.move) for m in moves],
                first_player=record.first_player,
            )
            assert replayed.to_dict() == record.game.to_dict()
            assert record.is_active == (not record.game.is_over)
            assert (await db.ratings.get_result(game_id) is not None) == record.game.is_over
            total += len(moves)
    return total


async def test_sigkill_never_loses_a_committed_move(backend: str, db_target: str) -> None:
    rng = random.Random(2024)
    reported: dict[int, int] = {}
    stored = 0
    for round_ in range(KILLS[backend]):
        for game_id, version in run_and_kill(db_target, seed=round_, rng=rng):
            reported[game_id] = max(version, reported.get(game_id, 0))
        now_stored = await check(db_target, reported)
        assert now_stored >= stored  # the log only grows
        stored = now_stored
    assert stored > 100, "the worker hardly moved: the test proves nothing"


PUBLISHER = Path(__file__).with_name("publishing_worker.py")
KILLS_OF_ONE_OF_TWO = 20
SLOTS = 10  # games in play at once
SPEED = 40.0  # the workers' clocks: 40 virtual seconds per real second (see the worker)
DRAIN = 120.0  # real seconds the survivors get to finish everything once the players stop
# Stalls of a running process (SIGSTOP, then SIGCONT) longer than an outbox lease: a
# process merely slow, as on a loaded machine, while the other one goes on.
STALLS = 4
STALL = 1.5 * PUBLISH_LEASE / SPEED  # real seconds
ENTRY_WORDS = {"claimed": 1, "committed": 3, "forfeited": 3, "remind-claim": 3, "published": 3, "reminded": 3}


def entries_left_unpublished(life: Worker) -> set[int]:
    """The outbox entries this life committed or claimed and then neither published
    nor dropped: it cannot have marked them done, so another process must."""
    seen: set[int] = set()
    published: set[int] = set()
    done: set[int] = set()
    for words in life.reported():
        if words[0] in ENTRY_WORDS and words[ENTRY_WORDS[words[0]]] != "-":
            seen.add(int(words[ENTRY_WORDS[words[0]]]))
        if words[0] in ("published", "reminded"):
            published.add(int(words[3]))
        elif words[0] == "dropped":
            published.add(int(words[1]))
        elif words[0] == "done":
            done.add(int(words[1]))
    return seen - done - published


async def wait_until_drained(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        for _ in range(int(DRAIN / 0.2)):
            active = await conn.fetchval("SELECT count(*) FROM games WHERE status = 'active'")
            owed = await conn.fetchval("SELECT count(*) FROM outbox")
            if active == 0 and owed == 0:
                return
            await asyncio.sleep(0.2)
        raise AssertionError(
            f"not drained after {DRAIN:.0f} s: {active} games active, {owed} publications owed"
        )
    finally:
        await conn.close()


async def test_sigkill_one_of_two_bot_processes(postgres_database: str) -> None:
    """Two bot processes (``publishing_worker.py``: the service with the outbox, the
    table's publish, publish_pending and remind, the timers' rounds) play the same games
    on one PostgreSQL, with reminders and forfeits due all the time. One of them, chosen
    at random, is killed with SIGKILL at a random moment and started again, 20 times;
    then one of them is stopped (SIGSTOP) for longer than a lease and let go on, 4 times.
    Then the players stop and the survivors finish: every game ends on time and the
    outbox drains. Then:

    * every move either reported as committed is stored, and every game replays to its
      stored state;
    * each forfeit happened once: one forfeit move, last in its game's log, one result,
      one process that got it back;
    * each reminder was claimed by one process, once per game and turn;
    * each outbox entry left open by a killed process was finished by another one
      (published, or dropped as superseded by a later publication of the game);
    * the lease is exclusive: a claim of an entry comes after the lease of the claim
      before it has run out (the workers share one clock);
    * no entry was published twice, except across the window that the design leaves
      open: a process killed after Discord accepted a publication and before it marked
      the entry done, or one so slow (a loaded machine) that its lease ran out first.
      The lease then lets another process publish the entry again (board and DM edits
      are idempotent; a reminder or an end announcement would be repeated). So each
      entry is marked done within its lease by one process at most, and every other
      publication of it is by a process that was killed, or whose claim was followed by
      another one (so its lease had run out) and that never marked it done in its lease.

    Not covered here: Discord itself. The table's Discord calls are replaced by a
    recorder (what the board, DMs and reminder messages contain, and discord.py's REST
    path, are covered by the simcord tests in ``tests/cogs``)."""
    async with open_database(postgres_database) as db:
        await db.migrate()
    epoch = time.time()
    rng = random.Random(5)
    lives: list[Worker] = []

    def start(index: int) -> Worker:
        life = Worker(PUBLISHER, postgres_database, index, rng.randrange(10**6), SLOTS, epoch, SPEED)
        lives.append(life)
        return life

    running = [start(0), start(1)]
    killed: list[Worker] = []
    try:
        for life in running:
            await asyncio.to_thread(life.wait_ready)
        for _ in range(KILLS_OF_ONE_OF_TWO):
            await asyncio.sleep(rng.uniform(0.2, 1.2))
            for life in running:
                life.alive()  # both are running when one is killed
            victim = rng.randrange(2)
            running[victim].kill()
            killed.append(running[victim])
            running[victim] = start(victim)
            await asyncio.to_thread(running[victim].wait_ready)
        for _ in range(STALLS):
            await asyncio.sleep(rng.uniform(0.2, 1.2))
            stalled = running[rng.randrange(2)].proc
            stalled.send_signal(signal.SIGSTOP)
            await asyncio.sleep(STALL)
            stalled.send_signal(signal.SIGCONT)
        for life in running:
            assert life.proc.stdin is not None
            life.proc.stdin.write("stop\n")
            life.proc.stdin.flush()
        await wait_until_drained(postgres_database)
        for life in running:
            life.alive()
    finally:
        for life in lives:
            life.kill()

    # Moves: every reported commit is stored; every game replays to its snapshot.
    reported: dict[int, int] = {}
    for life in lives:
        for words in life.reported():
            if words[0] in ("committed", "forfeited"):
                game_id, version = int(words[1]), int(words[2])
                reported[game_id] = max(version, reported.get(game_id, 0))
    await check(postgres_database, reported)

    # Forfeits: once each, in the log and in the results.
    forfeits: Counter[int] = Counter(
        int(words[1]) for life in lives for words in life.reported() if words[0] == "forfeited"
    )
    async with open_database(postgres_database) as db:
        timeouts = set()
        for game_id in await game_ids(postgres_database):
            moves = [m.move for m in await db.games.moves(game_id)]
            result = await db.ratings.get_result(game_id)
            assert result is not None
            if result.reason == "timeout":
                timeouts.add(game_id)
                assert moves.count("forfeit") == 1 and moves[-1] == "forfeit", game_id
            else:
                assert "forfeit" not in moves, game_id
    assert all(count == 1 for count in forfeits.values()), forfeits
    assert set(forfeits) <= timeouts
    assert len(timeouts) > SLOTS, "hardly any game ran out of time: the test proves little"

    # Reminders: each (game, turn) claimed once, and only then sent.
    claims = Counter(
        (words[1], words[2]) for life in lives for words in life.reported() if words[0] == "remind-claim"
    )
    assert all(count == 1 for count in claims.values()), claims
    assert len(claims) > SLOTS, "hardly any reminder was due: the test proves little"

    # Claims: the lease is exclusive. A later claim of an entry (by any process, this
    # one again included) comes after the earlier claim's lease has run out.
    claims: defaultdict[int, list[tuple[float, float, Worker]]] = defaultdict(list)
    for life in lives:
        for words in life.reported():
            if words[0] == "claimed":
                claims[int(words[1])].append((float(words[2]), float(words[3]), life))
    for entry, held in claims.items():
        held.sort(key=lambda claim: claim[1])  # in the order taken (a lease's start + PUBLISH_LEASE)
        for (_, until, _), (later, _, _) in itertools.pairwise(held):
            assert later > until, f"entry {entry} claimed at {later} while leased until {until}"

    # Publications: one to the end within its lease per entry. A repeat comes only
    # through the lease: the earlier publisher was killed before it marked the entry
    # done (the window the design leaves open), or it was so slow that its lease ran
    # out first (a loaded machine) and another process claimed the entry after it.
    finished_in_lease: defaultdict[int, list[Worker]] = defaultdict(list)
    published_by: defaultdict[int, list[Worker]] = defaultdict(list)
    for life in lives:
        reported_words = life.reported()
        leases = {int(w[1]): float(w[3]) for w in reported_words if w[0] == "claimed"}
        for words in reported_words:
            if words[0] in ("published", "reminded"):
                entry = int(words[3])
                assert entry in leases, f"entry {entry} published without a claim"
                published_by[entry].append(life)
            elif words[0] == "done" and float(words[2]) < leases[int(words[1])]:
                finished_in_lease[int(words[1])].append(life)
    repeats = overrun = 0  # publications repeated; by a live process that outlived its lease
    for entry, publishers in published_by.items():
        assert len(finished_in_lease[entry]) <= 1, f"entry {entry} published to the end twice"
        last_claimant = claims[entry][-1][2]
        for life in publishers:
            if life is last_claimant or life in killed:
                continue
            # Neither the last claimant nor killed: it held the entry, then outlived its
            # lease before marking it done, and another process claimed it after that.
            assert life not in finished_in_lease[entry], (
                f"entry {entry}: claimed again after its publisher marked it done in its lease"
            )
            overrun += 1
        repeats += len(publishers) - 1
    # Entries a killed process left open: another process finished each of them.
    recovered = 0
    for life in killed:
        for entry in entries_left_unpublished(life):
            assert any(
                words[:2] == ["done", str(entry)]
                for other in lives
                if other is not life
                for words in other.reported()
            ), f"entry {entry}, left open by a killed process, was never finished"
            recovered += 1
    assert recovered > 0, "no kill left a publication open: the test proves little"
    print(
        f"{len(killed)} kills, {recovered} open publications recovered, {repeats} published again,"
        f" {overrun} published by a live process that then outlived its lease"
    )

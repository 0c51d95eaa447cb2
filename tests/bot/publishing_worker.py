"""Crash test worker: one bot process's game work and background machinery, without
Discord, until killed.

    python tests/bot/publishing_worker.py DATABASE_URL INDEX SEED SLOTS EPOCH SPEED

It runs the bot's own ``GameService`` (with the outbox, the rating and match hooks),
``Delivery``, ``Publisher`` (publish, publish_pending, remind) and ``Timers.run_once``
rounds, against a PostgreSQL database that other workers share. Only Discord is
missing: the publisher's Discord calls (``Publisher._show``, the reminder's channel) are
replaced by a recorder that waits a moment, as a REST call would, and then prints what
Discord accepted.

Players move in ``SLOTS`` games (``channel_id`` 100 + slot), every worker in every game,
usually quickly, sometimes slowly enough to be reminded or to lose on time, and some
turns (the same in every worker) not at all, so that they end on time. A finished
game is replaced by the worker with the slot's parity (``slot % 2 == INDEX``), so that
two workers never both replace it. A line ``stop`` on standard input stops the players;
the timers go on, so every game then ends on time and the outbox drains.

Time: every worker's clock is ``EPOCH + (time.time() - EPOCH) * SPEED``, the same in all
of them, so the real settings (turn timeout, reminder, ``PUBLISH_LEASE``,
``RECOVERY_GRACE``) pass ``SPEED`` times faster than real time.

Printed, each flushed after the fact it reports (a line cut by SIGKILL does not count):

* ``ready``
* ``claimed ENTRY AT UNTIL`` after a claim of an outbox entry won: the clock just after
  the claim returned, and the end of its lease as computed from the clock just before it
  (so ``AT`` is no earlier, and ``UNTIL`` no later, than the stored claim's own times)
* ``committed GAME VERSION ENTRY`` after a move's commit returned (``-`` for a new game)
* ``forfeited GAME VERSION ENTRY`` after a forfeit's commit returned
* ``remind-claim GAME VERSION ENTRY`` after a reminder was claimed
* ``published GAME VERSION ENTRY`` after simulated Discord accepted a board publication
* ``reminded GAME VERSION ENTRY`` after simulated Discord accepted a reminder
* ``dropped ENTRY`` when the outbox entry was superseded (nothing to publish)
* ``done ENTRY AT`` after the entry was marked done, with the clock just after that

A process that is merely slow (a loaded machine) can outlive its lease: another process
then claims the entry and publishes it again, as after a crash. The claims' times let
the test tell that repeat from a lost lease.
"""

from __future__ import annotations

import asyncio
import contextvars
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import discord

from bot.app import SchottenBot
from bot.community.languages import Languages
from bot.community.preferences import Preferences
from bot.community.presence import Presence
from bot.community.stats import install as install_stats
from bot.community.styles import Styles
from bot.community.tournaments import TournamentService
from bot.games.delivery import PUBLISH_LEASE, Delivery
from bot.games.errors import GameFinished, StaleControl
from bot.games.live import LiveGame, MoveOutcome
from bot.games.matches import MatchService
from bot.games.service import GameService
from bot.pictures.cache import PictureCache
from bot.settings import Settings
from bot.storage import Storage, open_database
from cogs.table.publisher import Publisher
from cogs.timers import Timers
from rules.cards import Card
from rules.game import GameOptions

# Virtual seconds (see SPEED): a reminder 40 s into a turn, a forfeit after 80 s.
SETTINGS = Settings(turn_timeout=80, turn_reminder=40)
SLOW = 0.15  # the share of turns that take long enough to be reminded, or to time out
# One turn in ABANDON is left by both workers' players until it has run out of time, so
# that games lose on time while the players still play, whatever the machine's speed.
ABANDON = 30
ROUND = 0.1  # real seconds between timer rounds

# The outbox entry the current task holds (set when its claim wins), for the report.
ENTRY: contextvars.ContextVar[int | None] = contextvars.ContextVar("entry", default=None)


def report(*words: object) -> None:
    sys.stdout.write(" ".join("-" if word is None else str(word) for word in words) + "\n")
    sys.stdout.flush()


async def discord_call() -> None:
    await asyncio.sleep(random.uniform(0.002, 0.03))  # a REST round trip


class ReportingService(GameService):
    async def forfeit(self, game_id: int, player: int, *, expected_version: int | None = None) -> MoveOutcome:
        outcome = await super().forfeit(game_id, player, expected_version=expected_version)
        report("forfeited", game_id, outcome.game.version, outcome.outbox_id)
        return outcome

    async def claim_reminder(self, game_id: int, version: int) -> tuple[bool, int | None]:
        claimed, entry = await super().claim_reminder(game_id, version)
        if claimed:
            report("remind-claim", game_id, version, entry)
        return claimed, entry


class ReportingDelivery(Delivery):
    def claimed(self, entry_id: int, before: float) -> None:
        ENTRY.set(entry_id)  # the claimant's task goes on to publish it
        report("claimed", entry_id, repr(self.clock()), repr(before + PUBLISH_LEASE))

    async def claim(self, entry_id: int) -> bool:
        before = self.clock()
        won = await super().claim(entry_id)
        if won:
            self.claimed(entry_id, before)
        return won

    async def claim_start(self, game_id: int, version: int) -> int | None:
        before = self.clock()
        entry = await super().claim_start(game_id, version)
        if entry is not None:
            self.claimed(entry, before)
        return entry

    async def done(self, entry_id: int) -> None:
        await super().done(entry_id)
        report("done", entry_id, repr(self.clock()))


class Channel:
    """A game's channel as the reminder uses it."""

    def __init__(self, record: LiveGame) -> None:
        self.record = record

    async def send(self, content: str, **_: object) -> None:
        await discord_call()
        report("reminded", self.record.id, self.record.version, ENTRY.get())


class RecordingPublisher(Publisher):
    def channel(self, record: LiveGame) -> discord.PartialMessageable | None:
        return cast(discord.PartialMessageable, Channel(record))

    async def _show(
        self,
        record: LiveGame,
        plan: Any,
        drawn: Mapping[int, Sequence[Card]] | None = None,
        *,
        recovering: bool = False,
    ) -> None:
        await discord_call()  # board, end, DMs: here one call stands for them
        report("published", record.id, record.version, ENTRY.get())

    async def _posted(self, channel: discord.abc.Messageable, content: str) -> bool:
        return False  # the recorder keeps no history: recovery's adoption is not tested here

    async def _publish_entry(self, game_id: int, version: int, kind: str) -> bool:
        published = await super()._publish_entry(game_id, version, kind)
        if not published:
            report("dropped", ENTRY.get())
        return published


class NoChallenges:
    async def expire_due(self) -> list[object]:
        return []


class NoOpponent:
    def notice(self, record: LiveGame) -> None:
        pass

    async def restart_stalled(self) -> int:
        return 0


class Bot:
    """What ``Publisher`` and ``Timers`` use of ``SchottenBot``, built the way it builds them."""

    def __init__(self, db: Storage, clock: Callable[[], float]) -> None:
        self.settings = SETTINGS
        self.service = ReportingService(db, clock=clock, turn_timeout=SETTINGS.turn_timeout, outbox=True)
        self.matches = MatchService(db.challenges, self.service)
        install_stats(self.service, self.matches)
        self.delivery = ReportingDelivery(db.delivery, clock=clock)
        self.languages = Languages(db.players, clock=clock)
        self.styles = Styles(db.players, clock=clock)
        self.preferences = Preferences(db.players, clock=clock)
        self.presence = Presence(db.players, clock=clock)
        self.user = None  # no AI seat in these games: every player to move is a member
        self.pictures = PictureCache()
        self.opponent = NoOpponent()
        self.challenges = NoChallenges()
        self.tournaments = TournamentService(
            db, self.service, self.matches, clock=clock, turn_time=SETTINGS.turn_timeout
        )
        self.service.result_hooks.append(self.tournaments.result_hook)


async def active_game(service: GameService, slot: int) -> int | None:
    for row in await service.db.games.all_active_games():
        if row.channel_id == 100 + slot:
            return row.id
    return None


async def new_game(publisher: Publisher, slot: int, rng: random.Random) -> int:
    record = await publisher.bot.service.create_game(
        guild_id=1,
        channel_id=100 + slot,
        players=(2 * slot + 1, 2 * slot + 2),
        options=GameOptions(tactics=slot % 3 == 0),
        seed=rng.randrange(2**62),
    )
    report("committed", record.id, record.version, None)
    await publisher.start(record)  # as the lobby does once the game is committed
    return record.id


async def play(publisher: Publisher, index: int, slot: int, rng: random.Random, speed: float) -> None:
    service = publisher.bot.service
    game_id: int | None = None
    while True:
        slow = rng.random() < SLOW
        await asyncio.sleep(rng.uniform(1.1, 2.6) if slow else rng.uniform(0.01, 0.1))
        if game_id is None:
            game_id = await active_game(service, slot)
            if game_id is None:
                if slot % 2 != index:
                    continue  # the other worker replaces it
                game_id = await new_game(publisher, slot, rng)
        record = await service.reload(game_id)
        if not record.is_active:
            game_id = None
            continue
        if (record.id * 7919 + record.version) % ABANDON == 0:
            await asyncio.sleep(1.2 * SETTINGS.turn_timeout / speed)
            continue  # by then the timers have ended it
        user = record.current_user
        assert user is not None
        try:
            outcome = await service.apply(
                game_id, user, rng.choice(record.game.legal_moves()), expected_version=record.version
            )
        except (StaleControl, GameFinished):
            continue  # the other worker moved it first, or it ended on time
        report("committed", game_id, outcome.game.version, outcome.outbox_id)
        await publisher.publish(outcome)


async def timers_rounds(timers: Timers) -> None:
    while True:
        try:
            await timers.run_once()
        except Exception as error:  # as the bot's loop (``Timers.tick``): the next round goes on
            sys.stderr.write(f"timer round failed: {error!r}\n")
        await asyncio.sleep(ROUND)


async def main(url: str, index: int, seed: int, slots: int, epoch: float, speed: float) -> None:
    rng = random.Random(seed)

    def clock() -> float:
        return epoch + (time.time() - epoch) * speed

    async with open_database(url) as db:
        bot = cast(SchottenBot, Bot(db, clock))
        publisher = RecordingPublisher(bot)
        timers = Timers(bot, publisher)
        report("ready")
        players = [
            asyncio.ensure_future(play(publisher, index, slot, random.Random(rng.random()), speed))
            for slot in range(slots)
        ]
        background = asyncio.ensure_future(timers_rounds(timers))
        await asyncio.to_thread(sys.stdin.readline)
        for task in players:
            task.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        report("stopped")
        await background


if __name__ == "__main__":
    url, index, seed, slots, epoch, speed = sys.argv[1:7]
    asyncio.run(main(url, int(index), int(seed), int(slots), float(epoch), float(speed)))

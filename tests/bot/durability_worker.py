"""Durability test worker: applies moves to several games without pause until killed.

    python tests/bot/durability_worker.py DATABASE GAMES SEED

DATABASE is a SQLite file or a ``postgresql://`` URL.

Prints ``ready`` once its games are loaded, then ``committed GAME_ID VERSION`` after
every commit the service reported (so the test knows what must survive a SIGKILL).
Finished games are replaced by new ones, so the work never stops. Several workers may
share one PostgreSQL database: they then play the same games, and a move another one
made first is simply not reported.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.games.errors import GameFinished, StaleControl
from bot.games.service import GameService
from bot.storage import open_database
from rules.game import GameOptions

OPTIONS = [
    GameOptions(),
    GameOptions(tactics=True),
    GameOptions(ruleset="battle-line", tactics=True, claim_timing="turn-start"),
]


def report(*words: object) -> None:
    sys.stdout.write(" ".join(map(str, words)) + "\n")
    sys.stdout.flush()


async def new_game(service: GameService, slot: int, rng: random.Random) -> int:
    record = await service.create_game(
        guild_id=1,
        channel_id=100 + slot,
        players=(2 * slot + 1, 2 * slot + 2),
        options=OPTIONS[slot % len(OPTIONS)],
        seed=rng.randrange(2**62),
    )
    report("committed", record.id, record.version)
    return record.id


async def drive(service: GameService, slot: int, game_id: int, rng: random.Random) -> None:
    while True:
        record = await service.get(game_id)
        if not record.is_active:
            game_id = await new_game(service, slot, rng)
            continue
        user = record.current_user
        assert user is not None
        move = rng.choice(record.game.legal_moves())
        try:
            outcome = await service.apply(game_id, user, move, expected_version=record.version)
        except (StaleControl, GameFinished):
            continue  # another process (sharing the database) moved it first
        report("committed", game_id, outcome.game.version)


async def main(path: str, games: int, seed: int) -> None:
    rng = random.Random(seed)
    async with open_database(path) as db:
        await db.migrate()
        service = GameService(db)
        slots: dict[int, int] = {}
        for row in await db.games.all_active_games():
            slots.setdefault(row.channel_id - 100 if row.channel_id else 0, row.id)
        for slot in range(games):
            if slot not in slots:
                slots[slot] = await new_game(service, slot, rng)
        report("ready")
        await asyncio.gather(*(drive(service, slot, slots[slot], rng) for slot in range(games)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))

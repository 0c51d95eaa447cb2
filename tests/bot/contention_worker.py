"""Contention test worker: one of several processes playing the same games at once.

    python tests/bot/contention_worker.py DATABASE_URL SEED GAME_ID...

Prints ``ready`` once it has cached every game, waits for a line on standard input
(so that all processes start together), then plays every game to its end, one task
per game, against the other processes doing the same. Prints ``applied GAME BEFORE
AFTER`` for every move its service committed and ``stale GAME`` for every request
refused as "moved on". Anything else that goes wrong ends it with a traceback.

Half of the requests use this process's cached game (which the other process keeps
making stale: the compare-and-set decides); the other half carry the version read from
the database just now, as a control that another process rendered would (newer than
this process's cache: the service must reload, not refuse).
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.games.errors import GameFinished, StaleControl
from bot.games.service import GameService
from bot.storage import open_database
from rules.game import Game


def report(*words: object) -> None:
    sys.stdout.write(" ".join(map(str, words)) + "\n")
    sys.stdout.flush()


async def play(service: GameService, game_id: int, rng: random.Random) -> None:
    while True:
        if rng.random() < 0.5:
            record = await service.get(game_id)  # perhaps stale
            if not record.is_active:
                record = await service.reload(game_id)
                if not record.is_active:
                    return
            version, game, players = record.version, record.game, record.players
        else:
            row = await service.db.games.get_game(game_id)  # a control made elsewhere, just now
            assert row is not None
            if row.status != "active":
                return
            version, game, players = row.version, Game.from_dict(row.state), row.players
        if game.is_over:
            return
        user = players[game.current_player]
        move = rng.choice(game.legal_moves())
        try:
            outcome = await service.apply(game_id, user, move, expected_version=version)
        except StaleControl:
            report("stale", game_id)
            continue
        except GameFinished:
            report("stale", game_id)
            return
        report("applied", game_id, outcome.previous_version, outcome.game.version)
        await asyncio.sleep(0)


async def main(url: str, seed: int, game_ids: list[int]) -> None:
    rng = random.Random(seed)
    async with open_database(url) as db:
        service = GameService(db)
        for game_id in game_ids:
            await service.get(game_id)
        report("ready")
        await asyncio.to_thread(sys.stdin.readline)
        await asyncio.gather(*(play(service, game_id, random.Random(rng.random())) for game_id in game_ids))
        report("done")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), [int(word) for word in sys.argv[3:]]))

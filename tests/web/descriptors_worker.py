"""The web pages alone at a low open-file limit, for ``test_descriptors.py``.

``python -m tests.web.descriptors_worker FILES`` sets the process's open-file limit to
FILES, serves a live game on a port the system picks, prints the port and the game's
page path, and serves until killed; its log goes to standard error.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import sys

from bot.archive.history import History
from bot.community.stats import Rankings
from bot.games.service import GameService
from bot.settings import Settings
from bot.storage import open_database
from bot.web.companion import WebCompanion
from bot.web.standalone import PlaceholderNames
from rules.game import GameOptions


async def serve() -> None:
    db = open_database(":memory:")
    await db.connect()
    await db.migrate()
    record = await GameService(db).create_game(
        guild_id=None, channel_id=None, players=(1, 2), options=GameOptions(), seed=1
    )
    settings = Settings(web_port=0, public_url="http://127.0.0.1", web_secret="descriptors-test-secret-0123")
    web = WebCompanion(
        settings,
        db,
        history=History(db.games, db.ratings),
        rankings=Rankings(db.ratings),
        names=PlaceholderNames(),
    )
    await web.start(port=0)
    assert web.links is not None
    print(web.port, web.links.watch(record.id).removeprefix(settings.public_url), flush=True)
    await asyncio.Event().wait()


def main() -> None:
    files = int(sys.argv[1])
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (files, hard))
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    asyncio.run(serve())


if __name__ == "__main__":
    main()

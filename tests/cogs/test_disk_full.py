"""SQLite with a full disk: every write on the bot's connection fails with SQLITE_FULL
(SQLite's own error, raised in place of the statement: ``PRAGMA max_page_count`` left
moves fitting in free pages, so it could not make every write fail).
The member is told the database cannot be used and nothing was changed; reads and
commands that need no write still answer."""

from __future__ import annotations

import sqlite3

from bot.text.catalogue import t
from tests.cogs.helpers import challenge_and_accept, dm_message, hand_in, setup_members
from tests.cogs.test_db_faults import DEADLINE, text_of
from tests.cogs.test_db_faults import ack_clock as ack_clock  # the fixture

UNREACHABLE = t("error.database_unavailable")


def fill_up(db, monkeypatch) -> None:
    """Every write on the connection fails as SQLite fails on a full disk (SQLITE_FULL);
    reads go on."""
    conn = db._connection()

    def refusing(method):
        def call(sql, *args, **kwargs):
            if sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE", "REPLACE")):
                error = sqlite3.OperationalError("database or disk is full")
                error.sqlite_errorcode = 13  # SQLITE_FULL
                error.sqlite_errorname = "SQLITE_FULL"
                raise error
            return method(sql, *args, **kwargs)

        return call

    for name in ("execute", "executemany", "execute_fetchall"):
        monkeypatch.setattr(conn, name, refusing(getattr(conn, name)))


async def test_a_full_disk_is_answered_plainly(
    simcord_env, simcord_bot, ack_clock, caplog, monkeypatch
) -> None:
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await bot.service.get(game_id)
    mover = alice if record.current_user == alice.id else bob
    card = hand_in(dm_message(mover, game_id).content)[0]
    fill_up(bot.db, monkeypatch)

    result, ack = await ack_clock.timed(mover.slash(channel, "schotten play", card=card, stone=1))
    assert ack < DEADLINE
    assert UNREACHABLE in text_of(result), text_of(result)
    assert (await bot.service.reload(game_id)).version == record.version
    # A member never seen: their language cannot be written, the rules still answer.
    newcomer = guild.add_member(env.create_user("newcomer"))
    rules, ack = await ack_clock.timed(newcomer.slash(channel, "schotten rules"))
    assert ack < DEADLINE and len(text_of(rules)) > 80
    assert any("language" in r.getMessage() and r.levelname == "WARNING" for r in caplog.records)

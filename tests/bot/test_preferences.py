"""Settings and presence (migration 10): a member's turn pings and a server's threads
stored on both backends, read by another process once their minute ran out; when a
member was last seen; and the ping rule."""

from __future__ import annotations

import pytest

from bot.community.preferences import TTL, Preferences, parse_pings, parse_threads
from bot.community.presence import AT_TABLE, RECORD_EVERY, Presence, wants_ping
from bot.storage import Storage
from tests.bot.conftest import ALICE, BOB, FakeClock

pytestmark = pytest.mark.shipped_defaults  # the defaults the bot ships, not the suite's classic ones


async def test_settings_are_stored_per_member_and_server(db: Storage) -> None:
    clock = FakeClock()
    mine, other = Preferences(db.players, clock=clock), Preferences(db.players, clock=clock)
    assert await mine.pings(ALICE) == "away" and await mine.threads(1)  # the shipped defaults
    await other.choose_pings(ALICE, "never")
    await other.choose_threads(1, False)
    assert await other.pings(ALICE) == "never" and not await other.threads(1)
    assert await other.pings(BOB) == "away" and await other.threads(ALICE)  # nobody else's
    assert await mine.pings(ALICE) == "away"  # remembered for a while
    clock.now += TTL
    assert await mine.pings(ALICE) == "never" and not await mine.threads(1)
    await other.choose_pings(ALICE, "every-turn")
    assert await db.players.preference("user", ALICE, "pings") == "every-turn"
    assert parse_pings("sometimes") is None and parse_threads("maybe") is None


async def test_presence_is_shared_through_the_database(db: Storage) -> None:
    clock = FakeClock()
    here, there = Presence(db.players, clock=clock), Presence(db.players, clock=clock)
    assert await there.last_seen(ALICE) is None
    here.seen(ALICE)
    await here.written()
    assert await there.last_seen(ALICE) == clock.now  # another process knows it
    seen = clock.now
    clock.now += RECORD_EVERY / 2
    here.seen(ALICE)  # within RECORD_EVERY: not written again, but known here
    await here.written()
    assert await there.last_seen(ALICE) == seen and await here.last_seen(ALICE) == clock.now
    await db.players.set_seen_at(ALICE, seen - 100)  # an older time never moves it back
    assert await there.last_seen(ALICE) == seen


@pytest.mark.parametrize(
    ("mode", "seen_ago", "pinged", "expected"),
    [
        ("away", None, False, True),  # never seen: away
        ("away", AT_TABLE - 1, False, False),  # at the table
        ("away", AT_TABLE, False, True),
        ("away", AT_TABLE * 10, True, False),  # this turn had its ping
        ("every-turn", 0, False, True),
        ("every-turn", 0, True, False),
        ("never", None, False, False),
    ],
)
def test_the_ping_rule(mode: str, seen_ago: float | None, pinged: bool, expected: bool) -> None:
    now = 5000.0
    last_seen = None if seen_ago is None else now - seen_ago
    assert wants_ping(mode, now=now, last_seen=last_seen, pinged_this_turn=pinged) is expected  # type: ignore[arg-type]

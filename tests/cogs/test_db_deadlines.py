"""Every command and component that touches the database is acknowledged within 3 s.

``tests/cogs/test_db_faults.py`` tries the usual interactions (hand, board, games, a
typed play, the board's button) with the database stopped; here the others are: the
ratings and records, new games, settings, resign and hint, the tournament commands,
``web``, and the buttons (challenge answers, rematch, sign-up, replay pages, hand
controls). Each must be acknowledged within Discord's 3 s and, with the database
stopped, answer "database unreachable" privately (an ephemeral reply, or an ephemeral
follow-up for a public acknowledgement or a click that edits its own message).

With a database that is slow but answers (each call sleeps most of ``DATABASE_TIMEOUT``
of real time, so that several in a row pass 3 s), every command is still acknowledged
within 3 s: it acknowledges before its first call (or, for practice and the
leaderboard, after one bounded read). simcord runs on a virtual clock (see the note in
test_db_faults.py): the sleep is real time in a thread, not a timer, and each call
charges its seconds to the acknowledgement clock when it starts (``AckClock``), so the
time to an acknowledgement is the timers the bot waited on plus the calls it started
first, whatever the machine's load.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import discord
import pytest

from bot.text.catalogue import t
from tests.cogs import test_db_faults as faults
from tests.cogs.helpers import challenge_and_accept, dm_message, flat_components, private_text
from tests.cogs.test_db_faults import DEADLINE, UNREACHABLE, AckClock, text_of

# The bot on PostgreSQL through the fault proxy, and the acknowledgement clock.
simcord_bot = faults.simcord_bot
fault_proxy = faults.fault_proxy
ack_clock = faults.ack_clock


def custom_id(message: Any, prefix: str, label: str | None = None) -> str:
    for component in flat_components(message):
        cid = component.get("custom_id", "")
        wanted = label is None or component.get("label") == label
        if cid.startswith(prefix) and wanted and not component.get("disabled"):
            return str(cid)
    raise AssertionError(f"no {prefix} {label} on {message.content!r}")


async def _table(env: Any) -> tuple[Any, Any, dict[str, Any], dict[str, Callable[[], Any]]]:
    """A server with a finished game, a game in progress, a pending challenge and a
    tournament in sign-up; the interactions to try, each as a maker."""
    guild = env.create_guild()
    channel = guild.create_text_channel("general")
    staff = guild.create_role("staff", permissions=discord.Permissions(manage_guild=True, manage_events=True))
    alice = guild.add_member(env.create_user("alice"), roles=[staff])
    bob, carol, dave = (guild.add_member(env.create_user(name)) for name in ("bob", "carol", "dave"))

    finished = await challenge_and_accept(env, channel, alice, bob)
    await bob.slash(channel, "schotten resign", game=finished)
    ended = next(m for m in reversed(channel.history()) if "st:rematch:" in str(flat_components(m)))
    live = await challenge_and_accept(env, channel, alice, bob)
    pending = await carol.slash(channel, "schotten challenge", opponent=dave)
    other = (await bob.slash(channel, "schotten challenge", opponent=dave)).response  # to decline
    created = await alice.slash(channel, "schotten tournament create", name="Cup", format="swiss")
    signup = created.response
    replay = (await alice.slash(channel, "schotten replay", game=finished)).response
    holder, dm = next(
        (member, dm_message(member, live))
        for member in (alice, bob)
        if "st:card:" in str(flat_components(dm_message(member, live)))
    )
    card_select = next(c for c in flat_components(dm) if c.get("custom_id", "").startswith("st:card:"))

    answers = pending.response
    makers: dict[str, Callable[[], Any]] = {
        # Components first: in the slow test the commands change what they act on.
        "accept": lambda: dave.click(answers, custom_id=custom_id(answers, "st:chal:", "Accept")),
        "decline": lambda: dave.click(other, custom_id=custom_id(other, "st:chal:", "Decline")),
        "rematch": lambda: alice.click(ended, custom_id=custom_id(ended, "st:rematch:")),
        "join": lambda: carol.click(signup, custom_id=custom_id(signup, "st:tour:", t("tournament.join"))),
        "leave": lambda: carol.click(signup, custom_id=custom_id(signup, "st:tour:", t("tournament.leave"))),
        "replay page": lambda: alice.click(replay, custom_id=custom_id(replay, "st:rp:")),
        "hand control": lambda: holder.user.select(
            dm, [card_select["options"][0]["value"]], custom_id=card_select["custom_id"]
        ),
        "leaderboard": lambda: alice.slash(channel, "schotten leaderboard"),
        "stats": lambda: alice.slash(channel, "schotten stats"),
        "history": lambda: alice.slash(channel, "schotten history"),
        "challenge": lambda: alice.slash(channel, "schotten challenge", opponent=carol),
        "practice": lambda: carol.slash(channel, "schotten practice"),
        "language": lambda: alice.slash(channel, "schotten language", language="de"),
        "style": lambda: alice.slash(channel, "schotten style", board="picture"),
        "replay": lambda: alice.slash(channel, "schotten replay", game=finished),
        "export": lambda: alice.slash(channel, "schotten export", game=finished),
        "resign": lambda: alice.slash(channel, "schotten resign", game=live),
        "hint": lambda: alice.slash(channel, "schotten hint", game=live),
        "tournament create": lambda: alice.slash(
            channel, "schotten tournament create", name="Two", format="swiss"
        ),
        "tournament start": lambda: alice.slash(channel, "schotten tournament start"),
        "tournament standings": lambda: alice.slash(channel, "schotten tournament standings"),
        "tournament leave": lambda: alice.slash(channel, "schotten tournament leave"),
        "tournament kick": lambda: alice.slash(channel, "schotten tournament kick", member=bob),
        "tournament cancel": lambda: alice.slash(channel, "schotten tournament cancel"),
        "tournaments": lambda: alice.slash(channel, "schotten tournaments"),
        "web": lambda: alice.slash(channel, "schotten web", links=True),
    }
    return guild, channel, {"live": live}, makers


SLOW = 0.45  # seconds per statement: most of a DATABASE_TIMEOUT of 0.5

# Answered without the database here: ``web`` (no web server in these tests); a hand
# control redraws from the game this process holds (read again only when newer).
NEEDS_NO_DATABASE = {"web", "hand control"}


@pytest.mark.simcord(settle_timeout=30)
async def test_every_command_and_component_is_acknowledged_when_stopped(
    simcord_env, simcord_bot, fault_proxy, ack_clock: AckClock, caplog
) -> None:
    _, _, _, makers = await _table(simcord_env)
    fault_proxy.refuse()
    late, wrong = [], []
    for name, make in makers.items():
        result, ack = await ack_clock.timed(make())
        if ack >= DEADLINE:
            late.append((name, ack))
        if name not in NEEDS_NO_DATABASE and UNREACHABLE not in private_text(result):
            wrong.append((name, private_text(result), text_of(result)))
    assert not late, late
    assert not wrong, wrong
    assert not [r for r in caplog.records if r.levelname == "ERROR" and r.name.startswith(("bot", "cogs"))]


def slow_database(bot: Any, monkeypatch: pytest.MonkeyPatch, seconds: float, clock: AckClock) -> None:
    """Each statement waits ``seconds`` of real time first, then runs: slow, but
    answering. ``clock`` is charged the ``seconds`` as the statement starts."""
    db = bot.db
    for name in ("execute", "executemany", "all", "one", "value"):
        original = getattr(db, name)

        async def slowed(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
            clock.charge(seconds)
            await asyncio.to_thread(time.sleep, seconds)
            return await _original(*args, **kwargs)

        monkeypatch.setattr(db, name, slowed)


@pytest.mark.simcord(settle_timeout=120)
async def test_every_command_is_acknowledged_when_slow(
    simcord_env, simcord_bot, monkeypatch, ack_clock: AckClock
) -> None:
    _, _, _, makers = await _table(simcord_env)
    slow_database(simcord_bot, monkeypatch, SLOW, ack_clock)
    late = []
    for name, make in makers.items():
        _, ack = await ack_clock.timed(make())
        if ack >= DEADLINE:
            late.append((name, ack))
    assert not late, late

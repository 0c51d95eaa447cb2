"""The Activity's sessions over time and its sign-in's limit, with injected clocks (never
the wall clock): a session renewed before it ends (once only), an expired one refused,
and ``POST /activity/token`` limited per address (an IPv6 /64 counted as one)."""

from __future__ import annotations

import json
import logging

import aiohttp

from bot.text import i18n
from bot.text.catalogue import t
from bot.web.activity import ACTIVITY, SIGN_INS_PER_MINUTE
from bot.web.answers import SECURITY_HEADERS
from bot.web.sessions import RENEW_BEFORE
from tests.web.test_activity_api import fake_discord, get_json, root, sign_in, simcord_bot, start
from tests.web.test_table_api import post

__all__ = ["fake_discord", "simcord_bot"]  # the fixtures


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def post_from(url: str, data: object, address: str | None = None) -> tuple[int, dict, dict[str, str]]:
    """POST JSON as if from ``address`` (the server trusts X-Forwarded-For from a
    loopback peer, as behind a reverse proxy on its machine)."""
    headers = {"Content-Type": "application/json"}
    if address is not None:
        headers["X-Forwarded-For"] = address
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=json.dumps(data).encode(), headers=headers) as response,
    ):
        text = await response.text()
        try:
            body = json.loads(text)
        except ValueError:
            body = {"text": text}
        return response.status, body, dict(response.headers)


async def test_sign_ins_are_limited_per_address(simcord_env, simcord_bot, fake_discord, caplog):
    caplog.set_level(logging.WARNING, logger="bot.web.limits")
    bot = simcord_bot
    rate = bot.web.app[ACTIVITY].sign_ins
    clock = Clock(1000.0)
    rate.clock = rate.refusals.clock = clock
    url = f"{root(bot)}/activity/token"
    for _ in range(SIGN_INS_PER_MINUTE):
        status, _, _ = await post_from(url, {"code": "never-issued"}, "2001:db8::1")
        assert status == 401
    # The same /64, another address in it: refused, before Discord is asked.
    asked = len(fake_discord.exchanges)
    code = fake_discord.grant(42)
    for _ in range(3):
        status, body, headers = await post_from(url, {"code": code}, "2001:db8::ffff")
        assert status == 429 and "session" not in body
        assert body["error"] == t("activity.too_many")
        for name in ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"):
            assert headers[name] == SECURITY_HEADERS[name]
    assert len(fake_discord.exchanges) == asked
    # Another /64 and an IPv4 address are not held back.
    assert (await post_from(url, {"code": code}, "2001:db8:0:1::1"))[0] == 200
    assert (await post_from(url, {"code": "never-issued"}, "192.0.2.7"))[0] == 401
    # One log line for the refusals of the minute, naming no address or code.
    lines = [r.getMessage() for r in caplog.records if "sign-ins" in r.getMessage()]
    assert len(lines) == 1 and "2001:db8" not in lines[0] and code not in lines[0]
    # A minute later the address may sign in again.
    clock.now += 60
    assert (await post_from(url, {"code": fake_discord.grant(42)}, "2001:db8::1"))[0] == 200


async def test_a_session_is_renewed_before_its_end_once_and_an_expired_one_is_refused(
    simcord_env, simcord_bot, fake_discord
):
    env, bot = simcord_env, simcord_bot
    channel, (alice, _bob, _), game_id = await start(env, bot)
    sessions = bot.web.app[ACTIVITY].sessions
    clock = Clock(2_000_000_000.0)
    sessions.clock = clock
    status, signed = await sign_in(bot, fake_discord.grant(alice.id, locale="fr"))
    assert status == 200
    first = signed["session"]
    assert signed["renew_in"] == sessions.ttl - RENEW_BEFORE
    state_of = f"{root(bot)}/activity/s/{{}}/game/{game_id}/state"

    # Fifty minutes in, the page renews: a new session for the same member and language.
    clock.now += sessions.ttl - RENEW_BEFORE
    status, renewed = await post(f"{root(bot)}/activity/s/{first}/renew", {})
    assert status == 200, renewed
    second = renewed["session"]
    assert second != first and renewed["renew_in"] == sessions.ttl - RENEW_BEFORE
    assert sessions.check(second).user_id == alice.id and sessions.check(second).language == "fr"
    # Once only: the same session renewed again is refused.
    status, again = await post(f"{root(bot)}/activity/s/{first}/renew", {})
    assert status == 401 and "session" not in again
    # Past the first session's end, the member plays on with the second.
    clock.now += RENEW_BEFORE + 1
    assert (await get_json(state_of.format(first)))[0] == 401
    status, state = await get_json(state_of.format(second))
    assert status == 200 and state["seat"] in (0, 1)
    # An expired session cannot be renewed, and is told so in the member's language.
    clock.now += sessions.ttl
    status, refused = await post(f"{root(bot)}/activity/s/{second}/renew", {})
    assert status == 401 and refused["signin"] and "session" not in refused
    with i18n.use("fr"):
        assert refused["error"] == t("activity.expired")
    status, _ = await get_json(f"{root(bot)}/activity/s/{second}/games?channel={channel.id}")
    assert status == 401

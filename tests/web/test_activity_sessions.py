"""The Activity's sessions over time and its sign-in's limit, with injected clocks (never
the wall clock): a session renewed before it ends (once only), an expired one refused,
and ``POST /activity/token`` limited per address (an IPv6 /64 counted as one)."""

from __future__ import annotations

import json
import logging

import aiohttp

from bot.text.catalogue import t
from bot.web.activity import ACTIVITY, SIGN_INS_PER_MINUTE
from bot.web.answers import SECURITY_HEADERS
from tests.web.test_activity_api import fake_discord, root, simcord_bot

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

"""A fake of Discord's OAuth2 token endpoint and ``/users/@me`` on localhost (an aiohttp
server on a port the OS picks), for the Activity's sign-in (``DISCORD_API_BASE``).

``grant(code, user_id)`` makes a code Discord would accept; ``expire(code)`` one it
answers ``invalid_grant`` for, as Discord does for an expired code. Like Discord it
refuses a code exchanged before, unless ``accept_reuse`` is set (to show that our
server refuses a replayed code by itself). ``exchanges`` counts the codes it was asked.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestServer

CLIENT_ID = 1234567890123
CLIENT_SECRET = "fake-client-secret-0123456789"
LAUNCH_ACTIVITY = 12  # the interaction callback type that opens the application's Activity


def _discord_json(data: dict[str, Any], status: int = 200) -> web.Response:
    """JSON as Discord sends it: ``Content-Type: application/json`` exactly (what
    discord.py's HTTP layer looks for before it parses a body)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


@dataclass
class FakeDiscord:
    codes: dict[str, tuple[int, str]] = field(default_factory=dict)  # code: user id, locale
    expired: set[str] = field(default_factory=set)
    used: set[str] = field(default_factory=set)
    tokens: dict[str, int] = field(default_factory=dict)
    locales: dict[int, str] = field(default_factory=dict)
    exchanges: list[str] = field(default_factory=list)
    accept_reuse: bool = False
    callbacks: list[dict[str, Any]] = field(default_factory=list)  # interaction callbacks posted
    refuse_launch: bool = False  # answer LAUNCH_ACTIVITY with 400 (not launchable here)
    server: TestServer | None = None

    def grant(self, user_id: int, locale: str = "en-US") -> str:
        code = secrets.token_hex(15)
        self.codes[code] = (user_id, locale)
        return code

    def expire(self, code: str) -> None:
        self.expired.add(code)

    @property
    def base(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.port}/api/v10"

    async def token(self, request: web.Request) -> web.Response:
        form = await request.post()
        code = str(form.get("code", ""))
        self.exchanges.append(code)
        if form.get("client_id") != str(CLIENT_ID) or form.get("client_secret") != CLIENT_SECRET:
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code":
            return web.json_response({"error": "unsupported_grant_type"}, status=400)
        if code not in self.codes or code in self.expired or (code in self.used and not self.accept_reuse):
            return web.json_response({"error": "invalid_grant"}, status=400)
        self.used.add(code)
        user_id, locale = self.codes[code]
        access = secrets.token_hex(16)
        self.tokens[access] = user_id
        self.locales[user_id] = locale
        return web.json_response(
            {"access_token": access, "token_type": "Bearer", "expires_in": 604800, "scope": "identify"}
        )

    async def me(self, request: web.Request) -> web.Response:
        scheme, _, access = request.headers.get("Authorization", "").partition(" ")
        user_id = self.tokens.get(access) if scheme == "Bearer" else None
        if user_id is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response(
            {
                "id": str(user_id),
                "username": f"user{user_id}",
                "global_name": None,
                "locale": self.locales[user_id],
            }
        )

    async def callback(self, request: web.Request) -> web.Response:
        """``POST /interactions/<id>/<token>/callback`` (discord.py's HTTP layer)."""
        body = await request.json()
        self.callbacks.append(body)
        interaction = {"id": request.match_info["id"], "type": 3}
        if body.get("type") == LAUNCH_ACTIVITY:
            if self.refuse_launch:
                return _discord_json({"message": "Cannot launch", "code": 50035}, status=400)
            interaction["activity_instance_id"] = "i-1"
            return _discord_json(
                {
                    "interaction": interaction,
                    "resource": {"type": LAUNCH_ACTIVITY, "activity_instance": {"id": "i-1"}},
                }
            )
        return _discord_json({"interaction": interaction})

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/api/v10/oauth2/token", self.token)
        app.router.add_get("/api/v10/users/@me", self.me)
        app.router.add_post("/api/v10/interactions/{id}/{token}/callback", self.callback)
        self.server = TestServer(app, host="127.0.0.1")
        await self.server.start_server()

    async def close(self) -> None:
        if self.server is not None:
            await self.server.close()

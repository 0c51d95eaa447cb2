"""Discord's side of an Activity, for Chromium: a harness page at ``https://discord.com``
(served by Playwright's request routing) that frames the Activity with the query
parameters Discord passes and answers the Embedded App SDK's messages the way Discord's
client does (the protocol as the SDK's source in ``ui/node_modules/@discord/
embedded-app-sdk/output/Discord.mjs`` and ``schema/`` reads it: the HANDSHAKE, then the
READY dispatch, then a reply with the same nonce to each command), and a proxy playing
``<app>.discordsays.com``: it forwards ``/.proxy/<path>`` and ``/<path>`` to
``PUBLIC_URL/activity/<path>`` (the URL mapping of the README), streams included.

The instance's participants (``GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS``, and the
``ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE`` event, sent by :func:`participants_changed`)
are the members whose Activity is open in that :class:`Instance`, as Discord's client
names them (the user object of the SDK's schema). Launched in a DM (``guild_id=None``),
the frame's query has no ``guild_id``, as in Discord.

The frame's origin is ``http://localhost:<port>`` (Chromium treats localhost as secure,
so an HTTPS page may frame it), unlike the pages' ``127.0.0.1``: the page therefore goes
through ``/.proxy/`` as inside Discord.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web
from aiohttp.test_utils import TestServer

from tests.web.fake_discord import CLIENT_ID, FakeDiscord

HARNESS = "https://discord.com/activities/harness"
PASSED = ("Content-Type", "Accept-Language", "Accept")  # the request headers passed on
FORWARDED = ("Content-Type", "Content-Security-Policy", "Cache-Control", "X-Frame-Options")

PARENT = """<!doctype html><html><head><meta charset="utf-8"><style>
html, body { margin: 0; height: 100%; } iframe { border: 0; width: 100%; height: 100%; display: block; }
</style></head><body><iframe id="activity" src="__SRC__"></iframe><script>
const frame = document.getElementById("activity");
window.commands = [];
window.handshakes = [];
window.subscribed = [];
function send(message) { frame.contentWindow.postMessage(message, "*"); }
// Someone joined or left the instance: Discord's event to those subscribed.
window.participantsChanged = async () => {
  if (!window.subscribed.includes("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE")) return false;
  const participants = JSON.parse(await window.discordParticipants());
  const evt = "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE";
  send([1, { cmd: "DISPATCH", evt, nonce: null, data: { participants } }]);
  return true;
};
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  if (opcode === 0) {  // HANDSHAKE: the client answers with the READY dispatch
    window.handshakes.push(payload);
    send([1, { cmd: "DISPATCH", evt: "READY", nonce: null, data: { v: 1, config: {
      cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" } } }]);
    return;
  }
  if (opcode !== 1) return;  // FRAME: a command
  window.commands.push(payload.cmd);
  let data = null;
  if (payload.cmd === "AUTHORIZE") {
    data = { code: await window.discordAuthorize(JSON.stringify(payload.args)) };
  } else if (payload.cmd === "AUTHENTICATE") {
    const user = await window.discordAuthenticate(payload.args.access_token);
    if (user === null) {
      const error = { code: 4009, message: "bad token" };
      send([1, { cmd: payload.cmd, evt: "ERROR", nonce: payload.nonce, data: error }]);
      return;
    }
    data = { access_token: payload.args.access_token, user, scopes: ["identify"],
             expires: "2099-01-01T00:00:00.000Z",
             application: { description: "", id: "__CLIENT__", name: "Schotten-Totten" } };
  } else if (payload.cmd === "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS") {
    data = { participants: JSON.parse(await window.discordParticipants()) };
  } else if (payload.cmd === "SUBSCRIBE") {
    window.subscribed.push(payload.evt);
    data = { evt: payload.evt };
  }
  send([1, { cmd: payload.cmd, evt: null, nonce: payload.nonce, data }]);
});
</script></body></html>"""


@dataclass
class Instance:
    """The members who have the Activity open in one channel (Discord's instance)."""

    members: list[Any] = field(default_factory=list)

    def participants(self) -> str:
        return json.dumps(
            [
                {
                    "id": str(member.id),
                    "username": f"user{member.id}",
                    "global_name": member.name,  # the name Discord shows
                    "discriminator": "0",
                    "avatar": None,
                    "flags": 0,
                    "bot": False,
                }
                for member in self.members
            ]
        )


async def participants_changed(page: Any) -> bool:
    """Discord tells the page of ``page`` (a member's client) that the instance changed."""
    return bool(await page.evaluate("window.participantsChanged()"))


@dataclass
class Proxy:
    """``<app>.discordsays.com``: everything to ``PUBLIC_URL/activity``."""

    target: str
    server: TestServer | None = None
    session: aiohttp.ClientSession | None = None

    async def forward(self, request: web.Request) -> web.StreamResponse:
        assert self.session is not None
        path = request.path.removeprefix("/.proxy")
        url = f"{self.target}/activity{path}" + (f"?{request.query_string}" if request.query_string else "")
        headers = {
            k: v for k, v in request.headers.items() if k in ("Content-Type", "Accept-Language", "Accept")
        }
        async with self.session.request(
            request.method, url, data=await request.read(), headers=headers
        ) as answer:
            response = web.StreamResponse(status=answer.status)
            for name in FORWARDED:
                if name in answer.headers:
                    response.headers[name] = answer.headers[name]
            await response.prepare(request)
            async for chunk in answer.content.iter_any():
                await response.write(chunk)
            return response

    @property
    def origin(self) -> str:
        assert self.server is not None
        return f"http://localhost:{self.server.port}"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/{path:.*}", self.forward)
        self.session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None))
        self.server = TestServer(app, host="127.0.0.1")
        await self.server.start_server()

    async def close(self) -> None:
        if self.server is not None:
            await self.server.close()
        if self.session is not None:
            await self.session.close()


async def open_activity(
    browser: Any,
    proxy: Proxy,
    fake: FakeDiscord,
    member: Any,
    *,
    guild_id: int | None,
    channel_id: int,
    errors: list[str],
    platform: str = "desktop",
    viewport: dict[str, int] | None = None,
    instance: Instance | None = None,
    fake_timers: bool = False,
) -> tuple[Any, Any]:
    """A member's Discord client with the Activity open: (the page, the Activity's frame).
    ``instance``: who else has it open there (the member joins it); ``guild_id`` None:
    launched in a DM; ``fake_timers``: the page's timers run on Playwright's clock
    (``page.clock``), moved on by the test only."""
    instance = instance if instance is not None else Instance()
    instance.members.append(member)
    context = await browser.new_context(locale="en-GB", viewport=viewport or {"width": 1100, "height": 900})
    query = (
        f"frame_id=frame-{member.id}&instance_id=i-{channel_id}&platform={platform}"
        + ("" if guild_id is None else f"&guild_id={guild_id}")
        + f"&channel_id={channel_id}"
    )
    parent = PARENT.replace("__SRC__", f"{proxy.origin}/?{query}").replace("__CLIENT__", str(CLIENT_ID))

    async def harness(route: Any) -> None:
        await route.fulfill(status=200, content_type="text/html", body=parent)

    await context.route(HARNESS, harness)
    page = await context.new_page()
    page.on("pageerror", lambda error: errors.append(f"script error: {error}"))
    page.on(
        "console",
        lambda message: errors.append(f"console: {message.text}") if message.type == "error" else None,
    )
    scopes: list[str] = []

    def authorize(args: str) -> str:
        scopes.extend(json.loads(args)["scope"])
        return fake.grant(member.id)

    def authenticate(token: str) -> dict[str, Any] | None:
        if fake.tokens.get(token) != member.id:
            return None
        return {"username": f"user{member.id}", "discriminator": "0", "id": str(member.id), "public_flags": 0}

    await page.expose_function("discordParticipants", instance.participants)
    await page.expose_function("discordAuthorize", authorize)
    await page.expose_function("discordAuthenticate", authenticate)
    if fake_timers:
        await page.clock.install()
    await page.goto(HARNESS)
    handle = await page.wait_for_selector("#activity")
    content = await handle.content_frame()
    assert content is not None
    page.scopes = scopes  # type: ignore[attr-defined]
    return page, content

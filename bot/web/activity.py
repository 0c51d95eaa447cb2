"""The table inside Discord: the Activity's sign-in, its list of games and its seats
(the page: ``ui/src/activity.ts``, built into ``bot/web/static/table/``).

Routes, all off (404) unless ``DISCORD_CLIENT_ID`` and ``DISCORD_CLIENT_SECRET`` are set:

* ``GET /activity/``: the page Discord frames (Discord's URL mapping ``/`` points at
  ``PUBLIC_URL/activity``), allowed as a frame of Discord's origins only
  (``frame-ancestors``, :data:`ACTIVITY_CSP`); ``/activity/static/``: its script (with
  the table's view and Discord's SDK) and the table's style sheet;
* ``POST /activity/token`` ``{"code": "..."}``: the OAuth2 code of the SDK's ``authorize``,
  exchanged with Discord (``bot.web.discord_oauth``), once only (``UsedCodes``); answers
  our own session for the user Discord names (``bot.web.sessions``) and Discord's access
  token that the SDK's ``authenticate`` needs; a refused, expired or replayed code 401;
  at most :data:`SIGN_INS_PER_MINUTE` a minute from one address (an IPv6 /64), more 429
  before anything is read or Discord is asked (``limits.AddressRate``, logged as a
  summary once a minute at most);
* ``POST /activity/s/<session>/renew``: a new session for the session's member while
  the session is valid, once only per session (``Sessions.renew``), with ``renew_in``,
  the seconds after which the page renews that one; 401 for an expired, forged or
  already renewed session;
* ``GET /activity/s/<session>/games?channel=<id>``: the channel's games, the member's own
  first (each with its seat's base path and its opponent's id), then the others' titles
  and status to watch, and the channel's open challenges from or to the member. The
  channel is the one the SDK names, so not checked against Discord: a member could list
  another channel's games, which shows them nothing but what that channel's boards show;
* ``GET /activity/s/<session>/games?channel=<id>&dm=1``: launched in a DM (the SDK gives
  a channel but no server). The bot cannot see a DM between two members, nor tell who
  is in it, so it lists what a member expects to find there without trusting the page:
  **the member's own games, wherever they are played** (a server channel, their DMs with
  the bot), at their seats, and nothing to watch. The page opens first the game against
  someone Discord names as a participant of the Activity (the DM's other member), else
  lists them all; it only orders the member's own games, so nothing depends on the
  page telling the truth. A DM's games against the AI are started from there too;
  challenges are made in a server channel, as with the command;
* ``/activity/s/<session>/game/<game>/{state,legal,move,hint,events}``: the table's seat
  routes (``bot.web.table``), the seat being the session's user's in that game: a game
  the member does not play answers 404, as a wrong link does;
* ``GET /activity/s/<session>/watch/<game>/{state,events}``: a server's game the member
  does not play, as a spectator sees it (``bot.web.spectator``: built from its public
  view only; the page mounts the spectator's table, ``ui/src/spectator.ts``), the event
  stream under the watch page's limits but counted per member, not per address
  (``bot.web.server.public_events``); a DM's game, or the member's own, answers 404;
* ``GET /activity/s/<session>/game/<game>/result``: the end of the member's game, who won
  and how (``render_result``: stones, breakthrough, time, resignation) and, for a rated
  game, each player's rating before and after in the game's ladder (the server's; the
  global one for a game in DMs), in the member's language; ``{"over": false}`` before;
* starting a game (a challenge, its answer, a practice game): ``bot.web.activity_lobby``.

The session is in the path (an event stream cannot send a header), like the links'
tokens; the server logs no request lines. A forged or expired session answers 401 JSON,
which the page takes as "open the Activity again".
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.community.ratings import GLOBAL_SCOPE, guild_scope
from bot.games.live import LiveGame
from bot.text import i18n
from bot.text.catalogue import t
from bot.text.render import render_result
from bot.web import pages
from bot.web.activity_lobby import Lobby
from bot.web.activity_lobby import register as register_lobby
from bot.web.answers import json_answer
from bot.web.discord_oauth import OAuth, Refused
from bot.web.inputs import address_of, number
from bot.web.limits import AddressRate
from bot.web.seat_state import table_texts
from bot.web.server import SOURCES, NotFound, live_payload, public_events, spectator_json
from bot.web.sessions import Session, Sessions, UsedCodes
from bot.web.table import TABLE, TABLE_STATIC, SeatRequest, add_seat_routes, script_json
from rules.ai import LEVELS

log = logging.getLogger(__name__)

#: Discord's origins that frame an Activity (the web and desktop clients, their test
#: builds, and the Activity's own proxy origin); nothing else may frame the page.
DISCORD_ORIGINS = (
    "https://discord.com",
    "https://*.discord.com",
    "https://discordapp.com",
    "https://*.discordapp.com",
    "https://*.discordsays.com",
)
ACTIVITY_CSP = (
    "default-src 'self'; img-src 'self' data:; script-src 'self'; style-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; "
    f"frame-ancestors {' '.join(DISCORD_ORIGINS)}"
)
MAX_CODE = 200  # characters of an OAuth2 code (Discord's are 30)
# Sign-ins a minute from one address. Generous: inside Discord every member's requests
# may come from Discord's proxy (its addresses are not the members'), so this bounds a
# flood of codes, not members.
SIGN_INS_PER_MINUTE = 60
STATIC_FILES = {"activity.js": "text/javascript", "table.css": "text/css"}
ACTIVITY_TEXTS = (
    "activity.title",
    "activity.signing_in",
    "activity.refused",
    "activity.expired",
    "activity.outside",
    "activity.your_games",
    "activity.watch_games",
    "activity.no_games",
    "activity.open_game",
    "activity.watch_game",
    "activity.challenged_by",
    "activity.challenge_waiting",
    "activity.accept",
    "activity.decline",
    "activity.new_game",
    "activity.challenge",
    "activity.no_one_here",
    "activity.practice",
    "activity.challenge_sent",
    "activity.result",
    "activity.your_games_dm",
    "activity.no_games_dm",
    "activity.back",
    "activity.failed",
)


def activity_texts() -> dict[str, str]:
    """The page's own texts in the current language, keyed without ``activity.`` (the
    AI's levels as ``level.<level>``)."""
    texts = {key.removeprefix("activity."): t(key) for key in ACTIVITY_TEXTS}
    return texts | {f"level.{level}": t(f"level.{level}") for level in LEVELS}


@dataclass
class Activity:
    """The Activity's parts: Discord's OAuth2 client, the sessions, the games of a
    channel (``GameStore.active_games_in_channel``, as live games) and of a member
    (``GameStore.active_games``), the sign-ins' rate per address, the lobby (None: no
    game is started from the Activity) and the codes seen."""

    oauth: OAuth
    public_url: str
    sessions: Sessions
    channel_games: Callable[[int], Awaitable[list[LiveGame]]]
    member_games: Callable[[int], Awaitable[list[LiveGame]]]
    sign_ins: AddressRate
    lobby: Lobby | None = None  # starting games: only with the bot (activity_lobby.py)
    codes: UsedCodes = field(default_factory=UsedCodes)


ACTIVITY = web.AppKey("activity", Activity)


def _refused(key: str, language: str | None = None) -> web.HTTPUnauthorized:
    with i18n.use(language or i18n.current()):
        text = json.dumps({"error": t(key), "signin": True}, ensure_ascii=False)
    return web.HTTPUnauthorized(text=text, content_type="application/json")


def _session(request: web.Request) -> Session:
    sessions, token = request.app[ACTIVITY].sessions, request.match_info["session"]
    session = sessions.check(token)
    if session is None:
        expired = sessions.signed(token)  # told in its member's language
        raise _refused("activity.expired", None if expired is None else expired.language)
    return session


async def token(request: web.Request) -> web.StreamResponse:
    """The code exchanged for a session (see the module's docstring)."""
    activity = request.app[ACTIVITY]
    if not activity.sign_ins.allow(address_of(request)):
        return json_answer({"error": t("activity.too_many")}, status=429)
    try:
        if request.content_type != "application/json":
            raise ValueError("not JSON")
        data = await request.json()
        code = data.get("code") if isinstance(data, dict) else None
        if not isinstance(code, str) or not 0 < len(code) <= MAX_CODE or not code.isascii():
            raise ValueError("no code")
    except ValueError:
        return json_answer({"error": t("activity.refused")}, status=400)
    if not activity.codes.first_use(code):
        log.info("Activity sign-in: a code was presented again and refused")
        raise _refused("activity.refused")
    try:
        user = await activity.oauth.user_of(code)
    except Refused:
        raise _refused("activity.refused") from None
    language = i18n.normalize(user.locale)
    with i18n.use(language):
        session = activity.sessions.issue(user.id, language)
        return json_answer(
            {
                "session": session,
                "renew_in": activity.sessions.renew_in(session),
                "access_token": user.access_token,
                "user": {"id": str(user.id), "name": user.name},
                "language": language,
                "texts": activity_texts(),
                "table_texts": table_texts(),
            }
        )


async def renew(request: web.Request) -> web.StreamResponse:
    """A new session for the session's member (see the module's docstring)."""
    sessions = request.app[ACTIVITY].sessions
    old = _session(request)
    new = sessions.renew(request.match_info["session"])
    if new is None:
        raise _refused("activity.expired", old.language)
    return json_answer({"session": new, "renew_in": sessions.renew_in(new)})


async def page(request: web.Request) -> web.StreamResponse:
    """The page Discord frames: the script signs in and draws the rest."""
    activity = request.app[ACTIVITY]
    e = pages.e
    client_id = str(activity.oauth.client_id)
    data = script_json({"client_id": client_id, "public_url": activity.public_url, "texts": activity_texts()})
    text = (
        f'<!doctype html><html lang="{e(i18n.current())}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="referrer" content="no-referrer">'
        f"<title>{e(t('activity.title'))}</title>"
        f'<link rel="stylesheet" href="static/table.css">'
        f'<script src="static/activity.js" defer></script></head>'
        f'<body data-page="table" data-activity="loading"><main id="table">'
        f"<noscript><p>{e(t('table.needs_script'))}</p></noscript></main>"
        f'<script type="application/json" id="activity-data">{data}</script></body></html>'
    )
    response = web.Response(text=text, content_type="text/html", charset="utf-8")
    response.headers["Content-Security-Policy"] = ACTIVITY_CSP
    return response


async def to_page(request: web.Request) -> web.StreamResponse:
    """``/activity`` to ``/activity/`` (the page's relative URLs need the slash)."""
    query = request.query_string
    raise web.HTTPFound("/activity/" + (f"?{query}" if query else ""))


async def static(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    if name not in STATIC_FILES:
        raise NotFound
    response = web.FileResponse(TABLE_STATIC / name, headers={"Content-Type": STATIC_FILES[name]})
    response.headers["Cache-Control"] = "public, max-age=300"
    return response


def _channel(request: web.Request) -> int:
    channel = number(request.query.get("channel"))
    if channel is None:
        raise NotFound
    return channel


async def games(request: web.Request) -> web.StreamResponse:
    """The games the Activity offers: in a server channel, the channel's (the member's
    own with their seat, the others to watch) and the challenges there from or to the
    member; in a DM (``dm=1``), the member's own games wherever they are played."""
    session = _session(request)
    activity, sources = request.app[ACTIVITY], request.app[SOURCES]
    in_dm = request.query.get("dm") == "1"
    channel_id = None if in_dm and "channel" not in request.query else _channel(request)
    mine: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    with i18n.use(session.language):
        if in_dm or channel_id is None:
            listed = await activity.member_games(session.user_id)
        else:
            listed = await activity.channel_games(channel_id)
        for record in listed:
            if not await sources.links.enabled(record.guild_id):
                continue
            payload = await live_payload(sources, record, session.language)
            entry: dict[str, Any] = {
                "game": record.id,
                "title": payload["title"],
                "status": payload["status"],
            }
            if session.user_id in record.players:
                entry["seat"] = record.players.index(session.user_id)
                entry["opponent"] = str(record.opponent_of(session.user_id))
                entry["base"] = f"/activity/s/{request.match_info['session']}/game/{record.id}"
                mine.append(entry)
            else:
                others.append(entry)  # watched at /activity/s/<session>/watch/<game>/
        challenges = [] if in_dm or channel_id is None else await _challenges(request, session, channel_id)
    return json_answer(
        {
            "user": str(session.user_id),
            "dm": in_dm,
            "lobby": activity.lobby is not None,
            "mine": mine,
            "watch": others,
            "challenges": challenges,
        }
    )


async def _challenges(request: web.Request, session: Session, channel_id: int) -> list[dict[str, Any]]:
    """The channel's open challenges from or to the member: whom, and whether it is
    theirs to answer."""
    lobby = request.app[ACTIVITY].lobby
    if lobby is None:
        return []
    names = request.app[SOURCES].names
    shown = []
    for challenge in await lobby.challenges.pending_with(channel_id, session.user_id):
        row = challenge.row
        to_me = row.opponent_id == session.user_id
        other = row.challenger_id if to_me else row.opponent_id
        name = await names.name(other, row.guild_id) if other is not None else ""
        key = "activity.challenged_by" if to_me else "activity.challenge_waiting"
        shown.append({"id": row.id, "answer": to_me, "text": t(key, name=name)})
    return shown


async def result(request: web.Request) -> web.StreamResponse:
    """The end of the member's game: who won and how, and for a rated game each
    player's rating before and after (in the game's server's ladder; the global one
    for a game in DMs), in the member's language."""
    seat = await _session_seat(request)
    record = await seat.sources.games.get(seat.record.id)
    if record.is_active or record.result is None:
        return json_answer({"over": False})
    sources = seat.sources
    names = await sources.names.pair(record.players, record.guild_id)
    scope = GLOBAL_SCOPE if record.guild_id is None else guild_scope(record.guild_id)
    changes = sorted(
        await sources.rankings.changes(record.id, scope), key=lambda c: record.players.index(c[0])
    )
    with i18n.use(seat.language or i18n.current()):
        ratings = [
            t(
                "activity.rating_change",
                name=names[record.players.index(user_id)],
                before=round(before),
                after=round(after),
                delta=round(after) - round(before),
            )
            for user_id, before, after in changes
        ]
        return json_answer(
            {
                "over": True,
                "text": render_result(record.result, names, you=seat.seat),
                "rated": bool(changes),
                "ratings": ratings,
                "unrated": "" if changes else t("activity.unrated"),
            }
        )


async def _session_seat(request: web.Request) -> SeatRequest:
    """The seat of the session's member in the game of the path; 404 if they do not
    play it (or the server turned its links off), 401 for a bad session."""
    session = _session(request)
    sources = request.app[SOURCES]
    text = request.match_info["game"]
    if not (text.isascii() and text.isdigit()) or len(text) > 20:
        raise NotFound
    record = await sources.games.get(int(text))
    if session.user_id not in record.players or not await sources.links.enabled(record.guild_id):
        raise NotFound
    seat = record.players.index(session.user_id)
    return SeatRequest(sources, request.app[TABLE], record, seat, language=session.language)


async def _watched(request: web.Request) -> tuple[Session, LiveGame]:
    """The game of the path, for the session's member to watch: a server's game they do
    not play (their own is at their seat), while its server has its links on; 404
    otherwise, 401 for a bad session. As the channel's list, it shows what the game's
    board in Discord shows, built from its public view only."""
    session = _session(request)
    sources = request.app[SOURCES]
    game_id = number(request.match_info["game"])
    if game_id is None:
        raise NotFound
    record = await sources.games.get(game_id)
    if record.guild_id is None or session.user_id in record.players:
        raise NotFound
    if not await sources.links.enabled(record.guild_id):
        raise NotFound
    return session, record


async def watch_state(request: web.Request) -> web.StreamResponse:
    """A watched game's spectator state and texts (``ui/src/spectator.ts``)."""
    session, record = await _watched(request)
    with i18n.use(session.language):
        return await spectator_json(request.app[SOURCES], record)


async def watch_events(request: web.Request) -> web.StreamResponse:
    """A watched game's public event stream, under the same limits as the watch page's."""
    session, record = await _watched(request)
    with i18n.use(session.language):
        return await public_events(request, record.id, session.user_id)


def register(app: web.Application, activity: Activity) -> None:
    """Add the Activity's routes (after the table's: its seats use the table's)."""
    app[ACTIVITY] = activity
    app.router.add_get("/activity", to_page)
    app.router.add_get("/activity/", page)
    app.router.add_get("/activity/static/{name}", static)
    app.router.add_post("/activity/token", token)
    app.router.add_post("/activity/s/{session}/renew", renew)
    app.router.add_get("/activity/s/{session}/games", games)
    app.router.add_get("/activity/s/{session}/game/{game}/result", result)
    app.router.add_get("/activity/s/{session}/watch/{game}/state", watch_state)
    app.router.add_get("/activity/s/{session}/watch/{game}/events", watch_events)
    add_seat_routes(app, "/activity/s/{session}/game/{game}", _session_seat)
    if activity.lobby is not None:
        register_lobby(app, activity.lobby, _session)

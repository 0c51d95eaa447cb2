"""The table: one player's own page of a game, played by tapping (the page: ``ui/``,
built into ``bot/web/static/table/``).

Routes, ``<token>`` signing exactly that game and seat (``bot.web.tokens``, kind
``seat``), valid while the game is played:

* ``GET /table/<game>/<seat>/<token>``: the page, with the seat's state in it;
* ``GET .../state``: the seat's state as JSON (:func:`bot.web.seat_state.seat_state`);
  ``GET .../legal``: the seat's legal moves only;
* ``POST .../move`` ``{"move": "play R7 3", "version": 12}``: a move through the same
  ``GameService.apply`` as a Discord control (the version check, once only, the outbox),
  then the same publication (the channel's board, the DMs, the AI's reply); a stale
  version gets 409 with the state as it is now, an illegal move 422, both with a message;
* ``POST .../hint``: in a game against the AI, the hard AI's suggestion (``Opponent.hint``);
* ``GET .../events``: an event stream of the seat's state, sent again after every change
  (a move in Discord, the AI's, the other player's table), then ``end``;
* ``/static/table/<file>``: the built scripts (the seat's, the watch page's) and style sheet.

A wrong token (forged, another game's or the other seat's) answers 404 like any unknown
page; a finished game 410 ("this game is over", with the replay's link). Everything a
seat is sent is built from that seat's ``PlayerView``: its own hand, never the other's
hand or a deck's order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import web

from bot.games.errors import GameFinished, LimitReached, ServiceError, StaleControl
from bot.games.live import LiveGame, MoveOutcome
from bot.storage import DatabaseUnavailable
from bot.text import i18n
from bot.text.catalogue import error_text, t
from bot.text.notation import refusal_text
from bot.text.render import describe_hint
from bot.web import pages
from bot.web.answers import SECURITY_HEADERS, NotFound, json_answer, refused_stream
from bot.web.inputs import number, stream_client
from bot.web.pages import script_json
from bot.web.seat_state import move_data, seat_state, table_texts
from bot.web.server import KEEPALIVE, SOURCES, STATIC, Sources
from rules.ai import Hint
from rules.errors import RulesError
from rules.moves import Move, parse_move

log = logging.getLogger(__name__)

TABLE_STATIC = STATIC / "table"
STATIC_FILES = {"table.js": "text/javascript", "watch.js": "text/javascript", "table.css": "text/css"}
MAX_MOVE = 100  # characters of a posted move's notation
STATES_KEPT = 256  # encoded states (game, version, stored, seat, language) a seat's pages share


class Publish(Protocol):
    """The table's publication of an outcome (``cogs.table.publisher.Publisher.publish``):
    the board, the DMs (``refresh_dm``'s too: the mover's, whose move no answer in
    Discord showed) and the AI's turn."""

    def __call__(self, outcome: MoveOutcome, *, refresh_dm: int | None = None) -> Awaitable[None]: ...


class Mover(Protocol):
    """The game service's move (``bot.games.service.GameService.apply``)."""

    async def apply(
        self, game_id: int, user_id: int, move: Move | str, *, expected_version: int | None = None
    ) -> MoveOutcome: ...


class Hinter(Protocol):
    """The AI's suggestion (``bot.games.opponent.Opponent.hint``)."""

    async def hint(self, record: LiveGame, player: int) -> Hint: ...


@dataclass
class Table:
    """What the table needs besides the pages' sources: the service that moves, the
    member's language, the AI's hints and the bot's publication of an outcome (set by
    the table's cog once it exists; None alone: the outbox keeps what is owed, and the
    bot's timers publish it)."""

    mover: Mover
    language: Callable[[int], Awaitable[str]] | None = None
    hinter: Hinter | None = None
    publish: Publish | None = None
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)
    _states: OrderedDict[tuple[int, int, float, int, str], bytes] = field(default_factory=OrderedDict)

    def published(self, outcome: MoveOutcome, seat: int) -> None:
        """Publish ``outcome`` of ``seat``'s move in the background: the page's answer
        does not wait for Discord (its messages, its rate limits)."""
        if self.publish is None:
            return
        task = asyncio.get_running_loop().create_task(self._publish(outcome, seat))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _publish(self, outcome: MoveOutcome, seat: int) -> None:
        assert self.publish is not None
        try:
            await self.publish(outcome, refresh_dm=seat)
        except Exception:
            # Committed and in the outbox: the timers' round publishes it again.
            log.exception("Game %d: publishing a move from the table failed", outcome.game.id)

    async def settled(self) -> None:
        """Wait until every publication started so far is done (tests, the benchmark)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


TABLE = web.AppKey("table", Table)


@dataclass(frozen=True)
class SeatRequest:
    sources: Sources
    table: Table
    record: LiveGame
    seat: int
    language: str | None = None  # None: the member's (``Table.language``) or the browser's

    @property
    def user_id(self) -> int:
        return self.record.players[self.seat]

    @property
    def path(self) -> str:
        token = self.sources.signer.token("seat", self.record.id, self.seat)
        return f"/table/{self.record.id}/{self.seat}/{token}"


def _number(request: web.Request, name: str) -> int:
    found = number(request.match_info[name])
    if found is None:
        raise NotFound
    return found


async def _seat(request: web.Request) -> SeatRequest:
    """The game and seat of a checked link, in the member's language; NotFound for a
    wrong link or a server that turned its links off."""
    sources = request.app[SOURCES]
    game_id, seat = _number(request, "game"), _number(request, "seat")
    if seat not in (0, 1) or not sources.signer.check("seat", game_id, request.match_info["token"], seat):
        raise NotFound
    record = await sources.games.get(game_id)
    if not await sources.links.enabled(record.guild_id):
        raise NotFound
    return SeatRequest(sources, request.app[TABLE], record, seat)


async def _language(seat: SeatRequest) -> str:
    if seat.language is not None:
        return seat.language  # the Activity's: Discord's locale
    if seat.table.language is None:
        return i18n.current()  # the browser's (Accept-Language)
    return await seat.table.language(seat.user_id)


async def _state(seat: SeatRequest, record: LiveGame | None = None) -> dict[str, Any]:
    """The seat's state of ``record`` (default: the request's) in the current language."""
    record = record or seat.record
    names = await seat.sources.names.pair(record.players, record.guild_id)
    replay = None
    if not record.is_active:
        replay = seat.sources.links.replay(record.id).removeprefix(seat.sources.links.public_url)
    return seat_state(record, record.game.view(seat.seat), names, replay=replay)


def _gone(seat: SeatRequest, *, as_json: bool) -> web.Response:
    message = t("table.over")
    replay = seat.sources.links.replay(seat.record.id).removeprefix(seat.sources.links.public_url)
    if as_json:
        return json_answer({"error": message, "replay": replay}, status=410)
    body = (
        f"<h1>{pages.e(t('web.site'))}</h1><p>{pages.e(message)}</p>"
        f'<p><a href="{pages.e(replay)}">{pages.e(t("web.open_replay"))}</a></p>'
    )
    return web.Response(
        text=pages.document(t("web.site"), body, page="none"),
        status=410,
        content_type="text/html",
        charset="utf-8",
    )


def table_page(state: dict[str, Any], texts: dict[str, str], *, base: str) -> str:
    """The page: an empty table the script draws from the state in it (a data block,
    not a script: the Content Security Policy allows none inline)."""
    e = pages.e
    data = script_json({"texts": texts, "state": state, "base": base})
    return (
        f'<!doctype html><html lang="{e(i18n.current())}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="referrer" content="no-referrer">'
        f"<title>{e(state['title'])}</title>"
        f'<link rel="stylesheet" href="/static/table/table.css">'
        f'<script src="/static/table/table.js" defer></script></head>'
        f'<body data-page="table"><main id="table"><h1>{e(state["title"])}</h1>'
        f"<noscript><p>{e(t('table.needs_script'))}</p></noscript></main>"
        f'<script type="application/json" id="table-data">{data}</script></body></html>'
    )


# ------------------------------------------------------------------ handlers


async def page(request: web.Request, seat: SeatRequest) -> web.StreamResponse:
    with i18n.use(await _language(seat)):
        if not seat.record.is_active:
            return _gone(seat, as_json=False)
        text = table_page(await _state(seat), table_texts(), base=seat.path)
    return web.Response(text=text, content_type="text/html", charset="utf-8")


async def state(request: web.Request, seat: SeatRequest) -> web.StreamResponse:
    with i18n.use(await _language(seat)):
        if not seat.record.is_active:
            return _gone(seat, as_json=True)
        return json_answer(await _state(seat))


async def legal(request: web.Request, seat: SeatRequest) -> web.StreamResponse:
    with i18n.use(await _language(seat)):
        if not seat.record.is_active:
            return _gone(seat, as_json=True)
        view = seat.record.game.view(seat.seat)
        legal = [move_data(move) for move in view.legal_moves()]
        return json_answer({"version": view.version, "legal": legal})


async def _posted(request: web.Request) -> dict[str, Any]:
    """A posted JSON object; ``ValueError`` for anything else. JSON only: a form posted
    from another site cannot make a move (it would need a CORS preflight)."""
    if request.content_type != "application/json":
        raise ValueError("not JSON")
    data = await request.json()
    if not isinstance(data, dict):
        raise ValueError("not an object")
    return data


async def move(request: web.Request, seat: SeatRequest) -> web.StreamResponse:
    with i18n.use(await _language(seat)):
        try:
            data = await _posted(request)
            text, version = data.get("move"), data.get("version")
            if not isinstance(text, str) or len(text) > MAX_MOVE or type(version) is not int:
                raise ValueError("bad fields")
            chosen = parse_move(text, max_value=seat.record.game.ruleset.max_value)
        except (ValueError, RulesError):
            return json_answer({"error": t("table.bad_move")}, status=400)
        try:
            outcome = await seat.table.mover.apply(
                seat.record.id, seat.user_id, chosen, expected_version=version
            )
        except StaleControl:
            current = await seat.sources.games.get(seat.record.id)
            if not current.is_active:
                return _gone(seat, as_json=True)
            return json_answer({"error": t("table.stale"), "state": await _state(seat, current)}, status=409)
        except GameFinished:
            return _gone(seat, as_json=True)
        except (RulesError, ServiceError) as error:
            return json_answer({"error": refusal_text(error)}, status=422)
        except DatabaseUnavailable as error:
            return json_answer({"error": error_text(error)}, status=503)
        seat.table.published(outcome, seat.seat)
        return json_answer(await _state(seat, outcome.game))


async def hint(request: web.Request, seat: SeatRequest) -> web.StreamResponse:
    with i18n.use(await _language(seat)):
        record, hinter = seat.record, seat.table.hinter
        if not record.is_active:
            return _gone(seat, as_json=True)
        if hinter is None or not record.vs_ai:
            return json_answer({"error": t("error.hint_vs_ai_only")}, status=422)
        if record.current_player != seat.seat:
            return json_answer({"error": t("error.not_your_turn")}, status=422)
        try:
            suggestion = await hinter.hint(record, seat.seat)
        except LimitReached as error:
            return json_answer({"error": error_text(error)}, status=429)
        return json_answer({"text": describe_hint(suggestion), "move": move_data(suggestion.move)})


def _event(name: str, data: bytes) -> bytes:
    return b"event: " + name.encode() + b"\ndata: " + data + b"\n\n"


async def _encoded_state(seat: SeatRequest, record: LiveGame, language: str) -> bytes:
    """The state event of ``record`` for this seat, encoded once per version and
    language for all of the seat's pages (two tabs, a phone and a computer)."""
    # The time it was stored too: a game repaired in place keeps its version.
    key = (record.id, record.version, record.updated_at, seat.seat, language)
    table = seat.table
    data = table._states.get(key)
    if data is None:
        with i18n.use(language):
            state = await _state(seat, record)
        data = _event("state", json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode())
        table._states[key] = data
        while len(table._states) > STATES_KEPT:
            table._states.popitem(last=False)
    return data


async def events(request: web.Request, seat: SeatRequest) -> web.StreamResponse:
    """The seat's event stream: its state now, then again after every change."""
    sources = seat.sources
    if not seat.record.is_active:
        with i18n.use(await _language(seat)):
            return _gone(seat, as_json=True)
    group = sources.slots.take(stream_client(request, seat.user_id))
    if group is None:  # over a limit: refused at once, the connection closed
        return refused_stream(sources.slots, member=True)
    try:
        language = await _language(seat)
    except BaseException:
        sources.slots.give(group)
        raise
    record = seat.record
    changed = sources.feeds.subscribe(record)
    watched = sources.feeds.record(record.id)
    if watched is not None and watched.version > record.version:
        record = watched
    try:
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",
                **SECURITY_HEADERS,
            }
        )
        await response.prepare(request)
        sent = -1
        while True:
            if record.version != sent:
                await response.write(await _encoded_state(seat, record, language))
                sent = record.version
            if not record.is_active:
                await response.write(_event("end", b"{}"))
                break
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(KEEPALIVE):
                    await changed.wait()
            if not changed.is_set():
                await response.write(b": keep-alive\n\n")
                continue
            changed.clear()
            record = sources.feeds.record(record.id) or record
        return response
    except ConnectionResetError:
        return web.Response(status=204)
    finally:
        sources.feeds.unsubscribe(record.id, changed)
        sources.slots.give(group)


async def static(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    if name not in STATIC_FILES:
        raise NotFound
    response = web.FileResponse(TABLE_STATIC / name, headers={"Content-Type": STATIC_FILES[name]})
    response.headers["Cache-Control"] = "public, max-age=300"
    return response


SeatHandler = Callable[[web.Request, SeatRequest], Awaitable[web.StreamResponse]]
Resolve = Callable[[web.Request], Awaitable[SeatRequest]]


def seat_handler(
    resolve: Resolve, handler: SeatHandler
) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    """``handler`` for the seat ``resolve`` finds (a seat link's, or an Activity session's)."""

    async def handle(request: web.Request) -> web.StreamResponse:
        return await handler(request, await resolve(request))

    return handle


def add_seat_routes(app: web.Application, base: str, resolve: Resolve) -> None:
    """The seat's JSON, its moves and its event stream under ``base``."""
    app.router.add_get(f"{base}/state", seat_handler(resolve, state))
    app.router.add_get(f"{base}/legal", seat_handler(resolve, legal))
    app.router.add_get(f"{base}/events", seat_handler(resolve, events))
    app.router.add_post(f"{base}/move", seat_handler(resolve, move))
    app.router.add_post(f"{base}/hint", seat_handler(resolve, hint))


def register(app: web.Application, table: Table) -> None:
    """Add the table's routes to the pages' application."""
    app[TABLE] = table
    base = "/table/{game}/{seat}/{token}"
    app.router.add_get("/static/table/{name}", static)
    app.router.add_get(base, seat_handler(_seat, page))
    add_seat_routes(app, base, _seat)

"""The aiohttp application of the web pages.

Routes (``<token>``: ``bot.web.tokens``, for exactly that game or server):

* ``/watch/<game>/<token>``: the live game, public information only (``PublicView``),
  ``.../events`` its event stream, ``.../board.png`` its board picture;
* ``/replay/<game>/<token>?step=N``: a finished game step by step with both hands,
  ``.../board/<N>.png``, ``.../record.txt``;
* ``/ladder/<guild>/<token>?page=N``: the server's ratings, charts and recent games, and
  its tournaments (standings or bracket, and the latest round's pairings);
* ``/static/``: the one script and style sheet.

Anything else, a wrong token, a game in progress asked for as a replay, or a server that
turned its links off: 404 with the same page. Every answer carries the Content Security
Policy and sends no referrer (the links are capabilities).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import time
from collections import OrderedDict, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from aiohttp import web

from bot.archive.history import FinishedGame, History
from bot.archive.record_file import export_game
from bot.community.ratings import GLOBAL_SCOPE, guild_scope
from bot.community.stats import Rankings
from bot.games.errors import ServiceError
from bot.games.live import LiveGame
from bot.pictures.board import board_png
from bot.pictures.cache import PictureCache, PictureKey
from bot.storage import MatchRow, RatingStore, TournamentStore
from bot.text import i18n
from bot.text.catalogue import t
from bot.text.notation import card_text
from bot.text.render import render_move, render_result
from bot.web import pages
from bot.web.feeds import Feeds
from bot.web.links import Links
from bot.web.tokens import Kind, Signer
from bot.web.tournaments import tournament_views
from rules.game import Game

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
CSP = (
    "default-src 'self'; img-src 'self' data:; script-src 'self'; style-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
MAX_STREAMS_PER_ADDRESS = 8  # open live pages (event streams) from one address
KEEPALIVE = 15.0  # seconds between comments on an idle event stream (proxies close idle ones)
LADDER_TTL = 5.0  # seconds a server's ladder is reused
HISTORY_GAMES = 100  # the recent rated games a ladder's charts are drawn from


class GameSource(Protocol):
    async def get(self, game_id: int) -> LiveGame: ...


class NameSource(Protocol):
    async def name(self, user_id: int, guild_id: int | None = None) -> str: ...

    async def pair(self, players: tuple[int, int], guild_id: int | None) -> tuple[str, str]: ...


@dataclass
class Sources:
    """What the pages read: the bot's services, or their stand-alone twins."""

    games: GameSource
    history: History
    rankings: Rankings
    ratings: RatingStore
    names: NameSource
    pictures: PictureCache
    links: Links
    feeds: Feeds
    tournaments: TournamentStore | None = None  # None: the ladder shows no tournaments
    matches: Callable[[int], Awaitable[MatchRow | None]] | None = None  # a knockout tie's match
    max_streams: int = MAX_STREAMS_PER_ADDRESS
    streams: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))
    _payloads: OrderedDict[tuple[int, int, str], dict[str, Any]] = field(default_factory=OrderedDict)
    _events: OrderedDict[tuple[int, int, str], bytes] = field(default_factory=OrderedDict)
    _finished: OrderedDict[int, FinishedGame] = field(default_factory=OrderedDict)
    _ladders: dict[tuple[int, int, str], tuple[float, str]] = field(default_factory=dict)

    @property
    def signer(self) -> Signer:
        return self.links.signer


SOURCES = web.AppKey("sources", Sources)


def language_of(request: web.Request) -> str:
    """The viewer's language from Accept-Language (English, German or French)."""
    best, best_q = i18n.ENGLISH, -1.0
    for part in request.headers.get("Accept-Language", "").split(","):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        language = tag.strip().replace("_", "-").split("-", 1)[0].lower()
        if language in i18n.LANGUAGES and q > best_q:
            best, best_q = language, q
    return best


def address_of(request: web.Request) -> str:
    """The client's address; behind a reverse proxy on this machine (a loopback peer),
    the last address it added to X-Forwarded-For."""
    peer = request.remote or "?"
    forwarded = request.headers.get("X-Forwarded-For")
    if forwarded:
        with contextlib.suppress(ValueError):
            if ipaddress.ip_address(peer).is_loopback:
                return forwarded.split(",")[-1].strip() or peer
    return peer


class NotFound(Exception):
    """Answered with the 404 page."""


def _id(request: web.Request, name: str) -> int:
    text = request.match_info[name]
    if not text.isdigit() or len(text) > 20:
        raise NotFound
    return int(text)


def _checked(request: web.Request, kind: Kind, name: str) -> int:
    sources: Sources = request.app[SOURCES]
    object_id = _id(request, name)
    if not sources.signer.check(kind, object_id, request.match_info["token"]):
        raise NotFound
    return object_id


async def _allowed(sources: Sources, guild_id: int | None) -> None:
    if not await sources.links.enabled(guild_id):
        raise NotFound


@web.middleware
async def headers_and_language(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    with i18n.use(language_of(request)):
        try:
            response = await handler(request)
        except (NotFound, ServiceError, web.HTTPNotFound, web.HTTPMethodNotAllowed):
            response = web.Response(text=pages.not_found(), content_type="text/html", status=404)
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CSP)
    headers.setdefault("Referrer-Policy", "no-referrer")
    headers.setdefault("X-Content-Type-Options", "nosniff")
    if "frame-ancestors 'none'" in headers["Content-Security-Policy"]:  # not the Activity's
        headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("Cache-Control", "no-store")
    headers.setdefault("Vary", "Accept-Language")
    return response


def _html(text: str) -> web.Response:
    return web.Response(text=text, content_type="text/html", charset="utf-8")


def _png(data: bytes) -> web.Response:
    return web.Response(body=data, content_type="image/png")


# ----------------------------------------------------------------------- live


async def _ratings(sources: Sources, record: LiveGame) -> tuple[str, str]:
    if record.vs_ai:
        return t("web.unrated"), t("web.unrated")
    scope = GLOBAL_SCOPE if record.guild_id is None else guild_scope(record.guild_id)
    shown = []
    for user_id in record.players:
        row = await sources.ratings.get_rating(scope, user_id)
        shown.append(str(round(row.rating)) if row is not None else t("web.unrated"))
    return shown[0], shown[1]


async def live_payload(sources: Sources, record: LiveGame, language: str) -> dict[str, Any]:
    """What a live page shows, built from the game's ``PublicView``, the names and the
    ratings only: never from a hand, the deck or the move log itself."""
    key = (record.id, record.version, language)
    cached = sources._payloads.get(key)
    if cached is not None:
        return cached
    public = record.game.public_view()
    names = await sources.names.pair(record.players, record.guild_id)
    ratings = await _ratings(sources, record)
    base = f"/watch/{record.id}/{sources.signer.token('watch', record.id)}"
    stones = [0, 0]
    for stone in public.stones:
        if stone.owner is not None:
            stones[stone.owner] += 1
    if public.result is not None:
        status = render_result(public.result, names)
    elif public.current_player is not None:
        status = t("web.to_play", name=names[public.current_player])
    else:
        status = ""
    payload: dict[str, Any] = {
        "version": public.version,
        "over": public.is_over,
        "title": t("web.game_title", game_id=record.id, name0=names[0], name1=names[1]),
        "status": status,
        "board": f"{base}/board.png?v={public.version}",
        "board_alt": t("web.board_alt", game_id=record.id),
        "players": [
            {
                "name": names[seat],
                "rating": ratings[seat],
                "stones": stones[seat],
                "hand": public.hand_sizes[seat],
            }
            for seat in (0, 1)
        ],
        "moves": [render_move(player, move, names) for player, move in public.last_moves],
        "replay": sources.links.replay(record.id).removeprefix(sources.links.public_url)
        if public.is_over
        else None,
        "replay_label": t("web.open_replay"),
    }
    sources._payloads[key] = payload
    while len(sources._payloads) > 512:
        sources._payloads.popitem(last=False)
    return payload


async def _live_record(request: web.Request) -> tuple[Sources, LiveGame]:
    sources: Sources = request.app[SOURCES]
    game_id = _checked(request, "watch", "game")
    record = await sources.games.get(game_id)
    await _allowed(sources, record.guild_id)
    return sources, record


async def watch(request: web.Request) -> web.StreamResponse:
    sources, record = await _live_record(request)
    payload = await live_payload(sources, record, i18n.current())
    url = f"{sources.links.public_url}{request.path}"
    og = pages.OpenGraph(
        title=payload["title"],
        description=payload["status"],
        image=f"{sources.links.public_url}{payload['board']}",
        url=url,
    )
    return _html(pages.live_page(payload, events=f"{request.path}/events", og=og))


async def watch_board(request: web.Request) -> web.StreamResponse:
    sources, record = await _live_record(request)
    names = await sources.names.pair(record.players, record.guild_id)
    data = await sources.pictures.board(record.game.public_view(), names, game_id=record.id, bottom=0)
    response = _png(data)
    response.headers["Cache-Control"] = "no-cache"
    return response


def _event(name: str, data: dict[str, Any] | None = None) -> bytes:
    text = json.dumps(data or {}, ensure_ascii=False, separators=(",", ":"))
    return f"event: {name}\ndata: {text}\n\n".encode()


async def _game_event(sources: Sources, record: LiveGame, language: str) -> bytes:
    """The game's event, encoded once per version and language for all its pages."""
    key = (record.id, record.version, language)
    data = sources._events.get(key)
    if data is None:
        data = _event("game", await live_payload(sources, record, language))
        sources._events[key] = data
        while len(sources._events) > 512:
            sources._events.popitem(last=False)
    return data


async def events(request: web.Request) -> web.StreamResponse:
    """The live page's event stream: the game now, then again after every change."""
    sources, record = await _live_record(request)
    address = address_of(request)
    if sources.streams[address] >= sources.max_streams:
        return web.Response(text=t("web.too_many"), status=429)
    sources.streams[address] += 1
    language = i18n.current()
    changed = sources.feeds.subscribe(record)
    watched = sources.feeds.record(record.id)
    if watched is not None and watched.version > record.version:
        record = watched
    try:
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",  # nginx: pass each event on at once
                "Content-Security-Policy": CSP,
                "Referrer-Policy": "no-referrer",
                "X-Content-Type-Options": "nosniff",
            }
        )
        await response.prepare(request)
        sent = -1
        while True:
            if record.version != sent:
                await response.write(await _game_event(sources, record, language))
                sent = record.version
            if not record.is_active:
                await response.write(_event("end"))
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
    except ConnectionResetError:  # the page was closed: nothing to answer
        return web.Response(status=204)
    finally:
        sources.feeds.unsubscribe(record.id, changed)
        sources.streams[address] -= 1
        if sources.streams[address] <= 0:
            del sources.streams[address]


# --------------------------------------------------------------------- replay


async def _finished(request: web.Request) -> tuple[Sources, FinishedGame]:
    sources: Sources = request.app[SOURCES]
    game_id = _checked(request, "replay", "game")
    finished = sources._finished.get(game_id)
    if finished is None:
        stored = await sources.history.game(game_id)
        if stored.finished_game is None:  # still being played: its moves would tell the hands
            raise NotFound
        finished = stored.finished_game
        sources._finished[game_id] = finished
        while len(sources._finished) > 64:
            sources._finished.popitem(last=False)
    else:
        sources._finished.move_to_end(game_id)
    await _allowed(sources, finished.guild_id)
    return sources, finished


def _step_of(request: web.Request, steps: int, default: int) -> int:
    text = request.query.get("step", "")
    if not text.lstrip("-").isdigit() or len(text) > 6:
        return default
    return max(0, min(int(text), steps))


def _game_at(finished: FinishedGame, step: int) -> Game:
    return Game.replay(
        finished.seed, finished.options, list(finished.moves[:step]), first_player=finished.first_player
    )


async def replay(request: web.Request) -> web.StreamResponse:
    sources, finished = await _finished(request)
    steps = len(finished.moves)
    step = _step_of(request, steps, steps)
    names = await sources.names.pair(finished.players, finished.guild_id)
    game = _game_at(finished, step)
    public = game.public_view()
    base = request.path
    absolute = f"{sources.links.public_url}{base}"
    status = (
        render_result(finished.engine_result, names)
        if step == steps
        else (
            t("web.to_play", name=names[public.current_player]) if public.current_player is not None else ""
        )
    )
    full = Game.replay(
        finished.seed, finished.options, list(finished.moves), first_player=finished.first_player
    )
    moves = [render_move(player, move, names) for player, move in full.public_view().last_moves]
    shown = pages.ReplayStep(
        game_id=finished.id,
        names=names,
        step=step,
        steps=steps,
        status=status,
        board=f"{base}/board/{step}.png",
        hands=(
            [card_text(card) for card in game.view(0).hand],
            [card_text(card) for card in game.view(1).hand],
        ),
        moves=moves,
        links={
            "first": f"{base}?step=0",
            "back": f"{base}?step={max(0, step - 1)}",
            "forward": f"{base}?step={min(steps, step + 1)}",
            "last": f"{base}?step={steps}",
        },
        record=f"{base}/record.txt",
    )
    og = pages.OpenGraph(
        title=t("web.replay_title", game_id=finished.id, name0=names[0], name1=names[1]),
        description=render_result(finished.engine_result, names),
        image=f"{absolute}/board/{steps}.png",
        url=absolute,
    )
    return _html(pages.replay_page(shown, og))


async def replay_board(request: web.Request) -> web.StreamResponse:
    sources, finished = await _finished(request)
    text = request.match_info["step"]
    if not text.isdigit() or int(text) > len(finished.moves):
        raise NotFound
    step = int(text)
    names = await sources.names.pair(finished.players, finished.guild_id)
    language = i18n.current()
    key = PictureKey(finished.id, step, 0, language, "board", ("replay", names))
    public = _game_at(finished, step).public_view()
    data = await sources.pictures.get(key, lambda: board_png(public, names, bottom=0, game_id=finished.id))
    response = _png(data)
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response


async def record_file(request: web.Request) -> web.StreamResponse:
    sources, finished = await _finished(request)
    names = await sources.names.pair(finished.players, finished.guild_id)
    response = web.Response(
        text=export_game(finished.record(names)), content_type="text/plain", charset="utf-8"
    )
    response.headers["Content-Disposition"] = f'attachment; filename="schotten-game-{finished.id}.txt"'
    return response


# --------------------------------------------------------------------- ladder


async def ladder(request: web.Request) -> web.StreamResponse:
    sources: Sources = request.app[SOURCES]
    guild_id = _checked(request, "ladder", "guild")
    await _allowed(sources, guild_id)
    page_text = request.query.get("page", "0")
    page = int(page_text) if page_text.isdigit() and len(page_text) < 6 else 0
    language = i18n.current()
    key = (guild_id, page, language)
    cached = sources._ladders.get(key)
    now = time.monotonic()
    if cached is not None and now - cached[0] < LADDER_TTL:
        return _html(cached[1])
    text = await _ladder_html(sources, guild_id, page, request.path)
    sources._ladders[key] = (now, text)
    if len(sources._ladders) > 256:
        sources._ladders.pop(next(iter(sources._ladders)))
    return _html(text)


async def _ladder_html(sources: Sources, guild_id: int, page: int, path: str) -> str:
    scope = guild_scope(guild_id)
    board = await sources.rankings.page(scope, page)
    results = await sources.ratings.recent_results(guild_id=guild_id, limit=HISTORY_GAMES)
    history: defaultdict[int, list[float]] = defaultdict(list)
    for result in reversed(results):  # oldest first
        for change_scope, user_id, before, after in await sources.ratings.rating_changes(result.game_id):
            if change_scope == scope:
                if not history[user_id]:
                    history[user_id].append(before)
                history[user_id].append(after)
    rows = []
    if board is not None:
        for offset, row in enumerate(board.rows):
            rows.append(
                pages.LadderRow(
                    rank=board.first_rank + offset,
                    name=await sources.names.name(row.user_id, guild_id),
                    rating=round(row.rating),
                    record=f"{row.wins}-{row.losses}-{row.draws}",
                    history=history.get(row.user_id, []),
                )
            )
    recent: list[tuple[str, str | None]] = []
    for result in results[:10]:
        names = await sources.names.pair(result.players, guild_id)
        outcome = t("web.draw") if result.winner is None else t("web.winner", name=names[result.winner])
        line = t("web.recent_line", name0=names[0], name1=names[1], outcome=outcome)
        url = sources.links.replay(result.game_id).removeprefix(sources.links.public_url)
        recent.append((line, url))
    pages_count = 1 if board is None else board.pages
    shown_page = 0 if board is None else board.page
    links = {}
    if shown_page > 0:
        links["previous_page"] = f"{path}?page={shown_page - 1}"
    if shown_page + 1 < pages_count:
        links["next_page"] = f"{path}?page={shown_page + 1}"
    return pages.ladder_page(
        title=t("web.ladder_title"),
        rows=rows,
        page=shown_page,
        pages=pages_count,
        links=links,
        recent=recent,
        tournaments=await tournament_views(sources.tournaments, sources.matches, sources.names, guild_id),
    )


# ------------------------------------------------------------------------ app


async def _static(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    if name not in ("app.js", "style.css"):
        raise NotFound
    response = web.FileResponse(STATIC / name)
    response.headers["Cache-Control"] = "public, max-age=300"
    return response


async def _root(request: web.Request) -> web.StreamResponse:
    raise NotFound


def make_app(sources: Sources) -> web.Application:
    app = web.Application(middlewares=[headers_and_language], client_max_size=4096)
    app[SOURCES] = sources
    app.router.add_get("/", _root)
    app.router.add_get("/static/{name}", _static)
    app.router.add_get("/watch/{game}/{token}", watch)
    app.router.add_get("/watch/{game}/{token}/events", events)
    app.router.add_get("/watch/{game}/{token}/board.png", watch_board)
    app.router.add_get("/replay/{game}/{token}", replay)
    app.router.add_get("/replay/{game}/{token}/board/{step}.png", replay_board)
    app.router.add_get("/replay/{game}/{token}/record.txt", record_file)
    app.router.add_get("/ladder/{guild}/{token}", ladder)
    return app

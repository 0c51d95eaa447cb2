"""The aiohttp application of the web pages.

Routes (``<token>``: ``bot.web.tokens``, for exactly that game or server):

* ``/watch/<game>/<token>``: the live game as a spectator's table, public information
  only (``PublicView``; ``bot.web.spectator``), ``.../state`` its state as JSON,
  ``.../events`` its event stream, ``.../board.png`` its board picture (link previews,
  Discord's embeds);
* ``/replay/<game>/<token>?step=N``: a finished game a turn at a time with both hands,
  ``.../board/<N>.png``, ``.../record.txt``, ``.../positions.json`` (each turn's position,
  for the script);
* ``/ladder/<guild>/<token>?page=N``: the server's ratings, charts and recent games, and
  its tournaments (standings or bracket, and the latest round's pairings);
* ``/static/``: the script and style sheet of the replay and the ladder (the watch
  page's are the table's, ``/static/table/``).

Anything else, a wrong token, a number that is not plain ASCII digits (``inputs.py``),
a game in progress asked for as a replay, or a server that turned its links off: 404
with the same page. Every answer carries the Content Security Policy and sends no
referrer (the links are capabilities; ``answers.py``). Event streams are bounded in all
and per client (``limits.py``); a server's streams end when it turns its links off.
"""

from __future__ import annotations

import asyncio
import contextlib
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
from bot.games.live import LiveGame
from bot.pictures.board import board_png
from bot.pictures.cache import PictureCache, PictureKey
from bot.storage import MatchRow, RatingStore, TournamentStore
from bot.text import i18n
from bot.text.catalogue import t
from bot.text.render import render_result
from bot.web import pages
from bot.web.answers import REFUSALS, SECURITY_HEADERS, NotFound, guarded, refused_stream
from bot.web.feeds import Feeds
from bot.web.inputs import number, stream_client
from bot.web.limits import Refusals, StreamSlots
from bot.web.links import Links
from bot.web.now_playing import LiveGames, in_play
from bot.web.replay_steps import neighbours, replay_of
from bot.web.spectator import public_state, spectator_texts, watch_page
from bot.web.tokens import Kind, Signer
from bot.web.tournaments import tournament_views
from rules.game import Game

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
STEP_DIGITS = 6  # a replay's step: a game has fewer moves than this many digits write
PAGE_DIGITS = 6  # a ladder's page
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
    slots: StreamSlots = field(default_factory=lambda: StreamSlots(Refusals(time.monotonic)))
    live_games: LiveGames | None = None  # a server's games in play: the ladder's "Now playing"
    _payloads: OrderedDict[tuple[int, int, str], dict[str, Any]] = field(default_factory=OrderedDict)
    _events: OrderedDict[tuple[int, int, str], bytes] = field(default_factory=OrderedDict)
    _finished: OrderedDict[int, FinishedGame] = field(default_factory=OrderedDict)
    _ladders: dict[tuple[int, int, str], tuple[float, str]] = field(default_factory=dict)

    @property
    def signer(self) -> Signer:
        return self.links.signer


SOURCES = web.AppKey("sources", Sources)


def _id(request: web.Request, name: str) -> int:
    found = number(request.match_info[name])
    if found is None:
        raise NotFound
    return found


def _checked(request: web.Request, kind: Kind, name: str) -> int:
    sources: Sources = request.app[SOURCES]
    object_id = _id(request, name)
    if not sources.signer.check(kind, object_id, request.match_info["token"]):
        raise NotFound
    return object_id


async def _allowed(sources: Sources, guild_id: int | None) -> None:
    if not await sources.links.enabled(guild_id):
        raise NotFound


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
    """A spectator's state of ``record`` (:func:`bot.web.spectator.public_state`): built
    from the game's ``PublicView``, the names and the ratings only, never from a hand,
    the deck or the move log itself; cached per version and language.

    Whoever may watch the game decides that before: the watch page (its link's token)
    and the Discord Activity's list of a channel's games (its session) both call this."""
    key = (record.id, record.version, language)
    cached = sources._payloads.get(key)
    if cached is not None:
        return cached
    public = record.game.public_view()
    names = await sources.names.pair(record.players, record.guild_id)
    replay = None
    if public.is_over:
        replay = sources.links.replay(record.id).removeprefix(sources.links.public_url)
    payload = public_state(record, public, names, await _ratings(sources, record), replay=replay)
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
    """The watch page: the table as a spectator sees it (``bot.web.spectator``); its
    link preview shows the board picture."""
    sources, record = await _live_record(request)
    payload = await live_payload(sources, record, i18n.current())
    url = f"{sources.links.public_url}{request.path}"
    og = pages.OpenGraph(
        title=payload["title"],
        description=payload["status"],
        image=f"{url}/board.png?v={payload['version']}",
        url=url,
    )
    urls = {"state": f"{request.path}/state", "events": f"{request.path}/events"}
    return _html(watch_page(payload, urls=urls, og=og))


async def watch_state(request: web.Request) -> web.StreamResponse:
    sources, record = await _live_record(request)
    return await spectator_json(sources, record)


async def spectator_json(sources: Sources, record: LiveGame) -> web.Response:
    """The spectator's texts and state of ``record`` as JSON, in the current language:
    what ``mountSpectator`` starts from when its page did not bring them. Whoever may
    watch the game is decided before (the watch link's token, the Activity's session)."""
    data = {"texts": spectator_texts(), "state": await live_payload(sources, record, i18n.current())}
    response = web.json_response(data, dumps=lambda value: json.dumps(value, ensure_ascii=False))
    response.headers["Cache-Control"] = "no-store"
    return response


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
    return await public_events(request, _checked(request, "watch", "game"))


async def public_events(request: web.Request, game_id: int, member: int | None = None) -> web.StreamResponse:
    """A game's public event stream (the spectator's): the game now, then again after
    every change, until the game ends or its server turns its links off (``end``: the
    page stops following). Whoever may watch the game is decided before (the watch
    link's token, the Activity's session); texts in the current language.

    A stream over a limit (``Sources.slots``) is refused before anything is read from
    the database, with a short answer; the refusals are logged as a summary. The streams
    are counted per ``member`` when the watcher is known (the Activity's session), else
    per address (``inputs.stream_client``)."""
    sources: Sources = request.app[SOURCES]
    group = sources.slots.take(stream_client(request, member))
    if group is None:
        return refused_stream(sources.slots, member=member is not None)
    try:
        record = await sources.games.get(game_id)
        await _allowed(sources, record.guild_id)
        return await _stream(request, sources, record)
    finally:
        sources.slots.give(group)


async def _stream(request: web.Request, sources: Sources, record: LiveGame) -> web.StreamResponse:
    language = i18n.current()
    changed = sources.feeds.subscribe(record)
    watched = sources.feeds.record(record.id)
    if watched is not None and watched.version > record.version:
        record = watched
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",  # nginx: pass each event on at once
            **SECURITY_HEADERS,
        }
    )
    try:
        await response.prepare(request)
        sent = -1
        while True:
            if not await sources.links.enabled(record.guild_id):
                await response.write(_event("end"))  # links turned off: the page stops
                break
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
    except Exception as error:
        if not response.prepared:
            raise  # answered by the middleware
        sources.slots.refusals.count("event streams: failed", error)  # the page reconnects
        return response
    finally:
        sources.feeds.unsubscribe(record.id, changed)


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
    step = number(request.query.get("step"), digits=STEP_DIGITS)
    return default if step is None else min(step, steps)


def _game_at(finished: FinishedGame, step: int) -> Game:
    return Game.replay(
        finished.seed, finished.options, list(finished.moves[:step]), first_player=finished.first_player
    )


async def replay(request: web.Request) -> web.StreamResponse:
    """A finished game at ``?step=N`` (moves applied; the end by default), its links a turn
    back and forward: the page works without the script, which steps without reloading."""
    sources, finished = await _finished(request)
    steps = len(finished.moves)
    step = _step_of(request, steps, steps)
    names = await sources.names.pair(finished.players, finished.guild_id)
    shown = replay_of(finished, names, i18n.current())
    base = request.path
    absolute = f"{sources.links.public_url}{base}"
    back, forward = neighbours(shown.ends, step)
    page = pages.ReplayStep(
        game_id=finished.id,
        names=names,
        position=shown.position(finished, names, step),
        turns=shown.turns,
        ends=shown.ends,
        base=base,
        links={
            "first": f"{base}?step=0",
            "back": f"{base}?step={back}",
            "forward": f"{base}?step={forward}",
            "last": f"{base}?step={steps}",
        },
        record=f"{base}/record.txt",
        positions=f"{base}/positions.json",
    )
    og = pages.OpenGraph(
        title=t("web.replay_title", game_id=finished.id, name0=names[0], name1=names[1]),
        description=render_result(finished.engine_result, names),
        image=f"{absolute}/board/{steps}.png",
        url=absolute,
    )
    return _html(pages.replay_page(page, og))


async def replay_positions(request: web.Request) -> web.StreamResponse:
    """Every turn's position of a finished game, for the replay's script."""
    sources, finished = await _finished(request)
    names = await sources.names.pair(finished.players, finished.guild_id)
    shown = replay_of(finished, names, i18n.current())
    base = request.path.removesuffix("/positions.json")
    data = {"ends": shown.ends, "positions": [position.json(base) for position in shown.positions]}
    return web.json_response(data, dumps=lambda value: json.dumps(value, ensure_ascii=False))


async def replay_board(request: web.Request) -> web.StreamResponse:
    sources, finished = await _finished(request)
    step = number(request.match_info["step"], digits=STEP_DIGITS)
    if step is None or step > len(finished.moves):
        raise NotFound
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
    page = number(request.query.get("page"), digits=PAGE_DIGITS) or 0
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
    playing = await in_play(sources.live_games, sources.names, sources.links, guild_id)
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
        tournaments=await tournament_views(
            sources.tournaments, sources.matches, sources.names, guild_id, playing
        ),
        playing=playing.lines,
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
    app = web.Application(middlewares=[guarded], client_max_size=4096)
    app[SOURCES] = sources
    app[REFUSALS] = sources.slots.refusals
    app.router.add_get("/", _root)
    app.router.add_get("/static/{name}", _static)
    app.router.add_get("/watch/{game}/{token}", watch)
    app.router.add_get("/watch/{game}/{token}/state", watch_state)
    app.router.add_get("/watch/{game}/{token}/events", events)
    app.router.add_get("/watch/{game}/{token}/board.png", watch_board)
    app.router.add_get("/replay/{game}/{token}", replay)
    app.router.add_get("/replay/{game}/{token}/board/{step}.png", replay_board)
    app.router.add_get("/replay/{game}/{token}/record.txt", record_file)
    app.router.add_get("/replay/{game}/{token}/positions.json", replay_positions)
    app.router.add_get("/ladder/{guild}/{token}", ladder)
    return app

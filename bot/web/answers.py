"""Every answer of the web pages carries the same security headers, errors included.

* :func:`guarded`, the application's middleware: the viewer's language for the page,
  404 for anything that is not there (a forged token, a bad number, a server that turned
  its links off), 503 while the database does not answer, 500 for a bug; never a
  traceback in an answer, and failures are logged as a summary (``Refusals``), with the
  first traceback, rather than one log record each.
* :func:`json_answer`: a JSON answer as the pages' scripts read it (UTF-8, compact).
* :class:`GuardedHandler`: aiohttp's connection handler, whose own error answers (a
  malformed request: 400, 413, 431) get the same headers and are counted the same way.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any

from aiohttp import web
from multidict import CIMultiDict

from bot.games.errors import ServiceError
from bot.storage import DatabaseUnavailable
from bot.text import i18n
from bot.text.catalogue import t
from bot.web import pages
from bot.web.inputs import language_of
from bot.web.limits import Refusals, StreamSlots

CSP = (
    "default-src 'self'; img-src 'self' data:; script-src 'self'; style-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "no-referrer",  # the links are capabilities
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",  # not on a page whose own CSP lets a frame hold it (the Activity)
}
REFUSALS = web.AppKey("refusals", Refusals)


def json_answer(data: dict[str, Any], status: int = 200) -> web.Response:
    """``data`` as JSON, compact and in UTF-8 (names in every script as they are)."""
    return web.Response(
        text=json.dumps(data, ensure_ascii=False, separators=(",", ":")),
        status=status,
        content_type="application/json",
        charset="utf-8",
    )


IDLE_TIMEOUT = 30.0  # seconds an idle kept-alive connection is kept (aiohttp's default: an hour)
# One line per request would be a flood of its own: off unless this logger is set to INFO.
ACCESS_LOG = logging.getLogger("bot.web.access")
ACCESS_LOG.setLevel(logging.WARNING)


class NotFound(Exception):
    """Answered with the 404 page."""


def secure(headers: CIMultiDict[str]) -> None:
    """The headers every answer carries (those already set are kept)."""
    for name, value in SECURITY_HEADERS.items():
        if name == "X-Frame-Options" and "frame-ancestors 'none'" not in headers["Content-Security-Policy"]:
            continue  # a page framed by the origins its CSP names (bot/web/activity.py)
        headers.setdefault(name, value)
    headers.setdefault("Cache-Control", "no-store")
    headers.setdefault("Vary", "Accept-Language")


def _page(status: int, key: str) -> web.Response:
    return web.Response(text=pages.message_page(t(key)), content_type="text/html", status=status)


@web.middleware
async def guarded(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    with i18n.use(language_of(request)):
        try:
            response = await handler(request)
        except (NotFound, ServiceError, web.HTTPNotFound, web.HTTPMethodNotAllowed):
            response = web.Response(text=pages.not_found(), content_type="text/html", status=404)
        except web.HTTPException as error:
            # A redirect or a JSON refusal a handler chose (the Activity's) goes out as it is.
            if isinstance(error, web.HTTPRedirection) or error.content_type == "application/json":
                response = web.Response(status=error.status, headers=error.headers, body=error.body)
            else:  # what aiohttp refuses of a request (a body too large...)
                response = web.Response(text=f"{error.status} {error.reason}\n", status=error.status)
        except DatabaseUnavailable as error:
            request.app[REFUSALS].count("pages: the database did not answer", error)
            response = _page(503, "web.unavailable")
        except Exception as error:
            request.app[REFUSALS].count("pages: failed (a bug)", error)
            response = _page(500, "web.unavailable")
    secure(response.headers)
    return response


def refused_stream(slots: StreamSlots, *, member: bool) -> web.Response:
    """The short answer to an event stream over a limit of ``slots``: all of them open,
    or the client's own (``member``: a member known by their link or session, else an
    address). The connection goes too: a refused client holds nothing."""
    key = "web.busy" if slots.open >= slots.total else "web.too_many.member" if member else "web.too_many"
    refusal = web.Response(text=t(key), status=429)
    refusal.force_close()
    return refusal


class GuardedHandler(web.RequestHandler):
    """aiohttp's connection handler, its own error answers with the security headers and
    counted in ``refusals`` (aiohttp logs a traceback for each)."""

    def __init__(
        self,
        manager: web.Server,
        *,
        loop: asyncio.AbstractEventLoop,
        refusals: Refusals,
        keepalive_timeout: float = IDLE_TIMEOUT,
    ) -> None:
        super().__init__(manager, loop=loop, keepalive_timeout=keepalive_timeout, access_log=ACCESS_LOG)
        self.refusals = refusals

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        # A client's bad request is no failure of ours: no traceback for it.
        self.refusals.count(f"requests answered {status} by the HTTP server", exc if status >= 500 else None)
        if request.writer.output_size > 0:  # part of an answer went out: only closing is left
            raise ConnectionError("an answer was already being sent")
        phrase = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else "Error"
        response = web.Response(status=status, text=f"{status} {phrase}\n")
        secure(response.headers)
        response.force_close()
        return response

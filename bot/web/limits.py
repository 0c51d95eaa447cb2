"""What the web pages may take of the bot's process, and how refusals are reported.

The pages run in the bot's process: every open connection is a file descriptor the
bot's own Discord and database connections also need. So:

* :class:`StreamSlots`: at most ``total`` event streams (open live pages) in all
  (``WEB_MAX_STREAMS``) and ``per_group`` for one client (``inputs.stream_client``: a
  member known by their seat's link or Activity session, else an IPv4 address or an
  IPv6 /64);
* :func:`budget`: at most that many connections (the streams and some for pages and
  pictures), and never more than half of the process's open-file limit;
* :class:`AddressRate`: at most so many requests of one kind (the Activity's sign-ins)
  from one address group in a window; it remembers a bounded number of groups;
* :class:`Refusals`: what was refused is counted and logged as one summary line at most
  once a ``window``, never a line per refusal (a flood must not fill the disk).
"""

from __future__ import annotations

import logging
import resource
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.web.inputs import address_group

log = logging.getLogger(__name__)

DEFAULT_MAX_STREAMS = 256  # WEB_MAX_STREAMS: open live pages in all, per process
MAX_STREAMS_PER_CLIENT = 8  # open live pages of one client: a member, an IPv4 address, an IPv6 /64
PAGE_CONNECTIONS = 64  # connections beside the streams: pages, pictures, a proxy's idle ones
REFUSALS_WINDOW = 60.0  # seconds between two summaries of what was refused
MAX_RATE_GROUPS = 10_000  # address groups an AddressRate remembers (the oldest forgotten first)


@dataclass
class Refusals:
    """Counts refusals by reason; logs the first at once, then a summary at most once a
    ``window`` (counted with ``clock``)."""

    clock: Callable[[], float]
    window: float = REFUSALS_WINDOW
    _counts: Counter[str] = field(default_factory=Counter)
    _logged_at: float | None = None

    def count(self, reason: str, error: BaseException | None = None) -> None:
        """One more refusal for ``reason``; ``error``: its exception, whose traceback
        the summary shows when it is logged with it."""
        self._counts[reason] += 1
        now = self.clock()
        if self._logged_at is not None and now - self._logged_at < self.window:
            return
        shown = ", ".join(f"{n} {what}" for what, n in sorted(self._counts.items()))
        log.warning(
            "Web pages: %s (a summary, at most once in %g s)",
            shown,
            self.window,
            exc_info=(type(error), error, error.__traceback__) if error is not None else None,
        )
        self._counts.clear()
        self._logged_at = now


@dataclass
class StreamSlots:
    """The open event streams: in all and per client (``inputs.stream_client``)."""

    refusals: Refusals
    total: int = DEFAULT_MAX_STREAMS
    per_group: int = MAX_STREAMS_PER_CLIENT
    _groups: Counter[str] = field(default_factory=Counter)
    _open: int = 0

    @property
    def open(self) -> int:
        return self._open

    def take(self, group: str) -> str | None:
        """A slot for a stream of the client ``group`` (``inputs.stream_client``): the
        group (give it back with :meth:`give`), or None when a limit is reached (counted
        as a refusal)."""
        if self._open >= self.total:
            self.refusals.count("event streams over the limit of all (WEB_MAX_STREAMS)")
            return None
        if self._groups[group] >= self.per_group:
            self.refusals.count("event streams over the limit per client")
            return None
        self._groups[group] += 1
        self._open += 1
        return group

    def give(self, group: str) -> None:
        self._open -= 1
        self._groups[group] -= 1
        if self._groups[group] <= 0:
            del self._groups[group]


@dataclass
class AddressRate:
    """At most ``per_window`` requests from one address group (``inputs.address_group``:
    an IPv4 address, an IPv6 /64) in a fixed window of ``window`` seconds; a refusal is
    counted in ``refusals`` as ``reason``. Cheap: one dictionary look-up a request, and
    at most :data:`MAX_RATE_GROUPS` groups remembered, the least recently seen forgotten
    first."""

    refusals: Refusals
    clock: Callable[[], float]
    reason: str
    per_window: int
    window: float = 60.0
    _windows: OrderedDict[str, tuple[float, int]] = field(default_factory=OrderedDict)

    def allow(self, address: str) -> bool:
        """Whether one more request from ``address`` is allowed now (and count it)."""
        now, group = self.clock(), address_group(address)
        started, seen = self._windows.get(group, (now, 0))
        if now - started >= self.window:
            started, seen = now, 0
        if seen >= self.per_window:
            self.refusals.count(self.reason)
            return False
        self._windows[group] = (started, seen + 1)
        self._windows.move_to_end(group)
        while len(self._windows) > MAX_RATE_GROUPS:
            self._windows.popitem(last=False)
        return True


def open_file_limit() -> int | None:
    """The process's open-file limit (the soft one), None if unlimited or unknown."""
    try:
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (OSError, ValueError):
        return None
    return None if soft == resource.RLIM_INFINITY else int(soft)


@dataclass(frozen=True)
class Budget:
    """What the web pages may hold at once: ``connections`` in all, of which at most
    ``streams`` event streams (the rest stays for pages and pictures)."""

    connections: int
    streams: int


def budget(max_streams: int, files: int | None) -> Budget:
    """``max_streams`` (``WEB_MAX_STREAMS``) and ``PAGE_CONNECTIONS`` more, within half
    of ``files`` (the open-file limit; None: unlimited), so that the bot keeps
    descriptors for Discord, the database and its logs however many connections
    arrive; if that is fewer, a quarter of it stays for pages and the streams get the
    rest."""
    wanted = max_streams + PAGE_CONNECTIONS
    allowed = wanted if files is None else max(2, files // 2)
    if allowed >= wanted:
        return Budget(wanted, max_streams)
    streams = allowed - max(1, min(PAGE_CONNECTIONS, allowed // 4))
    log.warning(
        "The open-file limit (%s) allows the web pages %d connections, %d of them live pages"
        " (WEB_MAX_STREAMS=%d); raise the limit (LimitNOFILE, ulimit -n; README, Web pages)",
        files,
        allowed,
        streams,
        max_streams,
    )
    return Budget(allowed, streams)

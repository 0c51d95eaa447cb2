"""What a request brings that the pages read: numbers in its path and query, the
viewer's language, and the client's address with the group it is counted in.

Every number taken from a URL goes through :func:`number`: ASCII digits only, of a
bounded length. ``str.isdigit`` alone accepts "²" or "٣", which ``int`` then refuses or
reads; anything that is not plainly a number is None here, and the page answers 404
(or shows its default) instead of failing.
"""

from __future__ import annotations

import contextlib
import ipaddress

from aiohttp import web

from bot.text import i18n

ID_DIGITS = 20  # a game's or a server's id (Discord's snowflakes have up to 20 digits)
IPV6_GROUP = 64  # the prefix an IPv6 client is counted by: one site or customer has a /64


def number(text: str | None, *, digits: int = ID_DIGITS) -> int | None:
    """The whole number ``text`` writes with 1 to ``digits`` ASCII digits, else None
    (a sign, a space, an underscore, a non-ASCII digit are not numbers here)."""
    if text is None or not 0 < len(text) <= digits or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def language_of(request: web.Request) -> str:
    """The viewer's language from Accept-Language (English, German or French)."""
    best, best_q = i18n.ENGLISH, -1.0
    for part in request.headers.get("Accept-Language", "").split(",")[:32]:
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


def stream_client(request: web.Request, member: int | None = None) -> str:
    """Who an event stream is counted against (``limits.StreamSlots``): ``member``, the
    member a seat's link or an Activity session names, by their id (inside Discord every
    member's requests come through Discord's proxy, from its addresses: counted by
    address, strangers would share one limit), else the request's address group."""
    if member is not None:
        return f"member {member}"
    return f"address {address_group(address_of(request))}"


def address_group(address: str) -> str:
    """What an address is counted as: an IPv4 address itself (also written as an
    IPv4-mapped IPv6 address), an IPv6 address by its /64 (one client easily holds a
    whole /64), anything unreadable as it is."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_GROUP), strict=False))
    return str(ip)

"""Capability tokens: an HMAC-SHA256 over ``(kind, id)`` with ``WEB_SECRET``.

A link to a page carries the token of exactly that page's game or server; anything else
(no token, a forged one, another game's) is refused, and the server answers 404 as for
a page that does not exist. Tokens are compared in constant time. A seat at the table
(``seat``: one player's own page of one game) signs the game and the seat together, so
one player's link never opens the other's.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Literal, Protocol

Kind = Literal["watch", "replay", "ladder", "seat"]
KINDS: tuple[Kind, ...] = ("watch", "replay", "ladder", "seat")

SECRET_META_KEY = "web:secret"  # the generated WEB_SECRET, when none is set


class Meta(Protocol):
    async def get_meta(self, key: str) -> str | None: ...

    async def set_meta(self, key: str, value: str) -> None: ...

    async def add_meta(self, key: str, value: str) -> str: ...


class Signer:
    """Signs and checks the tokens of one secret."""

    def __init__(self, secret: str) -> None:
        if len(secret) < 16:
            raise ValueError("a web secret has at least 16 characters")
        self._key = secret.encode()

    def token(self, kind: Kind, object_id: int, seat: int | None = None) -> str:
        """The token of ``kind`` for ``object_id`` (and, for a seat, the engine seat)."""
        return self.sign(f"{kind}:{object_id}" if seat is None else f"{kind}:{object_id}:{seat}")

    def sign(self, text: str) -> str:
        """The MAC of ``text`` (url-safe base64): the Activity's sessions are signed so too."""
        digest = hmac.new(self._key, text.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()

    def verify(self, text: str, mac: str) -> bool:
        """``mac`` is :meth:`sign` of ``text``, compared in constant time."""
        return hmac.compare_digest(self.sign(text).encode(), mac.encode("utf-8", "replace"))

    def check(self, kind: Kind, object_id: int, token: str, seat: int | None = None) -> bool:
        return self.verify(f"{kind}:{object_id}" if seat is None else f"{kind}:{object_id}:{seat}", token)


async def load_secret(meta: Meta, configured: str | None) -> str:
    """``WEB_SECRET`` if set, else the one kept in the database, generated the first time."""
    if configured:
        return configured
    stored = await meta.get_meta(SECRET_META_KEY)
    if stored:
        return stored
    # Two processes starting together on one PostgreSQL database: the first insert wins
    # and both read back that one key.
    return await meta.add_meta(SECRET_META_KEY, secrets.token_urlsafe(32))

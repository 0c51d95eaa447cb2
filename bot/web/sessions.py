"""The Activity's sessions: who a request of the Activity comes from.

A session is issued by ``POST /activity/token`` (``bot.web.activity``) once Discord has
told us, in exchange for the member's OAuth2 code, which user authorised the Activity:
it is bound to that user id, never to one the page sends. It is a token
``<user>.<expires>.<language>.<mac>``, the MAC over the rest with the key of the links
(``bot.web.tokens.Signer``, prefixed ``activity-session:`` so that no link's token is
ever a session), valid for :data:`SESSION_TTL` seconds. A forged, altered or expired
session is refused like a wrong link.

Discord refuses an OAuth2 code it has exchanged before; :class:`UsedCodes` refuses it
here too, before asking Discord, for as long as a code can live (:data:`CODE_TTL`), so a
code seen once (in a log of a proxy, say) opens nothing a second time in this process.
Codes are remembered by their SHA-256 only.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.text import i18n
from bot.web.tokens import Signer

SESSION_TTL = 3600.0  # seconds a session is valid; the page asks Discord again after
CODE_TTL = 600.0  # seconds an OAuth2 code lives at Discord (10 minutes), remembered as long
MAX_CODES = 100_000  # codes remembered at most (the oldest forgotten first)
MAX_SESSION = 200  # characters of a session token


@dataclass(frozen=True)
class Session:
    """A checked session: the Discord user it was issued to, their language, its end."""

    user_id: int
    language: str
    expires: int


@dataclass
class Sessions:
    """Issues and checks sessions; ``clock`` is the wall clock (tests inject theirs)."""

    signer: Signer
    clock: Callable[[], float] = time.time
    ttl: float = SESSION_TTL

    def issue(self, user_id: int, language: str) -> str:
        expires = int(self.clock() + self.ttl)
        body = f"{user_id}.{expires}.{language}"
        return f"{body}.{self.signer.sign('activity-session:' + body)}"

    def check(self, token: str) -> Session | None:
        """The session of ``token``; None if forged, altered or expired."""
        if len(token) > MAX_SESSION or not token.isascii():
            return None
        body, _, mac = token.rpartition(".")
        parts = body.split(".")
        if len(parts) != 3 or not self.signer.verify("activity-session:" + body, mac):
            return None
        user, expires, language = parts
        if not (user.isdigit() and expires.isdigit()) or language not in i18n.LANGUAGES:
            return None
        if int(expires) <= self.clock():
            return None
        return Session(int(user), language, int(expires))


@dataclass
class UsedCodes:
    """The OAuth2 codes presented so far, each until it would have expired anyway."""

    clock: Callable[[], float] = time.time
    _seen: OrderedDict[bytes, float] = field(default_factory=OrderedDict)

    def first_use(self, code: str) -> bool:
        """True the first time ``code`` is presented, False ever after (while it lives)."""
        now = self.clock()
        while self._seen:
            oldest, until = next(iter(self._seen.items()))
            if until > now and len(self._seen) < MAX_CODES:
                break
            del self._seen[oldest]
        digest = hashlib.sha256(code.encode()).digest()
        if digest in self._seen:
            return False
        self._seen[digest] = now + CODE_TTL
        return True

"""The Activity's sessions: who a request of the Activity comes from.

A session is issued by ``POST /activity/token`` (``bot.web.activity``) once Discord has
told us, in exchange for the member's OAuth2 code, which user authorised the Activity:
it is bound to that user id, never to one the page sends. It is a token
``<user>.<expires>.<language>.<mac>``, the MAC over the rest with the key of the links
(``bot.web.tokens.Signer``, prefixed ``activity-session:`` so that no link's token is
ever a session), valid for :data:`SESSION_TTL` seconds. A forged, altered or expired
session is refused like a wrong link.

A member may play longer than a session: the page renews it before it ends
(:meth:`Sessions.renew`, ``POST /activity/s/<session>/renew``), which answers a new
session for the same user and language while the old one is valid, and once only for a
session (a session seen by someone else cannot be stretched into a chain of new ones
beside the member's own). The old session stays valid until its own end (the page's open
event stream was opened with it). An expired session cannot be renewed: the member opens
the Activity again.

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

SESSION_TTL = 3600.0  # seconds a session is valid; the page renews it before (RENEW_BEFORE)
RENEW_BEFORE = 600.0  # seconds before its end that the page renews a session
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
    _renewed: UsedCodes | None = None

    def issue(self, user_id: int, language: str) -> str:
        expires = int(self.clock() + self.ttl)
        body = f"{user_id}.{expires}.{language}"
        return f"{body}.{self.signer.sign('activity-session:' + body)}"

    def check(self, token: str) -> Session | None:
        """The session of ``token``; None if forged, altered or expired."""
        session = self.signed(token)
        return None if session is None or session.expires <= self.clock() else session

    def signed(self, token: str) -> Session | None:
        """The session ``token`` names if we signed it, expired or not (an expired
        session's refusal is in its member's language); None if forged or altered."""
        if len(token) > MAX_SESSION or not token.isascii():
            return None
        body, _, mac = token.rpartition(".")
        parts = body.split(".")
        if len(parts) != 3 or not self.signer.verify("activity-session:" + body, mac):
            return None
        user, expires, language = parts
        if not (user.isdigit() and expires.isdigit()) or language not in i18n.LANGUAGES:
            return None
        return Session(int(user), language, int(expires))

    def renew(self, token: str) -> str | None:
        """A new session for the user of ``token`` while ``token`` is valid, the first
        time it is renewed; None otherwise."""
        session = self.check(token)
        if session is None:
            return None
        if self._renewed is None:
            self._renewed = UsedCodes(lambda: self.clock())
        if not self._renewed.first_use("renew:" + token, until=session.expires):
            return None
        return self.issue(session.user_id, session.language)

    def renew_in(self, session: str) -> float:
        """Seconds from now until the page should renew ``session`` (a valid one)."""
        checked = self.check(session)
        return 0.0 if checked is None else max(0.0, checked.expires - self.clock() - RENEW_BEFORE)


@dataclass
class UsedCodes:
    """The OAuth2 codes presented so far, each until it would have expired anyway (also
    the sessions renewed so far, each until its end)."""

    clock: Callable[[], float] = time.time
    _seen: OrderedDict[bytes, float] = field(default_factory=OrderedDict)

    def first_use(self, code: str, until: float | None = None) -> bool:
        """True the first time ``code`` is presented, False ever after while it lives:
        until ``until``, by default :data:`CODE_TTL` seconds from now."""
        now = self.clock()
        while self._seen:
            oldest, until = next(iter(self._seen.items()))
            if until > now and len(self._seen) < MAX_CODES:
                break
            del self._seen[oldest]
        digest = hashlib.sha256(code.encode()).digest()
        if digest in self._seen:
            return False
        self._seen[digest] = now + CODE_TTL if until is None else until
        return True

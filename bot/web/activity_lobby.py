"""Starting a game from the Activity (``bot.web.activity``): a challenge to a member of
the Activity's instance, its answer, a practice game against the AI.

Everything goes through the services the Discord commands use, with their limits
counted in their database transactions: ``ChallengeService.create`` (``MAX_OPEN_
CHALLENGES``, ``MAX_CHANNEL_CHALLENGES``, the re-challenge cooldown),
``ChallengeService.accept``/``decline``, ``Opponent.start_game`` (``MAX_PRACTICE_GAMES``,
one practice game per channel). What Discord shows of it is the bot's
(:class:`LobbyDiscord`, ``cogs.table.activity_lobby``): the challenge's message with its
Accept and Decline buttons in the channel (so it may be answered in Discord as well),
the message edited when it is answered, the new game's board and DMs (its first
publication, recorded in the outbox by the transaction that created the game).

Routes (with the Activity, and only in the bot's process: ``python -m bot web`` alone
has no Discord to post to, and answers 404):

* ``POST /activity/s/<session>/challenge`` ``{"channel", "opponent"}``: the session's
  member challenges ``opponent`` (a user id: whom the page offers are the instance's
  participants, but any member of the channel's server is as the command allows) in
  ``channel``, a server channel the bot sees where both may write;
* ``POST /activity/s/<session>/challenge/<id>/{accept,decline}``: the session's member
  answers a challenge made to them;
* ``POST /activity/s/<session>/practice`` ``{"channel", "level"}``: a practice game
  against the AI in that channel (no channel, as in a DM: in the member's DMs).

The acting member is always the session's user, never an id the page sends. A refusal
is 422 JSON ``{"error": ...}`` (429 for a limit) in the member's language, names shown
as text (the page never writes them as HTML); nothing was changed.
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from aiohttp import web

from bot.games.challenges import Challenge, ChallengeService
from bot.games.errors import LimitReached, ServiceError, UserRef
from bot.games.opponent import DEFAULT_LEVEL, Opponent
from bot.storage import DatabaseUnavailable
from bot.text import i18n
from bot.text.catalogue import error_text, t
from bot.text.notation import refusal_text
from bot.web.answers import json_answer
from bot.web.inputs import number
from bot.web.server import SOURCES, NotFound
from rules.ai import LEVELS
from rules.game import GameOptions

if TYPE_CHECKING:
    from bot.games.live import LiveGame
    from bot.web.sessions import Session

log = logging.getLogger(__name__)

MAX_BODY = 1024  # bytes of a lobby request's JSON
DISCORD_TIME = re.compile(r"<t:(\d{1,12}):R>")  # a relative time in Discord's markup


class LobbyDiscord(Protocol):
    """What the lobby needs of the bot in Discord (``cogs.table.activity_lobby``)."""

    @property
    def bot_id(self) -> int | None: ...

    def guild_of(self, channel_id: int) -> int | None:
        """The server of a channel the bot sees; None for a DM or a channel unknown."""
        ...

    async def may_play(self, channel_id: int, user_id: int) -> bool:
        """Whether ``user_id`` is a member (no bot) who may see and write in the channel."""
        ...

    async def challenge_posted(self, challenge: Challenge) -> None: ...

    async def challenge_answered(self, challenge: Challenge, record: LiveGame | None) -> None: ...

    async def practice_started(self, record: LiveGame, level: str) -> None: ...


@dataclass
class Lobby:
    """The services a game is started with, and the bot's side in Discord."""

    challenges: ChallengeService
    opponent: Opponent
    discord: LobbyDiscord


async def _refusal(
    request: web.Request, error: ServiceError, guild_id: int | None, now: float
) -> web.Response:
    """A service's refusal as the page shows it: the members it names by their names,
    Discord's relative times (``<t:...:R>``, which a page does not render) in minutes
    from ``now``."""
    names = request.app[SOURCES].names
    shown = {
        value.id: await names.name(value.id, guild_id)
        for value in error.params.values()
        if isinstance(value, UserRef)
    }
    text = refusal_text(error, resolve=lambda v: shown[v.id] if isinstance(v, UserRef) else v)
    text = DISCORD_TIME.sub(
        lambda found: t("activity.in_minutes", minutes=max(1, math.ceil((int(found[1]) - now) / 60))), text
    )
    return json_answer({"error": text}, status=429 if isinstance(error, LimitReached) else 422)


async def _posted(request: web.Request) -> dict[str, Any]:
    """The request's JSON object (at most :data:`MAX_BODY` bytes, its length given);
    anything else answers 404."""
    length = request.content_length
    if request.content_type != "application/json" or length is None or length > MAX_BODY:
        raise NotFound
    try:
        data = json.loads(await request.read())
    except ValueError:
        raise NotFound from None
    if not isinstance(data, dict):
        raise NotFound
    return data


def _id(data: dict[str, Any], key: str) -> int | None:
    value = data.get(key)
    return number(value) if isinstance(value, str) else None


@dataclass
class LobbyRoutes:
    """The lobby's handlers; ``session_of`` reads a request's session (raises the 401
    refusal for a forged or expired one)."""

    lobby: Lobby
    session_of: Callable[[web.Request], Session]

    def _lobby(self, request: web.Request) -> tuple[Session, Lobby]:
        return self.session_of(request), self.lobby

    async def challenge(self, request: web.Request) -> web.StreamResponse:
        session, lobby = self._lobby(request)
        data = await _posted(request)
        channel_id, opponent_id = _id(data, "channel"), _id(data, "opponent")
        if opponent_id is None:
            raise NotFound
        with i18n.use(session.language):
            guild_id = None if channel_id is None else lobby.discord.guild_of(channel_id)
            try:
                if channel_id is None or guild_id is None:
                    raise ServiceError("challenge_guild_only")
                if not await request.app[SOURCES].links.enabled(guild_id):
                    raise NotFound
                if opponent_id == session.user_id:
                    raise ServiceError("challenge_self")
                if not await lobby.discord.may_play(channel_id, session.user_id):
                    raise ServiceError("not_a_member")
                if opponent_id == lobby.discord.bot_id:  # challenging the bot: a practice game
                    return await self._practice(request, session, lobby, channel_id, DEFAULT_LEVEL)
                if not await lobby.discord.may_play(channel_id, opponent_id):
                    raise ServiceError("not_a_member")
                made = await lobby.challenges.create(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    challenger_id=session.user_id,
                    opponent_id=opponent_id,
                    options=GameOptions(),
                )
            except ServiceError as error:
                return await _refusal(request, error, guild_id, lobby.challenges.clock())
            except DatabaseUnavailable as error:
                return json_answer({"error": error_text(error)}, status=503)
        log.info("Challenge %d made in the Activity", made.id)
        try:
            await lobby.discord.challenge_posted(made)
        except Exception:
            # Stored: it can be answered in the Activity, and it expires as any other.
            log.exception("Challenge %d: posting it in Discord failed", made.id)
        return json_answer({"challenge": made.id})

    async def answer(self, request: web.Request) -> web.StreamResponse:
        session, lobby = self._lobby(request)
        challenge_id = number(request.match_info["challenge"])
        if challenge_id is None:
            raise NotFound
        accept = request.match_info["answer"] == "accept"
        with i18n.use(session.language):
            try:
                if accept:
                    await lobby.challenges.check(challenge_id, session.user_id)
                    answered, record = await lobby.challenges.accept(challenge_id, session.user_id)
                else:
                    answered, record = await lobby.challenges.decline(challenge_id, session.user_id), None
            except ServiceError as error:
                return await _refusal(request, error, None, lobby.challenges.clock())
            except DatabaseUnavailable as error:
                return json_answer({"error": error_text(error)}, status=503)
        try:
            await lobby.discord.challenge_answered(answered, record)
        except Exception:
            # Committed: the new game's first publication is in the outbox.
            log.exception("Challenge %d: showing its answer in Discord failed", challenge_id)
        return json_answer({"challenge": challenge_id, "game": None if record is None else record.id})

    async def practice(self, request: web.Request) -> web.StreamResponse:
        session, lobby = self._lobby(request)
        data = await _posted(request)
        level = data.get("level")
        level = level if isinstance(level, str) and level in LEVELS else DEFAULT_LEVEL
        channel_id = _id(data, "channel")
        guild_id = None if channel_id is None else lobby.discord.guild_of(channel_id)
        with i18n.use(session.language):
            if guild_id is None:
                channel_id = None  # a DM (or no channel): the game is played in the member's DMs
            elif not await request.app[SOURCES].links.enabled(guild_id):
                raise NotFound
            elif channel_id is not None and not await lobby.discord.may_play(channel_id, session.user_id):
                return await _refusal(
                    request, ServiceError("not_a_member"), guild_id, lobby.challenges.clock()
                )
            return await self._practice(request, session, lobby, channel_id, level)

    async def _practice(
        self, request: web.Request, session: Session, lobby: Lobby, channel_id: int | None, level: str
    ) -> web.Response:
        bot_id = lobby.discord.bot_id
        guild_id = None if channel_id is None else lobby.discord.guild_of(channel_id)
        try:
            if bot_id is None:
                raise ServiceError("service_error")
            record = await lobby.opponent.start_game(
                user_id=session.user_id,
                bot_id=bot_id,
                guild_id=guild_id,
                channel_id=channel_id,
                options=GameOptions(),
                level=level,
            )
        except ServiceError as error:
            return await _refusal(request, error, guild_id, lobby.challenges.clock())
        except DatabaseUnavailable as error:
            return json_answer({"error": error_text(error)}, status=503)
        log.info("Practice game %d started in the Activity (level %s)", record.id, level)
        try:
            await lobby.discord.practice_started(record, level)
        except Exception:
            log.exception("Game %d: publishing the practice game in Discord failed", record.id)
        return json_answer({"game": record.id})


def register(app: web.Application, lobby: Lobby, session_of: Callable[[web.Request], Session]) -> None:
    """Add the lobby's routes."""
    routes = LobbyRoutes(lobby, session_of)
    app.router.add_post("/activity/s/{session}/challenge", routes.challenge)
    app.router.add_post("/activity/s/{session}/challenge/{challenge}/{answer:accept|decline}", routes.answer)
    app.router.add_post("/activity/s/{session}/practice", routes.practice)

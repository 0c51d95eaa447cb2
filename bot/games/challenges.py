"""``ChallengeService``: challenges from their creation to a game, a refusal or expiry.

A challenge is a row (so it survives a restart); every answer is a conditional update
of that row (``status = 'pending'``), so of two answers that race (Accept and expiry,
or two clicks) exactly one wins, in one process or several. Accepting inserts the game
(and a match's first game) in the same transaction as the answer: a challenge is
accepted with its game, or not at all.

Fair share: a member may have ``max_open`` challenges open, a channel ``max_channel``;
both are counted in the database, so several processes agree, and a new challenge is
counted and stored in one transaction holding the challenger's row and the channel's
(``ChallengeStore.lock_channel``), so challenges sent at once, by one member or by many
in one channel (two members challenging each other too), are counted one after the
other. After a challenge was declined or expired, its
challenger may challenge the same member again only ``rechallenge_cooldown`` seconds
later, counted from the answer's time stored with the challenge (migration 9), so this
too holds across processes. Each is a ``LimitReached`` saying when it frees, raised
before anything is stored or posted. 0 means no limit.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Protocol

from bot.games.errors import LimitReached, ServiceError, UserRef
from bot.games.live import LiveGame
from bot.games.matches import MatchService
from bot.games.service import GameService
from bot.storage import ChallengeRow, ChallengeStore, DatabaseUnavailable, PlayerStore, Repositories
from rules.game import GameOptions

log = logging.getLogger(__name__)

#: Challenges expired (and their messages edited) per round of the timers: a backlog
#: (after a restart, a flood) is worked off over several rounds, not in one burst.
EXPIRED_PER_ROUND = 25


@dataclass(frozen=True)
class Challenge:
    """A challenge as the table shows it."""

    row: ChallengeRow
    options: GameOptions
    points: int | None  # a match to this many points; None: a single game

    @property
    def id(self) -> int:
        return self.row.id


def _challenge(row: ChallengeRow) -> Challenge:
    points = row.options.get("points")
    return Challenge(row, GameOptions.from_dict(row.options), int(points) if points else None)


class ChallengeStorage(Protocol):
    """What the challenges need of the database: the challenges, the players (their
    rows), and transactions (an accepted challenge's game is inserted in the answer's)."""

    @property
    def challenges(self) -> ChallengeStore: ...

    @property
    def players(self) -> PlayerStore: ...

    def transaction(self) -> AbstractAsyncContextManager[Repositories]: ...


class ChallengeService:
    def __init__(
        self,
        db: ChallengeStorage,
        games: GameService,
        matches: MatchService,
        *,
        clock: Callable[[], float],
        timeout: float,
        max_open: int = 0,
        max_channel: int = 0,
        rechallenge_cooldown: float = 0,
    ) -> None:
        self.db = db
        self.games = games
        self.matches = matches
        self.clock = clock
        self.timeout = timeout
        self.max_open = max_open
        self.max_channel = max_channel
        self.rechallenge_cooldown = rechallenge_cooldown

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int,
        options: GameOptions,
        points: int | None = None,
    ) -> Challenge:
        """A new pending challenge. Refused while the two already play in this channel
        or one of them has an open challenge to the other here."""
        if challenger_id == opponent_id:
            raise ServiceError("challenge_self")
        if await self._playing_here(challenger_id, opponent_id, channel_id):
            raise ServiceError("challenge_existing", opponent=UserRef(opponent_id))
        now = self.clock()
        # Both members' rows first, committed: inside the transaction, adding a row that
        # another member's open transaction is adding (two new members challenging each
        # other at once) would make the two wait for each other.
        await self.db.players.ensure_players((challenger_id, opponent_id), now)
        # One transaction holding the challenger's row, then the channel's: two
        # challenges of one member, or of members in one channel (the channel's limit,
        # two members challenging each other), sent at once are counted one after the
        # other. Always in this order (member, then channel), so that two creators never
        # wait for each other in a circle.
        async with self.db.transaction() as tx:
            await tx.players.lock(challenger_id, now)
            await tx.challenges.lock_channel(channel_id, now)
            open_ = [
                p for p in await tx.challenges.pending_challenges(user_id=challenger_id) if p.expires_at > now
            ]
            for pending in open_:
                if pending.channel_id == channel_id and {pending.challenger_id, pending.opponent_id} == {
                    challenger_id,
                    opponent_id,
                }:
                    raise ServiceError("challenge_pending", opponent=UserRef(opponent_id))
            for pending in open_:
                if (pending.challenger_id, pending.opponent_id) == (challenger_id, opponent_id):
                    raise ServiceError("challenge_pending_elsewhere", opponent=UserRef(opponent_id))
            await self._check_limits(tx, challenger_id, opponent_id, channel_id, open_, now)
            row = await tx.challenges.create_challenge(
                guild_id=guild_id,
                channel_id=channel_id,
                challenger_id=challenger_id,
                opponent_id=opponent_id,
                options={**options.to_dict(), **({"points": points} if points else {})},
                now=now,
                expires_at=now + self.timeout,
            )
        return _challenge(row)

    async def _check_limits(
        self,
        tx: Repositories,
        challenger_id: int,
        opponent_id: int,
        channel_id: int,
        open_: list[ChallengeRow],
        now: float,
    ) -> None:
        """``LimitReached`` if this challenge would be over one of the limits, counted in
        the creating transaction ``tx`` (which holds the rows that serialise them)."""
        if self.rechallenge_cooldown:
            unanswered = await tx.challenges.last_unanswered(challenger_id, opponent_id)
            if unanswered is not None and now < unanswered + self.rechallenge_cooldown:
                raise LimitReached(
                    "limit_rechallenge",
                    limit=self.rechallenge_cooldown,
                    opponent=UserRef(opponent_id),
                    until=math.ceil(unanswered + self.rechallenge_cooldown),
                )
        if self.max_open:
            mine = [p for p in open_ if p.challenger_id == challenger_id]
            if len(mine) >= self.max_open:
                raise LimitReached(
                    "limit_open_challenges",
                    limit=self.max_open,
                    until=math.ceil(min(p.expires_at for p in mine)),
                )
        if self.max_channel:
            here = await tx.challenges.pending_in_channel(channel_id, now)
            if len(here) >= self.max_channel:
                raise LimitReached(
                    "limit_channel_challenges",
                    limit=self.max_channel,
                    until=math.ceil(min(p.expires_at for p in here)),
                )

    async def set_message(self, challenge_id: int, message_id: int) -> None:
        await self.db.challenges.set_challenge_message(challenge_id, message_id)

    async def on_message(self, challenge_id: int, channel_id: int, message_id: int) -> bool:
        """Whether a message (by its channel and id, which Discord gives) is the
        challenge's own: in its channel, and its stored message once one is stored."""
        row = await self.db.challenges.get_challenge(challenge_id)
        return (
            row is not None
            and row.channel_id == channel_id
            and (row.message_id is None or row.message_id == message_id)
        )

    async def check(self, challenge_id: int, user_id: int) -> None:
        """Refuse at once what :meth:`accept` would refuse for this user and challenge."""
        await self._open(challenge_id, user_id)

    async def _open(self, challenge_id: int, user_id: int) -> ChallengeRow:
        row = await self.db.challenges.get_challenge(challenge_id)
        if row is None or row.status != "pending" or row.expires_at <= self.clock():
            raise ServiceError("challenge_gone")
        if row.opponent_id is None:
            raise ServiceError("challenge_gone")  # open challenges are not made by this bot
        if user_id != row.opponent_id:
            raise ServiceError("challenge_not_yours", opponent=UserRef(row.opponent_id))
        return row

    async def decline(self, challenge_id: int, user_id: int) -> Challenge:
        row = await self._open(challenge_id, user_id)
        if not await self.db.challenges.resolve_challenge(challenge_id, "declined", now=self.clock()):
            raise ServiceError("challenge_gone")
        return _challenge(row)

    async def accept(self, challenge_id: int, user_id: int) -> tuple[Challenge, LiveGame]:
        """Start the challenge's game (and match). Raises ``ServiceError`` and changes
        nothing if the challenge is no longer open or the two already play here."""
        row = await self._open(challenge_id, user_id)
        if await self._playing_here(row.challenger_id, user_id, row.channel_id):
            await self.db.challenges.resolve_challenge(challenge_id, "cancelled")
            raise ServiceError("challenge_existing", opponent=UserRef(row.challenger_id))
        async with self.db.transaction() as tx:
            row = await self._open(challenge_id, user_id)  # again, inside the transaction
            challenge = _challenge(row)
            players = (row.challenger_id, user_id)
            match_id = None
            if challenge.points:
                match = await self.matches.create(
                    guild_id=row.guild_id,
                    channel_id=row.channel_id,
                    players=players,
                    options=challenge.options,
                    target=challenge.points,
                    tx=tx,
                )
                match_id = match.id
            record = await self.games.insert_game(
                tx,
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                players=players,
                options=challenge.options,
                match_id=match_id,
            )
            if not await tx.challenges.resolve_challenge(challenge_id, "accepted", game_id=record.id):
                raise ServiceError("challenge_gone")  # rolls the game back
        if match_id is not None:
            try:
                await self.matches.refresh(match_id)
            except DatabaseUnavailable as error:
                # Accepted and stored: the board reads the match again when it starts.
                log.warning("could not read match %d after its challenge: %s", match_id, error)
        log.info("Challenge %d accepted: game %d", challenge_id, record.id)
        return challenge, record

    async def pending_with(self, channel_id: int, user_id: int) -> list[Challenge]:
        """The channel's open challenges from or to ``user_id``, oldest first (the
        Activity's list)."""
        rows = await self.db.challenges.pending_in_channel(channel_id, self.clock())
        return [_challenge(row) for row in rows if user_id in (row.challenger_id, row.opponent_id)]

    async def expire_due(self, limit: int = EXPIRED_PER_ROUND) -> list[Challenge]:
        """Expire the pending challenges past their time, the ``limit`` oldest (the
        others wait for the next round: nobody can answer them meanwhile); the ones this
        call expired."""
        expired = []
        for row in (await self.db.challenges.expired_challenges(self.clock()))[:limit]:
            if await self.db.challenges.resolve_challenge(row.id, "expired", now=row.expires_at):
                expired.append(_challenge(row))
        return expired

    async def _playing_here(self, a: int, b: int, channel_id: int) -> bool:
        return any(
            record.channel_id == channel_id and b in record.players
            for record in await self.games.active_games_for(a)
        )


__all__ = ["EXPIRED_PER_ROUND", "Challenge", "ChallengeService", "ChallengeStorage"]

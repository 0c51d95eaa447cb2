"""How a change of a game is stored, and read back when the database went away in the
middle: the one transaction of a move (state, log, outbox row, result and the result
hooks), and after a commit whose outcome is unknown, whether it is there.

A commit whose acknowledgement was lost may still be durable; nobody is told anything
until :func:`read_back` has asked the database (``GameService`` decides what to say).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from bot.games.errors import MoveUnconfirmed
from bot.games.live import LiveGame
from bot.storage import GameStore, OutboxKind, Repositories, ResultRow, outcome_unknown
from rules.game import Game

log = logging.getLogger("bot.games.service")  # the service's log: these are its steps

# When a commit fails in a way that leaves its outcome unknown (the connection lost,
# maybe after the COMMIT was durable), the game is read back after each of these pauses
# until the database answers: a few seconds in all, well inside a deferred
# interaction's 15 minutes. Each read may take CONFIRM_READ_TIMEOUT seconds.
CONFIRM_DELAYS = (0.0, 0.25, 0.5, 1.0, 2.0)
CONFIRM_READ_TIMEOUT = 2.0

# Runs in the transaction that finishes a game, with that transaction's repositories.
ResultHook = Callable[[Repositories, LiveGame, ResultRow], Awaitable[None]]


class GameStorage(Protocol):
    """What the service needs of the database: its games, and transactions (whose
    repositories also hold the outbox, the result and what the result hooks write)."""

    @property
    def games(self) -> GameStore: ...

    def transaction(self) -> AbstractAsyncContextManager[Repositories]: ...


async def store(
    db: GameStorage,
    record: LiveGame,
    new: LiveGame,
    entries: list[tuple[int, int, str]],
    *,
    turn_changed: bool,
    now: float,
    outbox: bool,
    result_hooks: Sequence[ResultHook],
) -> tuple[int | None, ResultRow | None]:
    """Commit ``new`` (``record`` changed by ``entries``) in one transaction: the
    state, the log, the outbox row and the result. Returns the outbox id and the result."""
    game = new.game
    finished = game.is_over
    result_row = None
    async with db.transaction() as tx:
        # The compare-and-set first: a writer that lost the race stops here,
        # before it touches the move log.
        await tx.games.save_game_state(
            record.id,
            expected_version=record.version,
            version=game.version,
            state=game.to_dict(),
            status=new.status,
            turn_started_at=new.turn_started_at,
            deadline=new.deadline,
            reminded=new.reminded,
            now=now,
        )
        await tx.games.append_moves(record.id, entries, version=game.version, now=now)
        outbox_id = None
        if outbox:
            kind: OutboxKind = "turn" if turn_changed or finished else "move"
            outbox_id = await tx.delivery.add_outbox(record.id, game.version, kind, now=now)
        if finished:
            result = game.result
            assert result is not None
            result_row = await tx.ratings.record_result(
                record.id,
                guild_id=record.guild_id,
                players=record.players,
                winner=result.winner,
                reason=result.reason,
                stones=(result.stones[0], result.stones[1]),
                moves=len(game.log),
                now=now,
            )
            for hook in result_hooks:
                await hook(tx, new, result_row)
    return outbox_id, result_row


async def read_back(
    db: GameStorage,
    record: LiveGame,
    game: Game,
    entries: list[tuple[int, int, str]],
    *,
    now: float,
    outbox: bool,
    delays: Sequence[float] = CONFIRM_DELAYS,
) -> tuple[int | None, ResultRow | None] | None:
    """After a commit whose outcome is unknown: whether it is stored. Its log entries
    (``entries``, written at ``now``) are read back; the moves table is append-only
    and keyed by position, so they are there exactly when this commit (and with it
    the state, the outbox row and the result) is. Returns the outbox id and the
    result if it is, None if it is not; raises ``MoveUnconfirmed`` if the database
    cannot be read after the pauses ``delays``."""
    expected = [(seq, player, text, game.version, now) for seq, player, text in entries]
    last: BaseException | None = None
    for delay in delays:
        await asyncio.sleep(delay)
        try:
            async with asyncio.timeout(CONFIRM_READ_TIMEOUT):
                async with db.transaction() as tx:
                    if expected:
                        moves = await tx.games.moves(record.id)
                        first, last_seq = entries[0][0], entries[-1][0]
                        found = [
                            (m.seq, m.player, m.move, m.version, m.created_at)
                            for m in moves
                            if first <= m.seq <= last_seq
                        ]
                        stored = found == expected
                    else:  # a change without log entries: by the version alone
                        row = await tx.games.get_game(record.id)
                        stored = row is not None and row.version == game.version
                    if not stored:
                        return None
                    outbox_id = await tx.delivery.outbox_entry(record.id, game.version) if outbox else None
                    result = await tx.ratings.get_result(record.id) if game.is_over else None
                    return outbox_id, result
        except Exception as error:
            if not outcome_unknown(error):
                raise
            last = error
            log.info("Game %d: cannot read the game back yet (%s)", record.id, type(error).__name__)
    log.error("Game %d: could not confirm whether version %d was stored", record.id, game.version)
    raise MoveUnconfirmed(record.id) from last

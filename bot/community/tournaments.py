"""``TournamentService``: tournaments from sign-up to the podium, stored (migration 8).

The formats' rules are the pure core's (:mod:`bot.tournaments`); this module stores a
tournament and drives it:

* sign-up: :meth:`join`, :meth:`leave`, :meth:`kick` first claim the tournament's row
  ``WHERE status = 'open'`` in their transaction, and :meth:`start` moves it from
  ``open`` to ``running`` in the transaction that creates round 1, so a Join after the
  start (or a double click, or a kicked player's Join) is refused and changes nothing;
* :meth:`result_hook` runs in the transaction of the move that finishes a game (after
  the rating and match hooks): it decides the game's pairing (a knockout tie when its
  best-of match is won) and withdraws a player who lost two games in a row on time. It
  only writes what the result decides, with one indexed read for any other game;
* :meth:`advance`, called after the result is committed (the publisher's hook after a
  game ends, and the timers' round for what a crash left), pairs the next round off the
  event loop and then creates it in one transaction that starts by moving the stored round from N
  to N + 1 on the condition that it is still N (``advance_round``): of every caller of
  every process exactly one creates the round (its pairings, matches and games); the
  others find nothing to do.

Seats: ``Pairing.white`` is engine player 0 and moves first.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field, replace
from typing import Protocol

from bot.community.ratings import INITIAL_RATING, guild_scope
from bot.community.tournament_labels import GameLabel, TournamentLabels
from bot.community.tournament_state import Bracket, TournamentState, read_bracket, read_state
from bot.games.errors import ServiceError, TypedText
from bot.games.live import LiveGame
from bot.games.matches import MatchService, next_match_game
from bot.games.service import GameService
from bot.storage import (
    PairingRow,
    Repositories,
    ResultRow,
    TournamentRow,
    TournamentStore,
)
from bot.tournaments import (
    Entrant,
    History,
    Pairing,
    berger_round,
    default_swiss_rounds,
    next_knockout_round,
    pair_swiss,
    seed_bracket,
    withdrawn_for_timeouts,
)
from bot.tournaments.knockout import BEST_OF, seeded
from bot.tournaments.round_robin import round_robin_rounds
from rules.game import GameOptions

log = logging.getLogger(__name__)

MAX_NAME = 100
MAX_ROUNDS = 20
MAX_PLAYERS = 256
MIN_PLAYERS = {"swiss": 3, "round-robin": 3, "knockout": 2}
MIN_TURN_TIME = 60.0
MAX_TURN_TIME = 7 * 86400.0
_SPACES = re.compile(r"\s+")


class TournamentStorage(Protocol):
    @property
    def tournaments(self) -> TournamentStore: ...

    def transaction(self) -> AbstractAsyncContextManager[Repositories]: ...


def clean_name(text: str) -> str:
    """A tournament's name as stored: one line, no control characters, at most
    ``MAX_NAME`` characters; ``ServiceError`` if nothing is left or it is too long."""
    name = _SPACES.sub(" ", "".join(c if c.isprintable() else " " for c in text)).strip()
    if not name:
        raise ServiceError("tournament_name_empty")
    if len(name) > MAX_NAME:
        raise ServiceError("tournament_name_long", limit=MAX_NAME)
    return name


@dataclass(frozen=True)
class Advance:
    """What one call to :meth:`TournamentService.advance` (or the start) did."""

    tournament: TournamentRow
    round: int
    games: list[LiveGame] = field(default_factory=list)
    pairings: list[PairingRow] = field(default_factory=list)
    finished: bool = False


@dataclass(frozen=True)
class Withdrawal:
    tournament: TournamentRow
    user_id: int
    before_start: bool
    games: list[int]  # the games in progress to resign


@dataclass(frozen=True)
class Cancellation:
    """A cancelled tournament and its games that were in progress: they go on as casual,
    unrated games (``docs/tournaments.md``), and their players are told."""

    tournament: TournamentRow
    games: list[tuple[int, tuple[int, int]]]  # (game id, players)


class TournamentService:
    def __init__(
        self,
        db: TournamentStorage,
        games: GameService,
        matches: MatchService,
        *,
        clock: Callable[[], float],
        turn_time: float,
        max_open: int = 0,
    ) -> None:
        self.db = db
        self.games = games
        self.matches = matches
        self.clock = clock
        self.turn_time = turn_time
        self.max_open = max_open  # open or running tournaments per server; 0: no limit
        self.labels = TournamentLabels(db.tournaments)

    # -- reading ---------------------------------------------------------------------

    async def on_signup(self, tournament_id: int, channel_id: int, message_id: int) -> bool:
        """Whether a message (by its channel and id, which Discord gives) is the
        tournament's sign-up: in its channel, and the stored one once it is stored."""
        row = await self.db.tournaments.get(tournament_id)
        return (
            row is not None
            and row.channel_id == channel_id
            and (row.signup_message_id is None or row.signup_message_id == message_id)
        )

    async def get(self, tournament_id: int) -> TournamentRow:
        row = await self.db.tournaments.get(tournament_id)
        if row is None:
            raise ServiceError("tournament_not_found", tournament_id=tournament_id)
        return row

    async def find(
        self,
        guild_id: int | None,
        channel_id: int | None,
        tournament_id: int | None,
        *,
        finished: bool = False,
    ) -> TournamentRow:
        """The tournament a command means: the one given (of this server), else the
        newest open or running one of this channel, else of the server if only one;
        ``finished`` (for what only reads it): else the newest finished one, of this
        channel first."""
        if guild_id is None:
            raise ServiceError("tournament_guild_only")
        if tournament_id is not None:
            row = await self.db.tournaments.get(tournament_id)
            if row is None or row.guild_id != guild_id:
                raise ServiceError("tournament_not_found", tournament_id=tournament_id)
            return row
        live = await self.db.tournaments.of_guild(guild_id, ("open", "running"))
        here = [r for r in live if r.channel_id == channel_id]
        if here:
            return here[0]
        if len(live) == 1:
            return live[0]
        if not live and finished:
            over = await self.db.tournaments.of_guild(guild_id, ("finished",))
            if over:
                return next((r for r in over if r.channel_id == channel_id), over[0])
        if not live:
            raise ServiceError("tournament_none")
        raise ServiceError("tournament_which", ids=", ".join(f"#{r.id}" for r in live))

    async def of_guild(self, guild_id: int) -> list[TournamentRow]:
        return await self.db.tournaments.of_guild(guild_id, ("open", "running", "finished"))

    async def label(self, record: LiveGame) -> GameLabel | None:
        """The tournament a game is played for (its board's label), if any."""
        return await self.labels.label(record)

    async def state(self, tournament_id: int) -> TournamentState:
        store = self.db.tournaments
        row = await self.get(tournament_id)
        return await self._state(store, row)

    @staticmethod
    async def _state(store: TournamentStore, row: TournamentRow) -> TournamentState:
        return await read_state(store, row)

    # -- sign-up ---------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        format: str,
        rounds: int | None,
        best_of: int | None,
        options: GameOptions,
        turn_time: float | None,
        max_players: int | None,
    ) -> TournamentRow:
        """A new tournament, open for sign-up; ``ServiceError`` for bad input, before
        anything is stored."""
        name = clean_name(name)
        if format not in MIN_PLAYERS:
            raise ServiceError("tournament_format")
        if rounds is not None:
            if format != "swiss":
                raise ServiceError("tournament_rounds_swiss")
            if not 1 <= rounds <= MAX_ROUNDS:
                raise ServiceError("tournament_rounds", limit=MAX_ROUNDS)
        if best_of is not None and format != "knockout":
            raise ServiceError("tournament_best_of_knockout")
        if best_of is not None and best_of not in BEST_OF:
            raise ServiceError("tournament_best_of", choices=", ".join(map(str, BEST_OF)))
        seconds = self.turn_time if turn_time is None else float(turn_time)
        if not MIN_TURN_TIME <= seconds <= MAX_TURN_TIME:
            raise ServiceError(
                "tournament_turn_time", low=int(MIN_TURN_TIME // 60), high=int(MAX_TURN_TIME // 60)
            )
        if max_players is not None and not MIN_PLAYERS[format] <= max_players <= MAX_PLAYERS:
            raise ServiceError("tournament_max_players", low=MIN_PLAYERS[format], high=MAX_PLAYERS)
        async with self.db.transaction() as tx:
            if self.max_open:
                # Counted holding the server's lock row: two creations at once (in one
                # process or several) are counted one after the other.
                await tx.players.set_meta(f"tournament-lock:{guild_id}", str(self.clock()))
                live = await tx.tournaments.of_guild(guild_id, ("open", "running"))
                if len(live) >= self.max_open:
                    raise ServiceError("tournament_cap", limit=self.max_open)
            row = await tx.tournaments.create(
                guild_id=guild_id,
                channel_id=channel_id,
                organiser_id=organiser_id,
                name=name,
                format=format,
                rounds=rounds,
                best_of=best_of or 1,
                options=options.to_dict(),
                turn_time=seconds,
                max_players=max_players,
                now=self.clock(),
            )
        log.info("Tournament %d created (%s, guild %d)", row.id, format, guild_id)
        return row

    async def set_message(self, tournament_id: int, kind: str, message_id: int | None) -> None:
        await self.db.tournaments.set_message(tournament_id, kind, message_id)

    async def join(self, tournament_id: int, user_id: int) -> TournamentRow:
        async with self.db.transaction() as tx:
            store = tx.tournaments
            row = await store.get(tournament_id)
            if row is None:
                raise ServiceError("tournament_not_found", tournament_id=tournament_id)
            if not await store.touch_open(tournament_id, self.clock()):
                raise ServiceError("tournament_closed", name=TypedText(row.name))
            existing = await store.entrant(tournament_id, user_id)
            if existing is not None:
                code = "tournament_kicked" if existing.status == "kicked" else "tournament_joined"
                raise ServiceError(code, name=TypedText(row.name))
            if row.max_players is not None and len(await store.entrants(tournament_id)) >= row.max_players:
                raise ServiceError("tournament_full", name=TypedText(row.name), limit=row.max_players)
            rating = await tx.ratings.get_rating(guild_scope(row.guild_id), user_id)
            await store.add_entrant(
                tournament_id, user_id, rating.rating if rating else INITIAL_RATING, self.clock()
            )
        return row

    async def leave(self, tournament_id: int, user_id: int) -> Withdrawal:
        """Leave before the start (the entry is removed) or withdraw after it (no further
        pairing; a knockout tie in progress goes to the opponent). The games in progress
        are the caller's to resign (``Withdrawal.games``), after this commit."""
        return await self._withdraw(tournament_id, user_id, "withdrawn")

    async def kick(self, tournament_id: int, user_id: int, by: int, *, manager: bool) -> Withdrawal:
        row = await self.get(tournament_id)
        self._check_organiser(row, by, manager)
        return await self._withdraw(tournament_id, user_id, "kicked")

    async def _withdraw(self, tournament_id: int, user_id: int, status: str) -> Withdrawal:
        async with self.db.transaction() as tx:
            store = tx.tournaments
            row = await store.get(tournament_id)
            if row is None:
                raise ServiceError("tournament_not_found", tournament_id=tournament_id)
            if row.status == "open" and await store.touch_open(tournament_id, self.clock()):
                if status == "kicked":
                    done = await store.set_entrant_status(tournament_id, user_id, "kicked")
                else:
                    done = await store.remove_entrant(tournament_id, user_id)
                if not done:
                    raise ServiceError("tournament_not_entrant", name=TypedText(row.name))
                return Withdrawal(row, user_id, True, [])
            row = await store.get(tournament_id) or row  # started meanwhile, say
            if row.status != "running":
                raise _over(row)
            if not await store.set_entrant_status(
                tournament_id, user_id, "kicked" if status == "kicked" else "withdrawn"
            ):
                raise ServiceError("tournament_not_entrant", name=TypedText(row.name))
            games = []
            for pairing in await store.pairings(tournament_id, row.round):
                if pairing.done or user_id not in (pairing.white, pairing.black):
                    continue
                if pairing.match_id is not None:
                    # The tie goes to the opponent now: the match ends with it, so the
                    # game resigned below starts no next game.
                    other = pairing.black if user_id == pairing.white else pairing.white
                    match = await tx.challenges.get_match(pairing.match_id)
                    game_id = await next_match_game(tx.challenges, pairing.match_id)
                    if match is not None and match.status == "active":
                        await tx.challenges.update_match(
                            match.id,
                            scores=match.scores,
                            games=match.games,
                            winner_id=other,
                            now=self.clock(),
                        )
                    await store.decide(pairing, other)
                    if game_id is not None:
                        games.append(game_id)
                elif pairing.game_id is not None:
                    games.append(pairing.game_id)
        log.info("Tournament %d: user %d %s", tournament_id, user_id, status)
        return Withdrawal(row, user_id, False, games)

    @staticmethod
    def _check_organiser(row: TournamentRow, user_id: int, manager: bool) -> None:
        if user_id != row.organiser_id and not manager:
            raise ServiceError("tournament_not_organiser", name=TypedText(row.name))

    async def cancel(self, tournament_id: int, by: int, *, manager: bool) -> Cancellation:
        """Cancel the tournament. Its games in progress go on as casual games: from now
        on they are not rated (:meth:`TournamentStore.cancelled_game`, read by the
        rating hook) and no longer labelled; the caller tells their players."""
        row = await self.get(tournament_id)
        self._check_organiser(row, by, manager)
        async with self.db.transaction() as tx:
            if not await tx.tournaments.set_status(
                tournament_id, "cancelled", expected=("open", "running"), now=self.clock()
            ):
                raise _over(await tx.tournaments.get(tournament_id) or row)
            games = []
            for pairing in await tx.tournaments.pairings(tournament_id):
                if pairing.done:
                    continue
                game_id = pairing.game_id
                if pairing.match_id is not None:
                    game_id = await next_match_game(tx.challenges, pairing.match_id)
                if game_id is not None and pairing.black is not None:
                    games.append((game_id, (pairing.white, pairing.black)))
        log.info("Tournament %d cancelled; %d games go on as casual games", tournament_id, len(games))
        # Not read again: the answer must not depend on the database after the commit.
        return Cancellation(replace(row, status="cancelled"), games)

    # -- rounds ----------------------------------------------------------------------

    async def start(self, tournament_id: int, by: int, *, manager: bool) -> Advance:
        """Close sign-up and create round 1 (in one transaction)."""
        row = await self.get(tournament_id)
        self._check_organiser(row, by, manager)
        for _ in range(5):
            if row.status != "open":
                raise ServiceError("tournament_started", name=TypedText(row.name))
            entrants = [e for e in await self.db.tournaments.entrants(tournament_id) if e.status == "in"]
            if len(entrants) < MIN_PLAYERS[row.format]:
                name, needed = TypedText(row.name), MIN_PLAYERS[row.format]
                raise ServiceError("tournament_too_few", name=name, count=len(entrants), needed=needed)
            core = [Entrant(e.user_id, e.rating) for e in entrants]
            rounds = self._rounds(row, len(core))
            pairings = await asyncio.to_thread(self._pair, row, core, History(), 1)
            try:
                async with self.db.transaction() as tx:
                    if not await tx.tournaments.set_status(
                        tournament_id, "running", expected=("open",), now=self.clock(), rounds=rounds
                    ):
                        raise ServiceError("tournament_started", name=TypedText(row.name))
                    now_in = {
                        e.user_id for e in await tx.tournaments.entrants(tournament_id) if e.status == "in"
                    }
                    if now_in != {e.user_id for e in core}:
                        raise _Changed  # a join or leave meanwhile: roll back and pair again
                    await tx.tournaments.advance_round(tournament_id, 0, self.clock())
                    started = await tx.tournaments.get(tournament_id)
                    assert started is not None
                    made = await self._create_round(tx, started, pairings, now_in)
            except _Changed:
                row = await self.get(tournament_id)
                continue
            log.info("Tournament %d started: %d players, %d rounds", tournament_id, len(core), rounds)
            return made
        raise ServiceError("tournament_busy")

    @staticmethod
    def _rounds(row: TournamentRow, players: int) -> int:
        if row.format == "swiss":
            return row.rounds or default_swiss_rounds(players)
        if row.format == "round-robin":
            return round_robin_rounds(players)
        return max(1, (players - 1).bit_length())

    @staticmethod
    def _pair(
        row: TournamentRow, entrants: Sequence[Entrant], history: History, round_no: int
    ) -> list[Pairing]:
        """The pairings of ``round_no`` (CPU work: run it in a thread)."""
        if row.format == "swiss":
            return pair_swiss(entrants, history, round_no)
        if row.format == "round-robin":
            return berger_round(seeded(entrants), round_no)
        if round_no == 1:
            return seed_bracket(entrants)
        raise AssertionError("later knockout rounds come from next_knockout_round")

    async def _create_round(
        self, tx: Repositories, row: TournamentRow, pairings: Sequence[Pairing], still_in: set[int]
    ) -> Advance:
        """Store round ``row.round``'s pairings and create their games (and matches)."""
        options = GameOptions.from_dict(row.options)
        games: list[LiveGame] = []
        for board, pairing in enumerate(pairings, start=1):
            white, black = pairing.white, pairing.black
            if black is None or white not in still_in or black not in still_in:
                # A bye, or a walkover: a player withdrew after the round was paired.
                winner = white if black is None or white in still_in else black
                await tx.tournaments.add_pairing(
                    row.id, row.round, board, white, black, winner_id=winner, done=True
                )
                continue
            match_id = None
            if row.format == "knockout":
                match = await tx.challenges.insert_match(
                    guild_id=row.guild_id,
                    channel_id=row.channel_id,
                    players=(white, black),
                    options={**options.to_dict(), "best_of": row.best_of, "turn_time": row.turn_time},
                    target=row.best_of // 2 + 1,
                    now=self.clock(),
                )
                match_id = match.id
            record = await self.games.insert_game(
                tx,
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                players=(white, black),
                options=options,
                first_player=0,
                match_id=match_id,
                turn_timeout=row.turn_time,
            )
            games.append(record)
            await tx.tournaments.add_pairing(
                row.id,
                row.round,
                board,
                white,
                black,
                game_id=None if match_id is not None else record.id,
                match_id=match_id,
            )
        return Advance(row, row.round, games, await tx.tournaments.pairings(row.id, row.round))

    async def advance(self, tournament_id: int) -> list[Advance]:
        """Pair and create every round that is due (usually one; none while a game of
        the round goes on), or finish the tournament after its last round. Safe to call
        from anywhere, any number of times, in any process: each round is created once,
        by the caller whose conditional update won; the others get nothing."""
        made: list[Advance] = []
        for _ in range(MAX_ROUNDS + 2):
            step = await self._advance_once(tournament_id)
            if step is None:
                break
            made.append(step)
            if step.finished or step.games:
                break
        return made

    async def _advance_once(self, tournament_id: int) -> Advance | None:
        store = self.db.tournaments
        row = await store.get(tournament_id)
        if row is None or row.status != "running":
            return None
        state = await self._state(store, row)
        current = [p for p in state.pairings if p.round == row.round]
        if any(not p.done for p in current):
            return None
        entrants = state.core_entrants()
        active = [e for e in entrants if not e.withdrawn]
        pairings: list[Pairing] = []
        if row.format == "knockout":
            ties = [Pairing(p.round, p.white, p.black) for p in current]
            winners = {p.winner_id for p in current if p.winner_id is not None}
            if len(ties) > 1:
                pairings = next_knockout_round(entrants, ties, winners)
        elif row.round < (row.rounds or 0) and len(active) >= 2:
            history = History(tuple(state.results), tuple(state.byes()))
            pairings = await asyncio.to_thread(self._pair, row, entrants, history, row.round + 1)
        if not pairings:
            if await store.finish(tournament_id, row.round, self.clock()):
                log.info("Tournament %d finished after round %d", tournament_id, row.round)
                finished = await store.get(tournament_id)
                assert finished is not None
                return Advance(finished, row.round, finished=True)
            return None
        async with self.db.transaction() as tx:
            if not await tx.tournaments.advance_round(tournament_id, row.round, self.clock()):
                return None  # another caller (or process) created this round
            now = await tx.tournaments.get(tournament_id)
            assert now is not None
            still_in = {e.user_id for e in await tx.tournaments.entrants(tournament_id) if e.status == "in"}
            made = await self._create_round(tx, now, pairings, still_in)
        log.info("Tournament %d: round %d paired, %d games", tournament_id, made.round, len(made.games))
        return made

    async def advance_due(self) -> list[Advance]:
        """:meth:`advance` for every running tournament (the timers' round)."""
        made = []
        for row in await self.db.tournaments.running():
            try:
                made += await self.advance(row.id)
            except Exception:
                log.exception("advancing tournament %d failed", row.id)
        return made

    async def tournament_of(self, record: LiveGame) -> int | None:
        """The tournament a game is played for, if any."""
        pairing = await self.db.tournaments.pairing_of(game_id=record.id, match_id=record.match_id)
        return None if pairing is None else pairing.tournament_id

    # -- the result hook -------------------------------------------------------------

    async def result_hook(self, tx: Repositories, record: LiveGame, result: ResultRow) -> None:
        """Decide the game's pairing (in the result's transaction; after the match hook,
        so a knockout tie is decided when its match is won) and withdraw a player who
        lost two games in a row on time. Pairing the next round is left to
        :meth:`advance`, after the commit."""
        store = tx.tournaments
        pairing = await store.pairing_of(game_id=record.id, match_id=record.match_id)
        if pairing is None:
            return
        row = await store.get(pairing.tournament_id)
        if row is None or row.status != "running":
            return
        if not pairing.done:
            if pairing.match_id is not None:
                match = await tx.challenges.get_match(pairing.match_id)
                if match is not None and match.status == "finished":
                    await store.decide(pairing, match.winner_id)
            else:
                await store.decide(pairing, result.winner_id)
        if result.reason == "timeout" and result.loser_id is not None:
            state = await self._state(store, row)
            if withdrawn_for_timeouts(state.results, result.loser_id) and await store.set_entrant_status(
                row.id, result.loser_id, "withdrawn"
            ):
                log.info("Tournament %d: user %d withdrawn (time)", row.id, result.loser_id)


def _over(row: TournamentRow) -> ServiceError:
    """The refusal for a tournament that is no longer open or running."""
    code = "tournament_cancelled" if row.status == "cancelled" else "tournament_over"
    return ServiceError(code, name=TypedText(row.name))


class _Changed(ServiceError):
    """The entrants changed while round 1 was paired (rolls the start back)."""


__all__ = [
    "MAX_NAME",
    "Advance",
    "Bracket",
    "Cancellation",
    "GameLabel",
    "TournamentService",
    "TournamentState",
    "Withdrawal",
    "clean_name",
    "read_bracket",
    "read_state",
]

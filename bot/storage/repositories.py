"""``Repositories``: the repositories of one database, on one executor."""

from __future__ import annotations

from bot.storage.challenges import ChallengeStore
from bot.storage.delivery import DeliveryStore
from bot.storage.games import GameStore
from bot.storage.players import PlayerStore
from bot.storage.ratings import RatingStore
from bot.storage.sql import Executor
from bot.storage.tournaments import TournamentStore


class Repositories:
    """Every repository of a database, by aggregate.

    A storage backend is one (``storage.games``, ``storage.ratings``, ...), and
    ``storage.transaction()`` yields one: what a transaction's code may write, all of it
    committed together. A service is given the repositories it uses, no more.
    """

    def __init__(self, db: Executor) -> None:
        self.games = GameStore(db)  # games, moves, snapshots, message ids
        self.challenges = ChallengeStore(db)  # challenges and matches
        self.ratings = RatingStore(db)  # results, ratings, rating changes
        self.players = PlayerStore(db)  # players, languages, meta
        self.delivery = DeliveryStore(db)  # the outbox, DM state, turn mentions
        self.tournaments = TournamentStore(db)  # tournaments, entrants, pairings

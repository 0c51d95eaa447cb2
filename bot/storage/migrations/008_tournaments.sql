-- Version 8: tournaments (docs/tournaments.md): Swiss, round robin and knockout.

-- A tournament of one server, run in one channel. `round` is the round in play (0
-- while sign-up is open); a round is paired and its games created by the transaction
-- that moves `round` from N to N + 1 (`UPDATE ... WHERE round = N`), so of several
-- processes exactly one does it. `rounds` is the number of rounds, fixed at the start.
CREATE TABLE tournaments (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id             INTEGER NOT NULL,
    channel_id           INTEGER NOT NULL,
    organiser_id         INTEGER NOT NULL,
    name                 TEXT NOT NULL,
    format               TEXT NOT NULL CHECK (format IN ('swiss', 'round-robin', 'knockout')),
    rounds               INTEGER,                       -- NULL: decided at the start
    best_of              INTEGER NOT NULL DEFAULT 1,    -- games per knockout tie
    options              TEXT NOT NULL,                 -- JSON of GameOptions
    turn_time            REAL NOT NULL,                 -- seconds per turn
    max_players          INTEGER,
    status               TEXT NOT NULL DEFAULT 'open'
                         CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    round                INTEGER NOT NULL DEFAULT 0,
    signup_message_id    INTEGER,
    standings_message_id INTEGER,
    created_at           REAL NOT NULL,
    updated_at           REAL NOT NULL
);

CREATE INDEX tournaments_guild ON tournaments (guild_id, status);

-- An entrant: seeded by `rating` (their server rating when they joined). A withdrawn
-- (left, or two games in a row lost on time) or kicked player gets no further pairing.
CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id       INTEGER NOT NULL,
    rating        REAL NOT NULL,
    status        TEXT NOT NULL DEFAULT 'in' CHECK (status IN ('in', 'withdrawn', 'kicked')),
    joined_at     REAL NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);

-- One board of a round: `white` moves first; `black` NULL is a bye. A knockout tie is a
-- match (`match_id`, best of `best_of` games); another pairing is one game (`game_id`).
-- `done` and `winner_id` (NULL with done: a draw) are set in the transaction of the
-- result that decides the pairing.
CREATE TABLE tournament_pairings (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    white         INTEGER NOT NULL,
    black         INTEGER,
    game_id       INTEGER REFERENCES games (id),
    match_id      INTEGER REFERENCES matches (id),
    winner_id     INTEGER,
    done          INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round, board)
);

CREATE INDEX tournament_pairings_game ON tournament_pairings (game_id);
CREATE INDEX tournament_pairings_match ON tournament_pairings (match_id);

-- A game's seconds per turn (a tournament's `turn_time`); NULL: the bot's TURN_TIMEOUT.
ALTER TABLE games ADD COLUMN turn_timeout REAL;

-- Version 1: the whole schema. Later changes go in 002_*.sql, ... and never edit this file.
-- Times are Unix seconds (REAL). Discord ids are INTEGER (64-bit fits SQLite's INTEGER).

-- Small key/value facts about this database, e.g. the fingerprint of the last command sync.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE players (
    user_id    INTEGER PRIMARY KEY,
    created_at REAL NOT NULL
);

CREATE TABLE games (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,  -- ids are shown to users: never reused
    guild_id        INTEGER,                            -- NULL: played in DMs
    channel_id      INTEGER,
    player0         INTEGER NOT NULL REFERENCES players (user_id),
    player1         INTEGER NOT NULL REFERENCES players (user_id),
    options         TEXT NOT NULL,                      -- JSON of GameOptions
    seed            INTEGER NOT NULL,
    first_player    INTEGER NOT NULL CHECK (first_player IN (0, 1)),  -- who moved first
    match_id        INTEGER,                            -- games of one match share it
    status          TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
    state           TEXT NOT NULL,                      -- JSON of Game.to_dict() after `version`
    version         INTEGER NOT NULL DEFAULT 0,
    board_message_id INTEGER,
    dm_message_id0  INTEGER,
    dm_message_id1  INTEGER,
    turn_started_at REAL,                               -- NULL once finished
    deadline        REAL,                               -- the player to move forfeits after it
    reminded        INTEGER NOT NULL DEFAULT 0,         -- reminder sent for this turn
    created_at      REAL NOT NULL,
    updated_at      REAL NOT NULL,
    CHECK (player0 <> player1)
);
CREATE INDEX games_active_player0 ON games (player0) WHERE status = 'active';
CREATE INDEX games_active_player1 ON games (player1) WHERE status = 'active';
CREATE INDEX games_active_deadline ON games (deadline) WHERE status = 'active';
CREATE INDEX games_match ON games (match_id) WHERE match_id IS NOT NULL;

-- Append-only: game.log, one row per entry. Replaying it from (seed, options) gives `state`.
CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    seq        INTEGER NOT NULL,   -- 1, 2, ... position in game.log
    player     INTEGER NOT NULL CHECK (player IN (0, 1)),
    move       TEXT NOT NULL,      -- str(move): the log notation, never a drawn card
    version    INTEGER NOT NULL,   -- game.version after this entry's commit
    created_at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves are append-only');
END;
CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves are append-only');
END;

-- One row per finished game, written in the transaction of the move that ended it.
CREATE TABLE results (
    game_id       INTEGER PRIMARY KEY REFERENCES games (id),
    guild_id      INTEGER,
    winner_id     INTEGER REFERENCES players (user_id),  -- NULL: a draw
    loser_id      INTEGER REFERENCES players (user_id),
    player0       INTEGER NOT NULL REFERENCES players (user_id),
    player1       INTEGER NOT NULL REFERENCES players (user_id),
    winner        INTEGER CHECK (winner IN (0, 1)),      -- engine player
    reason        TEXT NOT NULL,
    stones0       INTEGER NOT NULL,
    stones1       INTEGER NOT NULL,
    moves         INTEGER NOT NULL,
    finished_at   REAL NOT NULL
);
CREATE INDEX results_guild ON results (guild_id, finished_at);

-- Ratings per scope: 'global' or 'guild:<id>'. Updated in the same transaction as the result.
CREATE TABLE ratings (
    scope      TEXT NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES players (user_id),
    rating     REAL NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    losses     INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0,
    updated_at REAL NOT NULL,
    PRIMARY KEY (scope, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_leaderboard ON ratings (scope, rating DESC);

-- How each result moved each rating, so a leaderboard can show +/- and history.
CREATE TABLE rating_changes (
    game_id INTEGER NOT NULL REFERENCES results (game_id),
    scope   TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES players (user_id),
    before  REAL NOT NULL,
    after   REAL NOT NULL,
    PRIMARY KEY (game_id, scope, user_id)
) WITHOUT ROWID;

-- Challenges waiting for an answer; kept so that they survive a restart.
CREATE TABLE challenges (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER,
    channel_id    INTEGER NOT NULL,
    challenger_id INTEGER NOT NULL REFERENCES players (user_id),
    opponent_id   INTEGER REFERENCES players (user_id),  -- NULL: open to anyone
    options       TEXT NOT NULL,                          -- JSON of GameOptions (+ match settings)
    message_id    INTEGER,
    status        TEXT NOT NULL DEFAULT 'pending'
                  CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
    game_id       INTEGER REFERENCES games (id),          -- set when accepted
    created_at    REAL NOT NULL,
    expires_at    REAL NOT NULL,
    CHECK (opponent_id IS NULL OR opponent_id <> challenger_id)
);
CREATE INDEX challenges_pending ON challenges (expires_at) WHERE status = 'pending';

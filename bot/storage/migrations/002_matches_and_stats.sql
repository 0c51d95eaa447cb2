-- Version 2: matches (games played to a number of points) and indexes for player stats.

-- A match: games between the same two players until one reaches `target` points
-- (rules.game.match_points: the winner of a game scores 5, the loser 1 per stone owned).
-- games.match_id (version 1) points here.
CREATE TABLE matches (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER,                                -- NULL: played in DMs
    channel_id  INTEGER,
    player0     INTEGER NOT NULL REFERENCES players (user_id),
    player1     INTEGER NOT NULL REFERENCES players (user_id),
    options     TEXT NOT NULL,                          -- JSON of GameOptions
    target      INTEGER NOT NULL CHECK (target > 0),
    score0      INTEGER NOT NULL DEFAULT 0,
    score1      INTEGER NOT NULL DEFAULT 0,
    games       INTEGER NOT NULL DEFAULT 0,             -- games finished so far
    status      TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
    winner_id   INTEGER REFERENCES players (user_id),   -- set when finished
    created_at  REAL NOT NULL,
    updated_at  REAL NOT NULL,
    CHECK (player0 <> player1)
);

-- A player's results, newest first (stats, streaks, head-to-head).
CREATE INDEX results_player0 ON results (player0, finished_at);
CREATE INDEX results_player1 ON results (player1, finished_at);

-- Version 4: what the game table (cogs/table.py) must still know after a restart.

-- The short message mentioning the player to move (one per turn, the previous one is
-- deleted when the next is posted); NULL when there is none.
ALTER TABLE games ADD COLUMN ping_message_id INTEGER;

-- Users whose DMs refused the bot (Discord error 50007 or another 403). Set when a DM
-- fails, cleared when one goes through again; while set, game DMs are not retried.
CREATE TABLE dm_status (
    user_id    INTEGER PRIMARY KEY REFERENCES players (user_id),
    closed     INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1)),
    updated_at REAL NOT NULL
);

-- The tip "how to open your DMs", at most once per player per game: a row with told = 0
-- is waiting for the player's next interaction in that game; told = 1 has been shown.
CREATE TABLE dm_tips (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    user_id    INTEGER NOT NULL REFERENCES players (user_id),
    told       INTEGER NOT NULL DEFAULT 0 CHECK (told IN (0, 1)),
    updated_at REAL NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;

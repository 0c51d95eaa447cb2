-- Version 12: a thread per game and pings that count.

-- Where a game's board lives: NULL not decided yet (its start is not published, or a
-- game from before this version, whose board is in its channel), 0 the channel itself,
-- else the id of the game's thread (the id of its starter message in the channel).
ALTER TABLE games ADD COLUMN thread_id INTEGER;
-- The turn of this game whose player was last pinged, as the game's version when that
-- turn began: at most one turn ping per turn.
ALTER TABLE games ADD COLUMN pinged_turn INTEGER;

-- When the member last used the bot (a command or a click, recorded at most every few
-- seconds): a member seen in the last minute is at the table and needs no ping.
ALTER TABLE players ADD COLUMN seen_at REAL;

-- Members' and servers' settings (/schotten settings): scope 'user' (a member's turn
-- pings: every-turn, away, never) or 'guild' (a server's threads: on, off). No row: the
-- default.
CREATE TABLE preferences (
    scope      TEXT NOT NULL,
    scope_id   INTEGER NOT NULL,
    name       TEXT NOT NULL,
    value      TEXT NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (scope, scope_id, name)
);

-- Version 5: the outbox. What a committed change must still show on Discord (the board
-- and the DMs after a move, a turn reminder) is recorded in the change's own transaction
-- and deleted once published, so that after a crash a restarted process (or another
-- one) publishes what is pending. Only the game, its version and the kind of
-- publication are stored, never what a message says: it is rendered again from the
-- stored game, so no hand can reach a channel through this table.
--
-- kind: 'move' (the turn stays with the same player), 'turn' (the turn passed or the
-- game ended: the player to move is mentioned), 'reminder' (the player to move at
-- `version` is reminded). A process claims a row by setting claimed_until (a lease) with
-- a conditional update; attempts counts the claims, so a publication that keeps failing
-- is given up after a few.
CREATE TABLE outbox (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id       INTEGER NOT NULL REFERENCES games (id),
    version       INTEGER NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('move', 'turn', 'reminder')),
    created_at    REAL NOT NULL,
    claimed_until REAL,
    attempts      INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX outbox_game ON outbox (game_id);

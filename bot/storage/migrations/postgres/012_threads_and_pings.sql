-- Version 12 for PostgreSQL: as ../012_threads_and_pings.sql (a thread per game, pings
-- that count, members' and servers' settings).
ALTER TABLE games ADD COLUMN thread_id BIGINT;
ALTER TABLE games ADD COLUMN pinged_turn INTEGER;
ALTER TABLE players ADD COLUMN seen_at DOUBLE PRECISION;
CREATE TABLE preferences (
    scope      TEXT NOT NULL,
    scope_id   BIGINT NOT NULL,
    name       TEXT NOT NULL,
    value      TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (scope, scope_id, name)
);

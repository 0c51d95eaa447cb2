-- Version 11 for PostgreSQL: as ../011_channel_locks.sql (a row per channel, held while
-- a new challenge is counted against the channel's limit).
CREATE TABLE channel_locks (
    channel_id BIGINT PRIMARY KEY,
    locked_at  DOUBLE PRECISION NOT NULL
);

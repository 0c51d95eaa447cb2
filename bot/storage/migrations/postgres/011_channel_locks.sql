-- Version 10 for PostgreSQL: as ../010_channel_locks.sql (a row per channel, held while
-- a new challenge is counted against the channel's limit).
CREATE TABLE channel_locks (
    channel_id BIGINT PRIMARY KEY,
    locked_at  DOUBLE PRECISION NOT NULL
);

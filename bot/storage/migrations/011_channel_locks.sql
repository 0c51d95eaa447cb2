-- Version 11: a row per channel that had a challenge, held by the transaction that
-- counts the channel's open challenges and stores a new one (MAX_CHANNEL_CHALLENGES):
-- members challenging at once in one channel, from any process, are counted one after
-- the other.
CREATE TABLE channel_locks (
    channel_id INTEGER PRIMARY KEY,
    locked_at  REAL NOT NULL
);

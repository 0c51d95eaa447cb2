-- Version 4 for PostgreSQL: as ../004_restart_state.sql (the table's restart state).
ALTER TABLE games ADD COLUMN ping_message_id BIGINT;

CREATE TABLE dm_status (
    user_id    BIGINT PRIMARY KEY REFERENCES players (user_id),
    closed     INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1)),
    updated_at DOUBLE PRECISION NOT NULL
);

CREATE TABLE dm_tips (
    game_id    BIGINT NOT NULL REFERENCES games (id),
    user_id    BIGINT NOT NULL REFERENCES players (user_id),
    told       INTEGER NOT NULL DEFAULT 0 CHECK (told IN (0, 1)),
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

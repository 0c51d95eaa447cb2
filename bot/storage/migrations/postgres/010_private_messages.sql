-- Version 10 for PostgreSQL: as ../010_private_messages.sql (the private replies that
-- carry a game's controls, by message id).
CREATE TABLE private_messages (
    message_id BIGINT PRIMARY KEY,
    game_id    BIGINT NOT NULL REFERENCES games (id),
    user_id    BIGINT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX private_messages_game ON private_messages (game_id);

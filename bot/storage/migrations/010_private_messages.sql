-- Version 10: the private replies (ephemeral messages) that carry a game's controls,
-- by their message id, with the game and the member they were made for. A control on
-- an ephemeral message acts only if its message is here, for the control's game and
-- the member who clicks (cogs/ui/checks.py): Discord gives the bot an ephemeral
-- message's id, which no client chooses, so this binds a control to its message
-- across restarts and processes.
CREATE TABLE private_messages (
    message_id INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    user_id    INTEGER NOT NULL,
    created_at REAL NOT NULL
);
CREATE INDEX private_messages_game ON private_messages (game_id);

-- Version 7: how the bot shows a board: as text (the default, no row) or as a picture.

-- scope 'user': a member's choice for their DMs and private replies;
-- scope 'guild': a server's choice for its channel boards (a member with Manage Server).
CREATE TABLE board_styles (
    scope      TEXT NOT NULL,
    scope_id   INTEGER NOT NULL,
    style      TEXT NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (scope, scope_id)
);

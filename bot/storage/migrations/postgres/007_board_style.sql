-- Version 7 for PostgreSQL: as ../007_board_style.sql (members' and servers' board styles).
CREATE TABLE board_styles (
    scope      TEXT NOT NULL,
    scope_id   BIGINT NOT NULL,
    style      TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (scope, scope_id)
);

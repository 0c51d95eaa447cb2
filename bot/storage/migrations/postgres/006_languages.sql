-- Version 6 for PostgreSQL: as ../006_languages.sql (players' and servers' languages).
CREATE TABLE user_languages (
    user_id    BIGINT PRIMARY KEY,
    chosen     TEXT,
    discord    TEXT,
    updated_at DOUBLE PRECISION NOT NULL
);

CREATE TABLE guild_languages (
    guild_id   BIGINT PRIMARY KEY,
    chosen     TEXT,
    discord    TEXT,
    updated_at DOUBLE PRECISION NOT NULL
);

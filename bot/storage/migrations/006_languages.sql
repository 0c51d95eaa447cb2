-- Version 6: the languages the bot speaks to players and in servers' channels.

-- A player's language: the one they chose (/schotten language), else the locale their
-- Discord client last reported; NULL where there is none. Codes like "de" or "en-US".
CREATE TABLE user_languages (
    user_id    INTEGER PRIMARY KEY,
    chosen     TEXT,
    discord    TEXT,
    updated_at REAL NOT NULL
);

-- A server's language for its channel messages: the one a member with Manage Server
-- chose, else the server's own locale as Discord last reported it.
CREATE TABLE guild_languages (
    guild_id   INTEGER PRIMARY KEY,
    chosen     TEXT,
    discord    TEXT,
    updated_at REAL NOT NULL
);

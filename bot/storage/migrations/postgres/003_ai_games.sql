-- Version 3 for PostgreSQL: as ../003_ai_games.sql (the seat and level of the bot's AI).
ALTER TABLE games ADD COLUMN ai_player INTEGER CHECK (ai_player IN (0, 1));
ALTER TABLE games ADD COLUMN ai_level TEXT;

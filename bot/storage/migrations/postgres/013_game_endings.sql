-- Version 13 for PostgreSQL: as ../013_game_endings.sql (games that end by a tournament
-- withdrawal or removal: no table changes).
SELECT 1;

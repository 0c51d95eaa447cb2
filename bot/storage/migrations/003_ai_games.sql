-- Version 3: games against the bot's own AI (/schotten practice).
-- ai_player: the engine seat (0/1) the AI plays, whose Discord user is the bot itself;
--            NULL for a game between two people. Ratings and leaderboards skip games
--            where it is set (a practice game is not a rated result).
-- ai_level:  the AI's difficulty (rules.ai LEVELS: random, easy, medium, hard).
ALTER TABLE games ADD COLUMN ai_player INTEGER CHECK (ai_player IN (0, 1));
ALTER TABLE games ADD COLUMN ai_level TEXT;

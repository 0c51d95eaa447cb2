-- Version 9 for PostgreSQL: as ../009_challenge_answers.sql (when a challenge was answered).
ALTER TABLE challenges ADD COLUMN resolved_at DOUBLE PRECISION;
CREATE INDEX challenges_pair ON challenges (challenger_id, opponent_id);

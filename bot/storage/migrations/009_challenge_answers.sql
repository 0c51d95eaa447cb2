-- Version 9: when a challenge was answered, so that the re-challenge cooldown
-- (RECHALLENGE_COOLDOWN) is read from the database and holds across processes.
ALTER TABLE challenges ADD COLUMN resolved_at REAL;
CREATE INDEX challenges_pair ON challenges (challenger_id, opponent_id);

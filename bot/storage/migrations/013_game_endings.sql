-- Version 13: games that end by a tournament withdrawal or removal.

-- No table changes. A game's log may now hold the entries `withdraw` and `kick` and its
-- result the reasons 'withdrawn' and 'kicked' (rules/moves.py), which a bot of version 12
-- cannot read: the version is raised so that such a bot refuses this database at its
-- start ("newer than this bot") rather than failing on those games one by one.
SELECT 1;

-- What an account's name looks like (its confusable skeleton, Unicode TR39): unique, so no two
-- accounts look alike, and a guest's display name is checked against it. Computed by the
-- server, not in SQL: each server gives accounts that lack one theirs at start-up. A deleted
-- account's goes with its name.
ALTER TABLE players ADD COLUMN name_skeleton TEXT;
CREATE UNIQUE INDEX players_by_skeleton ON players (name_skeleton);

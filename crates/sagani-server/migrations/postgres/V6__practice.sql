-- Practice games (issue 17): solo games with the engine's hints, unrated and in nobody's
-- records, profile or games list.
ALTER TABLE games ADD COLUMN practice BOOLEAN NOT NULL DEFAULT FALSE;

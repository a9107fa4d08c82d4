-- Who holds a seat: a display name, and the account when one claimed it. (No foreign key to
-- players: `db copy` copies games without accounts.)
ALTER TABLE seats ADD COLUMN name TEXT;
ALTER TABLE seats ADD COLUMN player_id TEXT;
CREATE INDEX seats_by_player ON seats (player_id) WHERE player_id IS NOT NULL;

-- The creator's name (the lobby shows it), rated games, and how a game ended.
ALTER TABLE games ADD COLUMN host TEXT;
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN outcome TEXT;
ALTER TABLE games ADD COLUMN ended_at BIGINT;

-- Ratings (Weng-Lin), changed only in the transaction that stores a rated game's end; the
-- history's key keeps one entry per account and game.
CREATE TABLE ratings (
    player_id TEXT PRIMARY KEY,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL
);
CREATE TABLE rating_history (
    player_id TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games(id),
    at BIGINT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (player_id, game_id)
);

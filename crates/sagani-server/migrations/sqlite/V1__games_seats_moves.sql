-- The schema of the first release (SQLite `user_version` 1), unchanged: a file written by it
-- passes this step as it is.
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    variant TEXT NOT NULL,
    deck TEXT NOT NULL,
    start_player INTEGER NOT NULL,
    public INTEGER NOT NULL,
    creator TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    bot TEXT,
    level INTEGER,
    invite_hash TEXT,
    token_hash TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;

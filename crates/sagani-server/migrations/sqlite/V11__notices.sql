-- An account's notices: its turn in a turn-based game, a challenge, a game over, a seek paired.
-- Written in the transaction of the event that raises it; read (and marked read) by its
-- account. `about` is what the notice names besides a game: a challenger's name, a challenge.
CREATE TABLE notices (
    id TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players(id),
    kind TEXT NOT NULL,
    game_id TEXT,
    about TEXT,
    at INTEGER NOT NULL,
    read_at INTEGER
);
CREATE INDEX notices_by_player ON notices (player_id, at);

-- The daily challenge (issue 17). A server's secrets, made once by whichever server asks
-- first: the daily decks are derived from one with the date, so nobody can know a day's deck
-- before the day starts, and every server on the database deals the same one.
CREATE TABLE server_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

-- A game of the daily challenge: its UTC day, its variant, the account that plays it (none
-- for a guest's unranked attempt and for the bot's par game), and its result once it is over
-- (written with the last move). One attempt per account, day and variant; one par game per
-- day and variant. (No foreign key to players: `db copy` copies games without accounts.)
CREATE TABLE daily_games (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    day TEXT NOT NULL,
    variant TEXT NOT NULL,
    player_id TEXT,
    par INTEGER NOT NULL DEFAULT 0,
    tiles INTEGER,
    score INTEGER,
    reached INTEGER,
    finished_at INTEGER
) WITHOUT ROWID;
CREATE UNIQUE INDEX daily_one_attempt ON daily_games (day, variant, player_id);
CREATE UNIQUE INDEX daily_one_par ON daily_games (day, variant) WHERE par;
CREATE INDEX daily_finished ON daily_games (day, variant) WHERE finished_at IS NOT NULL;
CREATE INDEX daily_by_player ON daily_games (player_id, day) WHERE player_id IS NOT NULL;

-- What queries need without replaying games: the number of moves, where the game stands,
-- whether a bot is to act, a change counter for caches, the rematch. NULL `status` marks a game
-- of the first release, filled in by the server (it replays the game) when it opens the file.
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN status TEXT;
ALTER TABLE games ADD COLUMN bot_to_act INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rematch TEXT;

-- One server at a time plays a bot's turn: the one holding its lease.
CREATE TABLE bot_leases (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    version INTEGER NOT NULL,
    holder TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);

CREATE INDEX games_lobby ON games (created_at DESC, id DESC) WHERE public AND status <> 'over';
CREATE INDEX games_open_by_creator ON games (creator) WHERE status <> 'over';
CREATE INDEX games_bot_turns ON games (created_at) WHERE bot_to_act AND status <> 'over';
CREATE INDEX games_unfilled ON games (id) WHERE status IS NULL;
CREATE INDEX seats_by_token ON seats (token_hash) WHERE token_hash IS NOT NULL;

-- Challenges and follows between accounts.
-- When the account last made a request with its session cookie (written at most once a
-- minute): "online" is a request in the last two minutes, on any server. And whom it takes
-- challenges from: 'everyone' or 'followed' (only accounts it follows).
ALTER TABLE players ADD COLUMN last_seen INTEGER;
ALTER TABLE players ADD COLUMN challenges_from TEXT NOT NULL DEFAULT 'everyone';

-- Whom an account follows.
CREATE TABLE follows (
    follower_id TEXT NOT NULL REFERENCES players(id),
    followed_id TEXT NOT NULL REFERENCES players(id),
    at INTEGER NOT NULL,
    PRIMARY KEY (follower_id, followed_id)
);
CREATE INDEX follows_by_followed ON follows (followed_id);

-- A challenge from one account to another: open until it is accepted (then it names its
-- game), declined, withdrawn, or past `expires_at`. Accepting is one conditional update
-- (status 'open') in the transaction that stores the game: one game, whichever server accepts.
CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    from_id TEXT NOT NULL REFERENCES players(id),
    to_id TEXT NOT NULL REFERENCES players(id),
    variant TEXT NOT NULL,
    clock TEXT,
    rated INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL,
    game_id TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    decided_at INTEGER
);
CREATE INDEX challenges_by_from ON challenges (from_id, status);
CREATE INDEX challenges_by_to ON challenges (to_id, status);

-- Accounts: a unique name (compared in lower case as `name_key`) and an argon2id password hash.
-- A deleted account keeps its row (its games name a "deleted player"): its key and password go.
CREATE TABLE players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT UNIQUE,
    password TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    deleted_at BIGINT
);

-- Log-ins: the SHA-256 of the session cookie, so a copy of the database logs nobody in.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players(id),
    created_at BIGINT NOT NULL
);
CREATE INDEX sessions_by_player ON sessions (player_id);

-- Failed log-ins by name and by address, for the limit every server shares.
CREATE TABLE login_failures (
    subject TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX login_failures_by_subject ON login_failures (subject, at);

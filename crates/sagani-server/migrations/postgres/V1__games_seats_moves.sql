-- Games as their setup plus an append-only log of moves; seats with hashed secrets.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    created_at BIGINT NOT NULL,
    variant TEXT NOT NULL,
    deck TEXT NOT NULL,
    start_player SMALLINT NOT NULL,
    public BOOLEAN NOT NULL,
    creator TEXT NOT NULL,
    -- What queries need without replaying games.
    version BIGINT NOT NULL DEFAULT 0,
    status TEXT NOT NULL,
    bot_to_act BOOLEAN NOT NULL DEFAULT FALSE,
    -- Counts every change, so a cached copy can be checked with one small query.
    rev BIGINT NOT NULL DEFAULT 0,
    rematch TEXT
);
CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat SMALLINT NOT NULL,
    kind TEXT NOT NULL,
    bot TEXT,
    level SMALLINT,
    invite_hash TEXT,
    token_hash TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    n BIGINT NOT NULL,
    seat SMALLINT NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
);
-- One server at a time plays a bot's turn: the one holding its lease.
CREATE TABLE bot_leases (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    version BIGINT NOT NULL,
    holder TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE INDEX games_lobby ON games (created_at DESC, id DESC) WHERE public AND status <> 'over';
CREATE INDEX games_open_by_creator ON games (creator) WHERE status <> 'over';
CREATE INDEX games_bot_turns ON games (created_at) WHERE bot_to_act AND status <> 'over';
CREATE INDEX seats_by_token ON seats (token_hash) WHERE token_hash IS NOT NULL;

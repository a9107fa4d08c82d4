-- Play now: a seek waits for partners with the same pool (players, clock, rated) and is paired
-- into one game once, by a conditional write (status 'waiting' → 'paired'). The seek's token
-- becomes its seat's token, so whichever server pairs it needs only the hash.
CREATE TABLE seeks (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL,
    pool TEXT NOT NULL,
    players BIGINT NOT NULL,
    clock TEXT NOT NULL,
    rated BOOLEAN NOT NULL,
    player_id TEXT REFERENCES players(id),
    name TEXT,
    rating DOUBLE PRECISION,
    bot_after_s BIGINT,
    created_at BIGINT NOT NULL,
    seen_at BIGINT NOT NULL,
    status TEXT NOT NULL,
    game_id TEXT,
    seat BIGINT,
    ended_at BIGINT
);
CREATE INDEX seeks_by_status ON seeks (status, pool, created_at);

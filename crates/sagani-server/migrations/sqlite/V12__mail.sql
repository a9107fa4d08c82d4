-- An account's e-mail address for notices by mail: verified by a link mailed to it (the link's
-- token kept as a hash, with its expiry), and which notices it wants mailed.
CREATE TABLE mail_addresses (
    player_id TEXT PRIMARY KEY REFERENCES players(id),
    address TEXT NOT NULL,
    -- The page's language when the address was set: the mails are written in it.
    lang TEXT NOT NULL,
    verified_at INTEGER,
    verify_hash TEXT,
    verify_until INTEGER,
    your_turn BOOLEAN NOT NULL DEFAULT FALSE,
    challenges BOOLEAN NOT NULL DEFAULT FALSE,
    -- Where the site was reached when the address was set: the mails' links start with it
    -- unless the server is given its public address.
    base_url TEXT NOT NULL,
    set_at INTEGER NOT NULL
);
CREATE INDEX mail_addresses_by_verify ON mail_addresses (verify_hash);

-- Mails to send, written in the transaction of the notice they tell of. At most one per account,
-- subject (a game, or a challenge) and day (UTC days since the epoch): the unique key is the
-- claim that keeps two servers, or two moves of one day, from mailing twice. A server sends one
-- after taking its lease (holder, lease_until); `stop_hash` is the hash of the mail's stop link.
CREATE TABLE mail_outbox (
    id TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES players(id),
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    day INTEGER NOT NULL,
    game_id TEXT,
    about TEXT,
    at INTEGER NOT NULL,
    holder TEXT,
    lease_until INTEGER,
    tries INTEGER NOT NULL DEFAULT 0,
    sent_at INTEGER,
    stop_hash TEXT,
    UNIQUE (player_id, subject, day)
);
CREATE INDEX mail_outbox_due ON mail_outbox (at) WHERE sent_at IS NULL;
CREATE INDEX mail_outbox_by_stop ON mail_outbox (stop_hash);

//! Which tables `sagani db copy` copies and which it leaves behind, each by name. Every table of
//! the schema is in one list or the other: the copy refuses a database with a table in neither
//! (a table added without saying whether a move of the site keeps it), and a test reads the
//! schema of a new database of each kind and fails on such a table.

/// A table the copy moves, row by row, every column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Copied {
    pub name: &'static str,
    /// Its primary key: rows are read in its order, a page at a time after the last one read.
    pub key: &'static [&'static str],
}

/// The tables copied, in an order that writes a row only after the rows it refers to
/// (sessions after their accounts; seats, moves, chat, rating history and daily games after
/// their game).
pub const COPIED: &[Copied] = &[
    // Accounts: names (so a moved name cannot be signed up again), password hashes, deleted
    // accounts (their games name a deleted player).
    Copied {
        name: "players",
        key: &["id"],
    },
    // Log-ins: kept, so nobody is logged out by the move (the cookie's hash only, as stored).
    Copied {
        name: "sessions",
        key: &["token_hash"],
    },
    Copied {
        name: "ratings",
        key: &["player_id"],
    },
    // The daily decks are derived from it: the target deals the same decks as the source, and
    // today's attempts go on with the deck they began with.
    Copied {
        name: "server_secrets",
        key: &["name"],
    },
    Copied {
        name: "games",
        key: &["id"],
    },
    Copied {
        name: "seats",
        key: &["game_id", "seat"],
    },
    Copied {
        name: "moves",
        key: &["game_id", "n"],
    },
    Copied {
        name: "chat",
        key: &["game_id", "n"],
    },
    Copied {
        name: "rating_history",
        key: &["player_id", "game_id"],
    },
    Copied {
        name: "daily_games",
        key: &["game_id"],
    },
    // An account's notices, read and unread: the count on every page goes on as it was.
    Copied {
        name: "notices",
        key: &["id"],
    },
    // Whom each account follows, and the challenges between accounts (an accepted one names
    // its game, copied before it).
    Copied {
        name: "follows",
        key: &["follower_id", "followed_id"],
    },
    Copied {
        name: "challenges",
        key: &["id"],
    },
    // Addresses for mail with their choices, and the mails sent: the day's limit and the stop
    // links of mails already sent go on working.
    Copied {
        name: "mail_addresses",
        key: &["player_id"],
    },
    Copied {
        name: "mail_outbox",
        key: &["id"],
    },
];

/// The tables left behind, with why.
pub const SKIPPED: &[(&str, &str)] = &[
    (
        "bot_leases",
        "a lease names a server of the old site; the new site's servers take their own",
    ),
    (
        "seeks",
        "a seek waits for a seeker who is on the page now; the move ends their wait (a paired \
         seek's game is copied with its seats)",
    ),
    (
        "login_attempts",
        "the log-in limit counts the last 15 minutes only: a short-lived counter",
    ),
    (
        "spectators",
        "who watches which game, per server of the old site: each new server counts its own",
    ),
    (
        "refinery_schema_history",
        "each database's own record of its migrations, written when it was migrated",
    ),
];

/// Whether the copy knows `table` (copies it or skips it).
pub fn known(table: &str) -> bool {
    COPIED.iter().any(|t| t.name == table) || SKIPPED.iter().any(|(t, _)| *t == table)
}

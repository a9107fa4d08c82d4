//! Accounts, their sessions and log-in attempts; ratings and the games an account played.

use super::super::db::{args, from_row, Conn, Sql, Value};
use super::super::{
    LoginCount, NewPlayer, PlayedGame, Player, Ranked, Rating, RatingPoint, Status, StoreError,
};
use super::seats;
use sagani_core::Variant;

use Sql::{Both, Each};

from_row! {
    struct PlayerRow {
        id: String,
        name: String,
        password: String,
        created_at: i64,
    }
}

impl From<PlayerRow> for Player {
    fn from(r: PlayerRow) -> Player {
        Player {
            id: r.id,
            name: r.name,
            password: r.password,
            created_at: r.created_at,
        }
    }
}

pub(super) async fn sign_up(c: &mut dyn Conn, p: &NewPlayer) -> Result<(), StoreError> {
    c.execute(
        Both(
            "INSERT INTO players (id, name, name_key, name_skeleton, password, created_at)
             VALUES ($1, $2, $3, $4, $5, $6)",
        ),
        args![
            &p.id,
            &p.name,
            &p.key,
            &p.skeleton,
            &p.password,
            p.created_at
        ],
    )
    .await?;
    Ok(())
}

pub(super) async fn name_like(c: &mut dyn Conn, skeleton: &str) -> Result<bool, StoreError> {
    let found: Option<i64> = c
        .value(
            Both("SELECT 1 AS one FROM players WHERE name_skeleton = $1"),
            args![skeleton],
        )
        .await?;
    Ok(found.is_some())
}

/// Skeletons can only be computed here, not in SQL: each account without one gets it, unless
/// another account holds it (then the name stays without, and is told).
pub(super) async fn fill_skeletons(c: &mut dyn Conn) -> Result<Vec<String>, StoreError> {
    from_row! {
        struct Unfilled {
            id: String,
            name: String,
        }
    }
    let rows: Vec<Unfilled> = c
        .rows(
            Both(
                "SELECT id, name FROM players
                 WHERE name_skeleton IS NULL AND deleted_at IS NULL ORDER BY created_at, id",
            ),
            args![],
        )
        .await?;
    let mut left = Vec::new();
    for r in rows {
        let skeleton = crate::names::skeleton(&r.name);
        let filled = c
            .execute(
                Both(
                    "UPDATE players SET name_skeleton = $2
                     WHERE id = $1 AND name_skeleton IS NULL
                       AND NOT EXISTS (SELECT 1 FROM players WHERE name_skeleton = $2)",
                ),
                args![&r.id, &skeleton],
            )
            .await?;
        if filled == 0 {
            // Another server may have filled this one meanwhile; else another name holds it.
            let now: Option<Option<String>> = c
                .value(
                    Both("SELECT name_skeleton FROM players WHERE id = $1"),
                    args![&r.id],
                )
                .await?;
            if now.flatten().is_none() {
                left.push(r.name);
            }
        }
    }
    Ok(left)
}

pub(super) async fn named(c: &mut dyn Conn, key: &str) -> Result<Option<Player>, StoreError> {
    let row: Option<PlayerRow> = c
        .row(
            Both("SELECT id, name, password, created_at FROM players WHERE name_key = $1"),
            args![key],
        )
        .await?;
    Ok(row.map(Player::from))
}

pub(super) async fn open_session(
    c: &mut dyn Conn,
    token_hash: &str,
    player: &str,
    now: i64,
) -> Result<(), StoreError> {
    c.execute(
        Both("INSERT INTO sessions (token_hash, player_id, created_at) VALUES ($1, $2, $3)"),
        args![token_hash, player, now],
    )
    .await?;
    Ok(())
}

pub(super) async fn session(
    c: &mut dyn Conn,
    token_hash: &str,
    since: i64,
) -> Result<Option<Player>, StoreError> {
    let row: Option<PlayerRow> = c
        .row(
            Both(
                "SELECT p.id, p.name, p.password, p.created_at FROM sessions s
                 JOIN players p ON p.id = s.player_id
                 WHERE s.token_hash = $1 AND s.created_at > $2 AND p.deleted_at IS NULL",
            ),
            args![token_hash, since],
        )
        .await?;
    Ok(row.map(Player::from))
}

pub(super) async fn close_session(c: &mut dyn Conn, token_hash: &str) -> Result<(), StoreError> {
    c.execute(
        Both("DELETE FROM sessions WHERE token_hash = $1"),
        args![token_hash],
    )
    .await?;
    Ok(())
}

/// Closes every session of an account and revokes its seats' tokens.
pub(super) async fn close_sessions(
    c: &mut dyn Conn,
    player: &str,
) -> Result<Vec<(String, u64)>, StoreError> {
    let changed = seats::revoke_tokens(c, player).await?;
    c.execute(
        Both("DELETE FROM sessions WHERE player_id = $1"),
        args![player],
    )
    .await?;
    Ok(changed)
}

pub(super) async fn set_password(
    c: &mut dyn Conn,
    player: &str,
    password: &str,
) -> Result<(), StoreError> {
    let changed = c
        .execute(
            Both("UPDATE players SET password = $2 WHERE id = $1 AND deleted_at IS NULL"),
            args![player, password],
        )
        .await?;
    if changed == 0 {
        return Err(StoreError::NotFound);
    }
    Ok(())
}

/// Deletes an account: its name is free again, its password, sessions and seat tokens are gone,
/// and its games name a deleted player (their cached copies are stale).
pub(super) async fn delete(
    c: &mut dyn Conn,
    player: &str,
    now: i64,
) -> Result<Vec<(String, u64)>, StoreError> {
    // The games are locked (and their `rev` moved on) before anything else changes, in the
    // order claims lock them.
    let changed = seats::revoke_tokens(c, player).await?;
    let forgotten = c
        .execute(
            Both(
                "UPDATE players SET name_key = NULL, name_skeleton = NULL, password = '', deleted_at = $2
                 WHERE id = $1 AND deleted_at IS NULL",
            ),
            args![player, now],
        )
        .await?;
    if forgotten == 0 {
        return Err(StoreError::NotFound);
    }
    super::raising::forget(c, player).await?;
    c.execute(
        Both("DELETE FROM sessions WHERE player_id = $1"),
        args![player],
    )
    .await?;
    c.execute(
        Both("UPDATE seats SET name = NULL WHERE player_id = $1"),
        args![player],
    )
    .await?;
    Ok(changed)
}

from_row! {
    struct CountRow {
        attempts: u64,
        since: i64,
    }
}

/// One more attempt of each subject, each counted by one upsert that returns its count: servers
/// sharing the database count together, and no attempt slips between a read and a write.
/// Windows that are over are forgotten on the way.
pub(super) async fn count_login(
    c: &mut dyn Conn,
    subjects: &[String],
    now: i64,
    window_ms: i64,
) -> Result<Vec<LoginCount>, StoreError> {
    let over = now - window_ms;
    c.execute(
        Both("DELETE FROM login_attempts WHERE since <= $1"),
        args![over],
    )
    .await?;
    let mut counts = Vec::with_capacity(subjects.len());
    for s in subjects {
        let row: Option<CountRow> = c
            .row(
                Both(
                    "INSERT INTO login_attempts (subject, since, attempts) VALUES ($1, $2, 1)
                     ON CONFLICT (subject) DO UPDATE SET
                         attempts = CASE WHEN login_attempts.since <= $3 THEN 1
                                         ELSE login_attempts.attempts + 1 END,
                         since = CASE WHEN login_attempts.since <= $3 THEN $2
                                      ELSE login_attempts.since END
                     RETURNING attempts, since",
                ),
                args![s, now, over],
            )
            .await?;
        let row = row.ok_or(StoreError::NotFound)?;
        counts.push(LoginCount {
            attempts: row.attempts,
            since: row.since,
        });
    }
    Ok(counts)
}

pub(super) async fn uncount_login(c: &mut dyn Conn, subjects: &[String]) -> Result<(), StoreError> {
    for s in subjects {
        c.execute(
            Both(
                "UPDATE login_attempts SET attempts = attempts - 1
                 WHERE subject = $1 AND attempts > 0",
            ),
            args![s],
        )
        .await?;
    }
    Ok(())
}

from_row! {
    struct RatingRow {
        mu: f64,
        sigma: f64,
        games: u32,
    }
}

impl From<RatingRow> for Rating {
    fn from(r: RatingRow) -> Rating {
        Rating {
            mu: r.mu,
            sigma: r.sigma,
            games: r.games,
        }
    }
}

pub(super) async fn rating(c: &mut dyn Conn, player: &str) -> Result<Option<Rating>, StoreError> {
    let row: Option<RatingRow> = c
        .row(
            Both("SELECT mu, sigma, games FROM ratings WHERE player_id = $1 AND games > 0"),
            args![player],
        )
        .await?;
    Ok(row.map(Rating::from))
}

pub(super) async fn rating_history(
    c: &mut dyn Conn,
    player: &str,
    limit: u32,
) -> Result<Vec<RatingPoint>, StoreError> {
    from_row! {
        struct PointRow {
            game_id: String,
            at: i64,
            mu: f64,
            sigma: f64,
        }
    }
    let rows: Vec<PointRow> = c
        .rows(
            Both(
                "SELECT game_id, at, mu, sigma FROM rating_history WHERE player_id = $1
                 ORDER BY at DESC, game_id DESC LIMIT $2",
            ),
            args![player, limit],
        )
        .await?;
    Ok(rows
        .into_iter()
        .rev()
        .map(|r| RatingPoint {
            game: r.game_id,
            at: r.at,
            mu: r.mu,
            sigma: r.sigma,
        })
        .collect())
}

/// The columns `played` reads: a game and the account's seat in it, with the seats whose
/// player left (timed out or resigned) as a list `0,2`.
macro_rules! played_columns {
    (sqlite) => {
        "SELECT g.id, g.created_at, g.ended_at, g.variant, g.rated, g.status, s.seat, g.outcome,
                (SELECT group_concat(l.seat) FROM seats l
                 WHERE l.game_id = g.id AND l.left_reason IS NOT NULL) AS left_seats
         FROM seats s JOIN games g ON g.id = s.game_id"
    };
    (postgres) => {
        "SELECT g.id, g.created_at, g.ended_at, g.variant, g.rated, g.status, s.seat, g.outcome,
                (SELECT string_agg(l.seat::text, ',') FROM seats l
                 WHERE l.game_id = g.id AND l.left_reason IS NOT NULL) AS left_seats
         FROM seats s JOIN games g ON g.id = s.game_id"
    };
}

from_row! {
    struct PlayedRow {
        id: String,
        created_at: i64,
        ended_at: Option<i64>,
        variant: String,
        rated: bool,
        status: String,
        seat: u8,
        outcome: Option<String>,
        left_seats: Option<String>,
    }
}

/// Games an account played, from `PlayedRow`s; games whose variant or status cannot be read
/// are left out.
async fn played(c: &mut dyn Conn, sql: Sql, args: &[Value]) -> Result<Vec<PlayedGame>, StoreError> {
    let rows: Vec<PlayedRow> = c.rows(sql, args).await?;
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            Some(PlayedGame {
                variant: Variant::parse(&r.variant)?,
                status: Status::parse(&r.status)?,
                id: r.id,
                created_at: r.created_at,
                ended_at: r.ended_at,
                rated: r.rated,
                seat: r.seat,
                outcome: r.outcome,
                seats: Vec::new(),
                left_seats: r
                    .left_seats
                    .unwrap_or_default()
                    .split(',')
                    .filter_map(|s| s.trim().parse().ok())
                    .collect(),
            })
        })
        .collect())
}

pub(super) async fn games_of(
    c: &mut dyn Conn,
    player: &str,
    limit: u32,
) -> Result<Vec<PlayedGame>, StoreError> {
    let sql = Each {
        sqlite: concat!(
            played_columns!(sqlite),
            " WHERE s.player_id = $1 AND NOT g.practice
              ORDER BY g.created_at DESC, g.id DESC LIMIT $2"
        ),
        postgres: concat!(
            played_columns!(postgres),
            " WHERE s.player_id = $1 AND NOT g.practice
              ORDER BY g.created_at DESC, g.id DESC LIMIT $2"
        ),
    };
    let mut games = played(c, sql, args![player, limit]).await?;
    let ids: Vec<String> = games.iter().map(|g| g.id.clone()).collect();
    let mut seats = seats::of_games(c, &ids).await?;
    for g in &mut games {
        g.seats = seats.remove(&g.id).unwrap_or(Ok(Vec::new()))?;
    }
    Ok(games)
}

pub(super) async fn results_of(
    c: &mut dyn Conn,
    player: &str,
) -> Result<Vec<PlayedGame>, StoreError> {
    let sql = Each {
        sqlite: concat!(
            played_columns!(sqlite),
            " WHERE s.player_id = $1 AND g.status = 'over' AND NOT g.practice"
        ),
        postgres: concat!(
            played_columns!(postgres),
            " WHERE s.player_id = $1 AND g.status = 'over' AND NOT g.practice"
        ),
    };
    played(c, sql, args![player]).await
}

pub(super) async fn leaderboard(
    c: &mut dyn Conn,
    limit: u32,
    min_games: u32,
) -> Result<Vec<Ranked>, StoreError> {
    from_row! {
        struct RankedRow {
            name: String,
            mu: f64,
            sigma: f64,
            games: u32,
        }
    }
    let rows: Vec<RankedRow> = c
        .rows(
            Both(
                "SELECT p.name, r.mu, r.sigma, r.games FROM ratings r
                 JOIN players p ON p.id = r.player_id
                 WHERE p.deleted_at IS NULL AND r.games >= $2 AND r.games > 0
                 ORDER BY r.mu - 3 * r.sigma DESC, p.name_key LIMIT $1",
            ),
            args![limit, min_games],
        )
        .await?;
    Ok(rows
        .into_iter()
        .map(|r| Ranked {
            name: r.name,
            rating: Rating {
                mu: r.mu,
                sigma: r.sigma,
                games: r.games,
            },
        })
        .collect())
}

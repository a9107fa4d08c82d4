//! Challenges and follows between accounts: a challenge stored with its notice, accepted by one
//! conditional update in the transaction that stores its game, closed without one; follows,
//! whom an account takes challenges from, and when it was last seen.

use super::super::db::{args, from_row, Commit, Conn, Database, Dialect, Sql};
use super::super::{
    Challenge, ChallengeStatus, Challenges, Closing, Conflict, Followed, NewChallenge, NewNotice,
    Progress, SavedGame, StoreError,
};
use super::{games, notices, SqlStore};
use crate::time_control::TimeControl;
use async_trait::async_trait;
use sagani_core::Variant;

use Sql::Both;

/// Whom an account takes challenges from, as stored.
const FOLLOWED: &str = "followed";
const EVERYONE: &str = "everyone";

async fn insert(
    c: &mut dyn Conn,
    ch: &NewChallenge,
    notice: &NewNotice,
    max_open: u64,
) -> Result<(), StoreError> {
    let from: Option<String> = c
        .value(
            Both("SELECT id FROM players WHERE id = $1 AND deleted_at IS NULL"),
            args![&ch.from],
        )
        .await?;
    let takes: Option<String> = c
        .value(
            Both("SELECT challenges_from FROM players WHERE id = $1 AND deleted_at IS NULL"),
            args![&ch.to],
        )
        .await?;
    let (Some(_), Some(takes)) = (from, takes) else {
        return Err(StoreError::NotFound);
    };
    // One challenge at a time per challenger, across servers, so the count holds (SQLite
    // writes one at a time anyway).
    if c.dialect() == Dialect::Postgres {
        c.execute(
            Both("SELECT pg_advisory_xact_lock(hashtext($1))"),
            args![format!("challenges of {}", ch.from)],
        )
        .await?;
    }
    let open: u64 = c
        .value(
            Both(
                "SELECT COUNT(*) FROM challenges
                 WHERE from_id = $1 AND status = 'open' AND expires_at > $2",
            ),
            args![&ch.from, ch.at_ms],
        )
        .await?
        .unwrap_or(0);
    if open >= max_open {
        return Err(StoreError::Conflict(Conflict::TooManyChallenges { open }));
    }
    if takes == FOLLOWED && !following(c, &ch.to, &ch.from).await? {
        return Err(StoreError::Conflict(Conflict::NotFollowed));
    }
    c.execute(
        Both(
            "INSERT INTO challenges (id, from_id, to_id, variant, clock, rated, status,
                                     created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, 'open', $7, $8)",
        ),
        args![
            &ch.id,
            &ch.from,
            &ch.to,
            ch.variant.name(),
            ch.clock.stored(),
            ch.rated,
            ch.at_ms,
            ch.expires_ms
        ],
    )
    .await?;
    notices::raise(c, notice).await
}

/// A challenge with both accounts' names.
macro_rules! challenges_from {
    () => {
        "SELECT c.id, c.from_id, f.name AS from_name, c.to_id, t.name AS to_name, c.variant,
                c.clock, c.rated, c.status, c.game_id, c.created_at, c.expires_at, c.decided_at
         FROM challenges c JOIN players f ON f.id = c.from_id JOIN players t ON t.id = c.to_id"
    };
}

from_row! {
    struct ChallengeRow {
        id: String,
        from_id: String,
        from_name: String,
        to_id: String,
        to_name: String,
        variant: String,
        clock: Option<String>,
        rated: bool,
        status: String,
        game_id: Option<String>,
        created_at: i64,
        expires_at: i64,
        decided_at: Option<i64>,
    }
}

impl ChallengeRow {
    fn read(self) -> Result<Challenge, StoreError> {
        let damaged = |why: String| StoreError::Damaged {
            game: format!("challenge {}", self.id),
            reason: why,
        };
        let variant = Variant::parse(&self.variant)
            .ok_or_else(|| damaged(format!("variant {:?}", self.variant)))?;
        let status = ChallengeStatus::parse(&self.status)
            .ok_or_else(|| damaged(format!("status {:?}", self.status)))?;
        let clock =
            TimeControl::from_stored(self.clock.as_deref()).map_err(|e| damaged(e.to_string()))?;
        Ok(Challenge {
            id: self.id,
            from: self.from_id,
            from_name: self.from_name,
            to: self.to_id,
            to_name: self.to_name,
            variant,
            clock,
            rated: self.rated,
            status,
            game: self.game_id,
            at_ms: self.created_at,
            expires_ms: self.expires_at,
            decided_ms: self.decided_at,
        })
    }
}

async fn by_id(c: &mut dyn Conn, id: &str) -> Result<Challenge, StoreError> {
    const SQL: &str = concat!(challenges_from!(), " WHERE c.id = $1");
    let row: Option<ChallengeRow> = c.row(Both(SQL), args![id]).await?;
    row.ok_or(StoreError::NotFound)?.read()
}

async fn of(
    c: &mut dyn Conn,
    player: &str,
    now_ms: i64,
    since_ms: i64,
    limit: u32,
) -> Result<Vec<Challenge>, StoreError> {
    const SQL: &str = concat!(
        challenges_from!(),
        " WHERE (c.from_id = $1 OR c.to_id = $1)
            AND ((c.status = 'open' AND c.expires_at > $2) OR c.decided_at > $3)
            AND f.deleted_at IS NULL AND t.deleted_at IS NULL
          ORDER BY c.created_at DESC, c.id LIMIT $4"
    );
    let rows: Vec<ChallengeRow> = c
        .rows(Both(SQL), args![player, now_ms, since_ms, limit])
        .await?;
    // A row that cannot be read (written by a newer server) is left out.
    Ok(rows.into_iter().filter_map(|r| r.read().ok()).collect())
}

/// Why a conditional change of challenge `id` by `player` changed nothing: not theirs (or
/// missing), else it is no longer open.
async fn not_open(c: &mut dyn Conn, id: &str, player: &str, column: &str) -> StoreError {
    match by_id(c, id).await {
        Ok(ch) if (if column == "to" { &ch.to } else { &ch.from }) == player => {
            StoreError::Conflict(Conflict::Changed)
        }
        Ok(_) | Err(StoreError::NotFound) => StoreError::NotFound,
        Err(e) => e,
    }
}

async fn accept(
    c: &mut dyn Conn,
    id: &str,
    player: &str,
    game: &SavedGame,
    after: Progress,
    now_ms: i64,
) -> Result<Vec<(String, u64)>, StoreError> {
    // The conditional update decides: of two servers accepting at once, the second waits for
    // the first's row lock, then finds the challenge no longer open. A deleted challenger's
    // challenge is closed.
    let n = c
        .execute(
            Both(
                "UPDATE challenges SET status = 'accepted', game_id = $3, decided_at = $4
                 WHERE id = $1 AND to_id = $2 AND status = 'open' AND expires_at > $4
                   AND NOT EXISTS (SELECT 1 FROM players p
                                   WHERE p.id = challenges.from_id AND p.deleted_at IS NOT NULL)",
            ),
            args![id, player, &game.id, now_ms],
        )
        .await?;
    if n == 0 {
        return Err(not_open(c, id, player, "to").await);
    }
    games::create(c, game, after, None, None).await
}

async fn close(
    c: &mut dyn Conn,
    id: &str,
    player: &str,
    how: Closing,
    now_ms: i64,
) -> Result<(), StoreError> {
    let (sql, status, column) = match how {
        Closing::Decline => (
            "UPDATE challenges SET status = $3, decided_at = $4
             WHERE id = $1 AND to_id = $2 AND status = 'open' AND expires_at > $4",
            ChallengeStatus::Declined,
            "to",
        ),
        Closing::Withdraw => (
            "UPDATE challenges SET status = $3, decided_at = $4
             WHERE id = $1 AND from_id = $2 AND status = 'open' AND expires_at > $4",
            ChallengeStatus::Withdrawn,
            "from",
        ),
    };
    let n = c
        .execute(Both(sql), args![id, player, status.as_str(), now_ms])
        .await?;
    if n == 0 {
        return Err(not_open(c, id, player, column).await);
    }
    Ok(())
}

async fn following(c: &mut dyn Conn, follower: &str, followed: &str) -> Result<bool, StoreError> {
    Ok(c.value::<i64>(
        Both("SELECT 1 AS one FROM follows WHERE follower_id = $1 AND followed_id = $2"),
        args![follower, followed],
    )
    .await?
    .is_some())
}

from_row! {
    struct FollowedRow {
        name: String,
        last_seen: Option<i64>,
    }
}

#[async_trait]
impl<D: Database> Challenges for SqlStore<D> {
    async fn challenge(
        &self,
        c: &NewChallenge,
        notice: &NewNotice,
        max_open: u64,
    ) -> Result<(), StoreError> {
        let (ch, notice) = (c.clone(), notice.clone());
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { insert(c, &ch, &notice, max_open).await })
        })
        .await
    }

    async fn challenge_by_id(&self, id: &str) -> Result<Challenge, StoreError> {
        let id = id.to_string();
        self.read(move |c| Box::pin(async move { by_id(c, &id).await }))
            .await
    }

    async fn challenges_of(
        &self,
        player: &str,
        now_ms: i64,
        since_ms: i64,
        limit: u32,
    ) -> Result<Vec<Challenge>, StoreError> {
        let player = player.to_string();
        self.read(move |c| Box::pin(async move { of(c, &player, now_ms, since_ms, limit).await }))
            .await
    }

    async fn accept_challenge(
        &self,
        id: &str,
        player: &str,
        game: &SavedGame,
        after: Progress,
        now_ms: i64,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        let (id, player, game) = (id.to_string(), player.to_string(), game.clone());
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { accept(c, &id, &player, &game, after, now_ms).await })
        })
        .await
    }

    async fn close_challenge(
        &self,
        id: &str,
        player: &str,
        how: Closing,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let (id, player) = (id.to_string(), player.to_string());
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { close(c, &id, &player, how, now_ms).await })
        })
        .await
    }

    async fn follow(&self, follower: &str, followed: &str, at_ms: i64) -> Result<(), StoreError> {
        let (a, b) = (follower.to_string(), followed.to_string());
        self.write(Commit::Single, move |c| {
            Box::pin(async move {
                c.execute(
                    Both(
                        "INSERT INTO follows (follower_id, followed_id, at) VALUES ($1, $2, $3)
                         ON CONFLICT (follower_id, followed_id) DO NOTHING",
                    ),
                    args![&a, &b, at_ms],
                )
                .await?;
                Ok(())
            })
        })
        .await
    }

    async fn unfollow(&self, follower: &str, followed: &str) -> Result<bool, StoreError> {
        let (a, b) = (follower.to_string(), followed.to_string());
        self.write(Commit::Single, move |c| {
            Box::pin(async move {
                Ok(c.execute(
                    Both("DELETE FROM follows WHERE follower_id = $1 AND followed_id = $2"),
                    args![&a, &b],
                )
                .await?
                    > 0)
            })
        })
        .await
    }

    async fn follows(&self, follower: &str) -> Result<Vec<Followed>, StoreError> {
        let follower = follower.to_string();
        self.read(move |c| {
            Box::pin(async move {
                let rows: Vec<FollowedRow> = c
                    .rows(
                        Both(
                            "SELECT p.name, p.last_seen FROM follows f
                             JOIN players p ON p.id = f.followed_id
                             WHERE f.follower_id = $1 AND p.deleted_at IS NULL
                             ORDER BY p.name_key",
                        ),
                        args![&follower],
                    )
                    .await?;
                Ok(rows
                    .into_iter()
                    .map(|r| Followed {
                        name: r.name,
                        last_seen: r.last_seen,
                    })
                    .collect())
            })
        })
        .await
    }

    async fn is_following(&self, follower: &str, followed: &str) -> Result<bool, StoreError> {
        let (a, b) = (follower.to_string(), followed.to_string());
        self.read(move |c| Box::pin(async move { following(c, &a, &b).await }))
            .await
    }

    async fn followed_only(&self, player: &str) -> Result<bool, StoreError> {
        let player = player.to_string();
        self.read(move |c| {
            Box::pin(async move {
                let takes: Option<String> = c
                    .value(
                        Both("SELECT challenges_from FROM players WHERE id = $1"),
                        args![&player],
                    )
                    .await?;
                Ok(takes.ok_or(StoreError::NotFound)? == FOLLOWED)
            })
        })
        .await
    }

    async fn set_followed_only(&self, player: &str, only: bool) -> Result<(), StoreError> {
        let player = player.to_string();
        self.write(Commit::Single, move |c| {
            Box::pin(async move {
                let n = c
                    .execute(
                        Both("UPDATE players SET challenges_from = $2 WHERE id = $1"),
                        args![&player, if only { FOLLOWED } else { EVERYONE }],
                    )
                    .await?;
                if n == 0 {
                    return Err(StoreError::NotFound);
                }
                Ok(())
            })
        })
        .await
    }

    async fn seen(&self, player: &str, now_ms: i64, every_ms: i64) -> Result<bool, StoreError> {
        let player = player.to_string();
        self.write(Commit::Single, move |c| {
            Box::pin(async move {
                Ok(c.execute(
                    Both(
                        "UPDATE players SET last_seen = $2
                         WHERE id = $1 AND (last_seen IS NULL OR last_seen <= $3)",
                    ),
                    args![&player, now_ms, now_ms - every_ms],
                )
                .await?
                    > 0)
            })
        })
        .await
    }
}

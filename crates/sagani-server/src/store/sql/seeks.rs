//! Seeks: stored waiting, touched while their seeker is there, cancelled, or paired into a game
//! in one transaction that pairs each only if it still waits.

use super::super::db::{args, from_row, Commit, Conn, Database, Sql};
use super::super::{Conflict, Pairing, Pool, Seek, SeekStatus, Seeks, StoreError};
use super::{games, notices, SqlStore};
use crate::time_control::TimeControl;
use async_trait::async_trait;

use Sql::Both;

from_row! {
    struct SeekRow {
        id: String,
        token_hash: String,
        players: u8,
        clock: String,
        rated: bool,
        player_id: Option<String>,
        name: Option<String>,
        rating: Option<f64>,
        bot_after_s: Option<u32>,
        created_at: i64,
        seen_at: i64,
        status: String,
        game_id: Option<String>,
        seat: Option<u8>,
        ended_at: Option<i64>,
    }
}

/// A statement reading whole seeks: `SELECT <every column> FROM seeks <rest>`.
macro_rules! select_seeks {
    ($rest:literal) => {
        concat!(
            "SELECT id, token_hash, players, clock, rated, player_id, name, rating, bot_after_s,
                    created_at, seen_at, status, game_id, seat, ended_at
             FROM seeks ",
            $rest
        )
    };
}

impl SeekRow {
    /// The seek, or why the row cannot be read as one.
    fn seek(self) -> Result<Seek, StoreError> {
        let damaged =
            |what: String| StoreError::unavailable_because(format!("seek {}: {what}", self.id));
        let clock = match self.clock.as_str() {
            "none" => TimeControl::None,
            text => TimeControl::from_stored(Some(text)).map_err(|e| damaged(e.to_string()))?,
        };
        let status = SeekStatus::parse(&self.status)
            .ok_or_else(|| damaged(format!("status {:?}", self.status)))?;
        Ok(Seek {
            pool: Pool {
                players: self.players,
                clock,
                rated: self.rated,
            },
            token_hash: self.token_hash,
            player: self.player_id,
            name: self.name,
            rating: self.rating,
            bot_after_s: self.bot_after_s,
            created_ms: self.created_at,
            seen_ms: self.seen_at,
            status,
            game: self.game_id,
            seat: self.seat,
            ended_ms: self.ended_at,
            id: self.id,
        })
    }
}

async fn add(c: &mut dyn Conn, s: &Seek) -> Result<(), StoreError> {
    c.execute(
        Both(
            "INSERT INTO seeks (id, token_hash, pool, players, clock, rated, player_id, name,
                                rating, bot_after_s, created_at, seen_at, status)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'waiting')",
        ),
        args![
            &s.id,
            &s.token_hash,
            s.pool.key(),
            s.pool.players,
            s.pool.clock.stored().unwrap_or_else(|| "none".into()),
            s.pool.rated,
            &s.player,
            &s.name,
            s.rating,
            s.bot_after_s,
            s.created_ms,
            s.seen_ms,
        ],
    )
    .await?;
    Ok(())
}

async fn one(c: &mut dyn Conn, id: &str) -> Result<Option<Seek>, StoreError> {
    let row: Option<SeekRow> = c
        .row(Both(select_seeks!("WHERE id = $1")), args![id])
        .await?;
    row.map(SeekRow::seek).transpose()
}

async fn waiting(c: &mut dyn Conn, limit: u32) -> Result<Vec<Seek>, StoreError> {
    let rows: Vec<SeekRow> = c
        .rows(
            Both(select_seeks!(
                "WHERE status = 'waiting' ORDER BY created_at, id LIMIT $1"
            )),
            args![limit],
        )
        .await?;
    // A row this server cannot read (a newer server's clock) is left to the server that can.
    Ok(rows.into_iter().filter_map(|r| r.seek().ok()).collect())
}

from_row! {
    struct PoolRow {
        players: u8,
        clock: String,
        rated: bool,
        waiting: u32,
    }
}

async fn counts(c: &mut dyn Conn) -> Result<Vec<(Pool, u32)>, StoreError> {
    let rows: Vec<PoolRow> = c
        .rows(
            Both(
                "SELECT players, clock, rated, COUNT(*) AS waiting FROM seeks
                 WHERE status = 'waiting' GROUP BY pool, players, clock, rated ORDER BY pool",
            ),
            args![],
        )
        .await?;
    // A pool whose clock this server cannot read (a newer server's) is left out.
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            let clock = match r.clock.as_str() {
                "none" => TimeControl::None,
                text => TimeControl::from_stored(Some(text)).ok()?,
            };
            Some((
                Pool {
                    players: r.players,
                    clock,
                    rated: r.rated,
                },
                r.waiting,
            ))
        })
        .collect())
}

async fn touch(c: &mut dyn Conn, id: &str, now_ms: i64) -> Result<bool, StoreError> {
    Ok(c.execute(
        Both("UPDATE seeks SET seen_at = $2 WHERE id = $1 AND status = 'waiting'"),
        args![id, now_ms],
    )
    .await?
        == 1)
}

async fn cancel(c: &mut dyn Conn, id: &str, now_ms: i64) -> Result<bool, StoreError> {
    Ok(c.execute(
        Both(
            "UPDATE seeks SET status = 'cancelled', ended_at = $2
             WHERE id = $1 AND status = 'waiting'",
        ),
        args![id, now_ms],
    )
    .await?
        == 1)
}

async fn drop_unseen(
    c: &mut dyn Conn,
    seen_before_ms: i64,
    now_ms: i64,
) -> Result<Vec<String>, StoreError> {
    Ok(c.column(
        Both(
            "UPDATE seeks SET status = 'cancelled', ended_at = $2
             WHERE status = 'waiting' AND seen_at < $1 RETURNING id",
        ),
        args![seen_before_ms, now_ms],
    )
    .await?)
}

async fn pair(c: &mut dyn Conn, p: &Pairing) -> Result<Vec<(String, u64)>, StoreError> {
    // In the order of their ids, so two servers pairing overlapping groups lock rows in the
    // same order (no deadlock): the second finds a seek no longer waiting and changes nothing.
    let mut seats = p.seats.clone();
    seats.sort();
    for (id, seat) in &seats {
        let paired = c
            .execute(
                Both(
                    "UPDATE seeks SET status = 'paired', game_id = $2, seat = $3, ended_at = $4
                     WHERE id = $1 AND status = 'waiting'",
                ),
                args![id, &p.game.id, *seat, p.at_ms],
            )
            .await?;
        if paired != 1 {
            return Err(StoreError::Conflict(Conflict::Changed));
        }
    }
    let changed = games::create(c, &p.game, p.after, None, None).await?;
    for n in &p.notices {
        notices::raise(c, n).await?;
    }
    // Other servers' seekers hear of it as a change of the seek ("seek:ID").
    for (id, _) in &seats {
        c.changed(&format!("seek:{id}"), 1).await?;
    }
    Ok(changed)
}

#[async_trait]
impl<D: Database> Seeks for SqlStore<D> {
    async fn add_seek(&self, seek: &Seek) -> Result<(), StoreError> {
        let seek = seek.clone();
        self.write(Commit::Single, move |c| {
            Box::pin(async move { add(c, &seek).await })
        })
        .await
    }

    async fn seek(&self, id: &str) -> Result<Option<Seek>, StoreError> {
        let id = id.to_string();
        self.read(move |c| Box::pin(async move { one(c, &id).await }))
            .await
    }

    async fn waiting_seeks(&self, limit: u32) -> Result<Vec<Seek>, StoreError> {
        self.read(move |c| Box::pin(async move { waiting(c, limit).await }))
            .await
    }

    async fn waiting_counts(&self) -> Result<Vec<(Pool, u32)>, StoreError> {
        self.read(|c| Box::pin(async move { counts(c).await }))
            .await
    }

    async fn touch_seek(&self, id: &str, now_ms: i64) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.write(Commit::Single, move |c| {
            Box::pin(async move { touch(c, &id, now_ms).await })
        })
        .await
    }

    async fn cancel_seek(&self, id: &str, now_ms: i64) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.write(Commit::Single, move |c| {
            Box::pin(async move { cancel(c, &id, now_ms).await })
        })
        .await
    }

    async fn drop_unseen_seeks(
        &self,
        seen_before_ms: i64,
        now_ms: i64,
    ) -> Result<Vec<String>, StoreError> {
        self.write(Commit::Single, move |c| {
            Box::pin(async move { drop_unseen(c, seen_before_ms, now_ms).await })
        })
        .await
    }

    async fn pair(&self, pairing: &Pairing) -> Result<Vec<(String, u64)>, StoreError> {
        let p = pairing.clone();
        self.write(Commit::Atomic, move |c| {
            Box::pin(async move { pair(c, &p).await })
        })
        .await
    }
}

//! Turns and time: moves stored as move `n`, the bots' turns and their leases, running clocks,
//! repairs and the sweep of idle games.

use super::super::db::{args, from_row, Conn, Sql};
use super::super::{BotTurn, Conflict, IdleSweep, MoveWrite, Progress, StoreError};
use super::end;
use super::guard::refusal;

use Sql::{Both, Each};

/// Stores a move (`Store::append_move`). On PostgreSQL one statement checks the version, stores
/// the move and ends the bot's lease: one round trip, all or nothing.
pub(super) async fn append_move(c: &mut dyn Conn, w: &MoveWrite) -> Result<u64, StoreError> {
    let text = serde_json::to_string(&w.mv).map_err(StoreError::unavailable)?;
    let stored: Option<u64> = c
        .value(
            Each {
                sqlite: "UPDATE games SET version = version + 1, rev = rev + 1,
                             status = CASE WHEN $4 THEN 'over' ELSE status END, bot_to_act = $5,
                             deadline = $8, active_at = $9, started_at = COALESCE(started_at, $10)
                         WHERE id = $1 AND version = $2 AND status <> 'over' AND ($3 IS NULL
                             OR (NOT bot_to_act AND EXISTS (SELECT 1 FROM seats WHERE game_id = $1
                                 AND seat = $6 AND token_hash = $3 AND left_reason IS NULL)))
                         RETURNING rev",
                postgres: "WITH g AS (
                               UPDATE games SET version = version + 1, rev = rev + 1,
                                   status = CASE WHEN $4 THEN 'over' ELSE status END,
                                   bot_to_act = $5, deadline = $8, active_at = $9,
                                   started_at = COALESCE(started_at, $10)
                               WHERE id = $1 AND version = $2 AND status <> 'over'
                                   AND ($3::text IS NULL OR (NOT bot_to_act AND EXISTS (
                                       SELECT 1 FROM seats WHERE game_id = $1 AND seat = $6
                                           AND token_hash = $3 AND left_reason IS NULL)))
                               RETURNING id, rev),
                           m AS (INSERT INTO moves (game_id, n, seat, move, at)
                                 SELECT id, $2, $6, $7, $9 FROM g),
                           l AS (DELETE FROM bot_leases WHERE game_id IN (SELECT id FROM g))
                           SELECT rev FROM g",
            },
            args![
                &w.game,
                w.n,
                &w.token_hash,
                w.after.over,
                w.after.bot_to_act,
                w.seat,
                text.as_str(),
                w.after.deadline_ms,
                w.at_ms,
                w.start_ms
            ],
        )
        .await?;
    let Some(rev) = stored else {
        return Err(refusal(c, &w.game, w.n, Conflict::NotYourSeat).await?);
    };
    if c.dialect() == super::super::db::Dialect::Sqlite {
        c.execute(
            Both("INSERT INTO moves (game_id, n, seat, move, at) VALUES ($1, $2, $3, $4, $5)"),
            args![&w.game, w.n, w.seat, text, w.at_ms],
        )
        .await?;
        c.execute(
            Both("DELETE FROM bot_leases WHERE game_id = $1"),
            args![&w.game],
        )
        .await?;
    }
    if let Some(e) = &w.end {
        end::store(c, &w.game, e).await?;
    }
    for n in &w.notices {
        super::raising::raise(c, n).await?;
    }
    c.changed(&w.game, rev).await?;
    Ok(rev)
}

pub(super) async fn bot_turns(
    c: &mut dyn Conn,
    now_ms: i64,
    limit: u32,
) -> Result<Vec<BotTurn>, StoreError> {
    from_row! {
        struct TurnRow {
            id: String,
            version: u64,
            creator: String,
        }
    }
    let rows: Vec<TurnRow> = c
        .rows(
            Both(
                "SELECT g.id, g.version, g.creator FROM games g
                 LEFT JOIN bot_leases l ON l.game_id = g.id AND l.expires_at > $1
                 WHERE g.bot_to_act AND g.status <> 'over' AND l.game_id IS NULL
                 ORDER BY g.created_at, g.id LIMIT $2",
            ),
            args![now_ms, limit],
        )
        .await?;
    Ok(rows
        .into_iter()
        .map(|r| BotTurn {
            game: r.id,
            version: r.version,
            creator: r.creator,
        })
        .collect())
}

pub(super) async fn lease(
    c: &mut dyn Conn,
    game: &str,
    version: u64,
    holder: &str,
    now_ms: i64,
    until_ms: i64,
) -> Result<bool, StoreError> {
    // The game must still be at `version` when the lease is taken. PostgreSQL reads a
    // statement's rows as they were when it began, so a move being committed meanwhile (which
    // ends the old lease) would go unseen and the turn be searched twice: `FOR SHARE` waits for
    // that commit and reads the game again. SQLite has one writer at a time: nothing to wait
    // for.
    let got: Option<i64> = c
        .value(
            Each {
                sqlite: "INSERT INTO bot_leases (game_id, version, holder, expires_at)
                 SELECT id, version, $3, $5 FROM games WHERE id = $1
                     AND version = $2 AND bot_to_act AND status <> 'over'
                 ON CONFLICT (game_id) DO UPDATE SET version = excluded.version,
                     holder = excluded.holder, expires_at = excluded.expires_at
                 WHERE bot_leases.holder = excluded.holder OR bot_leases.expires_at <= $4
                     OR bot_leases.version <> excluded.version
                 RETURNING 1 AS leased",
                postgres: "INSERT INTO bot_leases (game_id, version, holder, expires_at)
                 SELECT id, version, $3, $5 FROM games WHERE id = $1
                     AND version = $2 AND bot_to_act AND status <> 'over' FOR SHARE
                 ON CONFLICT (game_id) DO UPDATE SET version = excluded.version,
                     holder = excluded.holder, expires_at = excluded.expires_at
                 WHERE bot_leases.holder = excluded.holder OR bot_leases.expires_at <= $4
                     OR bot_leases.version <> excluded.version
                 RETURNING 1 AS leased",
            },
            args![game, version, holder, now_ms, until_ms],
        )
        .await?;
    Ok(got.is_some())
}

pub(super) async fn release(c: &mut dyn Conn, game: &str, holder: &str) -> Result<(), StoreError> {
    c.execute(
        Both("DELETE FROM bot_leases WHERE game_id = $1 AND holder = $2"),
        args![game, holder],
    )
    .await?;
    Ok(())
}

pub(super) async fn due_clocks(
    c: &mut dyn Conn,
    now_ms: i64,
    limit: u32,
) -> Result<Vec<String>, StoreError> {
    Ok(c.column(
        Both(
            "SELECT id FROM games WHERE status <> 'over' AND (deadline <= $1
                     OR (deadline IS NULL AND clock IS NOT NULL AND started_at IS NOT NULL
                         AND status = 'playing' AND NOT bot_to_act))
                 ORDER BY deadline NULLS LAST LIMIT $2",
        ),
        args![now_ms, limit],
    )
    .await?)
}

pub(super) async fn repair(
    c: &mut dyn Conn,
    game: &str,
    n: u64,
    after: Progress,
) -> Result<bool, StoreError> {
    let changed = c
        .execute(
            Both(
                "UPDATE games SET deadline = $3, bot_to_act = $4
                 WHERE id = $1 AND version = $2 AND status <> 'over'",
            ),
            args![game, n, after.deadline_ms, after.bot_to_act],
        )
        .await?;
    Ok(changed == 1)
}

/// Ends idle games (`Store::end_idle`). Each row's condition is checked again under its lock:
/// a game two servers sweep together is ended by one of them.
pub(super) async fn end_idle(
    c: &mut dyn Conn,
    sweep: IdleSweep,
) -> Result<Vec<(String, u64)>, StoreError> {
    from_row! {
        struct EndedRow {
            id: String,
            rev: u64,
        }
    }
    let rows: Vec<EndedRow> = c
        .rows(
            Both(
                "UPDATE games SET rev = rev + 1, status = 'over', bot_to_act = FALSE,
                     deadline = NULL, ended_at = CAST($1 AS BIGINT) / 1000,
                     ended = CASE WHEN status = 'waiting' THEN 'closed' ELSE 'abandoned' END
                 WHERE status <> 'over' AND (
                     (status = 'waiting' AND created_at < $3)
                     OR (status = 'playing' AND active_at < $2))
                 RETURNING id, rev",
            ),
            args![sweep.now_ms, sweep.active_before_ms, sweep.created_before_s],
        )
        .await?;
    let mut ended = Vec::with_capacity(rows.len());
    for r in rows {
        c.changed(&r.id, r.rev).await?;
        ended.push((r.id, r.rev));
    }
    Ok(ended)
}

//! The SQLite store: one file in WAL mode, served by one process (a lock beside the file keeps a
//! second server out). One writer thread commits queued writes in groups (one fsync for many
//! moves), each write in its own savepoint so a refused one changes nothing; readers use their
//! own connections.

use super::replay::{self, progress};
use super::{
    active_at, decode_moves, rated, rematch_id, timing_from, Accounts, BotTurn, Catchup, ChatLine,
    ChatText, ChatWrite, ClaimWrite, Conflict, Counts, Daily, DailyEntry, DailyTag, Ended, GameEnd,
    IdleSweep, LeaveWrite, MoveWrite, NewPlayer, PlayedGame, Player, Progress, Ranked, Rating,
    RatingPoint, SavedGame, SavedMove, SavedSeat, SeatColumns, SoloResult, Status, Store,
    StoreError, Summary,
};
use crate::time_control::TimeControl;
use async_trait::async_trait;
use rusqlite::types::Value;
use rusqlite::{params, Connection, OptionalExtension};
use sagani_core::Variant;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex, PoisonError};
use tokio::sync::{broadcast, oneshot};

mod embedded {
    refinery::embed_migrations!("migrations/sqlite");
}

/// Most writes committed in one transaction.
const GROUP: usize = 512;

/// SQLite's `user_version` of a file this code wrote: the first release wrote 1 and refuses
/// anything else, so it never runs on a file it cannot read.
const USER_VERSION: i64 = 7;

/// Read connections kept open between reads.
const IDLE_READERS: usize = 4;

enum Op {
    Create {
        game: SavedGame,
        after: Progress,
        max_open: Option<u64>,
        rematch_of: Option<(String, u64)>,
    },
    Import {
        game: SavedGame,
        after: Progress,
    },
    Move(MoveWrite),
    Claim(ClaimWrite),
    Leave(LeaveWrite),
    EndIdle(IdleSweep),
    Cancel {
        game: String,
        token_hash: String,
        at_ms: i64,
    },
    Chat(ChatWrite),
    Lease {
        game: String,
        version: u64,
        holder: String,
        now_ms: i64,
        until_ms: i64,
    },
    Release {
        game: String,
        holder: String,
    },
    /// Statements run in order (the accounts' writes). With `first_must_change`, a first
    /// statement that changes no row is `NotFound`; a unique name taken is `Conflict::Exists`.
    Exec {
        steps: Vec<(&'static str, Vec<Value>)>,
        first_must_change: bool,
    },
}

enum Out {
    Revs(Vec<(String, u64)>),
    Line(u64, u64),
    Rev(u64),
    Leased(bool),
    Done,
}

type Job = (Op, oneshot::Sender<Result<Out, StoreError>>);

pub struct SqliteStore {
    path: PathBuf,
    jobs: Mutex<mpsc::Sender<Job>>,
    readers: Arc<Mutex<Vec<Connection>>>,
    /// Held while the store is open with `exclusive`: the lock a second server is refused by.
    _lock: Option<std::fs::File>,
}

fn unavailable(e: impl std::fmt::Display) -> StoreError {
    StoreError::unavailable(e)
}

fn connect(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)
        .map_err(|e| StoreError::Unusable(format!("{}: {e}", path.display())))?;
    // WAL lets readers run beside the writer; FULL syncs every commit, so an acknowledged move
    // survives a crash or a power cut.
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(|e| StoreError::Unusable(format!("{}: {e}", path.display())))?;
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(unavailable)?;
    conn.pragma_update(None, "foreign_keys", "ON")
        .map_err(unavailable)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(unavailable)?;
    Ok(conn)
}

/// The lock beside `path` that one serving process holds.
fn lock(path: &Path) -> Result<std::fs::File, StoreError> {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&name)
        .map_err(|e| StoreError::Unusable(format!("{}: {e}", PathBuf::from(&name).display())))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::Unusable(format!(
            "{} is already served by another sagani process; a SQLite file is served by one \
             process (several servers need PostgreSQL: --db postgres://…)",
            path.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => Err(StoreError::Unusable(format!(
            "cannot lock {}: {e}",
            PathBuf::from(&name).display()
        ))),
    }
}

/// Brings the file's schema up to date: a new file, or one of the first release, or one this
/// code migrated before. Anything else is refused and left alone.
fn migrate(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(unavailable)?;
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .and_then(|mut q| q.query_map([], |r| r.get(0))?.collect())
        .map_err(unavailable)?;
    let known = version == 1 || tables.iter().any(|t| t == "refinery_schema_history");
    if (!tables.is_empty() && !known) || version > USER_VERSION {
        return Err(StoreError::Unusable(format!(
            "{} is not a database of this sagani (schema version {version}; this version reads 1 to {USER_VERSION})",
            path.display()
        )));
    }
    embedded::migrations::runner()
        .run(conn)
        .map_err(|e| StoreError::Unusable(format!("{}: migrating: {e}", path.display())))?;
    conn.pragma_update(None, "user_version", USER_VERSION)
        .map_err(unavailable)?;
    fill_in(conn)
}

/// Games of the first release have no `status` yet: replay each and store where it stands.
/// A game that does not replay is logged and left as it is (its other rows are untouched).
fn fill_in(conn: &mut Connection) -> Result<(), StoreError> {
    let ids: Vec<String> = conn
        .prepare("SELECT id FROM games WHERE status IS NULL")
        .and_then(|mut q| q.query_map([], |r| r.get(0))?.collect())
        .map_err(unavailable)?;
    if ids.is_empty() {
        return Ok(());
    }
    let tx = conn.transaction().map_err(unavailable)?;
    let mut filled = 0;
    for id in &ids {
        let game = match load(&tx, id).and_then(|g| {
            replay::replay(&g)
                .map(|r| (g, r))
                .map_err(|e| StoreError::damaged(id, e))
        }) {
            Ok(g) => g,
            Err(e) => {
                tracing::warn!("{e}; the game is skipped");
                continue;
            }
        };
        let (saved, recorded) = game;
        let p = progress(&recorded, &saved.seats);
        let rematch = rematch_id(id);
        tx.execute(
            "UPDATE games SET version = ?2, status = ?3, bot_to_act = ?4,
                 rematch = (SELECT id FROM games WHERE id = ?5)
             WHERE id = ?1",
            params![
                id,
                saved.moves.len() as i64,
                replay::status(p.over, &saved.seats).name(),
                p.bot_to_act,
                rematch
            ],
        )
        .map_err(unavailable)?;
        filled += 1;
    }
    tx.commit().map_err(unavailable)?;
    tracing::info!("{filled} games of an earlier version brought up to date");
    Ok(())
}

impl SqliteStore {
    /// Opens (or creates) the database at `path` for one serving process.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        SqliteStore::open_with(path, true)
    }

    /// Opens (or creates) the database at `path`; `exclusive` takes the lock that keeps a
    /// second server out (tools that only read or copy leave it).
    pub fn open_with(path: &Path, exclusive: bool) -> Result<SqliteStore, StoreError> {
        let lock = if exclusive { Some(lock(path)?) } else { None };
        let mut conn = connect(path)?;
        migrate(&mut conn, path)?;
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("sagani-store".into())
            .spawn(move || writer(conn, queue))
            .map_err(unavailable)?;
        Ok(SqliteStore {
            path: path.to_path_buf(),
            jobs: Mutex::new(jobs),
            readers: Arc::new(Mutex::new(Vec::new())),
            _lock: lock,
        })
    }

    async fn write(&self, op: Op) -> Result<Out, StoreError> {
        let (reply, answer) = oneshot::channel();
        let sent = self
            .jobs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .send((op, reply));
        if sent.is_err() {
            return Err(unavailable("the writer thread has stopped"));
        }
        answer
            .await
            .unwrap_or_else(|_| Err(unavailable("the writer thread has stopped")))
    }

    /// Runs `read` on a read connection, off the async threads.
    async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (path, readers) = (self.path.clone(), self.readers.clone());
        tokio::task::spawn_blocking(move || {
            let idle = readers.lock().unwrap_or_else(PoisonError::into_inner).pop();
            let conn = match idle {
                Some(c) => c,
                None => connect(&path)?,
            };
            let result = read(&conn);
            let mut idle = readers.lock().unwrap_or_else(PoisonError::into_inner);
            if idle.len() < IDLE_READERS {
                idle.push(conn);
            }
            result
        })
        .await
        .map_err(unavailable)?
    }

    /// Copies the live database to `to` with SQLite's online backup: a consistent snapshot,
    /// taken while the server goes on writing.
    pub fn backup(from: &Path, to: &Path) -> Result<(), StoreError> {
        if to.exists() {
            return Err(StoreError::Unusable(format!(
                "{} exists: give a new file",
                to.display()
            )));
        }
        if !from.exists() {
            return Err(StoreError::Unusable(format!(
                "{} does not exist",
                from.display()
            )));
        }
        let conn = connect(from)?;
        conn.backup(rusqlite::MAIN_DB, to, None)
            .map_err(|e| StoreError::Unusable(format!("backing up to {}: {e}", to.display())))
    }
}

/// Takes whatever is queued (up to `GROUP` writes), commits it as one transaction, answers.
fn writer(mut conn: Connection, queue: mpsc::Receiver<Job>) {
    while let Ok(first) = queue.recv() {
        let mut group = vec![first];
        while group.len() < GROUP {
            match queue.try_recv() {
                Ok(job) => group.push(job),
                Err(_) => break,
            }
        }
        let results = commit(&mut conn, &group);
        for ((_, reply), result) in group.into_iter().zip(results) {
            // The caller may have gone away; the write is stored all the same.
            let _ = reply.send(result);
        }
    }
}

fn commit(conn: &mut Connection, group: &[Job]) -> Vec<Result<Out, StoreError>> {
    let all_fail = |e: StoreError| group.iter().map(|_| Err(e.clone())).collect();
    // IMMEDIATE: the write lock from the start, so a second process on the file (a tool) waits
    // its turn instead of failing part-way.
    let tx = match conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate) {
        Ok(tx) => tx,
        Err(e) => return all_fail(unavailable(e)),
    };
    // A refused write rolls back to its savepoint: only it fails. Some errors (disk full,
    // I/O) make SQLite roll the whole transaction back: then nothing of the group is stored.
    let mut results = Vec::with_capacity(group.len());
    for (op, _) in group {
        let result = (|| {
            tx.execute_batch("SAVEPOINT op").map_err(unavailable)?;
            let result = apply(&tx, op);
            let end = if result.is_ok() {
                "RELEASE op"
            } else {
                "ROLLBACK TO op; RELEASE op"
            };
            tx.execute_batch(end).map_err(unavailable)?;
            result
        })();
        results.push(result);
        if tx.is_autocommit() {
            let _ = tx.rollback();
            return all_fail(unavailable("the transaction was rolled back"));
        }
    }
    match tx.commit() {
        Ok(()) => results,
        Err(e) => all_fail(unavailable(e)),
    }
}

/// Why a conditional write changed nothing: the game is missing, else `otherwise`.
fn missing_or(tx: &Connection, game: &str, otherwise: Conflict) -> StoreError {
    match tx
        .query_row("SELECT 1 FROM games WHERE id = ?1", [game], |r| {
            r.get::<_, i64>(0)
        })
        .optional()
    {
        Ok(Some(_)) => StoreError::Conflict(otherwise),
        Ok(None) => StoreError::NotFound,
        Err(e) => unavailable(e),
    }
}

fn is_constraint(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ConstraintViolation)
}

fn apply(tx: &Connection, op: &Op) -> Result<Out, StoreError> {
    match op {
        Op::Create {
            game,
            after,
            max_open,
            rematch_of,
        } => {
            if let Some(max) = max_open {
                let open: i64 = tx
                    .query_row(
                        "SELECT COUNT(*) FROM games WHERE creator = ?1 AND status <> 'over'",
                        [&game.creator],
                        |r| r.get(0),
                    )
                    .map_err(unavailable)?;
                if open as u64 >= *max {
                    return Err(StoreError::Conflict(Conflict::TooManyGames {
                        open: open as u64,
                    }));
                }
            }
            let mut changed = vec![(game.id.clone(), 0)];
            if let Some((old, seen)) = rematch_of {
                // The old game first, as it was read: its seats are the ones to copy.
                let rev: Option<i64> = tx
                    .query_row(
                        "UPDATE games SET rematch = ?2, rev = rev + 1 WHERE id = ?1 AND rev = ?3
                         RETURNING rev",
                        params![old, game.id, *seen as i64],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(unavailable)?;
                let Some(rev) = rev else {
                    return Err(missing_or(tx, old, Conflict::Changed));
                };
                changed.push((old.clone(), rev as u64));
            }
            insert_game(tx, game, *after, &[])?;
            Ok(Out::Revs(changed))
        }
        Op::Import { game, after } => {
            insert_game(tx, game, *after, &game.moves)?;
            Ok(Out::Done)
        }
        Op::Move(w) => {
            let rev: Option<i64> = tx
                .query_row(
                    "UPDATE games SET version = version + 1, rev = rev + 1,
                         status = CASE WHEN ?4 THEN 'over' ELSE status END, bot_to_act = ?5,
                         deadline = ?7, active_at = ?8, started_at = COALESCE(started_at, ?9)
                     WHERE id = ?1 AND version = ?2 AND status <> 'over' AND (?3 IS NULL OR EXISTS (
                         SELECT 1 FROM seats WHERE game_id = ?1 AND seat = ?6 AND token_hash = ?3
                             AND left_reason IS NULL))
                     RETURNING rev",
                    params![
                        w.game,
                        w.n as i64,
                        w.token_hash,
                        w.after.over,
                        w.after.bot_to_act,
                        w.seat,
                        w.after.deadline_ms,
                        w.at_ms,
                        w.start_ms
                    ],
                    |r| r.get(0),
                )
                .optional()
                .map_err(unavailable)?;
            let Some(rev) = rev else {
                return Err(refusal(tx, &w.game, w.n, Conflict::NotYourSeat)?);
            };
            let text = serde_json::to_string(&w.mv).map_err(unavailable)?;
            tx.execute(
                "INSERT INTO moves (game_id, n, seat, move, at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![w.game, w.n as i64, w.seat, text, w.at_ms],
            )
            .map_err(unavailable)?;
            tx.execute("DELETE FROM bot_leases WHERE game_id = ?1", [&w.game])
                .map_err(unavailable)?;
            if let Some(end) = &w.end {
                store_end(tx, &w.game, end)?;
            }
            Ok(Out::Rev(rev as u64))
        }
        Op::Claim(w) => {
            let exists: Option<i64> = tx
                .query_row("SELECT 1 FROM games WHERE id = ?1", [&w.game], |r| r.get(0))
                .optional()
                .map_err(unavailable)?;
            if exists.is_none() {
                return Err(StoreError::NotFound);
            }
            let n = tx
                .execute(
                    "UPDATE seats SET token_hash = ?3,
                         invite_hash = CASE WHEN ?5 THEN NULL ELSE invite_hash END,
                         name = ?6, player_id = ?7
                     WHERE game_id = ?1 AND seat = ?2 AND kind = 'human' AND token_hash IS ?4",
                    params![
                        w.game,
                        w.seat,
                        w.token_hash,
                        w.seen,
                        w.by_number,
                        w.name,
                        w.player
                    ],
                )
                .map_err(unavailable)?;
            if n != 1 {
                return Err(StoreError::Conflict(Conflict::SeatTaken));
            }
            let mut games = vec![w.game.clone()];
            if let Some(old) = &w.seen {
                // The replaced token is revoked wherever it was copied (the game's rematches).
                let mut q = tx
                    .prepare(
                        "UPDATE seats SET token_hash = ?2, name = ?3, player_id = ?4
                         WHERE token_hash = ?1 RETURNING game_id",
                    )
                    .map_err(unavailable)?;
                let others: Vec<String> = q
                    .query_map(params![old, w.token_hash, w.name, w.player], |r| r.get(0))
                    .and_then(|rows| rows.collect())
                    .map_err(unavailable)?;
                games.extend(others);
            }
            let mut changed = Vec::new();
            for g in games {
                let rev: i64 = tx
                    .query_row(
                        "UPDATE games SET rev = rev + 1, status = CASE
                             WHEN status = 'over' THEN 'over'
                             WHEN EXISTS (SELECT 1 FROM seats WHERE game_id = ?1 AND kind = 'human'
                                          AND token_hash IS NULL) THEN 'waiting'
                             ELSE 'playing' END
                         WHERE id = ?1 RETURNING rev",
                        [&g],
                        |r| r.get(0),
                    )
                    .map_err(unavailable)?;
                changed.push((g, rev as u64));
            }
            // The last seat claimed starts the clocks (once).
            tx.execute(
                "UPDATE games SET started_at = ?2, active_at = ?2, deadline = ?3
                 WHERE id = ?1 AND status = 'playing' AND started_at IS NULL",
                params![w.game, w.at_ms, w.deadline_if_started],
            )
            .map_err(unavailable)?;
            Ok(Out::Revs(changed))
        }
        Op::Leave(w) => {
            let rev: Option<i64> = tx
                .query_row(
                    "UPDATE games SET rev = rev + 1, bot_to_act = ?3, deadline = ?4,
                         status = CASE WHEN ?5 IS NOT NULL THEN 'over' ELSE status END,
                         ended = ?5, ended_at = CASE WHEN ?5 IS NOT NULL THEN ?6 / 1000 END
                     WHERE id = ?1 AND version = ?2 AND status <> 'over' AND EXISTS (
                         SELECT 1 FROM seats WHERE game_id = ?1 AND seat = ?7 AND kind = 'human'
                             AND left_reason IS NULL)
                     RETURNING rev",
                    params![
                        w.game,
                        w.n as i64,
                        w.after.bot_to_act,
                        w.after.deadline_ms,
                        w.ended.map(Ended::name),
                        w.left.at_ms,
                        w.seat
                    ],
                    |r| r.get(0),
                )
                .optional()
                .map_err(unavailable)?;
            let Some(rev) = rev else {
                return Err(refusal(tx, &w.game, w.n, Conflict::Changed)?);
            };
            tx.execute(
                "UPDATE seats SET left_reason = ?3, left_version = ?4, left_at = ?5,
                     left_bot = ?6, left_level = ?7
                 WHERE game_id = ?1 AND seat = ?2",
                params![
                    w.game,
                    w.seat,
                    w.left.reason.name(),
                    w.n as i64,
                    w.left.at_ms,
                    w.left.bot,
                    w.left.level
                ],
            )
            .map_err(unavailable)?;
            Ok(Out::Rev(rev as u64))
        }
        Op::EndIdle(sweep) => {
            let mut q = tx
                .prepare_cached(
                    "UPDATE games SET rev = rev + 1, status = 'over', bot_to_act = 0,
                         deadline = NULL, ended_at = ?1 / 1000,
                         ended = CASE WHEN status = 'waiting' THEN 'closed' ELSE 'abandoned' END
                     WHERE status <> 'over' AND (
                         (status = 'waiting' AND created_at < ?3)
                         OR (status = 'playing' AND active_at < ?2))
                     RETURNING id, rev",
                )
                .map_err(unavailable)?;
            let ended: Vec<(String, i64)> = q
                .query_map(
                    params![sweep.now_ms, sweep.active_before_ms, sweep.created_before_s],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .and_then(|rows| rows.collect())
                .map_err(unavailable)?;
            Ok(Out::Revs(
                ended.into_iter().map(|(g, r)| (g, r as u64)).collect(),
            ))
        }
        Op::Cancel {
            game,
            token_hash,
            at_ms,
        } => {
            let seat: Option<i64> = tx
                .query_row(
                    "SELECT seat FROM seats WHERE game_id = ?1 AND token_hash = ?2",
                    params![game, token_hash],
                    |r| r.get(0),
                )
                .optional()
                .map_err(unavailable)?;
            if seat.is_none() {
                return Err(missing_or(tx, game, Conflict::NotYourSeat));
            }
            let rev: Option<i64> = tx
                .query_row(
                    "UPDATE games SET rev = rev + 1, status = 'over', bot_to_act = 0,
                         deadline = NULL, ended = 'cancelled', ended_at = ?2 / 1000
                     WHERE id = ?1 AND status <> 'over' AND NOT EXISTS (
                         SELECT 1 FROM seats WHERE game_id = ?1 AND kind = 'human'
                             AND token_hash IS NOT NULL AND token_hash <> ?3)
                     RETURNING rev",
                    params![game, at_ms, token_hash],
                    |r| r.get(0),
                )
                .optional()
                .map_err(unavailable)?;
            rev.map(|r| Out::Rev(r as u64))
                .ok_or(StoreError::Conflict(Conflict::Changed))
        }
        Op::Chat(w) => {
            let row: Option<(i64, i64)> = tx
                .query_row(
                    "UPDATE games SET chats = chats + 1, rev = rev + 1
                     WHERE id = ?1 AND chats < ?2 RETURNING chats - 1, rev",
                    params![w.game, w.max_lines as i64],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()
                .map_err(unavailable)?;
            let Some((n, rev)) = row else {
                return Err(missing_or(tx, &w.game, Conflict::Changed));
            };
            let (text, phrase) = w.line.columns();
            tx.execute(
                "INSERT INTO chat (game_id, n, at, seat, name, text, phrase)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![w.game, n, w.at_ms, w.seat, w.name, text, phrase],
            )
            .map_err(unavailable)?;
            Ok(Out::Line(n as u64, rev as u64))
        }
        Op::Lease {
            game,
            version,
            holder,
            now_ms,
            until_ms,
        } => {
            let got: Option<i64> = tx
                .query_row(
                    "INSERT INTO bot_leases (game_id, version, holder, expires_at)
                     SELECT ?1, ?2, ?3, ?5 WHERE EXISTS (SELECT 1 FROM games WHERE id = ?1
                         AND version = ?2 AND bot_to_act AND status <> 'over')
                     ON CONFLICT (game_id) DO UPDATE SET version = excluded.version,
                         holder = excluded.holder, expires_at = excluded.expires_at
                     WHERE bot_leases.holder = excluded.holder OR bot_leases.expires_at <= ?4
                         OR bot_leases.version <> excluded.version
                     RETURNING 1",
                    params![game, *version as i64, holder, now_ms, until_ms],
                    |r| r.get(0),
                )
                .optional()
                .map_err(unavailable)?;
            Ok(Out::Leased(got.is_some()))
        }
        Op::Release { game, holder } => {
            tx.execute(
                "DELETE FROM bot_leases WHERE game_id = ?1 AND holder = ?2",
                params![game, holder],
            )
            .map_err(unavailable)?;
            Ok(Out::Done)
        }
        Op::Exec {
            steps,
            first_must_change,
        } => {
            for (i, (sql, values)) in steps.iter().enumerate() {
                let changed = tx
                    .execute(sql, rusqlite::params_from_iter(values.iter()))
                    .map_err(|e| {
                        if is_constraint(&e) {
                            StoreError::Conflict(Conflict::Exists)
                        } else {
                            unavailable(e)
                        }
                    })?;
                if i == 0 && *first_must_change && changed == 0 {
                    return Err(StoreError::NotFound);
                }
            }
            Ok(Out::Done)
        }
    }
}

fn insert_game(
    tx: &Connection,
    g: &SavedGame,
    after: Progress,
    moves: &[SavedMove],
) -> Result<(), StoreError> {
    let inserted = tx.execute(
        "INSERT INTO games (id, created_at, variant, deck, start_player, public, creator,
                            version, status, bot_to_act, rev, rematch, host, rated, clock,
                            started_at, deadline, active_at, ended, chats, practice)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                 ?18, ?19, ?20, ?21)",
        params![
            g.id,
            g.created_at,
            g.variant.name(),
            serde_json::to_string(&g.deck).map_err(unavailable)?,
            g.start_player,
            g.public,
            g.creator,
            moves.len() as i64,
            replay::status(after.over, &g.seats).name(),
            after.bot_to_act,
            g.rev as i64,
            g.rematch,
            g.host,
            g.rated,
            g.clock.stored(),
            g.started_ms,
            after.deadline_ms,
            active_at(g, moves),
            g.ended.map(Ended::name),
            g.chats as i64,
            g.practice,
        ],
    );
    match inserted {
        Ok(_) => {}
        Err(e) if is_constraint(&e) => return Err(StoreError::Conflict(Conflict::Exists)),
        Err(e) => return Err(unavailable(e)),
    }
    for (i, seat) in g.seats.iter().enumerate() {
        let c = seat.columns();
        tx.execute(
            "INSERT INTO seats (game_id, seat, kind, bot, level, invite_hash, token_hash, name,
                                player_id, left_reason, left_version, left_at, left_bot,
                                left_level)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            params![
                g.id,
                i as i64,
                c.kind,
                c.bot,
                c.level,
                c.invite,
                c.token,
                c.name,
                c.player,
                c.left_reason,
                c.left_version,
                c.left_at,
                c.left_bot,
                c.left_level
            ],
        )
        .map_err(unavailable)?;
    }
    if let Some(d) = &g.daily {
        let r = d.result;
        let inserted = tx.execute(
            "INSERT INTO daily_games (game_id, day, variant, player_id, par, tiles, score,
                                      reached, finished_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                g.id,
                d.day,
                g.variant.name(),
                g.seats.first().and_then(SavedSeat::player),
                d.par,
                r.map(|r| r.tiles),
                r.map(|r| r.score),
                r.map(|r| r.reached),
                r.map(|r| r.at_ms)
            ],
        );
        match inserted {
            Ok(_) => {}
            // One attempt per account, day and variant (and one par game).
            Err(e) if is_constraint(&e) => return Err(StoreError::Conflict(Conflict::Played)),
            Err(e) => return Err(unavailable(e)),
        }
    }
    for (n, m) in moves.iter().enumerate() {
        tx.execute(
            "INSERT INTO moves (game_id, n, seat, move, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                g.id,
                n as i64,
                m.seat,
                serde_json::to_string(&m.mv).map_err(unavailable)?,
                (m.at_ms != 0).then_some(m.at_ms)
            ],
        )
        .map_err(unavailable)?;
    }
    Ok(())
}

fn seats(conn: &Connection, id: &str) -> Result<Vec<SavedSeat>, StoreError> {
    let mut q = conn
        .prepare_cached(
            "SELECT seat, kind, bot, level, invite_hash, token_hash, name, player_id,
                    left_reason, left_version, left_at, left_bot, left_level
             FROM seats WHERE game_id = ?1 ORDER BY seat",
        )
        .map_err(unavailable)?;
    let rows: Vec<(i64, SeatColumns)> = q
        .query_map([id], |r| {
            Ok((
                r.get(0)?,
                SeatColumns {
                    kind: r.get(1)?,
                    bot: r.get(2)?,
                    level: r.get(3)?,
                    invite: r.get(4)?,
                    token: r.get(5)?,
                    name: r.get(6)?,
                    player: r.get(7)?,
                    left_reason: r.get(8)?,
                    left_version: r.get(9)?,
                    left_at: r.get(10)?,
                    left_bot: r.get(11)?,
                    left_level: r.get(12)?,
                },
            ))
        })
        .and_then(|rows| rows.collect())
        .map_err(|e| StoreError::damaged(id, e))?;
    let mut seats = Vec::new();
    for (seat, columns) in rows {
        if seat as usize != seats.len() {
            return Err(StoreError::damaged(id, format!("seat {seat} out of order")));
        }
        seats.push(SavedSeat::from_columns(id, columns)?);
    }
    Ok(seats)
}

/// Stores how a game ended; for a rated game, its players' new ratings too.
fn store_end(tx: &Connection, game: &str, end: &GameEnd) -> Result<(), StoreError> {
    let is_rated: bool = tx
        .query_row(
            "UPDATE games SET outcome = ?2, ended_at = ?3 WHERE id = ?1 RETURNING rated",
            params![game, end.outcome, end.at],
            |r| r.get(0),
        )
        .map_err(unavailable)?;
    if let Some(r) = end.solo {
        // A daily game's result, for the leaderboards (no row for any other game).
        tx.execute(
            "UPDATE daily_games SET tiles = ?2, score = ?3, reached = ?4, finished_at = ?5
             WHERE game_id = ?1",
            params![game, r.tiles, r.score, r.reached, r.at_ms],
        )
        .map_err(unavailable)?;
    }
    if !is_rated {
        return Ok(());
    }
    let mut q = tx
        .prepare_cached(
            "SELECT s.player_id, r.mu, r.sigma, r.games FROM seats s
             LEFT JOIN ratings r ON r.player_id = s.player_id
             WHERE s.game_id = ?1 ORDER BY s.seat",
        )
        .map_err(unavailable)?;
    type Before = (Option<String>, Option<f64>, Option<f64>, Option<u32>);
    let before: Vec<Before> = q
        .query_map([game], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .and_then(|rows| rows.collect())
        .map_err(unavailable)?;
    let before = before
        .into_iter()
        .map(|(player, mu, sigma, games)| {
            let rating = match (mu, sigma, games) {
                (Some(mu), Some(sigma), Some(games)) => Some(Rating { mu, sigma, games }),
                _ => None,
            };
            (player, rating)
        })
        .collect();
    for (player, r) in rated(game, before, &end.places)? {
        tx.execute(
            "INSERT INTO ratings (player_id, mu, sigma, games) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (player_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,
                 games = excluded.games",
            params![player, r.mu, r.sigma, r.games],
        )
        .map_err(unavailable)?;
        tx.execute(
            "INSERT INTO rating_history (player_id, game_id, at, mu, sigma)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![player, game, end.at, r.mu, r.sigma],
        )
        .map_err(unavailable)?;
    }
    Ok(())
}

/// One game with its seats and moves.
fn load(conn: &Connection, id: &str) -> Result<SavedGame, StoreError> {
    type Row = (i64, String, String, u8, bool, String, i64, Option<String>);
    let row: Option<(Row, Option<String>, bool, bool)> = conn
        .prepare_cached(
            "SELECT created_at, variant, deck, start_player, public, creator, rev, rematch,
                    host, rated, practice
             FROM games WHERE id = ?1",
        )
        .and_then(|mut q| {
            q.query_row([id], |r| {
                Ok((
                    (
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                        r.get(7)?,
                    ),
                    r.get(8)?,
                    r.get(9)?,
                    r.get(10)?,
                ))
            })
            .optional()
        })
        .map_err(|e| StoreError::damaged(id, e))?;
    let Some((
        (created_at, variant, deck, start_player, public, creator, rev, rematch),
        host,
        is_rated,
        practice,
    )) = row
    else {
        return Err(StoreError::NotFound);
    };
    let deck =
        serde_json::from_str(&deck).map_err(|e| StoreError::damaged(id, format!("deck: {e}")))?;
    let variant = Variant::parse(&variant)
        .ok_or_else(|| StoreError::damaged(id, format!("unknown variant {variant:?}")))?;
    let moves = moves_from(conn, id, 0)?;
    let (clock, started_ms, ended, chats) = timing(conn, id)?;
    let daily = daily_tag(conn, id)?;
    Ok(SavedGame {
        id: id.to_string(),
        created_at,
        variant,
        deck,
        start_player,
        public,
        creator,
        host,
        rated: is_rated,
        practice,
        seats: seats(conn, id)?,
        moves,
        rev: rev as u64,
        rematch,
        clock,
        started_ms,
        ended,
        chats,
        daily,
    })
}

/// The game's place in the daily challenge, if it has one.
fn daily_tag(conn: &Connection, id: &str) -> Result<Option<DailyTag>, StoreError> {
    type Row = (
        String,
        bool,
        Option<u8>,
        Option<i64>,
        Option<bool>,
        Option<i64>,
    );
    let row: Option<Row> = conn
        .prepare_cached(
            "SELECT day, par, tiles, score, reached, finished_at FROM daily_games
             WHERE game_id = ?1",
        )
        .and_then(|mut q| {
            q.query_row([id], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            })
            .optional()
        })
        .map_err(|e| StoreError::damaged(id, e))?;
    Ok(row.map(|(day, par, tiles, score, reached, at)| DailyTag {
        day,
        par,
        result: solo_result(tiles, score, reached, at),
    }))
}

/// A daily result from its columns (all set once the game is over by its rules).
fn solo_result(
    tiles: Option<u8>,
    score: Option<i64>,
    reached: Option<bool>,
    at: Option<i64>,
) -> Option<SoloResult> {
    Some(SoloResult {
        tiles: tiles?,
        score: score?,
        reached: reached?,
        at_ms: at?,
    })
}

/// Daily games from a query of game, day, variant, player, name, par, tiles, score, reached
/// and finished at; a row whose variant cannot be read is left out.
fn daily_entries(
    c: &Connection,
    sql: &str,
    values: impl rusqlite::Params,
) -> Result<Vec<DailyEntry>, StoreError> {
    let mut q = c.prepare_cached(sql).map_err(unavailable)?;
    type Row = (
        String,
        String,
        String,
        Option<String>,
        Option<String>,
        bool,
        Option<u8>,
        Option<i64>,
        Option<bool>,
        Option<i64>,
    );
    let rows: Vec<Row> = q
        .query_map(values, |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
                r.get(8)?,
                r.get(9)?,
            ))
        })
        .and_then(|rows| rows.collect())
        .map_err(unavailable)?;
    Ok(rows
        .into_iter()
        .filter_map(
            |(game, day, variant, player, name, par, tiles, score, reached, at)| {
                Some(DailyEntry {
                    variant: Variant::parse(&variant)?,
                    game,
                    day,
                    player,
                    name,
                    par,
                    result: solo_result(tiles, score, reached, at),
                })
            },
        )
        .collect())
}

/// The columns `daily_entries` reads, of `daily_games d` with its account `p`.
const DAILY_COLUMNS: &str = "d.game_id, d.day, d.variant, d.player_id,
    CASE WHEN p.deleted_at IS NULL THEN p.name END, d.par, d.tiles, d.score, d.reached,
    d.finished_at";

/// The moves of a game from number `from` on.
fn moves_from(conn: &Connection, id: &str, from: u64) -> Result<Vec<SavedMove>, StoreError> {
    let mut q = conn
        .prepare_cached(
            "SELECT n, seat, move, at FROM moves WHERE game_id = ?1 AND n >= ?2 ORDER BY n",
        )
        .map_err(unavailable)?;
    let rows: Vec<(i64, u8, String, Option<i64>)> = q
        .query_map(params![id, from as i64], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .and_then(|rows| rows.collect())
        .map_err(|e| StoreError::damaged(id, e))?;
    decode_moves(
        id,
        from,
        rows.iter().map(|(n, s, t, at)| (*n, *s, t.as_str(), *at)),
    )
}

/// A game's time control, when its clocks started, why it ended, its chat lines.
fn timing(
    conn: &Connection,
    id: &str,
) -> Result<(TimeControl, Option<i64>, Option<Ended>, u64), StoreError> {
    let (clock, started, ended, chats): (Option<String>, Option<i64>, Option<String>, i64) = conn
        .prepare_cached("SELECT clock, started_at, ended, chats FROM games WHERE id = ?1")
        .and_then(|mut q| q.query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))))
        .map_err(|e| StoreError::damaged(id, e))?;
    timing_from(id, clock, started, ended, chats)
}

/// Why a write that changed nothing was refused: the game is missing, at another version, or
/// else `otherwise`.
fn refusal(
    tx: &Connection,
    game: &str,
    n: u64,
    otherwise: Conflict,
) -> Result<StoreError, StoreError> {
    let version: Option<i64> = tx
        .query_row("SELECT version FROM games WHERE id = ?1", [game], |r| {
            r.get(0)
        })
        .optional()
        .map_err(unavailable)?;
    Ok(match version {
        None => StoreError::NotFound,
        Some(v) if v as u64 != n => {
            StoreError::Conflict(Conflict::StaleVersion { current: v as u64 })
        }
        Some(_) => StoreError::Conflict(otherwise),
    })
}

#[async_trait]
impl Store for SqliteStore {
    async fn create(
        &self,
        game: &SavedGame,
        after: Progress,
        max_open: Option<u64>,
        rematch_of: Option<(&str, u64)>,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        let op = Op::Create {
            game: game.clone(),
            after,
            max_open,
            rematch_of: rematch_of.map(|(g, rev)| (g.to_string(), rev)),
        };
        match self.write(op).await? {
            Out::Revs(changed) => Ok(changed),
            _ => unreachable!("a create answers the games it changed"),
        }
    }

    async fn game(&self, id: &str) -> Result<SavedGame, StoreError> {
        let id = id.to_string();
        self.read(move |c| load(c, &id)).await
    }

    async fn rev(&self, id: &str) -> Result<u64, StoreError> {
        let id = id.to_string();
        self.read(move |c| {
            c.query_row("SELECT rev FROM games WHERE id = ?1", [&id], |r| {
                r.get::<_, i64>(0)
            })
            .optional()
            .map_err(unavailable)?
            .map(|r| r as u64)
            .ok_or(StoreError::NotFound)
        })
        .await
    }

    async fn since(&self, id: &str, from: u64) -> Result<Catchup, StoreError> {
        let id = id.to_string();
        self.read(move |c| {
            let row: Option<(i64, Option<String>)> = c
                .prepare_cached("SELECT rev, rematch FROM games WHERE id = ?1")
                .and_then(|mut q| {
                    q.query_row([&id], |r| Ok((r.get(0)?, r.get(1)?)))
                        .optional()
                })
                .map_err(unavailable)?;
            let Some((rev, rematch)) = row else {
                return Err(StoreError::NotFound);
            };
            let moves = moves_from(c, &id, from)?;
            let (_, started_ms, ended, chats) = timing(c, &id)?;
            Ok(Catchup {
                rev: rev as u64,
                seats: seats(c, &id)?,
                rematch,
                started_ms,
                ended,
                chats,
                moves,
            })
        })
        .await
    }

    async fn append_move(&self, w: &MoveWrite) -> Result<u64, StoreError> {
        match self.write(Op::Move(w.clone())).await? {
            Out::Rev(rev) => Ok(rev),
            _ => unreachable!("a move answers its rev"),
        }
    }

    async fn claim(&self, w: &ClaimWrite) -> Result<Vec<(String, u64)>, StoreError> {
        match self.write(Op::Claim(w.clone())).await? {
            Out::Revs(changed) => Ok(changed),
            _ => unreachable!("a claim answers the games it changed"),
        }
    }

    async fn leave(&self, w: &LeaveWrite) -> Result<u64, StoreError> {
        match self.write(Op::Leave(w.clone())).await? {
            Out::Rev(rev) => Ok(rev),
            _ => unreachable!("leaving answers the game's rev"),
        }
    }

    async fn due_clocks(&self, now_ms: i64, limit: u32) -> Result<Vec<String>, StoreError> {
        self.read(move |c| {
            let mut q = c
                .prepare_cached(
                    "SELECT id FROM games WHERE status <> 'over' AND (deadline <= ?1
                         OR (deadline IS NULL AND clock IS NOT NULL AND started_at IS NOT NULL
                             AND status = 'playing' AND NOT bot_to_act))
                     ORDER BY deadline IS NULL, deadline LIMIT ?2",
                )
                .map_err(unavailable)?;
            q.query_map(params![now_ms, limit], |r| r.get(0))
                .and_then(|rows| rows.collect())
                .map_err(unavailable)
        })
        .await
    }

    async fn repair(&self, game: &str, n: u64, after: Progress) -> Result<bool, StoreError> {
        let op = Op::Exec {
            steps: vec![(
                "UPDATE games SET deadline = ?3, bot_to_act = ?4
                 WHERE id = ?1 AND version = ?2 AND status <> 'over'",
                vec![
                    Value::Text(game.to_string()),
                    Value::Integer(n as i64),
                    after.deadline_ms.map_or(Value::Null, Value::Integer),
                    Value::Integer(i64::from(after.bot_to_act)),
                ],
            )],
            first_must_change: true,
        };
        match self.write(op).await {
            Ok(_) => Ok(true),
            Err(StoreError::NotFound) => Ok(false),
            Err(e) => Err(e),
        }
    }

    async fn end_idle(&self, sweep: IdleSweep) -> Result<Vec<(String, u64)>, StoreError> {
        match self.write(Op::EndIdle(sweep)).await? {
            Out::Revs(changed) => Ok(changed),
            _ => unreachable!("a sweep answers the games it ended"),
        }
    }

    async fn cancel(&self, game: &str, token_hash: &str, at_ms: i64) -> Result<u64, StoreError> {
        let op = Op::Cancel {
            game: game.to_string(),
            token_hash: token_hash.to_string(),
            at_ms,
        };
        match self.write(op).await? {
            Out::Rev(rev) => Ok(rev),
            _ => unreachable!("cancelling answers the game's rev"),
        }
    }

    async fn post_chat(&self, w: &ChatWrite) -> Result<(u64, u64), StoreError> {
        match self.write(Op::Chat(w.clone())).await? {
            Out::Line(n, rev) => Ok((n, rev)),
            _ => unreachable!("a chat line answers its number"),
        }
    }

    async fn chat(&self, game: &str, from: u64, limit: u32) -> Result<Vec<ChatLine>, StoreError> {
        let game = game.to_string();
        self.read(move |c| {
            let mut q = c
                .prepare_cached(
                    "SELECT n, at, seat, name, text, phrase FROM chat
                     WHERE game_id = ?1 AND n >= ?2 ORDER BY n LIMIT ?3",
                )
                .map_err(unavailable)?;
            q.query_map(params![game, from as i64, limit], |r| {
                Ok(ChatLine {
                    n: r.get::<_, i64>(0)? as u64,
                    at_ms: r.get(1)?,
                    seat: r.get(2)?,
                    name: r.get(3)?,
                    line: ChatText::from_columns(r.get(4)?, r.get(5)?),
                })
            })
            .and_then(|rows| rows.collect())
            .map_err(unavailable)
        })
        .await
    }

    async fn lobby(&self, limit: u32) -> Result<Vec<Summary>, StoreError> {
        self.read(move |c| {
            let mut q = c
                .prepare_cached(
                    "SELECT id, created_at, variant, version, status, host, rated, clock FROM games
                     WHERE public AND status <> 'over'
                     ORDER BY created_at DESC, id DESC LIMIT ?1",
                )
                .map_err(unavailable)?;
            type Row = (
                String,
                i64,
                String,
                i64,
                String,
                Option<String>,
                bool,
                Option<String>,
            );
            let rows: Vec<Row> = q
                .query_map([limit], |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get(4)?,
                        r.get(5)?,
                        r.get(6)?,
                        r.get(7)?,
                    ))
                })
                .and_then(|rows| rows.collect())
                .map_err(unavailable)?;
            let mut games = Vec::new();
            for (id, created_at, variant, version, status, host, is_rated, clock) in rows {
                // A damaged game stays out of the lobby rather than emptying it.
                let (Some(variant), Some(status), Ok(seats), Ok(clock)) = (
                    Variant::parse(&variant),
                    Status::parse(&status),
                    seats(c, &id),
                    TimeControl::from_stored(clock.as_deref()),
                ) else {
                    tracing::warn!("game {id} is damaged; left out of the lobby");
                    continue;
                };
                games.push(Summary {
                    id,
                    created_at,
                    host,
                    rated: is_rated,
                    variant,
                    version: version as u64,
                    status,
                    seats,
                    clock,
                });
            }
            Ok(games)
        })
        .await
    }

    async fn counts(&self) -> Result<Counts, StoreError> {
        self.read(|c| {
            c.query_row(
                "SELECT COUNT(*), COALESCE(SUM(status <> 'over'), 0) FROM games",
                [],
                |r| {
                    Ok(Counts {
                        games: r.get::<_, i64>(0)? as u64,
                        open: r.get::<_, i64>(1)? as u64,
                    })
                },
            )
            .map_err(unavailable)
        })
        .await
    }

    async fn bot_turns(&self, now_ms: i64, limit: u32) -> Result<Vec<BotTurn>, StoreError> {
        self.read(move |c| {
            let mut q = c
                .prepare_cached(
                    "SELECT g.id, g.version, g.creator FROM games g
                     LEFT JOIN bot_leases l ON l.game_id = g.id AND l.expires_at > ?1
                     WHERE g.bot_to_act AND g.status <> 'over' AND l.game_id IS NULL
                     ORDER BY g.created_at, g.id LIMIT ?2",
                )
                .map_err(unavailable)?;
            q.query_map(params![now_ms, limit], |r| {
                Ok(BotTurn {
                    game: r.get(0)?,
                    version: r.get::<_, i64>(1)? as u64,
                    creator: r.get(2)?,
                })
            })
            .and_then(|rows| rows.collect())
            .map_err(unavailable)
        })
        .await
    }

    async fn lease(
        &self,
        game: &str,
        version: u64,
        holder: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<bool, StoreError> {
        let op = Op::Lease {
            game: game.to_string(),
            version,
            holder: holder.to_string(),
            now_ms,
            until_ms,
        };
        match self.write(op).await? {
            Out::Leased(got) => Ok(got),
            _ => unreachable!("a lease answers whether it was taken"),
        }
    }

    async fn release(&self, game: &str, holder: &str) -> Result<(), StoreError> {
        let op = Op::Release {
            game: game.to_string(),
            holder: holder.to_string(),
        };
        self.write(op).await.map(|_| ())
    }

    async fn ping(&self) -> Result<(), StoreError> {
        self.read(|c| {
            c.query_row("SELECT 1", [], |r| r.get::<_, i64>(0))
                .map(|_| ())
                .map_err(unavailable)
        })
        .await
    }

    async fn game_ids(&self, after: Option<&str>, limit: u32) -> Result<Vec<String>, StoreError> {
        let after = after.unwrap_or("").to_string();
        self.read(move |c| {
            let mut q = c
                .prepare_cached("SELECT id FROM games WHERE id > ?1 ORDER BY id LIMIT ?2")
                .map_err(unavailable)?;
            q.query_map(params![after, limit], |r| r.get(0))
                .and_then(|rows| rows.collect())
                .map_err(unavailable)
        })
        .await
    }

    async fn import(&self, game: &SavedGame, after: Progress) -> Result<(), StoreError> {
        self.write(Op::Import {
            game: game.clone(),
            after,
        })
        .await
        .map(|_| ())
    }

    async fn move_counts(&self, games: &[String]) -> Result<HashMap<String, u64>, StoreError> {
        let games = games.to_vec();
        self.read(move |c| {
            let mut q = c
                .prepare_cached("SELECT COUNT(*) FROM moves WHERE game_id = ?1")
                .map_err(unavailable)?;
            games
                .into_iter()
                .map(|g| {
                    let n: i64 = q.query_row([&g], |r| r.get(0)).map_err(unavailable)?;
                    Ok((g, n as u64))
                })
                .collect()
        })
        .await
    }

    fn changes(&self) -> Option<broadcast::Receiver<super::Change>> {
        None
    }

    fn exclusive(&self) -> bool {
        self._lock.is_some()
    }
}

fn player_row(r: &rusqlite::Row) -> rusqlite::Result<Player> {
    Ok(Player {
        id: r.get(0)?,
        name: r.get(1)?,
        password: r.get(2)?,
        created_at: r.get(3)?,
    })
}

fn text(s: &str) -> Value {
    Value::Text(s.to_string())
}

impl SqliteStore {
    async fn exec(
        &self,
        steps: Vec<(&'static str, Vec<Value>)>,
        first_must_change: bool,
    ) -> Result<(), StoreError> {
        self.write(Op::Exec {
            steps,
            first_must_change,
        })
        .await
        .map(|_| ())
    }
}

#[async_trait]
impl Daily for SqliteStore {
    async fn server_secret(&self, name: &str, fresh: &str) -> Result<String, StoreError> {
        let sql = "INSERT INTO server_secrets (name, value) VALUES (?1, ?2)
                   ON CONFLICT (name) DO NOTHING";
        self.exec(vec![(sql, vec![text(name), text(fresh)])], false)
            .await?;
        let name = name.to_string();
        self.read(move |c| {
            c.query_row(
                "SELECT value FROM server_secrets WHERE name = ?1",
                [&name],
                |r| r.get(0),
            )
            .map_err(unavailable)
        })
        .await
    }

    async fn daily_of(&self, player: &str, day: &str) -> Result<Vec<DailyEntry>, StoreError> {
        let (player, day) = (player.to_string(), day.to_string());
        self.read(move |c| {
            daily_entries(
                c,
                &format!(
                    "SELECT {DAILY_COLUMNS} FROM daily_games d
                     LEFT JOIN players p ON p.id = d.player_id
                     WHERE d.player_id = ?1 AND d.day = ?2 ORDER BY d.variant"
                ),
                params![player, day],
            )
        })
        .await
    }

    async fn daily_board(
        &self,
        day: &str,
        variant: Variant,
    ) -> Result<Vec<DailyEntry>, StoreError> {
        let day = day.to_string();
        self.read(move |c| {
            daily_entries(
                c,
                &format!(
                    "SELECT {DAILY_COLUMNS} FROM daily_games d
                     LEFT JOIN players p ON p.id = d.player_id
                     WHERE d.day = ?1 AND d.variant = ?2
                         AND (d.par OR (d.player_id IS NOT NULL AND d.finished_at IS NOT NULL))"
                ),
                params![day, variant.name()],
            )
        })
        .await
    }

    async fn daily_days(&self, player: &str, limit: u32) -> Result<Vec<String>, StoreError> {
        let player = player.to_string();
        self.read(move |c| {
            let mut q = c
                .prepare_cached(
                    "SELECT DISTINCT day FROM daily_games
                     WHERE player_id = ?1 AND finished_at IS NOT NULL
                     ORDER BY day DESC LIMIT ?2",
                )
                .map_err(unavailable)?;
            q.query_map(params![player, limit], |r| r.get(0))
                .and_then(|rows| rows.collect())
                .map_err(unavailable)
        })
        .await
    }
}

#[async_trait]
impl Accounts for SqliteStore {
    async fn sign_up(&self, p: &NewPlayer) -> Result<(), StoreError> {
        let sql = "INSERT INTO players (id, name, name_key, password, created_at) VALUES (?1, ?2, ?3, ?4, ?5)";
        let values = vec![
            text(&p.id),
            text(&p.name),
            text(&p.key),
            text(&p.password),
            Value::Integer(p.created_at),
        ];
        self.exec(vec![(sql, values)], false).await
    }

    async fn player_named(&self, key: &str) -> Result<Option<Player>, StoreError> {
        let key = key.to_string();
        self.read(move |c| {
            c.query_row(
                "SELECT id, name, password, created_at FROM players WHERE name_key = ?1",
                [&key],
                player_row,
            )
            .optional()
            .map_err(unavailable)
        })
        .await
    }

    async fn open_session(
        &self,
        token_hash: &str,
        player: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let sql = "INSERT INTO sessions (token_hash, player_id, created_at) VALUES (?1, ?2, ?3)";
        let values = vec![text(token_hash), text(player), Value::Integer(now)];
        self.exec(vec![(sql, values)], false).await
    }

    async fn session(&self, token_hash: &str, since: i64) -> Result<Option<Player>, StoreError> {
        let token_hash = token_hash.to_string();
        self.read(move |c| {
            c.query_row(
                "SELECT p.id, p.name, p.password, p.created_at FROM sessions s
                 JOIN players p ON p.id = s.player_id
                 WHERE s.token_hash = ?1 AND s.created_at > ?2 AND p.deleted_at IS NULL",
                params![token_hash, since],
                player_row,
            )
            .optional()
            .map_err(unavailable)
        })
        .await
    }

    async fn close_session(&self, token_hash: &str) -> Result<(), StoreError> {
        let sql = "DELETE FROM sessions WHERE token_hash = ?1";
        self.exec(vec![(sql, vec![text(token_hash)])], false).await
    }

    async fn close_sessions(&self, player: &str) -> Result<(), StoreError> {
        let sql = "DELETE FROM sessions WHERE player_id = ?1";
        self.exec(vec![(sql, vec![text(player)])], false).await
    }

    async fn set_password(&self, player: &str, password: &str) -> Result<(), StoreError> {
        let sql = "UPDATE players SET password = ?2 WHERE id = ?1 AND deleted_at IS NULL";
        self.exec(vec![(sql, vec![text(player), text(password)])], true)
            .await
    }

    async fn delete_player(&self, player: &str, now: i64) -> Result<(), StoreError> {
        let forget = "UPDATE players SET name_key = NULL, password = '', deleted_at = ?2
                      WHERE id = ?1 AND deleted_at IS NULL";
        let sessions = "DELETE FROM sessions WHERE player_id = ?1";
        let steps = vec![
            (forget, vec![text(player), Value::Integer(now)]),
            (sessions, vec![text(player)]),
            (
                // Its games name a deleted player (and cached copies of them are stale).
                "UPDATE games SET rev = rev + 1 WHERE id IN
                     (SELECT game_id FROM seats WHERE player_id = ?1 AND name IS NOT NULL)",
                vec![text(player)],
            ),
            (
                "UPDATE seats SET name = NULL WHERE player_id = ?1",
                vec![text(player)],
            ),
        ];
        self.exec(steps, true).await
    }

    async fn login_failed(
        &self,
        subjects: &[String],
        now: i64,
        forget_before: i64,
    ) -> Result<(), StoreError> {
        let mut steps = vec![(
            "DELETE FROM login_failures WHERE at < ?1",
            vec![Value::Integer(forget_before)],
        )];
        for s in subjects {
            steps.push((
                "INSERT INTO login_failures (subject, at) VALUES (?1, ?2)",
                vec![text(s), Value::Integer(now)],
            ));
        }
        self.exec(steps, false).await
    }

    async fn login_failures(&self, subject: &str, since: i64) -> Result<u64, StoreError> {
        let subject = subject.to_string();
        self.read(move |c| {
            c.query_row(
                "SELECT COUNT(*) FROM login_failures WHERE subject = ?1 AND at >= ?2",
                params![subject, since],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n as u64)
            .map_err(unavailable)
        })
        .await
    }

    async fn rating(&self, player: &str) -> Result<Option<Rating>, StoreError> {
        let player = player.to_string();
        self.read(move |c| {
            c.query_row(
                "SELECT mu, sigma, games FROM ratings WHERE player_id = ?1 AND games > 0",
                [&player],
                |r| {
                    Ok(Rating {
                        mu: r.get(0)?,
                        sigma: r.get(1)?,
                        games: r.get(2)?,
                    })
                },
            )
            .optional()
            .map_err(unavailable)
        })
        .await
    }

    async fn rating_history(
        &self,
        player: &str,
        limit: u32,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        let player = player.to_string();
        self.read(move |c| {
            let mut q = c
                .prepare_cached(
                    "SELECT game_id, at, mu, sigma FROM rating_history WHERE player_id = ?1
                     ORDER BY at DESC, game_id DESC LIMIT ?2",
                )
                .map_err(unavailable)?;
            let mut points: Vec<RatingPoint> = q
                .query_map(params![player, limit], |r| {
                    Ok(RatingPoint {
                        game: r.get(0)?,
                        at: r.get(1)?,
                        mu: r.get(2)?,
                        sigma: r.get(3)?,
                    })
                })
                .and_then(|rows| rows.collect())
                .map_err(unavailable)?;
            points.reverse();
            Ok(points)
        })
        .await
    }

    async fn games_of(&self, player: &str, limit: u32) -> Result<Vec<PlayedGame>, StoreError> {
        let player = player.to_string();
        self.read(move |c| {
            let mut games = played(
                c,
                "SELECT g.id, g.created_at, g.ended_at, g.variant, g.rated, g.status, s.seat,
                        g.outcome, (SELECT group_concat(l.seat) FROM seats l
                                    WHERE l.game_id = g.id AND l.left_reason IS NOT NULL)
                 FROM seats s JOIN games g ON g.id = s.game_id
                 WHERE s.player_id = ?1 AND NOT g.practice
                 ORDER BY g.created_at DESC, g.id DESC LIMIT ?2",
                params![player, limit],
            )?;
            for g in &mut games {
                g.seats = seats(c, &g.id)?;
            }
            Ok(games)
        })
        .await
    }

    async fn results_of(&self, player: &str) -> Result<Vec<PlayedGame>, StoreError> {
        let player = player.to_string();
        self.read(move |c| {
            played(
                c,
                "SELECT g.id, g.created_at, g.ended_at, g.variant, g.rated, g.status, s.seat,
                        g.outcome, (SELECT group_concat(l.seat) FROM seats l
                                    WHERE l.game_id = g.id AND l.left_reason IS NOT NULL)
                 FROM seats s JOIN games g ON g.id = s.game_id
                 WHERE s.player_id = ?1 AND g.status = 'over' AND NOT g.practice",
                params![player],
            )
        })
        .await
    }

    async fn leaderboard(&self, limit: u32, min_games: u32) -> Result<Vec<Ranked>, StoreError> {
        self.read(move |c| {
            let mut q = c
                .prepare_cached(
                    "SELECT p.name, r.mu, r.sigma, r.games FROM ratings r
                     JOIN players p ON p.id = r.player_id
                     WHERE p.deleted_at IS NULL AND r.games >= ?2
                     ORDER BY r.mu - 3 * r.sigma DESC, p.name_key LIMIT ?1",
                )
                .map_err(unavailable)?;
            q.query_map(params![limit, min_games], |r| {
                Ok(Ranked {
                    name: r.get(0)?,
                    rating: Rating {
                        mu: r.get(1)?,
                        sigma: r.get(2)?,
                        games: r.get(3)?,
                    },
                })
            })
            .and_then(|rows| rows.collect())
            .map_err(unavailable)
        })
        .await
    }
}

/// Games an account played, from a query of id, created and ended at, variant, rated, status,
/// seat and outcome; games whose variant or status cannot be read are left out.
fn played(
    c: &Connection,
    sql: &str,
    values: impl rusqlite::Params,
) -> Result<Vec<PlayedGame>, StoreError> {
    let mut q = c.prepare_cached(sql).map_err(unavailable)?;
    type Row = (
        String,
        i64,
        Option<i64>,
        String,
        bool,
        String,
        u8,
        Option<String>,
        Option<String>,
    );
    let rows: Vec<Row> = q
        .query_map(values, |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
                r.get(8)?,
            ))
        })
        .and_then(|rows| rows.collect())
        .map_err(unavailable)?;
    Ok(rows
        .into_iter()
        .filter_map(
            |(id, created_at, ended_at, variant, rated, status, seat, outcome, left)| {
                Some(PlayedGame {
                    variant: Variant::parse(&variant)?,
                    status: Status::parse(&status)?,
                    id,
                    created_at,
                    ended_at,
                    rated,
                    seat,
                    outcome,
                    seats: Vec::new(),
                    left_seats: super::seat_list(left),
                })
            },
        )
        .collect())
}

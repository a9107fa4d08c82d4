//! SQLite under the store: one file in WAL mode, served by one process (a lock beside the file
//! keeps a second server out). One writer thread commits queued writes in groups (one fsync for
//! many moves), each write in its own savepoint so a refused one changes nothing; readers use
//! their own connections.

use super::db::{Commit, Conn, Database, DbError, Dialect, Row, Sql, Value, ValueError, Work};
use super::game::rematch_id;
use super::replay::{self, progress};
use super::{Change, SqlStore, StoreError};
use async_trait::async_trait;
use futures_util::FutureExt;
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{params, Connection};
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex, PoisonError};
use tokio::sync::{broadcast, oneshot};

mod embedded {
    refinery::embed_migrations!("migrations/sqlite");
}

/// The store on a SQLite file.
pub type SqliteStore = SqlStore<Sqlite>;

/// Most writes committed in one transaction.
const GROUP: usize = 512;

/// SQLite's `user_version` of a file this code wrote: the first release wrote 1 and refuses
/// anything else, so it never runs on a file it cannot read.
const USER_VERSION: i64 = 10;

/// Read connections kept open between reads.
const IDLE_READERS: usize = 4;

pub struct Sqlite {
    path: PathBuf,
    jobs: Mutex<mpsc::Sender<Box<dyn Job>>>,
    readers: Arc<Mutex<Vec<Connection>>>,
    /// Held while the store is open with `exclusive`: the lock a second server is refused by.
    lock: Option<std::fs::File>,
}

/// A connection as the store's logic sees it.
struct SqliteConn<'a>(&'a mut Connection);

/// `$1` → `?1`: SQLite numbers parameters written `?N` (a `$1` would be a named one, numbered
/// by where it first appears).
fn numbered(sql: &str) -> Cow<'_, str> {
    if !sql.contains('$') {
        return Cow::Borrowed(sql);
    }
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('?');
        } else {
            out.push(ch);
        }
    }
    Cow::Owned(out)
}

fn db_error(e: rusqlite::Error) -> DbError {
    match &e {
        rusqlite::Error::SqliteFailure(f, _)
            if f.code == rusqlite::ErrorCode::ConstraintViolation =>
        {
            DbError::Constraint(Arc::new(e))
        }
        _ => DbError::failed(e),
    }
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Int(i) => ToSqlOutput::Borrowed(ValueRef::Integer(*i)),
            Value::Real(r) => ToSqlOutput::Borrowed(ValueRef::Real(*r)),
            Value::Bool(b) => ToSqlOutput::Borrowed(ValueRef::Integer(i64::from(*b))),
            Value::Text(s) => ToSqlOutput::Borrowed(ValueRef::Text(s.as_bytes())),
            Value::List(l) => ToSqlOutput::Owned(rusqlite::types::Value::Text(
                serde_json::to_string(l)
                    .map_err(|e| rusqlite::Error::ToSqlConversionFailure(e.into()))?,
            )),
        })
    }
}

fn value(v: ValueRef<'_>) -> Result<Value, DbError> {
    Ok(match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(r) => Value::Real(r),
        ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(_) => {
            return Err(DbError::Column {
                column: "?".into(),
                reason: ValueError::Unsupported("a blob"),
            })
        }
    })
}

#[async_trait]
impl Conn for SqliteConn<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    async fn query(&mut self, sql: Sql, args: &[Value]) -> Result<Vec<Row>, DbError> {
        let mut statement = self
            .0
            .prepare_cached(&numbered(sql.text(Dialect::Sqlite)))
            .map_err(db_error)?;
        let names: Arc<[String]> = statement
            .column_names()
            .into_iter()
            .map(String::from)
            .collect();
        let mut rows = statement
            .query(rusqlite::params_from_iter(args))
            .map_err(db_error)?;
        let mut out = Vec::new();
        while let Some(r) = rows.next().map_err(db_error)? {
            let values = (0..names.len())
                .map(|i| value(r.get_ref(i).map_err(db_error)?))
                .collect::<Result<_, _>>()?;
            out.push(Row::new(names.clone(), values));
        }
        Ok(out)
    }

    async fn execute(&mut self, sql: Sql, args: &[Value]) -> Result<u64, DbError> {
        let mut statement = self
            .0
            .prepare_cached(&numbered(sql.text(Dialect::Sqlite)))
            .map_err(db_error)?;
        statement
            .execute(rusqlite::params_from_iter(args))
            .map(|n| n as u64)
            .map_err(db_error)
    }

    async fn changed(&mut self, _game: &str, _rev: u64) -> Result<(), StoreError> {
        // One server per file: its own changes are all there are.
        Ok(())
    }
}

/// Runs `work` on `conn`. Every statement on SQLite finishes when it is called, so the work
/// never waits.
fn run<T>(conn: &mut Connection, work: Work<T>) -> Result<T, StoreError> {
    let mut c = SqliteConn(conn);
    work(&mut c)
        .now_or_never()
        .unwrap_or_else(|| Err(StoreError::unavailable_because("a SQLite statement waited")))
}

/// A write waiting for the writer thread: run in its group's transaction, then answered once
/// the group is committed (or with why it was not).
trait Job: Send {
    /// Runs the write; false if it failed (its savepoint is rolled back).
    fn run(&mut self, conn: &mut Connection) -> bool;
    /// Answers the caller: the write's own result, or `failed` if the group was not committed.
    fn answer(self: Box<Self>, failed: Option<StoreError>);
}

struct Write<T> {
    work: Option<Work<T>>,
    result: Option<Result<T, StoreError>>,
    reply: oneshot::Sender<Result<T, StoreError>>,
}

impl<T: Send> Job for Write<T> {
    fn run(&mut self, conn: &mut Connection) -> bool {
        let Some(work) = self.work.take() else {
            return false;
        };
        let result = run(conn, work);
        let ok = result.is_ok();
        self.result = Some(result);
        ok
    }

    fn answer(self: Box<Self>, failed: Option<StoreError>) {
        let result = match (failed, self.result) {
            (Some(e), _) => Err(e),
            (None, Some(result)) => result,
            (None, None) => Err(StoreError::unavailable_because("the write did not run")),
        };
        // The caller may have gone away; the write is stored all the same.
        let _ = self.reply.send(result);
    }
}

/// Takes whatever is queued (up to `GROUP` writes), commits it as one transaction, answers.
fn writer(mut conn: Connection, queue: mpsc::Receiver<Box<dyn Job>>) {
    while let Ok(first) = queue.recv() {
        let mut group = vec![first];
        while group.len() < GROUP {
            match queue.try_recv() {
                Ok(job) => group.push(job),
                Err(_) => break,
            }
        }
        let failed = commit(&mut conn, &mut group);
        for job in group {
            job.answer(failed.clone());
        }
    }
}

/// Runs the group in one transaction; why it was not committed, if it was not.
fn commit(conn: &mut Connection, group: &mut [Box<dyn Job>]) -> Option<StoreError> {
    let failed = |e: rusqlite::Error| Some(StoreError::unavailable(e));
    // IMMEDIATE: the write lock from the start, so a second process on the file (a tool) waits
    // its turn instead of failing part-way.
    if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
        return failed(e);
    }
    // A refused write rolls back to its savepoint: only it fails. Some errors (disk full,
    // I/O) make SQLite roll the whole transaction back: then nothing of the group is stored.
    for job in group.iter_mut() {
        if let Err(e) = conn.execute_batch("SAVEPOINT op") {
            let _ = conn.execute_batch("ROLLBACK");
            return failed(e);
        }
        let end = if job.run(conn) {
            "RELEASE op"
        } else {
            "ROLLBACK TO op; RELEASE op"
        };
        if let Err(e) = conn.execute_batch(end) {
            let _ = conn.execute_batch("ROLLBACK");
            return failed(e);
        }
        if conn.is_autocommit() {
            return Some(StoreError::unavailable_because(
                "the transaction was rolled back",
            ));
        }
    }
    match conn.execute_batch("COMMIT") {
        Ok(()) => None,
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            failed(e)
        }
    }
}

fn connect(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path).map_err(|e| StoreError::unusable_by(path.display(), e))?;
    // WAL lets readers run beside the writer; FULL syncs every commit, so an acknowledged move
    // survives a crash or a power cut.
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(|e| StoreError::unusable_by(path.display(), e))?;
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(StoreError::unavailable)?;
    conn.pragma_update(None, "foreign_keys", "ON")
        .map_err(StoreError::unavailable)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(StoreError::unavailable)?;
    Ok(conn)
}

/// The lock beside `path` that one serving process holds.
fn lock(path: &Path) -> Result<std::fs::File, StoreError> {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    let shown = PathBuf::from(&name).display().to_string();
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&name)
        .map_err(|e| StoreError::unusable_by(&shown, e))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::unusable(format!(
            "{} is already served by another sagani process; a SQLite file is served by one \
             process (several servers need PostgreSQL: --db postgres://…)",
            path.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(StoreError::unusable_by(format!("cannot lock {shown}"), e))
        }
    }
}

/// Brings the file's schema up to date: a new file, or one of the first release, or one this
/// code migrated before. Anything else is refused and left alone.
fn migrate(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(StoreError::unavailable)?;
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .and_then(|mut q| q.query_map([], |r| r.get(0))?.collect())
        .map_err(StoreError::unavailable)?;
    let known = version == 1 || tables.iter().any(|t| t == "refinery_schema_history");
    if (!tables.is_empty() && !known) || version > USER_VERSION {
        return Err(StoreError::unusable(format!(
            "{} is not a database of this sagani (schema version {version}; this version reads 1 to {USER_VERSION})",
            path.display()
        )));
    }
    embedded::migrations::runner()
        .run(conn)
        .map_err(|e| StoreError::unusable_by(format!("{}: migrating", path.display()), e))?;
    conn.pragma_update(None, "user_version", USER_VERSION)
        .map_err(StoreError::unavailable)?;
    fill_in(conn)
}

/// Games of the first release have no `status` yet: replay each and store where it stands.
/// A game that does not replay is logged and left as it is (its other rows are untouched).
fn fill_in(conn: &mut Connection) -> Result<(), StoreError> {
    let ids: Vec<String> = conn
        .prepare("SELECT id FROM games WHERE status IS NULL")
        .and_then(|mut q| q.query_map([], |r| r.get(0))?.collect())
        .map_err(StoreError::unavailable)?;
    if ids.is_empty() {
        return Ok(());
    }
    conn.execute_batch("BEGIN IMMEDIATE")
        .map_err(StoreError::unavailable)?;
    let filled = fill_in_games(conn, &ids);
    let end = if filled.is_ok() { "COMMIT" } else { "ROLLBACK" };
    conn.execute_batch(end).map_err(StoreError::unavailable)?;
    tracing::info!("{} games of an earlier version brought up to date", filled?);
    Ok(())
}

fn fill_in_games(conn: &mut Connection, ids: &[String]) -> Result<usize, StoreError> {
    let mut filled = 0;
    for id in ids {
        // Read as the store reads any game.
        let game = {
            let id = id.clone();
            run(
                conn,
                Box::new(move |c| Box::pin(async move { super::sql::load(c, &id).await })),
            )
        };
        let game = game.and_then(|g| {
            replay::replay(&g)
                .map(|r| (g, r))
                .map_err(|e| StoreError::damaged(id, e))
        });
        let (saved, recorded) = match game {
            Ok(g) => g,
            Err(e) => {
                tracing::warn!("{e}; the game is skipped");
                continue;
            }
        };
        let p = progress(&recorded, &saved.seats);
        conn.execute(
            "UPDATE games SET version = ?2, status = ?3, bot_to_act = ?4,
                 rematch = (SELECT id FROM games WHERE id = ?5)
             WHERE id = ?1",
            params![
                id,
                saved.moves.len() as i64,
                replay::status(p.over, &saved.seats).name(),
                p.bot_to_act,
                rematch_id(id)
            ],
        )
        .map_err(StoreError::unavailable)?;
        filled += 1;
    }
    Ok(filled)
}

impl SqlStore<Sqlite> {
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
        let (jobs, queue) = mpsc::channel();
        std::thread::Builder::new()
            .name("sagani-store".into())
            .spawn(move || writer(conn, queue))
            .map_err(StoreError::unavailable)?;
        Ok(SqlStore {
            db: Sqlite {
                path: path.to_path_buf(),
                jobs: Mutex::new(jobs),
                readers: Arc::new(Mutex::new(Vec::new())),
                lock,
            },
        })
    }

    /// Copies the live database to `to` with SQLite's online backup: a consistent snapshot,
    /// taken while the server goes on writing.
    pub fn backup(from: &Path, to: &Path) -> Result<(), StoreError> {
        if to.exists() {
            return Err(StoreError::unusable(format!(
                "{} exists: give a new file",
                to.display()
            )));
        }
        if !from.exists() {
            return Err(StoreError::unusable(format!(
                "{} does not exist",
                from.display()
            )));
        }
        let conn = connect(from)?;
        conn.backup(rusqlite::MAIN_DB, to, None)
            .map_err(|e| StoreError::unusable_by(format!("backing up to {}", to.display()), e))
    }
}

#[async_trait]
impl Database for Sqlite {
    async fn read<T: Send + 'static>(&self, work: Work<T>) -> Result<T, StoreError> {
        let (path, readers) = (self.path.clone(), self.readers.clone());
        tokio::task::spawn_blocking(move || {
            let idle = readers.lock().unwrap_or_else(PoisonError::into_inner).pop();
            let mut conn = match idle {
                Some(c) => c,
                None => connect(&path)?,
            };
            let result = run(&mut conn, work);
            let mut idle = readers.lock().unwrap_or_else(PoisonError::into_inner);
            if idle.len() < IDLE_READERS {
                idle.push(conn);
            }
            result
        })
        .await
        .map_err(StoreError::unavailable)?
    }

    async fn write<T: Send + 'static>(
        &self,
        _commit: Commit,
        work: Work<T>,
    ) -> Result<T, StoreError> {
        let (reply, answer) = oneshot::channel();
        let job = Box::new(Write {
            work: Some(work),
            result: None,
            reply,
        });
        let sent = self
            .jobs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .send(job);
        if sent.is_err() {
            return Err(StoreError::unavailable_because(
                "the writer thread has stopped",
            ));
        }
        answer.await.unwrap_or_else(|_| {
            Err(StoreError::unavailable_because(
                "the writer thread has stopped",
            ))
        })
    }

    fn changes(&self) -> Option<broadcast::Receiver<Change>> {
        None
    }

    fn exclusive(&self) -> bool {
        self.lock.is_some()
    }
}

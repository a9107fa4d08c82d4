//! The SQLite store: one file in WAL mode, one writer thread that commits queued events in
//! groups (one fsync for many moves), each caller told only after its commit.

use super::{Event, Pending, SavedGame, SavedMove, SavedSeat, Store, StoreError};
use rusqlite::{params, Connection};
use sagani_core::Variant;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use tokio::sync::oneshot;

/// Most events committed in one transaction.
const GROUP: usize = 512;

/// The schema's version, kept in SQLite's `user_version`.
const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    variant TEXT NOT NULL,
    deck TEXT NOT NULL,
    start_player INTEGER NOT NULL,
    public INTEGER NOT NULL,
    creator TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    bot TEXT,
    level INTEGER,
    invite_hash TEXT,
    token_hash TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
";

type Job = (Event, oneshot::Sender<Result<(), StoreError>>);

pub struct SqliteStore {
    path: PathBuf,
    jobs: mpsc::Sender<Job>,
}

fn err(e: impl std::fmt::Display) -> StoreError {
    StoreError(e.to_string())
}

fn open(path: &Path) -> Result<Connection, StoreError> {
    let conn =
        Connection::open(path).map_err(|e| StoreError(format!("{}: {e}", path.display())))?;
    // WAL lets readers run beside the writer; FULL syncs every commit, so an acknowledged move
    // survives a crash or a power cut.
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(err)?;
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(err)?;
    conn.pragma_update(None, "foreign_keys", "ON")
        .map_err(err)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(err)?;
    Ok(conn)
}

impl SqliteStore {
    /// Opens (or creates) the database at `path` and starts its writer thread.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let conn = open(path)?;
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(err)?;
        let tables: i64 = conn
            .query_row(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'",
                [],
                |r| r.get(0),
            )
            .map_err(err)?;
        if tables > 0 && version != SCHEMA_VERSION {
            return Err(StoreError(format!(
                "{} is not a database of this sagani (schema version {version}, expected {SCHEMA_VERSION})",
                path.display()
            )));
        }
        conn.execute_batch(SCHEMA).map_err(err)?;
        conn.pragma_update(None, "user_version", SCHEMA_VERSION)
            .map_err(err)?;
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("sagani-store".into())
            .spawn(move || writer(conn, queue))
            .map_err(err)?;
        Ok(SqliteStore {
            path: path.to_path_buf(),
            jobs,
        })
    }
}

/// Takes whatever is queued (up to `GROUP` events), commits it as one transaction, answers.
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
            // The caller may have gone away; the event is stored all the same.
            let _ = reply.send(result);
        }
    }
}

fn commit(conn: &mut Connection, group: &[Job]) -> Vec<Result<(), StoreError>> {
    let tx = match conn.transaction() {
        Ok(tx) => tx,
        Err(e) => return group.iter().map(|_| Err(err(&e))).collect(),
    };
    // A failed statement (a constraint) leaves the transaction usable: only its own event fails.
    // Some errors (disk full, I/O) make SQLite roll the whole transaction back: then nothing
    // of the group is stored, and no later event may run outside a transaction.
    let mut results = Vec::with_capacity(group.len());
    for (event, _) in group {
        results.push(apply(&tx, event));
        if tx.is_autocommit() {
            let _ = tx.rollback();
            let e = StoreError("the transaction was rolled back".into());
            return group.iter().map(|_| Err(e.clone())).collect();
        }
    }
    match tx.commit() {
        Ok(()) => results,
        Err(e) => group.iter().map(|_| Err(err(&e))).collect(),
    }
}

fn apply(tx: &rusqlite::Transaction<'_>, event: &Event) -> Result<(), StoreError> {
    match event {
        Event::Created(g) => {
            // A savepoint keeps a half-written game (say, a failed seat row) out of the commit.
            tx.execute_batch("SAVEPOINT created").map_err(err)?;
            let result = insert_game(tx, g);
            let end = if result.is_ok() {
                "RELEASE created"
            } else {
                "ROLLBACK TO created; RELEASE created"
            };
            tx.execute_batch(end).map_err(err)?;
            result
        }
        Event::Claimed {
            game,
            seat,
            token_hash,
            by_invite,
        } => {
            let n = tx
                .execute(
                    "UPDATE seats SET token_hash = ?3,
                         invite_hash = CASE WHEN ?4 THEN invite_hash ELSE NULL END
                     WHERE game_id = ?1 AND seat = ?2 AND kind = 'human'",
                    params![game, seat, token_hash, by_invite],
                )
                .map_err(err)?;
            if n == 1 {
                Ok(())
            } else {
                Err(StoreError(format!("game {game} has no human seat {seat}")))
            }
        }
        Event::Moved { game, n, seat, mv } => {
            let text = serde_json::to_string(mv).map_err(err)?;
            tx.execute(
                "INSERT INTO moves (game_id, n, seat, move) VALUES (?1, ?2, ?3, ?4)",
                params![game, *n as i64, seat, text],
            )
            .map_err(err)?;
            Ok(())
        }
    }
}

fn insert_game(tx: &rusqlite::Transaction<'_>, g: &SavedGame) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO games (id, created_at, variant, deck, start_player, public, creator)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            g.id,
            g.created_at,
            g.variant.name(),
            serde_json::to_string(&g.deck).map_err(err)?,
            g.start_player,
            g.public,
            g.creator
        ],
    )
    .map_err(err)?;
    for (i, seat) in g.seats.iter().enumerate() {
        let (kind, bot, level, invite, token) = match seat {
            SavedSeat::Human {
                invite_hash,
                token_hash,
            } => ("human", None, None, Some(invite_hash), token_hash.as_ref()),
            SavedSeat::Bot { bot, level } => ("bot", Some(bot), Some(*level), None, None),
        };
        tx.execute(
            "INSERT INTO seats (game_id, seat, kind, bot, level, invite_hash, token_hash)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![g.id, i as i64, kind, bot, level, invite, token],
        )
        .map_err(err)?;
    }
    Ok(())
}

impl SqliteStore {
    /// The games whose id matches `id` (all with `None`), with seats and moves.
    fn load_where(&self, only: Option<&str>) -> Result<Vec<SavedGame>, StoreError> {
        let conn = open(&self.path)?;
        // `?1 IS NULL` selects every game; otherwise the one.
        let mut games: Vec<SavedGame> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut q = conn
            .prepare(
                "SELECT id, created_at, variant, deck, start_player, public, creator
                 FROM games WHERE ?1 IS NULL OR id = ?1 ORDER BY created_at, id",
            )
            .map_err(err)?;
        let rows = q
            .query_map([only], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, u8>(4)?,
                    r.get::<_, bool>(5)?,
                    r.get::<_, String>(6)?,
                ))
            })
            .map_err(err)?;
        for row in rows {
            let (id, created_at, variant, deck, start_player, public, creator) =
                row.map_err(err)?;
            let deck = serde_json::from_str(&deck)
                .map_err(|e| StoreError(format!("game {id}: deck: {e}")))?;
            let variant = Variant::parse(&variant)
                .ok_or_else(|| StoreError(format!("game {id}: unknown variant {variant:?}")))?;
            index.insert(id.clone(), games.len());
            games.push(SavedGame {
                id,
                created_at,
                variant,
                deck,
                start_player,
                public,
                creator,
                seats: Vec::new(),
                moves: Vec::new(),
            });
        }
        let mut q = conn
            .prepare(
                "SELECT game_id, seat, kind, bot, level, invite_hash, token_hash
                 FROM seats WHERE ?1 IS NULL OR game_id = ?1 ORDER BY game_id, seat",
            )
            .map_err(err)?;
        let mut rows = q.query([only]).map_err(err)?;
        while let Some(r) = rows.next().map_err(err)? {
            let id: String = r.get(0).map_err(err)?;
            let seat: i64 = r.get(1).map_err(err)?;
            let kind: String = r.get(2).map_err(err)?;
            let g = index
                .get(&id)
                .map(|&i| &mut games[i])
                .ok_or_else(|| StoreError(format!("seat of unknown game {id}")))?;
            if seat as usize != g.seats.len() {
                return Err(StoreError(format!("game {id}: seat {seat} out of order")));
            }
            let saved = match kind.as_str() {
                "human" => SavedSeat::Human {
                    invite_hash: r
                        .get::<_, Option<String>>(5)
                        .map_err(err)?
                        .unwrap_or_default(),
                    token_hash: r.get(6).map_err(err)?,
                },
                "bot" => SavedSeat::Bot {
                    bot: r
                        .get::<_, Option<String>>(3)
                        .map_err(err)?
                        .unwrap_or_default(),
                    level: r.get::<_, Option<u8>>(4).map_err(err)?.unwrap_or(1),
                },
                other => return Err(StoreError(format!("game {id}: seat kind {other:?}"))),
            };
            g.seats.push(saved);
        }
        let mut q = conn
            .prepare(
                "SELECT game_id, n, seat, move FROM moves
                 WHERE ?1 IS NULL OR game_id = ?1 ORDER BY game_id, n",
            )
            .map_err(err)?;
        let mut rows = q.query([only]).map_err(err)?;
        while let Some(r) = rows.next().map_err(err)? {
            let id: String = r.get(0).map_err(err)?;
            let n: i64 = r.get(1).map_err(err)?;
            let seat: u8 = r.get(2).map_err(err)?;
            let text: String = r.get(3).map_err(err)?;
            let g = index
                .get(&id)
                .map(|&i| &mut games[i])
                .ok_or_else(|| StoreError(format!("move of unknown game {id}")))?;
            if n as usize != g.moves.len() {
                return Err(StoreError(format!("game {id}: move {n} out of order")));
            }
            let mv = serde_json::from_str(&text)
                .map_err(|e| StoreError(format!("game {id} move {n}: {e}")))?;
            g.moves.push(SavedMove { seat, mv });
        }
        Ok(games)
    }
}

impl Store for SqliteStore {
    fn load(&self) -> Result<Vec<SavedGame>, StoreError> {
        self.load_where(None)
    }

    fn load_game(&self, id: &str) -> Result<Option<SavedGame>, StoreError> {
        Ok(self.load_where(Some(id))?.pop())
    }

    fn write(&self, event: Event) -> Pending {
        let (reply, pending) = oneshot::channel();
        if let Err(mpsc::SendError((_, reply))) = self.jobs.send((event, reply)) {
            let _ = reply.send(Err(StoreError("the writer thread has stopped".into())));
        }
        pending
    }
}

/// The number of moves stored per game (for the load generator's check).
pub fn moves_per_game(path: &Path) -> Result<HashMap<String, u64>, StoreError> {
    let conn = open(path)?;
    let mut q = conn
        .prepare("SELECT game_id, COUNT(*) FROM moves GROUP BY game_id")
        .map_err(err)?;
    let rows = q
        .query_map([], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64))
        })
        .map_err(err)?;
    rows.collect::<Result<_, _>>().map_err(err)
}

/// The number of moves stored for `game` (for tests).
pub fn count_moves(path: &Path, game: &str) -> Result<u64, StoreError> {
    Ok(moves_per_game(path)?.get(game).copied().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sagani_core::Move;

    fn game(id: &str) -> SavedGame {
        SavedGame {
            id: id.into(),
            created_at: 1,
            variant: Variant::Standard,
            deck: (1..=72).rev().collect(),
            start_player: 1,
            public: true,
            creator: "127.0.0.1".into(),
            seats: vec![
                SavedSeat::Human {
                    invite_hash: "i".into(),
                    token_hash: None,
                },
                SavedSeat::Bot {
                    bot: "mcts".into(),
                    level: 4,
                },
            ],
            moves: Vec::new(),
        }
    }

    fn write(store: &SqliteStore, event: Event) -> Result<(), StoreError> {
        store.write(event).blocking_recv().expect("an answer")
    }

    #[test]
    fn events_come_back_as_they_were_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.db");
        let store = SqliteStore::open(&path).unwrap();
        write(&store, Event::Created(game("g1"))).unwrap();
        let mv = Move::Place {
            tile: 3,
            x: 0,
            y: 0,
            rot: 1,
        };
        write(
            &store,
            Event::Moved {
                game: "g1".into(),
                n: 0,
                seat: 1,
                mv,
            },
        )
        .unwrap();
        write(
            &store,
            Event::Claimed {
                game: "g1".into(),
                seat: 0,
                token_hash: "t".into(),
                by_invite: true,
            },
        )
        .unwrap();
        let journal: String = open(&path)
            .unwrap()
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(journal, "wal");
        drop(store);
        let loaded = SqliteStore::open(&path).unwrap().load().unwrap();
        let mut expected = game("g1");
        expected.seats[0] = SavedSeat::Human {
            invite_hash: "i".into(),
            token_hash: Some("t".into()),
        };
        expected.moves.push(SavedMove { seat: 1, mv });
        assert_eq!(loaded, vec![expected]);
    }

    #[test]
    fn a_refused_event_changes_nothing_and_spares_its_group() {
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(&dir.path().join("s.db")).unwrap();
        write(&store, Event::Created(game("g1"))).unwrap();
        // Queued together, so they share a transaction.
        let dup = store.write(Event::Moved {
            game: "g1".into(),
            n: 0,
            seat: 0,
            mv: Move::Pass,
        });
        let again = store.write(Event::Moved {
            game: "g1".into(),
            n: 0,
            seat: 0,
            mv: Move::Pass,
        });
        let claim_bot = store.write(Event::Claimed {
            game: "g1".into(),
            seat: 1,
            token_hash: "x".into(),
            by_invite: true,
        });
        let twin = store.write(Event::Created(game("g1")));
        let other = store.write(Event::Created(game("g2")));
        assert!(dup.blocking_recv().unwrap().is_ok());
        assert!(again.blocking_recv().unwrap().is_err(), "move 0 twice");
        assert!(
            claim_bot.blocking_recv().unwrap().is_err(),
            "a bot seat is not claimed"
        );
        assert!(twin.blocking_recv().unwrap().is_err(), "the same id twice");
        assert!(other.blocking_recv().unwrap().is_ok());
        let loaded = store.load().unwrap();
        assert_eq!(loaded.len(), 2);
        assert_eq!(loaded[0].moves.len(), 1);
        assert_eq!(loaded[0].seats, game("g1").seats);
    }

    #[test]
    fn a_database_of_another_schema_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        Connection::open(&path)
            .unwrap()
            .execute_batch("CREATE TABLE games (id TEXT PRIMARY KEY, seed INTEGER)")
            .unwrap();
        let e = SqliteStore::open(&path).err().expect("refused");
        assert!(e.0.contains("schema version 0, expected 1"), "{e}");
        let version: i64 = Connection::open(&path)
            .unwrap()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, 0);
        // A new file, or one made by this version, opens.
        SqliteStore::open(&dir.path().join("new.db")).unwrap();
        SqliteStore::open(&dir.path().join("new.db")).unwrap();
    }
}

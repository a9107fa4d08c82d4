//! The store contract, run against every store: SQLite always, PostgreSQL when
//! `SAGANI_TEST_POSTGRES` names a server. Then what only one store does: SQLite's upgrade of a
//! file from the first release, its lock, its backup, a damaged game.

use sagani_server::store::{conformance, PostgresStore, SqliteStore, Status, Store, StoreError};
use sagani_server::testing::TestDatabase;
use std::sync::Arc;

/// Whatever keeps a test's database alive until the test ends.
type Keep = Box<dyn std::any::Any + Send>;

/// Two handles on a new SQLite file, as two tools would hold them.
async fn sqlite(_test: &str) -> Option<(conformance::Handles, Keep)> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.db");
    let a: Arc<dyn Store> = Arc::new(SqliteStore::open_with(&path, false).unwrap());
    let b: Arc<dyn Store> = Arc::new(SqliteStore::open_with(&path, false).unwrap());
    Some(((a, b), Box::new(dir)))
}

/// Two servers' handles on a new PostgreSQL database; `None` without `SAGANI_TEST_POSTGRES`.
async fn postgres(test: &str) -> Option<(conformance::Handles, Keep)> {
    let db = TestDatabase::create(test).await?;
    let a: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    let b: Arc<dyn Store> = Arc::new(PostgresStore::open(&db.url).await.unwrap());
    Some(((a, b), Box::new(db)))
}

/// The store contract on SQLite, a test per case.
mod sqlite_contract {
    sagani_server::store_conformance!(super::sqlite);
}

/// The store contract on PostgreSQL, a test per case.
mod postgres_contract {
    sagani_server::store_conformance!(super::postgres);
}

/// A copy of a `sagani.db` written by the first release (`fixtures/make-v1.py` made it): five
/// games, two of them finished, one in progress with a bot to come, a solo game, a public one
/// waiting for its second player.
fn first_release_file() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sagani.db");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/v1-sagani.db"),
        &path,
    )
    .unwrap();
    (dir, path)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_of_the_first_release_is_upgraded_in_place() {
    let (_dir, path) = first_release_file();
    let store = SqliteStore::open(&path).expect("the old file opens");
    let counts = store.counts().await.unwrap();
    assert_eq!((counts.games, counts.open), (5, 3));
    let lobby = store.lobby(10).await.unwrap();
    assert_eq!(lobby.len(), 1);
    assert_eq!(lobby[0].id, "95385f6ebbf221ea");
    assert_eq!(lobby[0].status, Status::Waiting);
    for (id, moves) in [
        ("3c11e06e7618cd7d", 66),
        ("8fbc6f745abc9f41", 66),
        ("5913ad6eb57f5520", 10),
        ("f32b57fe7bde163c", 5),
    ] {
        let g = store.game(id).await.unwrap();
        assert_eq!(g.moves.len(), moves, "{id}");
        let replayed = sagani_server::store::replay::replay(&g).expect("replays");
        assert_eq!(replayed.game().is_over(), moves == 66, "{id}");
        assert!(g.seats.iter().all(|s| match s {
            sagani_server::store::SavedSeat::Human { token_hash, .. } => token_hash.is_some(),
            _ => true,
        }));
    }
    // Moves go on where they stopped, conditionally as ever.
    let g = store.game("f32b57fe7bde163c").await.unwrap();
    let replayed = sagani_server::store::replay::replay(&g).unwrap();
    let mv = replayed.game().legal_moves()[0];
    let token = match &g.seats[0] {
        sagani_server::store::SavedSeat::Human { token_hash, .. } => token_hash.clone(),
        _ => unreachable!(),
    };
    let write = sagani_server::store::MoveWrite {
        game: g.id.clone(),
        n: 5,
        seat: 0,
        mv,
        token_hash: token,
        at_ms: 1_800_000_000_000,
        start_ms: None,
        after: sagani_server::store::Progress {
            over: false,
            bot_to_act: false,
            deadline_ms: None,
        },
        end: None,
        notices: Vec::new(),
    };
    assert_eq!(store.append_move(&write).await, Ok(1));
    drop(store);
    // Opened again, nothing is filled in twice; the first release would refuse the file now.
    let store = SqliteStore::open(&path).unwrap();
    assert_eq!(store.game("f32b57fe7bde163c").await.unwrap().moves.len(), 6);
    let version: i64 = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 10);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_game_is_skipped_and_the_rest_served() {
    let (_dir, path) = first_release_file();
    // One undecodable move and one unknown variant, as a bad disk or a bad hand might leave.
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute(
        "UPDATE moves SET move = 'not json' WHERE game_id = '5913ad6eb57f5520' AND n = 3",
        [],
    )
    .unwrap();
    conn.execute(
        "UPDATE games SET variant = 'chess' WHERE id = '95385f6ebbf221ea'",
        [],
    )
    .unwrap();
    drop(conn);
    let store = SqliteStore::open(&path).expect("opens all the same");
    for id in ["5913ad6eb57f5520", "95385f6ebbf221ea"] {
        match store.game(id).await {
            Err(StoreError::Damaged { game, .. }) => assert_eq!(game, id),
            other => panic!("{id}: {other:?}"),
        }
    }
    assert_eq!(
        store.game("3c11e06e7618cd7d").await.unwrap().moves.len(),
        66
    );
    assert_eq!(store.counts().await.unwrap().games, 5);
}

#[test]
fn a_served_file_is_refused_to_a_second_server_and_other_files_are_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    let first = SqliteStore::open(&path).unwrap();
    let second = SqliteStore::open(&path).err().expect("refused");
    assert!(
        second
            .to_string()
            .contains("already served by another sagani process"),
        "{second}"
    );
    // Tools open it beside the server.
    SqliteStore::open_with(&path, false).expect("a tool opens it");
    drop(first);
    SqliteStore::open(&path).expect("free again once the first is gone");

    let other = dir.path().join("other.db");
    rusqlite::Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE games (id TEXT PRIMARY KEY, seed INTEGER)")
        .unwrap();
    let e = SqliteStore::open(&other).err().expect("refused");
    assert!(
        e.to_string().contains("not a database of this sagani"),
        "{e}"
    );
    let tables: i64 = rusqlite::Connection::open(&other)
        .unwrap()
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(tables, 1, "left alone");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_of_a_live_database_holds_every_game() {
    let (dir, path) = first_release_file();
    let store = SqliteStore::open(&path).unwrap();
    let copy = dir.path().join("backup.db");
    SqliteStore::backup(&path, &copy).expect("backed up while open");
    assert!(
        SqliteStore::backup(&path, &copy).is_err(),
        "never over a file"
    );
    let backup = SqliteStore::open_with(&copy, false).unwrap();
    for id in store.game_ids(None, 100).await.unwrap() {
        assert_eq!(
            backup.game(&id).await.unwrap(),
            store.game(&id).await.unwrap()
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn copying_to_postgres_moves_every_game_and_is_not_run_twice() {
    let Some(db) = TestDatabase::create("copying_to_postgres_moves_every_game").await else {
        return;
    };
    let (_dir, path) = first_release_file();
    let from = SqliteStore::open_with(&path, false).unwrap();
    let to = PostgresStore::open(&db.url).await.unwrap();
    let mut rows = 0;
    let report = sagani_server::store::copy(&from, &to, |n| rows += n)
        .await
        .unwrap();
    assert_eq!((report.games, report.damaged.len()), (5, 0));
    assert_eq!(rows, report.tables.iter().map(|t| t.from).sum::<u64>());
    for id in from.game_ids(None, 100).await.unwrap() {
        assert_eq!(from.game(&id).await.unwrap(), to.game(&id).await.unwrap());
    }
    assert_eq!(to.counts().await.unwrap(), from.counts().await.unwrap());
    assert_eq!(to.lobby(10).await.unwrap(), from.lobby(10).await.unwrap());
    // Into a database that holds a copy already: refused, nothing written twice.
    let again = sagani_server::store::copy(&from, &to, |_| {}).await;
    assert!(
        matches!(again, Err(sagani_server::store::CopyError::NotEmpty { .. })),
        "{again:?}"
    );
    assert_eq!(to.counts().await.unwrap(), from.counts().await.unwrap());
}

/// A server asking for a bot's turn while another commits that turn's move (which ends its
/// lease) must not get the turn: PostgreSQL would otherwise check the game's version as it was
/// when the statement began, and the turn would be searched twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lease_waits_for_a_move_being_committed() {
    use sagani_server::store::{Progress, SavedSeat};
    let Some(db) = TestDatabase::create("a_lease_waits_for_a_move_being_committed").await else {
        return;
    };
    let store = PostgresStore::open(&db.url).await.unwrap();
    let bot = SavedSeat::Bot {
        bot: "greedy".into(),
        level: 1,
    };
    let bot_turn = Progress {
        over: false,
        bot_to_act: true,
        deadline_ms: None,
    };
    let g = conformance::game("g1", vec![bot.clone(), bot]);
    store.create(&g, bot_turn, None, None).await.unwrap();
    assert!(store.lease("g1", 0, "A", 1000, 5000).await.unwrap());
    // Server A commits the bot's move: the game moves on and A's lease ends, in one
    // transaction, held open here.
    let (a, conn) = tokio_postgres::connect(&db.url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(conn);
    a.batch_execute(
        "BEGIN; UPDATE games SET version = 1 WHERE id = 'g1';
         DELETE FROM bot_leases WHERE game_id = 'g1';",
    )
    .await
    .unwrap();
    // Server B, whose lease on A's turn expired, asks for the turn at the old version.
    let b = tokio::spawn(async move { store.lease("g1", 0, "B", 6000, 9000).await });
    // Once B waits for A's transaction, A commits.
    loop {
        let waiting: i64 = a
            .query_one(
                "SELECT COUNT(*) FROM pg_stat_activity
                 WHERE datname = current_database() AND wait_event_type = 'Lock'",
                &[],
            )
            .await
            .unwrap()
            .get(0);
        if waiting > 0 {
            break;
        }
        tokio::task::yield_now().await;
    }
    a.batch_execute("COMMIT").await.unwrap();
    assert!(
        !b.await.unwrap().unwrap(),
        "the game is at version 1: there is no turn at version 0 to lease"
    );
}

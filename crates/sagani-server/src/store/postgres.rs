//! The PostgreSQL store, for several servers on one database: a connection pool for reads and
//! writes, each write one transaction whose conditions the database checks under its row locks,
//! and `LISTEN/NOTIFY` so every server hears every committed change.

use super::replay;
use super::{
    active_at, decode_moves, rated, timing_from, Accounts, BotTurn, Catchup, Change, ChatLine,
    ChatText, ChatWrite, ClaimWrite, Conflict, Counts, Daily, DailyEntry, DailyTag, Ended, GameEnd,
    IdleSweep, LeaveWrite, MoveWrite, NewPlayer, PlayedGame, Player, Progress, Ranked, Rating,
    RatingPoint, SavedGame, SavedMove, SavedSeat, SeatColumns, SoloResult, Status, Store,
    StoreError, Summary,
};
use crate::time_control::TimeControl;
use async_trait::async_trait;
use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Pool, RecyclingMethod};
use futures_util::StreamExt;
use sagani_core::Variant;
use std::collections::HashMap;
use std::time::Duration;
use tokio::sync::broadcast;
use tokio_postgres::error::SqlState;
use tokio_postgres::{AsyncMessage, NoTls, Row};

mod embedded {
    refinery::embed_migrations!("migrations/postgres");
}

/// The channel every server listens on; a payload is `<game> <rev>`.
const CHANNEL: &str = "sagani_changes";

/// Any number that no other program takes as an advisory lock: held while migrating, so two
/// servers starting together do not both migrate.
const MIGRATION_LOCK: i64 = 0x5a6a_6e69_0001;

/// Connections in the pool.
const POOL_SIZE: usize = 16;

pub struct PostgresStore {
    pool: Pool,
    changes: broadcast::Sender<Change>,
    listener: tokio::task::JoinHandle<()>,
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        self.listener.abort();
    }
}

fn unavailable(e: impl std::fmt::Display) -> StoreError {
    StoreError::unavailable(e)
}

fn db_error(e: tokio_postgres::Error) -> StoreError {
    if e.code() == Some(&SqlState::UNIQUE_VIOLATION) {
        StoreError::Conflict(Conflict::Exists)
    } else {
        unavailable(e)
    }
}

fn pool_error(e: deadpool_postgres::PoolError) -> StoreError {
    unavailable(e)
}

/// The URL without its password, for messages.
pub(super) fn shown(url: &str) -> String {
    match url.parse::<tokio_postgres::Config>() {
        Ok(c) => format!(
            "postgres://{}@{}/{}",
            c.get_user().unwrap_or(""),
            c.get_hosts()
                .iter()
                .map(|h| match h {
                    tokio_postgres::config::Host::Tcp(h) => h.clone(),
                    #[cfg(unix)]
                    tokio_postgres::config::Host::Unix(p) => p.display().to_string(),
                })
                .collect::<Vec<_>>()
                .join(","),
            c.get_dbname().unwrap_or("")
        ),
        Err(_) => "the PostgreSQL URL".into(),
    }
}

impl PostgresStore {
    /// Connects to `url`, brings the schema up to date and starts listening for changes.
    pub async fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let config: tokio_postgres::Config = url
            .parse()
            .map_err(|e| StoreError::Unusable(format!("{}: {e}", shown(url))))?;
        let (mut client, connection) = config
            .connect(NoTls)
            .await
            .map_err(|e| StoreError::Unusable(format!("cannot connect to {}: {e}", shown(url))))?;
        let driver = tokio::spawn(connection);
        client
            .query_one("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
            .await
            .map_err(unavailable)?;
        let migrated = embedded::migrations::runner().run_async(&mut client).await;
        let _ = client
            .query_one("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])
            .await;
        drop(client);
        let _ = driver.await;
        migrated.map_err(|e| StoreError::Unusable(format!("{}: migrating: {e}", shown(url))))?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .wait_timeout(Some(Duration::from_secs(10)))
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .build()
            .map_err(|e| StoreError::Unusable(e.to_string()))?;
        let (changes, _) = broadcast::channel(4096);
        let (ready, listening) = tokio::sync::oneshot::channel();
        let listener = tokio::spawn(listen(config, changes.clone(), ready));
        // Opened only once it hears changes (or after a while without: it keeps trying and says
        // `Resync` when it does), so that nothing committed after `open` goes unheard.
        let _ = tokio::time::timeout(Duration::from_secs(10), listening).await;
        Ok(PostgresStore {
            pool,
            changes,
            listener,
        })
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool.get().await.map_err(pool_error)
    }
}

/// Forwards the channel's notifications, reconnecting when the connection drops. After any gap
/// it says `Resync`, since changes may have been missed. `ready` hears of the first `LISTEN`.
async fn listen(
    config: tokio_postgres::Config,
    changes: broadcast::Sender<Change>,
    ready: tokio::sync::oneshot::Sender<()>,
) {
    let mut ready = Some(ready);
    let mut wait = Duration::from_millis(100);
    loop {
        match config.connect(NoTls).await {
            Ok((client, mut connection)) => {
                let (heard, mut hearing) = tokio::sync::mpsc::unbounded_channel();
                let driver = tokio::spawn(async move {
                    let mut messages =
                        futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
                    while let Some(message) = messages.next().await {
                        match message {
                            Ok(AsyncMessage::Notification(n)) => {
                                let _ = heard.send(n.payload().to_string());
                            }
                            Ok(_) => {}
                            Err(e) => {
                                tracing::warn!("listening to PostgreSQL: {e}");
                                break;
                            }
                        }
                    }
                });
                if client
                    .batch_execute(&format!("LISTEN {CHANNEL}"))
                    .await
                    .is_ok()
                {
                    wait = Duration::from_millis(100);
                    let _ = changes.send(Change::Resync);
                    if let Some(ready) = ready.take() {
                        let _ = ready.send(());
                    }
                    while let Some(payload) = hearing.recv().await {
                        let mut parts = payload.split(' ');
                        if let (Some(game), Some(Ok(rev))) =
                            (parts.next(), parts.next().map(str::parse))
                        {
                            let _ = changes.send(Change::Game {
                                game: game.to_string(),
                                rev,
                            });
                        }
                    }
                }
                driver.abort();
            }
            Err(e) => tracing::warn!("cannot listen to PostgreSQL: {e}"),
        }
        let _ = changes.send(Change::Resync);
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(Duration::from_secs(5));
    }
}

/// `sql` prepared once per connection (deadpool's statement cache): one round trip per query
/// after that, instead of a parse and an execute.
async fn prepared(
    client: &impl GenericClient,
    sql: &str,
) -> Result<tokio_postgres::Statement, StoreError> {
    client.prepare_cached(sql).await.map_err(db_error)
}

async fn notify(client: &impl GenericClient, game: &str, rev: u64) -> Result<(), StoreError> {
    client
        .execute(
            &prepared(client, "SELECT pg_notify($1, $2)").await?,
            &[&CHANNEL, &format!("{game} {rev}")],
        )
        .await
        .map_err(db_error)?;
    Ok(())
}

async fn insert_game(
    tx: &impl GenericClient,
    g: &SavedGame,
    after: Progress,
    moves: &[SavedMove],
) -> Result<(), StoreError> {
    let deck = serde_json::to_string(&g.deck).map_err(unavailable)?;
    tx.execute(
        &prepared(
            tx,
            "INSERT INTO games (id, created_at, variant, deck, start_player, public, creator,
                            version, status, bot_to_act, rev, rematch, host, rated, clock,
                            started_at, deadline, active_at, ended, chats, practice)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
                 $18, $19, $20, $21)",
        )
        .await?,
        &[
            &g.id,
            &g.created_at,
            &g.variant.name(),
            &deck,
            &(g.start_player as i16),
            &g.public,
            &g.creator,
            &(moves.len() as i64),
            &replay::status(after.over, &g.seats).name(),
            &after.bot_to_act,
            &(g.rev as i64),
            &g.rematch,
            &g.host,
            &g.rated,
            &g.clock.stored(),
            &g.started_ms,
            &after.deadline_ms,
            &active_at(g, moves),
            &g.ended.map(Ended::name),
            &(g.chats as i64),
            &g.practice,
        ],
    )
    .await
    .map_err(db_error)?;
    for (i, seat) in g.seats.iter().enumerate() {
        let c = seat.columns();
        let level = c.level.map(i16::from);
        let left_level = c.left_level.map(i16::from);
        tx.execute(
            &prepared(
                tx,
                "INSERT INTO seats (game_id, seat, kind, bot, level, invite_hash, token_hash,
                                    name, player_id, left_reason, left_version, left_at,
                                    left_bot, left_level)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
            )
            .await?,
            &[
                &g.id,
                &(i as i16),
                &c.kind,
                &c.bot,
                &level,
                &c.invite,
                &c.token,
                &c.name,
                &c.player,
                &c.left_reason,
                &c.left_version,
                &c.left_at,
                &c.left_bot,
                &left_level,
            ],
        )
        .await
        .map_err(db_error)?;
    }
    if let Some(d) = &g.daily {
        let r = d.result;
        let inserted = tx
            .execute(
                &prepared(
                    tx,
                    "INSERT INTO daily_games (game_id, day, variant, player_id, par, tiles, score,
                                          reached, finished_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                )
                .await?,
                &[
                    &g.id,
                    &d.day,
                    &g.variant.name(),
                    &g.seats.first().and_then(SavedSeat::player),
                    &d.par,
                    &r.map(|r| i16::from(r.tiles)),
                    &r.map(|r| r.score),
                    &r.map(|r| r.reached),
                    &r.map(|r| r.at_ms),
                ],
            )
            .await;
        match inserted {
            Ok(_) => {}
            // One attempt per account, day and variant (and one par game).
            Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => {
                return Err(StoreError::Conflict(Conflict::Played))
            }
            Err(e) => return Err(db_error(e)),
        }
    }
    if !moves.is_empty() {
        let ns: Vec<i64> = (0..moves.len() as i64).collect();
        let seats: Vec<i16> = moves.iter().map(|m| m.seat as i16).collect();
        let texts: Vec<String> = moves
            .iter()
            .map(|m| serde_json::to_string(&m.mv))
            .collect::<Result<_, _>>()
            .map_err(unavailable)?;
        let ats: Vec<Option<i64>> = moves
            .iter()
            .map(|m| (m.at_ms != 0).then_some(m.at_ms))
            .collect();
        tx.execute(
            &prepared(
                tx,
                "INSERT INTO moves (game_id, n, seat, move, at)
             SELECT $1, n, seat, move, at
             FROM unnest($2::bigint[], $3::smallint[], $4::text[], $5::bigint[])
                 AS m(n, seat, move, at)",
            )
            .await?,
            &[&g.id, &ns, &seats, &texts, &ats],
        )
        .await
        .map_err(db_error)?;
    }
    Ok(())
}

/// A move row's columns: `n`, seat, JSON, time.
fn move_columns(r: &Row) -> (i64, u8, &str, Option<i64>) {
    (r.get(0), r.get::<_, i16>(1) as u8, r.get(2), r.get(3))
}

/// A game's time control, when its clocks started, why it ended and its chat lines, from
/// columns `at`…`at + 3` of `r`.
fn timing_columns(
    game: &str,
    r: &Row,
    at: usize,
) -> Result<(TimeControl, Option<i64>, Option<Ended>, u64), StoreError> {
    timing_from(game, r.get(at), r.get(at + 1), r.get(at + 2), r.get(at + 3))
}

/// Why a conditional write changed nothing: the game is missing, else `otherwise`.
async fn missing_or(client: &impl GenericClient, game: &str, otherwise: Conflict) -> StoreError {
    let statement = match prepared(client, "SELECT 1 FROM games WHERE id = $1").await {
        Ok(s) => s,
        Err(e) => return e,
    };
    match client.query_opt(&statement, &[&game]).await {
        Ok(Some(_)) => StoreError::Conflict(otherwise),
        Ok(None) => StoreError::NotFound,
        Err(e) => db_error(e),
    }
}

/// Why a write that changed nothing was refused: the game is missing, at another version, or
/// else `otherwise`.
async fn refusal(
    client: &impl GenericClient,
    game: &str,
    n: u64,
    otherwise: Conflict,
) -> Result<StoreError, StoreError> {
    let version = client
        .query_opt(
            &prepared(client, "SELECT version FROM games WHERE id = $1").await?,
            &[&game],
        )
        .await
        .map_err(db_error)?;
    Ok(match version.map(|r| r.get::<_, i64>(0) as u64) {
        None => StoreError::NotFound,
        Some(v) if v != n => StoreError::Conflict(Conflict::StaleVersion { current: v }),
        Some(_) => StoreError::Conflict(otherwise),
    })
}

fn seat_from(game: &str, r: &Row, at: usize) -> Result<SavedSeat, StoreError> {
    let level: Option<i16> = r.get(at + 2);
    let left_level: Option<i16> = r.get(at + 11);
    SavedSeat::from_columns(
        game,
        SeatColumns {
            kind: r.get(at),
            bot: r.get(at + 1),
            level: level.map(|l| l as u8),
            invite: r.get(at + 3),
            token: r.get(at + 4),
            name: r.get(at + 5),
            player: r.get(at + 6),
            left_reason: r.get(at + 7),
            left_version: r.get(at + 8),
            left_at: r.get(at + 9),
            left_bot: r.get(at + 10),
            left_level: left_level.map(|l| l as u8),
        },
    )
}

/// Stores how a game ended; for a rated game, its players' new ratings too. The players'
/// rating rows are locked in id order, so games ending together update a rating one after
/// the other.
async fn store_end(tx: &impl GenericClient, game: &str, end: &GameEnd) -> Result<(), StoreError> {
    let is_rated: bool = tx
        .query_one(
            &prepared(
                tx,
                "UPDATE games SET outcome = $2, ended_at = $3 WHERE id = $1 RETURNING rated",
            )
            .await?,
            &[&game, &end.outcome, &end.at],
        )
        .await
        .map_err(db_error)?
        .get(0);
    if let Some(r) = end.solo {
        // A daily game's result, for the leaderboards (no row for any other game).
        tx.execute(
            &prepared(
                tx,
                "UPDATE daily_games SET tiles = $2, score = $3, reached = $4, finished_at = $5
                 WHERE game_id = $1",
            )
            .await?,
            &[&game, &i16::from(r.tiles), &r.score, &r.reached, &r.at_ms],
        )
        .await
        .map_err(db_error)?;
    }
    if !is_rated {
        return Ok(());
    }
    let first = crate::rating::initial();
    tx.execute(
        &prepared(
            tx,
            "INSERT INTO ratings (player_id, mu, sigma, games)
             SELECT player_id, $2, $3, 0 FROM seats WHERE game_id = $1 AND player_id IS NOT NULL
             ORDER BY player_id ON CONFLICT (player_id) DO NOTHING",
        )
        .await?,
        &[&game, &first.mu, &first.sigma],
    )
    .await
    .map_err(db_error)?;
    let rows = tx
        .query(
            &prepared(
                tx,
                "SELECT player_id, mu, sigma, games FROM ratings WHERE player_id IN
                 (SELECT player_id FROM seats WHERE game_id = $1) ORDER BY player_id FOR UPDATE",
            )
            .await?,
            &[&game],
        )
        .await
        .map_err(db_error)?;
    let ratings: HashMap<String, Rating> = rows
        .iter()
        .map(|r| {
            let rating = Rating {
                mu: r.get(1),
                sigma: r.get(2),
                games: r.get::<_, i32>(3) as u32,
            };
            (r.get(0), rating)
        })
        .collect();
    let seats = tx
        .query(
            &prepared(
                tx,
                "SELECT player_id FROM seats WHERE game_id = $1 ORDER BY seat",
            )
            .await?,
            &[&game],
        )
        .await
        .map_err(db_error)?;
    let before = seats
        .iter()
        .map(|r| {
            let player: Option<String> = r.get(0);
            let rating = player.as_ref().and_then(|p| ratings.get(p)).copied();
            (player, rating)
        })
        .collect();
    for (player, r) in rated(game, before, &end.places)? {
        tx.execute(
            &prepared(
                tx,
                "UPDATE ratings SET mu = $2, sigma = $3, games = $4 WHERE player_id = $1",
            )
            .await?,
            &[&player, &r.mu, &r.sigma, &(r.games as i32)],
        )
        .await
        .map_err(db_error)?;
        tx.execute(
            &prepared(
                tx,
                "INSERT INTO rating_history (player_id, game_id, at, mu, sigma)
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .await?,
            &[&player, &game, &end.at, &r.mu, &r.sigma],
        )
        .await
        .map_err(db_error)?;
    }
    Ok(())
}

/// Seats of `games`, in seat order per game; a game whose seats cannot be read has its own
/// error (the others are fine).
async fn seats_of(
    client: &impl GenericClient,
    games: &[String],
) -> Result<HashMap<String, Result<Vec<SavedSeat>, StoreError>>, StoreError> {
    let rows = client
        .query(
            &prepared(
                client,
                "SELECT game_id, seat, kind, bot, level, invite_hash, token_hash, name, player_id,
                    left_reason, left_version, left_at, left_bot, left_level
             FROM seats WHERE game_id = ANY($1) ORDER BY game_id, seat",
            )
            .await?,
            &[&games],
        )
        .await
        .map_err(db_error)?;
    let mut seats: HashMap<String, Result<Vec<SavedSeat>, StoreError>> = HashMap::new();
    for r in rows {
        let game: String = r.get(0);
        let seat: i16 = r.get(1);
        let Ok(list) = seats.entry(game.clone()).or_insert_with(|| Ok(Vec::new())) else {
            continue;
        };
        let read = if seat as usize != list.len() {
            Err(StoreError::damaged(
                &game,
                format!("seat {seat} out of order"),
            ))
        } else {
            seat_from(&game, &r, 2)
        };
        match read {
            Ok(s) => list.push(s),
            Err(e) => {
                seats.insert(game, Err(e));
            }
        }
    }
    Ok(seats)
}

/// Move `w` stored with its version check (the statement of `append_move`): the game's new
/// `rev`, or `None` if the check failed.
async fn append(
    client: &impl GenericClient,
    w: &MoveWrite,
    text: &str,
) -> Result<Option<u64>, StoreError> {
    let row = client
        .query_opt(
            &prepared(
                client,
                "WITH g AS (
                 UPDATE games SET version = version + 1, rev = rev + 1,
                     status = CASE WHEN $4 THEN 'over' ELSE status END, bot_to_act = $5,
                     deadline = $8, active_at = $9, started_at = COALESCE(started_at, $10)
                 WHERE id = $1 AND version = $2 AND status <> 'over' AND ($3::text IS NULL
                     OR (NOT bot_to_act AND EXISTS (SELECT 1 FROM seats WHERE game_id = $1
                         AND seat = $6 AND token_hash = $3 AND left_reason IS NULL)))
                 RETURNING id, rev),
             m AS (INSERT INTO moves (game_id, n, seat, move, at)
                   SELECT id, $2, $6, $7, $9 FROM g),
             l AS (DELETE FROM bot_leases WHERE game_id IN (SELECT id FROM g))
             SELECT rev FROM g",
            )
            .await?,
            &[
                &w.game,
                &(w.n as i64),
                &w.token_hash,
                &w.after.over,
                &w.after.bot_to_act,
                &(w.seat as i16),
                &text,
                &w.after.deadline_ms,
                &w.at_ms,
                &w.start_ms,
            ],
        )
        .await
        .map_err(db_error)?;
    Ok(row.map(|r| r.get::<_, i64>(0) as u64))
}

#[async_trait]
impl Store for PostgresStore {
    async fn create(
        &self,
        game: &SavedGame,
        after: Progress,
        max_open: Option<u64>,
        rematch_of: Option<(&str, u64)>,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_error)?;
        if let Some(max) = max_open {
            // One creation at a time per creator, across servers, so the count holds.
            tx.execute(
                &prepared(&tx, "SELECT pg_advisory_xact_lock(hashtext($1))").await?,
                &[&game.creator],
            )
            .await
            .map_err(db_error)?;
            let open: i64 = tx
                .query_one(
                    &prepared(
                        &tx,
                        "SELECT COUNT(*) FROM games WHERE creator = $1 AND status <> 'over'",
                    )
                    .await?,
                    &[&game.creator],
                )
                .await
                .map_err(db_error)?
                .get(0);
            if open as u64 >= max {
                return Err(StoreError::Conflict(Conflict::TooManyGames {
                    open: open as u64,
                }));
            }
        }
        let mut changed = vec![(game.id.clone(), game.rev)];
        if let Some((old, seen)) = rematch_of {
            // The old game first, locked and as it was read: its seats are the ones to copy
            // (a re-claim waits for this, or this sees it and refuses).
            let row = tx
                .query_opt(
                    &prepared(
                        &tx,
                        "UPDATE games SET rematch = $2, rev = rev + 1 WHERE id = $1 AND rev = $3
                     RETURNING rev",
                    )
                    .await?,
                    &[&old, &game.id, &(seen as i64)],
                )
                .await
                .map_err(db_error)?;
            let Some(row) = row else {
                return Err(missing_or(&tx, old, Conflict::Changed).await);
            };
            changed.push((old.to_string(), row.get::<_, i64>(0) as u64));
        }
        insert_game(&tx, game, after, &[]).await?;
        for (g, rev) in &changed {
            notify(&tx, g, *rev).await?;
        }
        tx.commit().await.map_err(db_error)?;
        Ok(changed)
    }

    async fn game(&self, id: &str) -> Result<SavedGame, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                &prepared(
                    &client,
                    "SELECT created_at, variant, deck, start_player, public, creator, rev, rematch,
                        host, rated, clock, started_at, ended, chats, practice
                 FROM games WHERE id = $1",
                )
                .await?,
                &[&id],
            )
            .await
            .map_err(db_error)?
            .ok_or(StoreError::NotFound)?;
        let variant: &str = row.get(1);
        let variant = Variant::parse(variant)
            .ok_or_else(|| StoreError::damaged(id, format!("unknown variant {variant:?}")))?;
        let deck = serde_json::from_str(row.get(2))
            .map_err(|e| StoreError::damaged(id, format!("deck: {e}")))?;
        let moves = client
            .query(
                &prepared(
                    &client,
                    "SELECT n, seat, move, at FROM moves WHERE game_id = $1 ORDER BY n",
                )
                .await?,
                &[&id],
            )
            .await
            .map_err(db_error)?;
        let saved_moves = decode_moves(id, 0, moves.iter().map(move_columns))?;
        let (clock, started_ms, ended, chats) = timing_columns(id, &row, 10)?;
        let seats = seats_of(&client, &[id.to_string()])
            .await?
            .remove(id)
            .unwrap_or(Ok(Vec::new()))?;
        let daily = client
            .query_opt(
                &prepared(
                    &client,
                    "SELECT day, par, tiles, score, reached, finished_at FROM daily_games
                     WHERE game_id = $1",
                )
                .await?,
                &[&id],
            )
            .await
            .map_err(db_error)?
            .map(|r| DailyTag {
                day: r.get(0),
                par: r.get(1),
                result: solo_result(&r, 2),
            });
        Ok(SavedGame {
            id: id.to_string(),
            created_at: row.get(0),
            variant,
            deck,
            start_player: row.get::<_, i16>(3) as u8,
            public: row.get(4),
            creator: row.get(5),
            host: row.get(8),
            rated: row.get(9),
            practice: row.get(14),
            seats,
            moves: saved_moves,
            rev: row.get::<_, i64>(6) as u64,
            rematch: row.get(7),
            clock,
            started_ms,
            ended,
            chats,
            daily,
        })
    }

    async fn rev(&self, id: &str) -> Result<u64, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                &prepared(&client, "SELECT rev FROM games WHERE id = $1").await?,
                &[&id],
            )
            .await
            .map_err(db_error)?
            .ok_or(StoreError::NotFound)?;
        Ok(row.get::<_, i64>(0) as u64)
    }

    async fn since(&self, id: &str, from: u64) -> Result<Catchup, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                &prepared(
                    &client,
                    "SELECT rev, rematch, clock, started_at, ended, chats FROM games WHERE id = $1",
                )
                .await?,
                &[&id],
            )
            .await
            .map_err(db_error)?
            .ok_or(StoreError::NotFound)?;
        let rows = client
            .query(
                &prepared(
                    &client,
                    "SELECT n, seat, move, at FROM moves WHERE game_id = $1 AND n >= $2 ORDER BY n",
                )
                .await?,
                &[&id, &(from as i64)],
            )
            .await
            .map_err(db_error)?;
        let moves = decode_moves(id, from, rows.iter().map(move_columns))?;
        let seats = seats_of(&client, &[id.to_string()])
            .await?
            .remove(id)
            .unwrap_or(Ok(Vec::new()))?;
        let (_, started_ms, ended, chats) = timing_columns(id, &row, 2)?;
        Ok(Catchup {
            rev: row.get::<_, i64>(0) as u64,
            seats,
            rematch: row.get(1),
            started_ms,
            ended,
            chats,
            moves,
        })
    }

    async fn append_move(&self, w: &MoveWrite) -> Result<u64, StoreError> {
        let mut client = self.client().await?;
        let text = serde_json::to_string(&w.mv).map_err(unavailable)?;
        // One statement, so one transaction and one round trip: the version check, the move
        // and the lease it ends, all or nothing. The notification follows in a statement of its
        // own: NOTIFY holds a database-wide lock from its commit's start to its end, so inside
        // this transaction it would make every move wait for the one before to reach the disk.
        // The last move also stores the game's end (and ratings): a transaction of its own.
        let row = match &w.end {
            None => append(&client, w, &text).await?,
            Some(end) => {
                let tx = client.transaction().await.map_err(db_error)?;
                let row = append(&tx, w, &text).await?;
                if row.is_some() {
                    store_end(&tx, &w.game, end).await?;
                    tx.commit().await.map_err(db_error)?;
                }
                row
            }
        };
        if let Some(rev) = row {
            // Stored: a notification lost now is made up for by the game's next one (it names
            // a later rev, and watchers then read every move since theirs).
            if let Err(e) = notify(&client, &w.game, rev).await {
                tracing::warn!(
                    "game {}: the move is stored, its notification not: {e}",
                    w.game
                );
            }
            return Ok(rev);
        }
        Err(refusal(&client, &w.game, w.n, Conflict::NotYourSeat).await?)
    }

    async fn claim(&self, w: &ClaimWrite) -> Result<Vec<(String, u64)>, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_error)?;
        // The games' row locks order claims, so each sees the seats the one before left (the
        // status below counts them). A re-claim also touches the games its old token was copied
        // to (rematches): all of them are locked first, in id order, so two re-claims cannot
        // each wait for the other.
        let mut locked = vec![w.game.clone()];
        if let Some(old) = &w.seen {
            let copies = tx
                .query(
                    &prepared(
                        &tx,
                        "SELECT DISTINCT game_id FROM seats WHERE token_hash = $1",
                    )
                    .await?,
                    &[old],
                )
                .await
                .map_err(db_error)?;
            locked.extend(copies.iter().map(|r| r.get::<_, String>(0)));
        }
        let rows = tx
            .query(
                &prepared(
                    &tx,
                    "SELECT id FROM games WHERE id = ANY($1) ORDER BY id FOR UPDATE",
                )
                .await?,
                &[&locked],
            )
            .await
            .map_err(db_error)?;
        if !rows.iter().any(|r| r.get::<_, &str>(0) == w.game) {
            return Err(StoreError::NotFound);
        }
        let n = tx
            .execute(
                &prepared(
                    &tx,
                    "UPDATE seats SET token_hash = $3,
                     invite_hash = CASE WHEN $5 THEN NULL ELSE invite_hash END,
                     name = $6, player_id = $7
                 WHERE game_id = $1 AND seat = $2 AND kind = 'human'
                     AND token_hash IS NOT DISTINCT FROM $4::text",
                )
                .await?,
                &[
                    &w.game,
                    &(w.seat as i16),
                    &w.token_hash,
                    &w.seen,
                    &w.by_number,
                    &w.name,
                    &w.player,
                ],
            )
            .await
            .map_err(db_error)?;
        if n != 1 {
            return Err(StoreError::Conflict(Conflict::SeatTaken));
        }
        let mut games = vec![w.game.clone()];
        if let Some(old) = &w.seen {
            // The replaced token is revoked wherever it was copied (the game's rematches).
            let rows = tx
                .query(
                    &prepared(
                        &tx,
                        "UPDATE seats SET token_hash = $2, name = $3, player_id = $4
                         WHERE token_hash = $1 RETURNING game_id",
                    )
                    .await?,
                    &[old, &w.token_hash, &w.name, &w.player],
                )
                .await
                .map_err(db_error)?;
            games.extend(rows.iter().map(|r| r.get::<_, String>(0)));
        }
        let mut changed = Vec::new();
        for g in games {
            let rev: i64 = tx
                .query_one(
                    &prepared(
                        &tx,
                        "UPDATE games SET rev = rev + 1, status = CASE
                         WHEN status = 'over' THEN 'over'
                         WHEN EXISTS (SELECT 1 FROM seats WHERE game_id = $1 AND kind = 'human'
                                      AND token_hash IS NULL) THEN 'waiting'
                         ELSE 'playing' END
                     WHERE id = $1 RETURNING rev",
                    )
                    .await?,
                    &[&g],
                )
                .await
                .map_err(db_error)?
                .get(0);
            notify(&tx, &g, rev as u64).await?;
            changed.push((g, rev as u64));
        }
        // The last seat claimed starts the clocks (once).
        tx.execute(
            &prepared(
                &tx,
                "UPDATE games SET started_at = $2, active_at = $2, deadline = $3
                 WHERE id = $1 AND status = 'playing' AND started_at IS NULL",
            )
            .await?,
            &[&w.game, &w.at_ms, &w.deadline_if_started],
        )
        .await
        .map_err(db_error)?;
        tx.commit().await.map_err(db_error)?;
        Ok(changed)
    }

    async fn leave(&self, w: &LeaveWrite) -> Result<u64, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_error)?;
        // The game's row first, locked: every check after this sees what the transactions
        // before it committed (a condition inside the UPDATE would read the seats as they were
        // when it started, and two servers could both take the seat over).
        let row = tx
            .query_opt(
                &prepared(
                    &tx,
                    "SELECT version, status FROM games WHERE id = $1 FOR UPDATE",
                )
                .await?,
                &[&w.game],
            )
            .await
            .map_err(db_error)?
            .ok_or(StoreError::NotFound)?;
        let version = row.get::<_, i64>(0) as u64;
        if version != w.n {
            return Err(StoreError::Conflict(Conflict::StaleVersion {
                current: version,
            }));
        }
        if row.get::<_, &str>(1) == "over" {
            return Err(StoreError::Conflict(Conflict::Changed));
        }
        let taken = tx
            .execute(
                &prepared(
                    &tx,
                    "UPDATE seats SET left_reason = $3, left_version = $4, left_at = $5,
                         left_bot = $6, left_level = $7
                     WHERE game_id = $1 AND seat = $2 AND kind = 'human' AND left_reason IS NULL",
                )
                .await?,
                &[
                    &w.game,
                    &(w.seat as i16),
                    &w.left.reason.name(),
                    &(w.n as i64),
                    &w.left.at_ms,
                    &w.left.bot,
                    &i16::from(w.left.level),
                ],
            )
            .await
            .map_err(db_error)?;
        if taken != 1 {
            return Err(StoreError::Conflict(Conflict::Changed));
        }
        let rev = tx
            .query_one(
                &prepared(
                    &tx,
                    "UPDATE games SET rev = rev + 1, bot_to_act = $2, deadline = $3,
                         status = CASE WHEN $4::text IS NOT NULL THEN 'over' ELSE status END,
                         ended = $4,
                         ended_at = CASE WHEN $4::text IS NOT NULL THEN $5::bigint / 1000 END
                     WHERE id = $1 RETURNING rev",
                )
                .await?,
                &[
                    &w.game,
                    &w.after.bot_to_act,
                    &w.after.deadline_ms,
                    &w.ended.map(Ended::name),
                    &w.left.at_ms,
                ],
            )
            .await
            .map_err(db_error)?
            .get::<_, i64>(0) as u64;
        notify(&tx, &w.game, rev).await?;
        tx.commit().await.map_err(db_error)?;
        Ok(rev)
    }

    async fn due_clocks(&self, now_ms: i64, limit: u32) -> Result<Vec<String>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                &prepared(
                    &client,
                    "SELECT id FROM games WHERE status <> 'over' AND (deadline <= $1
                         OR (deadline IS NULL AND clock IS NOT NULL AND started_at IS NOT NULL
                             AND status = 'playing' AND NOT bot_to_act))
                     ORDER BY deadline NULLS LAST LIMIT $2",
                )
                .await?,
                &[&now_ms, &(limit as i64)],
            )
            .await
            .map_err(db_error)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    async fn repair(&self, game: &str, n: u64, after: Progress) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let changed = client
            .execute(
                &prepared(
                    &client,
                    "UPDATE games SET deadline = $3, bot_to_act = $4
                     WHERE id = $1 AND version = $2 AND status <> 'over'",
                )
                .await?,
                &[&game, &(n as i64), &after.deadline_ms, &after.bot_to_act],
            )
            .await
            .map_err(db_error)?;
        Ok(changed == 1)
    }

    async fn end_idle(&self, sweep: IdleSweep) -> Result<Vec<(String, u64)>, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_error)?;
        // Each row's own condition is checked again under its lock: a game two servers sweep
        // together is ended by one of them.
        let rows = tx
            .query(
                &prepared(
                    &tx,
                    "UPDATE games SET rev = rev + 1, status = 'over', bot_to_act = FALSE,
                         deadline = NULL, ended_at = $1::bigint / 1000,
                         ended = CASE WHEN status = 'waiting' THEN 'closed' ELSE 'abandoned' END
                     WHERE status <> 'over' AND (
                         (status = 'waiting' AND created_at < $3)
                         OR (status = 'playing' AND active_at < $2))
                     RETURNING id, rev",
                )
                .await?,
                &[
                    &sweep.now_ms,
                    &sweep.active_before_ms,
                    &sweep.created_before_s,
                ],
            )
            .await
            .map_err(db_error)?;
        let ended: Vec<(String, u64)> = rows
            .iter()
            .map(|r| (r.get(0), r.get::<_, i64>(1) as u64))
            .collect();
        for (g, rev) in &ended {
            notify(&tx, g, *rev).await?;
        }
        tx.commit().await.map_err(db_error)?;
        Ok(ended)
    }

    async fn cancel(&self, game: &str, token_hash: &str, at_ms: i64) -> Result<u64, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_error)?;
        // Locked first, so a claim committed meanwhile is seen below (claims lock it too).
        let status: String = tx
            .query_opt(
                &prepared(&tx, "SELECT status FROM games WHERE id = $1 FOR UPDATE").await?,
                &[&game],
            )
            .await
            .map_err(db_error)?
            .ok_or(StoreError::NotFound)?
            .get(0);
        let seats = tx
            .query(
                &prepared(
                    &tx,
                    "SELECT token_hash FROM seats WHERE game_id = $1 AND kind = 'human'
                         AND token_hash IS NOT NULL",
                )
                .await?,
                &[&game],
            )
            .await
            .map_err(db_error)?;
        let claimed: Vec<String> = seats.iter().map(|r| r.get(0)).collect();
        if !claimed.iter().any(|t| t == token_hash) {
            return Err(StoreError::Conflict(Conflict::NotYourSeat));
        }
        if status == "over" || claimed.iter().any(|t| t != token_hash) {
            return Err(StoreError::Conflict(Conflict::Changed));
        }
        let rev = tx
            .query_one(
                &prepared(
                    &tx,
                    "UPDATE games SET rev = rev + 1, status = 'over', bot_to_act = FALSE,
                         deadline = NULL, ended = 'cancelled', ended_at = $2::bigint / 1000
                     WHERE id = $1 RETURNING rev",
                )
                .await?,
                &[&game, &at_ms],
            )
            .await
            .map_err(db_error)?
            .get::<_, i64>(0) as u64;
        notify(&tx, game, rev).await?;
        tx.commit().await.map_err(db_error)?;
        Ok(rev)
    }

    async fn post_chat(&self, w: &ChatWrite) -> Result<(u64, u64), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_error)?;
        let row = tx
            .query_opt(
                &prepared(
                    &tx,
                    "UPDATE games SET chats = chats + 1, rev = rev + 1
                     WHERE id = $1 AND chats < $2 RETURNING chats - 1, rev",
                )
                .await?,
                &[&w.game, &(w.max_lines as i64)],
            )
            .await
            .map_err(db_error)?;
        let Some(row) = row else {
            return Err(missing_or(&tx, &w.game, Conflict::Changed).await);
        };
        let (n, rev) = (row.get::<_, i64>(0), row.get::<_, i64>(1) as u64);
        let (text, phrase) = w.line.columns();
        tx.execute(
            &prepared(
                &tx,
                "INSERT INTO chat (game_id, n, at, seat, name, text, phrase)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .await?,
            &[
                &w.game,
                &n,
                &w.at_ms,
                &(w.seat as i16),
                &w.name,
                &text,
                &phrase,
            ],
        )
        .await
        .map_err(db_error)?;
        notify(&tx, &w.game, rev).await?;
        tx.commit().await.map_err(db_error)?;
        Ok((n as u64, rev))
    }

    async fn chat(&self, game: &str, from: u64, limit: u32) -> Result<Vec<ChatLine>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                &prepared(
                    &client,
                    "SELECT n, at, seat, name, text, phrase FROM chat
                     WHERE game_id = $1 AND n >= $2 ORDER BY n LIMIT $3",
                )
                .await?,
                &[&game, &(from as i64), &(limit as i64)],
            )
            .await
            .map_err(db_error)?;
        Ok(rows
            .iter()
            .map(|r| ChatLine {
                n: r.get::<_, i64>(0) as u64,
                at_ms: r.get(1),
                seat: r.get::<_, i16>(2) as u8,
                name: r.get(3),
                line: ChatText::from_columns(r.get(4), r.get(5)),
            })
            .collect())
    }

    async fn lobby(&self, limit: u32) -> Result<Vec<Summary>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                &prepared(
                    &client,
                    "SELECT id, created_at, variant, version, status, host, rated, clock FROM games
                 WHERE public AND status <> 'over'
                 ORDER BY created_at DESC, id DESC LIMIT $1",
                )
                .await?,
                &[&(limit as i64)],
            )
            .await
            .map_err(db_error)?;
        let ids: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
        let mut seats = seats_of(&client, &ids).await?;
        let mut games = Vec::new();
        for r in rows {
            let id: String = r.get(0);
            let (Some(variant), Some(status), Some(Ok(seats)), Ok(clock)) = (
                Variant::parse(r.get(2)),
                Status::parse(r.get(4)),
                seats.remove(&id),
                TimeControl::from_stored(r.get(7)),
            ) else {
                tracing::warn!("game {id} is damaged; left out of the lobby");
                continue;
            };
            games.push(Summary {
                id,
                created_at: r.get(1),
                host: r.get(5),
                rated: r.get(6),
                variant,
                version: r.get::<_, i64>(3) as u64,
                status,
                seats,
                clock,
            });
        }
        Ok(games)
    }

    async fn counts(&self) -> Result<Counts, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_one(
                &prepared(
                    &client,
                    "SELECT COUNT(*), COUNT(*) FILTER (WHERE status <> 'over') FROM games",
                )
                .await?,
                &[],
            )
            .await
            .map_err(db_error)?;
        Ok(Counts {
            games: row.get::<_, i64>(0) as u64,
            open: row.get::<_, i64>(1) as u64,
        })
    }

    async fn bot_turns(&self, now_ms: i64, limit: u32) -> Result<Vec<BotTurn>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                &prepared(
                    &client,
                    "SELECT g.id, g.version, g.creator FROM games g
                 LEFT JOIN bot_leases l ON l.game_id = g.id AND l.expires_at > $1
                 WHERE g.bot_to_act AND g.status <> 'over' AND l.game_id IS NULL
                 ORDER BY g.created_at, g.id LIMIT $2",
                )
                .await?,
                &[&now_ms, &(limit as i64)],
            )
            .await
            .map_err(db_error)?;
        Ok(rows
            .iter()
            .map(|r| BotTurn {
                game: r.get(0),
                version: r.get::<_, i64>(1) as u64,
                creator: r.get(2),
            })
            .collect())
    }

    async fn lease(
        &self,
        game: &str,
        version: u64,
        holder: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                &prepared(
                    &client,
                    "INSERT INTO bot_leases (game_id, version, holder, expires_at)
                 SELECT $1, $2, $3, $5 WHERE EXISTS (SELECT 1 FROM games WHERE id = $1
                     AND version = $2 AND bot_to_act AND status <> 'over')
                 ON CONFLICT (game_id) DO UPDATE SET version = excluded.version,
                     holder = excluded.holder, expires_at = excluded.expires_at
                 WHERE bot_leases.holder = excluded.holder OR bot_leases.expires_at <= $4
                     OR bot_leases.version <> excluded.version
                 RETURNING 1",
                )
                .await?,
                &[&game, &(version as i64), &holder, &now_ms, &until_ms],
            )
            .await
            .map_err(db_error)?;
        Ok(row.is_some())
    }

    async fn release(&self, game: &str, holder: &str) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute(
                &prepared(
                    &client,
                    "DELETE FROM bot_leases WHERE game_id = $1 AND holder = $2",
                )
                .await?,
                &[&game, &holder],
            )
            .await
            .map_err(db_error)?;
        Ok(())
    }

    async fn ping(&self) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .query_one(&prepared(&client, "SELECT 1").await?, &[])
            .await
            .map_err(db_error)?;
        Ok(())
    }

    async fn game_ids(&self, after: Option<&str>, limit: u32) -> Result<Vec<String>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                &prepared(
                    &client,
                    "SELECT id FROM games WHERE id > $1 ORDER BY id LIMIT $2",
                )
                .await?,
                &[&after.unwrap_or(""), &(limit as i64)],
            )
            .await
            .map_err(db_error)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    async fn import(&self, game: &SavedGame, after: Progress) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_error)?;
        insert_game(&tx, game, after, &game.moves).await?;
        tx.commit().await.map_err(db_error)
    }

    async fn move_counts(&self, games: &[String]) -> Result<HashMap<String, u64>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                &prepared(
                    &client,
                    "SELECT game_id, COUNT(*) FROM moves WHERE game_id = ANY($1) GROUP BY game_id",
                )
                .await?,
                &[&games],
            )
            .await
            .map_err(db_error)?;
        let mut counts: HashMap<String, u64> = games.iter().map(|g| (g.clone(), 0)).collect();
        for r in rows {
            counts.insert(r.get(0), r.get::<_, i64>(1) as u64);
        }
        Ok(counts)
    }

    fn changes(&self) -> Option<broadcast::Receiver<Change>> {
        Some(self.changes.subscribe())
    }

    fn exclusive(&self) -> bool {
        false
    }
}

/// A daily result from columns `at`…`at + 3` of `r` (tiles, score, reached, finished at): all
/// set once the game is over by its rules.
fn solo_result(r: &Row, at: usize) -> Option<SoloResult> {
    let tiles: Option<i16> = r.get(at);
    Some(SoloResult {
        tiles: tiles? as u8,
        score: r.get::<_, Option<i64>>(at + 1)?,
        reached: r.get::<_, Option<bool>>(at + 2)?,
        at_ms: r.get::<_, Option<i64>>(at + 3)?,
    })
}

/// The columns `daily_entries` reads, of `daily_games d` with its account `p`.
const DAILY_COLUMNS: &str = "d.game_id, d.day, d.variant, d.player_id,
    CASE WHEN p.deleted_at IS NULL THEN p.name END, d.par, d.tiles, d.score, d.reached,
    d.finished_at";

/// Daily games from rows of `DAILY_COLUMNS`; a row whose variant cannot be read is left out.
fn daily_entries(rows: &[Row]) -> Vec<DailyEntry> {
    rows.iter()
        .filter_map(|r| {
            Some(DailyEntry {
                variant: Variant::parse(r.get(2))?,
                game: r.get(0),
                day: r.get(1),
                player: r.get(3),
                name: r.get(4),
                par: r.get(5),
                result: solo_result(r, 6),
            })
        })
        .collect()
}

#[async_trait]
impl Daily for PostgresStore {
    async fn server_secret(&self, name: &str, fresh: &str) -> Result<String, StoreError> {
        let client = self.client().await?;
        // Whichever server inserts first wins; the others read its secret.
        client
            .execute(
                &prepared(
                    &client,
                    "INSERT INTO server_secrets (name, value) VALUES ($1, $2)
                     ON CONFLICT (name) DO NOTHING",
                )
                .await?,
                &[&name, &fresh],
            )
            .await
            .map_err(db_error)?;
        let row = client
            .query_one(
                &prepared(&client, "SELECT value FROM server_secrets WHERE name = $1").await?,
                &[&name],
            )
            .await
            .map_err(db_error)?;
        Ok(row.get(0))
    }

    async fn daily_of(&self, player: &str, day: &str) -> Result<Vec<DailyEntry>, StoreError> {
        let client = self.client().await?;
        let sql = format!(
            "SELECT {DAILY_COLUMNS} FROM daily_games d LEFT JOIN players p ON p.id = d.player_id
             WHERE d.player_id = $1 AND d.day = $2 ORDER BY d.variant"
        );
        let rows = client
            .query(&prepared(&client, &sql).await?, &[&player, &day])
            .await
            .map_err(db_error)?;
        Ok(daily_entries(&rows))
    }

    async fn daily_board(
        &self,
        day: &str,
        variant: Variant,
    ) -> Result<Vec<DailyEntry>, StoreError> {
        let client = self.client().await?;
        let sql = format!(
            "SELECT {DAILY_COLUMNS} FROM daily_games d LEFT JOIN players p ON p.id = d.player_id
             WHERE d.day = $1 AND d.variant = $2
                 AND (d.par OR (d.player_id IS NOT NULL AND d.finished_at IS NOT NULL))"
        );
        let rows = client
            .query(&prepared(&client, &sql).await?, &[&day, &variant.name()])
            .await
            .map_err(db_error)?;
        Ok(daily_entries(&rows))
    }

    async fn daily_days(&self, player: &str, limit: u32) -> Result<Vec<String>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                &prepared(
                    &client,
                    "SELECT DISTINCT day FROM daily_games
                     WHERE player_id = $1 AND finished_at IS NOT NULL
                     ORDER BY day DESC LIMIT $2",
                )
                .await?,
                &[&player, &i64::from(limit)],
            )
            .await
            .map_err(db_error)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}

fn player_row(r: &tokio_postgres::Row) -> Player {
    Player {
        id: r.get(0),
        name: r.get(1),
        password: r.get(2),
        created_at: r.get(3),
    }
}

impl PostgresStore {
    /// Runs one statement of the accounts; the number of rows it changed.
    async fn execute(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<u64, StoreError> {
        let client = self.client().await?;
        client
            .execute(&prepared(&client, sql).await?, params)
            .await
            .map_err(db_error)
    }
}

#[async_trait]
impl Accounts for PostgresStore {
    async fn sign_up(&self, p: &NewPlayer) -> Result<(), StoreError> {
        let sql = "INSERT INTO players (id, name, name_key, password, created_at) VALUES ($1, $2, $3, $4, $5)";
        self.execute(sql, &[&p.id, &p.name, &p.key, &p.password, &p.created_at])
            .await?;
        Ok(())
    }

    async fn player_named(&self, key: &str) -> Result<Option<Player>, StoreError> {
        let client = self.client().await?;
        let sql = "SELECT id, name, password, created_at FROM players WHERE name_key = $1";
        let row = client
            .query_opt(&prepared(&client, sql).await?, &[&key])
            .await
            .map_err(db_error)?;
        Ok(row.as_ref().map(player_row))
    }

    async fn open_session(
        &self,
        token_hash: &str,
        player: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let sql = "INSERT INTO sessions (token_hash, player_id, created_at) VALUES ($1, $2, $3)";
        self.execute(sql, &[&token_hash, &player, &now]).await?;
        Ok(())
    }

    async fn session(&self, token_hash: &str, since: i64) -> Result<Option<Player>, StoreError> {
        let client = self.client().await?;
        let sql = "SELECT p.id, p.name, p.password, p.created_at FROM sessions s
                   JOIN players p ON p.id = s.player_id
                   WHERE s.token_hash = $1 AND s.created_at > $2 AND p.deleted_at IS NULL";
        let row = client
            .query_opt(&prepared(&client, sql).await?, &[&token_hash, &since])
            .await
            .map_err(db_error)?;
        Ok(row.as_ref().map(player_row))
    }

    async fn close_session(&self, token_hash: &str) -> Result<(), StoreError> {
        let sql = "DELETE FROM sessions WHERE token_hash = $1";
        self.execute(sql, &[&token_hash]).await?;
        Ok(())
    }

    async fn close_sessions(&self, player: &str) -> Result<(), StoreError> {
        let sql = "DELETE FROM sessions WHERE player_id = $1";
        self.execute(sql, &[&player]).await?;
        Ok(())
    }

    async fn set_password(&self, player: &str, password: &str) -> Result<(), StoreError> {
        let sql = "UPDATE players SET password = $2 WHERE id = $1 AND deleted_at IS NULL";
        if self.execute(sql, &[&player, &password]).await? == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    async fn delete_player(&self, player: &str, now: i64) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_error)?;
        let sql = "UPDATE players SET name_key = NULL, password = '', deleted_at = $2
                   WHERE id = $1 AND deleted_at IS NULL";
        let n = tx
            .execute(&prepared(&tx, sql).await?, &[&player, &now])
            .await
            .map_err(db_error)?;
        if n == 0 {
            return Err(StoreError::NotFound);
        }
        tx.execute(
            &prepared(&tx, "DELETE FROM sessions WHERE player_id = $1").await?,
            &[&player],
        )
        .await
        .map_err(db_error)?;
        // Its games name a deleted player (and cached copies of them are stale).
        tx.execute(
            &prepared(
                &tx,
                "UPDATE games SET rev = rev + 1 WHERE id IN
                 (SELECT game_id FROM seats WHERE player_id = $1 AND name IS NOT NULL)",
            )
            .await?,
            &[&player],
        )
        .await
        .map_err(db_error)?;
        tx.execute(
            &prepared(&tx, "UPDATE seats SET name = NULL WHERE player_id = $1").await?,
            &[&player],
        )
        .await
        .map_err(db_error)?;
        tx.commit().await.map_err(db_error)
    }

    async fn login_failed(
        &self,
        subjects: &[String],
        now: i64,
        forget_before: i64,
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_error)?;
        tx.execute(
            &prepared(&tx, "DELETE FROM login_failures WHERE at < $1").await?,
            &[&forget_before],
        )
        .await
        .map_err(db_error)?;
        let insert = prepared(
            &tx,
            "INSERT INTO login_failures (subject, at) VALUES ($1, $2)",
        )
        .await?;
        for s in subjects {
            tx.execute(&insert, &[s, &now]).await.map_err(db_error)?;
        }
        tx.commit().await.map_err(db_error)
    }

    async fn login_failures(&self, subject: &str, since: i64) -> Result<u64, StoreError> {
        let client = self.client().await?;
        let sql = "SELECT COUNT(*) FROM login_failures WHERE subject = $1 AND at >= $2";
        let row = client
            .query_one(&prepared(&client, sql).await?, &[&subject, &since])
            .await
            .map_err(db_error)?;
        Ok(row.get::<_, i64>(0) as u64)
    }

    async fn rating(&self, player: &str) -> Result<Option<Rating>, StoreError> {
        let client = self.client().await?;
        let sql = "SELECT mu, sigma, games FROM ratings WHERE player_id = $1 AND games > 0";
        let row = client
            .query_opt(&prepared(&client, sql).await?, &[&player])
            .await
            .map_err(db_error)?;
        Ok(row.map(|r| Rating {
            mu: r.get(0),
            sigma: r.get(1),
            games: r.get::<_, i32>(2) as u32,
        }))
    }

    async fn rating_history(
        &self,
        player: &str,
        limit: u32,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        let client = self.client().await?;
        let sql = "SELECT game_id, at, mu, sigma FROM rating_history WHERE player_id = $1
                   ORDER BY at DESC, game_id DESC LIMIT $2";
        let rows = client
            .query(&prepared(&client, sql).await?, &[&player, &(limit as i64)])
            .await
            .map_err(db_error)?;
        let mut points: Vec<RatingPoint> = rows
            .iter()
            .map(|r| RatingPoint {
                game: r.get(0),
                at: r.get(1),
                mu: r.get(2),
                sigma: r.get(3),
            })
            .collect();
        points.reverse();
        Ok(points)
    }

    async fn games_of(&self, player: &str, limit: u32) -> Result<Vec<PlayedGame>, StoreError> {
        let client = self.client().await?;
        let sql = "SELECT g.id, g.created_at, g.ended_at, g.variant, g.rated, g.status, s.seat,
                          g.outcome, (SELECT string_agg(l.seat::text, ',') FROM seats l
                                      WHERE l.game_id = g.id AND l.left_reason IS NOT NULL)
                   FROM seats s JOIN games g ON g.id = s.game_id
                   WHERE s.player_id = $1 AND NOT g.practice
                   ORDER BY g.created_at DESC, g.id DESC LIMIT $2";
        let rows = client
            .query(&prepared(&client, sql).await?, &[&player, &(limit as i64)])
            .await
            .map_err(db_error)?;
        let mut games = played(&rows);
        let ids: Vec<String> = games.iter().map(|g| g.id.clone()).collect();
        let mut seats = seats_of(&client, &ids).await?;
        for g in &mut games {
            g.seats = seats.remove(&g.id).unwrap_or(Ok(Vec::new()))?;
        }
        Ok(games)
    }

    async fn results_of(&self, player: &str) -> Result<Vec<PlayedGame>, StoreError> {
        let client = self.client().await?;
        let sql = "SELECT g.id, g.created_at, g.ended_at, g.variant, g.rated, g.status, s.seat,
                          g.outcome, (SELECT string_agg(l.seat::text, ',') FROM seats l
                                      WHERE l.game_id = g.id AND l.left_reason IS NOT NULL)
                   FROM seats s JOIN games g ON g.id = s.game_id
                   WHERE s.player_id = $1 AND g.status = 'over' AND NOT g.practice";
        let rows = client
            .query(&prepared(&client, sql).await?, &[&player])
            .await
            .map_err(db_error)?;
        Ok(played(&rows))
    }

    async fn leaderboard(&self, limit: u32, min_games: u32) -> Result<Vec<Ranked>, StoreError> {
        let client = self.client().await?;
        let sql = "SELECT p.name, r.mu, r.sigma, r.games FROM ratings r
                   JOIN players p ON p.id = r.player_id
                   WHERE p.deleted_at IS NULL AND r.games >= $2 AND r.games > 0
                   ORDER BY r.mu - 3 * r.sigma DESC, p.name_key LIMIT $1";
        let rows = client
            .query(
                &prepared(&client, sql).await?,
                &[&(limit as i64), &(min_games as i32)],
            )
            .await
            .map_err(db_error)?;
        Ok(rows
            .iter()
            .map(|r| Ranked {
                name: r.get(0),
                rating: Rating {
                    mu: r.get(1),
                    sigma: r.get(2),
                    games: r.get::<_, i32>(3) as u32,
                },
            })
            .collect())
    }
}

/// Games an account played, from rows of id, created and ended at, variant, rated, status,
/// seat and outcome; games whose variant or status cannot be read are left out.
fn played(rows: &[Row]) -> Vec<PlayedGame> {
    rows.iter()
        .filter_map(|r| {
            Some(PlayedGame {
                id: r.get(0),
                created_at: r.get(1),
                ended_at: r.get(2),
                variant: Variant::parse(r.get(3))?,
                rated: r.get(4),
                status: Status::parse(r.get(5))?,
                seat: r.get::<_, i16>(6) as u8,
                outcome: r.get(7),
                seats: Vec::new(),
                left_seats: super::seat_list(r.get(8)),
            })
        })
        .collect()
}

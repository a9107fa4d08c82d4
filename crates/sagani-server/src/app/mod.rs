//! The server's state and what it does. The store is the truth: games are read from it into a
//! bounded cache, every change is a conditional write to it, and only then does anyone hear of
//! the change. One file per role: creating, claiming, playing, rematches, bots.

pub(crate) mod analysis;
mod census;
pub mod challenges;
mod claim;
pub use claim::Claimer;
pub use start::StartError;
pub mod chat;
mod create;
pub mod daily;
pub mod history;
mod leave;
pub mod live;
pub mod mail;
pub mod notices;
mod play;
mod rematch;
pub mod seeks;
mod start;
mod turns;

use crate::bots::BotMaker;
use crate::clock::{Clock, SystemClock};
use crate::error::{ApiError, ErrorCode};
use crate::hub::Hub;
use crate::limits::{Limiters, Limits};
use crate::scheduler::{Lanes, Turn};
use crate::store::{Conflict, Store, StoreError};
use crate::table::{Table, TableState};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::OwnedMutexGuard;

#[derive(Clone)]
pub struct Config {
    pub limits: Limits,
    /// The longest a bot may think about one decision, in milliseconds: the search levels keep
    /// to their own iteration budgets within it (docs/bots.md), the others answer at once.
    pub bot_think_ms: u64,
    /// mcts decisions at the same time (each on its own blocking thread); random and greedy
    /// have one more worker of their own.
    pub bot_threads: usize,
    /// Deal decks (and start players, and bot seeds) from this seed instead of the operating
    /// system's randomness, so that games can be repeated: for tests and demonstrations only,
    /// since anyone who knows the seed knows every draw pile. Refused with PostgreSQL.
    pub deck_seed: Option<u64>,
    /// Games kept in memory at most, and how long an unused one stays.
    pub cache_games: u64,
    pub cache_idle: Duration,
    /// How long a server may hold a bot's turn beyond the bot's think time before another
    /// server takes it over (it died, or lost the database).
    pub bot_lease_grace: Duration,
    /// How often the store is asked for bot turns nobody holds (after a server died).
    pub bot_sweep: Duration,
    pub clock: Arc<dyn Clock>,
    pub bots: BotMaker,
    /// Timeouts, connection caps and trusted proxies of the HTTP layer.
    pub http: crate::limits::HttpLimits,
    /// Session cookies only over HTTPS (the site's public address is https).
    pub secure_cookies: bool,
    /// The bot that plays a seat whose player timed out or resigned, with its level.
    pub timeout_bot: (String, u8),
    /// A game nobody has moved in for this long is ended as abandoned.
    pub abandon_after: Duration,
    /// A game whose seats are not all claimed this long after its creation is closed.
    pub expire_unstarted: Duration,
    /// How often the store is asked for games nobody plays any more.
    pub idle_sweep: Duration,
    /// The longest one analysis ("what would the engine do?") may search, in milliseconds.
    pub analysis_ms: u64,
    /// The most search iterations one analysis makes (none: only `analysis_ms` bounds it).
    /// With a cap the search rarely reaches, an analysis depends on the time it got.
    pub analysis_iterations: Option<u64>,
    /// Where every password is hashed and checked, a few at a time.
    pub passwords: Arc<crate::passwords::Passwords>,
    /// How often seeks are looked at: seekers who went away dropped, rated windows widened
    /// and what suits paired.
    pub seek_sweep: Duration,
    /// The SMTP server mail goes through (`smtp://host:port`, `smtps://…`); none: no mail.
    pub smtp: Option<String>,
    /// The sender of the mails.
    pub mail_from: String,
    /// The site's public address (`https://sagani.example`): the start of links in mails.
    /// None: where the site was reached when an address was set.
    pub public_url: Option<String>,
    /// How often the outbox is looked at for mails to send.
    pub mail_poll: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            limits: Limits::default(),
            bot_think_ms: 2000,
            bot_threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            deck_seed: None,
            cache_games: 10_000,
            cache_idle: Duration::from_secs(15 * 60),
            bot_lease_grace: Duration::from_secs(10),
            bot_sweep: Duration::from_secs(1),
            clock: Arc::new(SystemClock),
            bots: crate::bots::standard_maker(),
            http: crate::limits::HttpLimits::default(),
            secure_cookies: false,
            timeout_bot: ("greedy".into(), 1),
            abandon_after: Duration::from_secs(30 * 86_400),
            expire_unstarted: Duration::from_secs(7 * 86_400),
            idle_sweep: Duration::from_secs(60),
            analysis_ms: 800,
            analysis_iterations: Some(8_000),
            passwords: Arc::default(),
            seek_sweep: Duration::from_secs(2),
            smtp: None,
            mail_from: "Sagani <sagani@localhost>".into(),
            public_url: None,
            mail_poll: Duration::from_secs(5),
        }
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("limits", &self.limits)
            .field("bot_think_ms", &self.bot_think_ms)
            .field("bot_threads", &self.bot_threads)
            .field("deck_seed", &self.deck_seed.map(|_| "(set)"))
            .field("cache_games", &self.cache_games)
            .finish_non_exhaustive()
    }
}

pub struct App {
    pub store: Arc<dyn Store>,
    pub config: Config,
    pub limiters: Limiters,
    pub metrics: crate::metrics::Metrics,
    pub hub: Hub,
    tables: moka::future::Cache<String, Arc<Table>>,
    /// With a store this server alone writes: the `rev` of each game's latest change, so that a
    /// cached copy loaded just before a change (a race in the cache) is caught.
    committed: moka::sync::Cache<String, u64>,
    pub(crate) lanes: Lanes,
    /// This server's name in bot leases.
    holder: String,
    /// Games whose bot turn a worker of this server is playing now: a turn queued again
    /// meanwhile (by the sweep) is not played twice.
    pub(crate) playing: std::sync::Mutex<std::collections::HashSet<String>>,
    /// Games dealt so far from `config.deck_seed`.
    dealt: AtomicU64,
    /// The secret the daily decks come from, once read from the store.
    daily_secret: tokio::sync::OnceCell<String>,
    /// The stored games as last counted (`census.rs`).
    census: std::sync::Mutex<Option<crate::store::Counts>>,
    /// This server's spectator sockets per game (`live.rs`).
    pub(crate) spectators: Arc<crate::spectators::Spectators>,
    /// When this server last noted each account's request (`challenges.rs`, for "online").
    seen: std::sync::Mutex<std::collections::HashMap<String, i64>>,
    /// How mail is sent; none without `config.smtp`.
    mailer: Option<crate::mailer::Mailer>,
}

/// The refusal for a store's answer.
pub(crate) fn store_refusal(e: StoreError) -> ApiError {
    match e {
        StoreError::NotFound => ApiError::not_found("there is no such game"),
        StoreError::Conflict(Conflict::TooManyGames { open }) => ApiError::new(
            ErrorCode::TooManyGames,
            format!("this address already has {open} games that are not over"),
        ),
        StoreError::Conflict(Conflict::SeatTaken) => ApiError::new(
            ErrorCode::SeatTaken,
            "the seat was claimed by someone else just now",
        ),
        StoreError::Conflict(Conflict::NotYourSeat) => wrong_token(),
        StoreError::Conflict(Conflict::Changed) => ApiError::new(
            ErrorCode::StaleVersion,
            "the game changed meanwhile; fetch it and try again",
        ),
        StoreError::Damaged { game, reason } => {
            tracing::error!("game {game} is damaged in the store: {reason}");
            ApiError::new(
                ErrorCode::Internal,
                "this game's stored data is damaged; it cannot be shown",
            )
        }
        e => {
            // The store's own message goes to the log, not to the client.
            tracing::error!("{e}");
            ApiError::storage()
        }
    }
}

pub(crate) fn wrong_token() -> ApiError {
    ApiError::new(
        ErrorCode::WrongToken,
        "this token holds no seat at this game",
    )
}

/// Runs `work` in its own task, so a client that hangs up mid-request cannot cut a change
/// off between its commit and its announcement, and a panic in it is this request's alone.
async fn detached<T: Send + 'static>(
    work: impl std::future::Future<Output = Result<T, ApiError>> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::spawn(work).await.unwrap_or_else(|e| {
        // The panic's text stays in the log: it may name anything.
        tracing::error!("a request failed: {e}");
        Err(ApiError::new(
            ErrorCode::Internal,
            "the server failed on this request",
        ))
    })
}

impl App {
    /// Games in this server's memory.
    pub fn games_live(&self) -> u64 {
        self.tables.entry_count()
    }

    /// Bot turns waiting for a worker.
    pub fn bot_queue(&self) -> usize {
        self.lanes.len()
    }

    /// Game `id` as cached, read from the store if it is not.
    async fn cached(&self, id: &str) -> Result<Arc<Table>, ApiError> {
        let store = self.store.clone();
        let key = id.to_string();
        self.tables
            .try_get_with(id.to_string(), async move {
                let saved = store.game(&key).await?;
                Table::restore(&saved)
                    .map(Arc::new)
                    .map_err(|e| StoreError::damaged(&key, e))
            })
            .await
            .map_err(|e| store_refusal((*e).clone()))
    }

    /// Game `id`, locked and up to date: at least at `rev` if given (what a notification
    /// said), else as the store has it now. A server that is the store's only writer trusts its
    /// cache.
    pub(crate) async fn fresh(
        &self,
        id: &str,
        at_least: Option<u64>,
    ) -> Result<(Arc<Table>, OwnedMutexGuard<TableState>), ApiError> {
        let table = self.cached(id).await?;
        let mut st = table.lock().await;
        let stale = if self.store.exclusive() {
            self.committed.get(id).is_some_and(|rev| rev > st.rev)
        } else {
            match at_least {
                Some(rev) if st.rev >= rev => false,
                _ => self.store.rev(id).await.map_err(store_refusal)? != st.rev,
            }
        };
        if stale {
            self.reload(&table, &mut st).await?;
        }
        Ok((table, st))
    }

    /// Brings the table up to the store's copy (after a write that lost a race, or whose
    /// outcome is unknown, or a change by another server): the moves since this copy's version
    /// are played on it; should they not fit, the whole game is read again.
    pub(crate) async fn reload(&self, table: &Table, st: &mut TableState) -> Result<(), ApiError> {
        let news = self
            .store
            .since(&table.id, st.version())
            .await
            .map_err(store_refusal)?;
        let mut game = st.game.clone();
        let fits = news
            .moves
            .iter()
            .all(|m| game.game().to_act() == Some(m.seat) && game.play(m.mv).is_ok());
        // A rated game's end brings rating changes the news does not carry: read the whole game.
        let rated_end = st.rated && game.game().is_over() && st.ratings.is_empty();
        if fits && !rated_end {
            st.game = game;
            st.seats = news.seats;
            st.rematch = news.rematch;
            st.rev = news.rev;
            st.times.extend(news.moves.iter().map(|m| m.at_ms));
            st.started_ms = news.started_ms;
            st.ended = news.ended;
            st.chats = news.chats;
            return Ok(());
        }
        let saved = self.store.game(&table.id).await.map_err(store_refusal)?;
        *st = TableState::restore(&saved)
            .map_err(|e| store_refusal(StoreError::damaged(&table.id, e)))?;
        Ok(())
    }

    /// Tells everyone watching the games that changed (after the change is durable). Cached
    /// copies of them are dropped, but for `kept`, which the caller brought up to date.
    pub(crate) async fn announce(&self, changed: &[(String, u64)], kept: &str) {
        for (game, rev) in changed {
            if self.store.exclusive() {
                self.note_committed(game, *rev);
            }
            if game != kept {
                self.tables.invalidate(game).await;
            }
            self.hub.publish(game, Some(*rev));
        }
    }

    /// Notes that `game` is stored at `rev` at least. Never backwards: two changes to one game
    /// may be announced out of order (a new daily attempt's creation after the same account's
    /// second start took its seat), and the later revision must still mark the older cached
    /// copy as stale.
    fn note_committed(&self, game: &str, rev: u64) {
        self.committed
            .entry(game.to_string())
            .and_upsert_with(|seen| seen.map_or(rev, |seen| rev.max(*seen.value())));
    }

    /// Drops this server's copies of `games` (changed in the store behind their backs).
    pub(crate) async fn forget(&self, games: impl Iterator<Item = &str>) {
        for game in games {
            self.committed.invalidate(game);
            self.tables.invalidate(game).await;
        }
    }

    /// Keeps `table` as the cached copy: it holds the latest change this server made.
    pub(crate) async fn keep(&self, table: &Arc<Table>) {
        self.tables.insert(table.id.clone(), table.clone()).await;
    }

    pub(crate) fn queue_bot(&self, table: &Table, st: &TableState) {
        if st.progress().bot_to_act {
            self.lanes.fast.push(Turn {
                game: table.id.clone(),
                version: st.version(),
                creator: table.creator.clone(),
            });
        }
    }

    pub(crate) fn now_ms(&self) -> i64 {
        self.config.clock.now_ms()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::JoinRequest;
    use crate::secret;
    use crate::store::conformance;
    use crate::store::{SavedSeat, SqliteStore};

    /// A new game's creator announces it late, after the same account's second start has
    /// already taken its seat again (a new token) on the same server: the copy the creator
    /// keeps is older than the store's, and must be read again, not trusted.
    #[tokio::test]
    async fn a_late_announcement_does_not_bring_back_an_older_copy() {
        let dir = tempfile::tempdir().unwrap();
        let store: Arc<dyn Store> = Arc::new(SqliteStore::open(&dir.path().join("g.db")).unwrap());
        let app = App::start(store.clone(), Config::default()).await.unwrap();
        let code = "the-invite";
        let saved = conformance::game(
            "g1",
            vec![SavedSeat::Human {
                invite_hash: secret::hash(code),
                token_hash: Some(secret::hash("first-token")),
                name: None,
                player: None,
                left: None,
            }],
        );
        // The creator's write lands; its copy is not yet kept nor announced.
        let created = Arc::new(Table::restore(&saved).unwrap());
        let progress = created.lock().await.progress();
        let changed = store.create(&saved, progress, None, None).await.unwrap();
        // The second start takes the seat again, with a new token.
        let second = app
            .join(
                "g1",
                JoinRequest {
                    invite: Some(code.into()),
                    ..JoinRequest::default()
                },
                Claimer::default(),
            )
            .await
            .unwrap();
        // Now the creator keeps its copy and announces its change.
        app.keep(&created).await;
        app.announce(&changed, "g1").await;
        let (_, st) = app.fresh("g1", None).await.unwrap();
        assert_eq!(st.seat_of_hash(&secret::hash(&second.token)), Some(0));
        assert_eq!(st.seat_of_hash(&secret::hash("first-token")), None);
    }
}

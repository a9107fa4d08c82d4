//! The server's state and what it does: create games, claim seats, play moves (humans and
//! bots alike), each change committed to the store before anyone hears of it.

use crate::api::{CreateGame, Created, GameState, Invite, JoinRequest, Joined, SeatRequest};
use crate::bots;
use crate::error::ApiError;
use crate::limits::{Limiters, Limits};
use crate::secret;
use crate::store::{Event, SavedGame, SavedSeat, Store, StoreError};
use crate::table::{Table, TableState};
use axum::http::StatusCode;
use sagani_core::{Move, TileId, Variant};
use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;
use tokio::sync::Semaphore;

#[derive(Clone, Debug)]
pub struct Config {
    pub limits: Limits,
    /// The longest a bot may think about one decision, in milliseconds.
    pub bot_think_ms: u64,
    /// Bots thinking at the same time (each on its own blocking thread).
    pub bot_threads: usize,
    /// Deal decks (and start players, and bot seeds) from this seed instead of the operating
    /// system's randomness, so that games can be repeated: for tests and demonstrations only,
    /// since anyone who knows the seed knows every draw pile.
    pub deck_seed: Option<u64>,
    /// Timeouts, connection caps and trusted proxies of the HTTP layer.
    pub http: crate::http::HttpLimits,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            limits: Limits::default(),
            bot_think_ms: 2000,
            bot_threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            deck_seed: None,
            http: crate::http::HttpLimits::default(),
        }
    }
}

pub struct App {
    pub store: Arc<dyn Store>,
    pub config: Config,
    pub limiters: Limiters,
    pub metrics: crate::metrics::Metrics,
    tables: RwLock<HashMap<String, Arc<Table>>>,
    pub(crate) bot_slots: Arc<Semaphore>,
    /// Games being created, per address, so the open-games limit counts them too.
    creating: std::sync::Mutex<HashMap<String, usize>>,
    /// Games dealt so far from `config.deck_seed`.
    dealt: std::sync::atomic::AtomicU64,
}

/// What became of a move.
pub struct Played {
    /// False when the move repeated one already applied.
    pub applied: bool,
    pub state: GameState,
}

/// A game being created, counted against its address until dropped.
struct Reserved {
    app: Arc<App>,
    ip: String,
}

impl Drop for Reserved {
    fn drop(&mut self) {
        let mut creating = self.app.creating.lock().expect("creating lock");
        if let Some(n) = creating.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                creating.remove(&self.ip);
            }
        }
    }
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn created(id: String, invites: Vec<Invite>) -> Created {
    Created {
        url: format!("/api/games/{id}"),
        watch_url: format!("/games/{id}"),
        game: id,
        invites,
    }
}

/// The id of game `id`'s rematch. It is derived from `id`, so the link between the two needs no
/// storing: a restart finds it again.
pub fn rematch_id(id: &str) -> String {
    secret::hash(&format!("rematch of {id}"))[..16].to_string()
}

/// Runs `work` in its own task, so a client that hangs up mid-request cannot cut a change
/// off between its commit and its announcement.
async fn detached<T: Send + 'static>(
    work: impl std::future::Future<Output = Result<T, ApiError>> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::spawn(work).await.unwrap_or_else(|e| {
        // The panic's text stays in the log: it may name anything.
        tracing::error!("a request failed: {e}");
        Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "the server failed on this request",
        ))
    })
}

impl App {
    /// Loads every stored game and starts the bots whose turn it is. Games that no longer
    /// replay are skipped with a warning (they stay in the database).
    pub fn start(store: Arc<dyn Store>, config: Config) -> Result<Arc<App>, String> {
        let saved = store.load().map_err(|e| e.to_string())?;
        let stored = saved.len() as u64;
        let mut tables = HashMap::new();
        for g in saved {
            let id = g.id.clone();
            match Table::restore(g) {
                Ok(t) => {
                    tables.insert(id, t);
                }
                Err(e) => tracing::warn!("game {id} is not restored: {e}"),
            }
        }
        // A game whose rematch is on the server names it again (the link is derived).
        let ids: std::collections::HashSet<String> = tables.keys().cloned().collect();
        let tables = tables
            .into_iter()
            .map(|(id, mut t)| {
                let rematch = rematch_id(&id);
                if ids.contains(&rematch) {
                    t.set_rematch(rematch);
                }
                (id, Arc::new(t))
            })
            .collect();
        let app = Arc::new(App {
            limiters: Limiters::new(&config.limits),
            metrics: crate::metrics::Metrics::new(),
            bot_slots: Arc::new(Semaphore::new(config.bot_threads.max(1))),
            store,
            config,
            tables: RwLock::new(tables),
            creating: std::sync::Mutex::new(HashMap::new()),
            // Game k of the database is dealt from S+k, across restarts too.
            dealt: std::sync::atomic::AtomicU64::new(stored),
        });
        Ok(app)
    }

    /// Asks the bots whose turn it is in restored games (needs a tokio runtime).
    pub async fn wake_bots(self: &Arc<App>) {
        for table in self.all_tables() {
            let mut st = table.lock().await;
            self.kick_bot(&table, &mut st);
        }
    }

    pub fn all_tables(&self) -> Vec<Arc<Table>> {
        self.tables
            .read()
            .expect("tables lock")
            .values()
            .cloned()
            .collect()
    }

    pub fn table(&self, id: &str) -> Result<Arc<Table>, ApiError> {
        self.tables
            .read()
            .expect("tables lock")
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::not_found(format!("there is no game {id:?}")))
    }

    pub async fn create(self: &Arc<App>, req: CreateGame, ip: String) -> Result<Created, ApiError> {
        let app = self.clone();
        detached(async move { app.create_now(req, ip).await }).await
    }

    async fn create_now(self: Arc<App>, req: CreateGame, ip: String) -> Result<Created, ApiError> {
        let n = req.seats.len();
        if !(1..=4).contains(&n) {
            return Err(ApiError::bad_request(format!(
                "a game has 1 to 4 seats, not {n}"
            )));
        }
        let variant = match req.variant.as_deref() {
            None => {
                if n == 1 {
                    Variant::Solo
                } else {
                    Variant::Standard
                }
            }
            Some(v) => Variant::parse(v).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "unknown variant {v:?}; it is standard, solo or solo-all"
                ))
            })?,
        };
        if !req.seats.iter().any(|s| matches!(s, SeatRequest::Human)) {
            // Bots play at a table with a person; games between bots are `sagani arena`'s.
            return Err(ApiError::bad_request(
                "a game needs at least one human seat (bots play each other with `sagani arena`)",
            ));
        }
        if variant.is_solo() != (n == 1) {
            return Err(ApiError::bad_request(format!(
                "the {variant} variant is for {}, not {n} seats",
                if variant.is_solo() {
                    "1 seat"
                } else {
                    "2 to 4 seats"
                }
            )));
        }
        let _slot = self.reserve_game(&ip)?;
        let id = secret::random_hex(8);
        let mut seats = Vec::new();
        let mut invites = Vec::new();
        for (i, s) in req.seats.iter().enumerate() {
            match s {
                SeatRequest::Human => {
                    let code = secret::random_hex(16);
                    seats.push(SavedSeat::Human {
                        invite_hash: secret::hash(&code),
                        token_hash: None,
                    });
                    invites.push(Invite {
                        seat: i as u8,
                        url: format!("/games/{id}/join/{code}"),
                        code,
                    });
                }
                SeatRequest::Bot { bot, level } => {
                    let level = bots::check(bot, *level)
                        .map_err(|e| ApiError::bad_request(format!("seat {i}: {e}")))?;
                    seats.push(SavedSeat::Bot {
                        bot: bot.clone(),
                        level,
                    });
                }
            }
        }
        let (deck, start_player) = self.deal(n);
        let saved = SavedGame {
            id: id.clone(),
            created_at: now(),
            variant,
            deck,
            start_player,
            public: req.public,
            creator: ip,
            seats,
            moves: Vec::new(),
        };
        self.open_game(saved).await?;
        Ok(created(id, invites))
    }

    /// A new deck and start player for `n` seats: from the OS's randomness, or dealt from
    /// `config.deck_seed`.
    fn deal(&self, n: usize) -> (Vec<TileId>, u8) {
        match self.config.deck_seed {
            Some(seed) => {
                let k = self
                    .dealt
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let (deck, start) = sagani_core::shuffled_deck(seed.wrapping_add(k), n as u8);
                (deck.to_vec(), start)
            }
            None => (secret::random_deck(), secret::random_below(n as u32) as u8),
        }
    }

    /// Stores a new game, then puts it on the server and wakes its first bot.
    async fn open_game(self: &Arc<App>, saved: SavedGame) -> Result<Arc<Table>, ApiError> {
        let id = saved.id.clone();
        let (n, variant) = (saved.seats.len(), saved.variant);
        let mut table = Arc::new(Table::restore(saved.clone()).map_err(ApiError::bad_request)?);
        if let Err(e) = self.commit(Event::Created(saved)).await {
            // It may have landed all the same (or an earlier try of the same rematch did): then
            // the game is the stored one.
            let (store, key) = (self.store.clone(), id.clone());
            let landed = tokio::task::spawn_blocking(move || store.load_game(&key)).await;
            match landed {
                Ok(Ok(Some(stored))) => {
                    table = Arc::new(Table::restore(stored).map_err(|_| e)?);
                }
                _ => return Err(e),
            }
        }
        let table = self
            .tables
            .write()
            .expect("tables lock")
            .entry(id.clone())
            .or_insert(table)
            .clone();
        tracing::info!("game {id} created: {n} seats, {variant}");
        let mut st = table.lock().await;
        self.kick_bot(&table, &mut st);
        drop(st);
        Ok(table)
    }

    /// A new game with the same seats as the finished game `table`: the same bots, and each
    /// person in the same seat with the same token. Asking again (anyone, any time) gives the
    /// same game. `token_hash` must hold a seat of `table`.
    pub async fn rematch(
        self: &Arc<App>,
        table: &Arc<Table>,
        token_hash: String,
        ip: String,
    ) -> Result<Created, ApiError> {
        let (app, table) = (self.clone(), table.clone());
        detached(async move { app.rematch_now(table, token_hash, ip).await }).await
    }

    async fn rematch_now(
        self: Arc<App>,
        table: Arc<Table>,
        token_hash: String,
        ip: String,
    ) -> Result<Created, ApiError> {
        let id = rematch_id(&table.id);
        // The old table stays locked until the rematch is stored: one rematch at a time per
        // game, and no seat is claimed again in between.
        let mut st = table.lock().await;
        if st.seat_of_hash(&token_hash).is_none() {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "wrong_token",
                "a rematch is asked for by a player of the game",
            ));
        }
        if !st.game.game().is_over() {
            return Err(ApiError::conflict(
                "game_in_progress",
                "a rematch follows a game that is over",
                st.version(),
            ));
        }
        if st.rematch.is_none() {
            // Each seat keeps its invite and its token: whoever played a seat plays it again,
            // and an invite claims its seat in the rematch as it did here.
            let seats = st.seats.clone();
            let _slot = self.reserve_game(&ip)?;
            let (deck, start_player) = self.deal(seats.len());
            self.open_game(SavedGame {
                id: id.clone(),
                created_at: now(),
                variant: table.variant,
                deck,
                start_player,
                public: table.public,
                creator: ip,
                seats,
                moves: Vec::new(),
            })
            .await?;
            st.rematch = Some(id.clone());
            // Everyone at the old table hears of it.
            table.changed(&st);
        }
        Ok(created(id, Vec::new()))
    }

    /// Counts a game about to be created against `ip`'s open games, or refuses it. The count
    /// lasts as long as the returned guard.
    fn reserve_game(self: &Arc<App>, ip: &str) -> Result<Reserved, ApiError> {
        let max = self.config.limits.open_games_per_ip;
        let mut creating = self.creating.lock().expect("creating lock");
        let pending = creating.get(ip).copied().unwrap_or(0);
        if max > 0 {
            let open = self
                .all_tables()
                .iter()
                .filter(|t| t.creator == ip && !t.is_over())
                .count();
            if open + pending >= max {
                return Err(ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    "too_many_games",
                    format!(
                        "this address already has {} games that are not over (at most {max})",
                        open + pending
                    ),
                ));
            }
        }
        creating.insert(ip.to_string(), pending + 1);
        Ok(Reserved {
            app: self.clone(),
            ip: ip.to_string(),
        })
    }

    async fn commit(&self, event: Event) -> Result<(), ApiError> {
        let outcome = match self.store.write(event).await {
            Ok(outcome) => outcome,
            Err(_) => Err(StoreError("the store did not answer".into())),
        };
        outcome.map_err(|e| {
            tracing::error!("{e}");
            ApiError::storage()
        })
    }

    /// After a write whose outcome is unknown: the table as the store has it (or, if the store
    /// cannot say, as it was before the write, which `fallback` restores).
    async fn resync(
        self: &Arc<App>,
        table: &Arc<Table>,
        st: &mut TableState,
        fallback: impl FnOnce(&mut TableState),
    ) {
        let store = self.store.clone();
        let id = table.id.clone();
        let stored = tokio::task::spawn_blocking(move || store.load_game(&id)).await;
        match stored {
            Ok(Ok(Some(saved))) => match TableState::restore(&saved) {
                Ok(mut fresh) => {
                    // A bot still thinking (or retrying) about this version keeps its turn.
                    fresh.bot_thinking = st.bot_thinking;
                    fresh.rematch = st.rematch.take();
                    *st = fresh;
                    table.changed(st);
                    self.kick_bot(table, st);
                    return;
                }
                Err(e) => tracing::error!("game {} does not replay from the store: {e}", table.id),
            },
            Ok(Ok(None)) => tracing::error!("game {} is gone from the store", table.id),
            Ok(Err(e)) => tracing::error!("game {}: {e}", table.id),
            Err(e) => tracing::error!("game {}: {e}", table.id),
        }
        fallback(st);
    }

    pub async fn join(self: &Arc<App>, id: &str, req: JoinRequest) -> Result<Joined, ApiError> {
        let table = self.table(id)?;
        let app = self.clone();
        detached(async move { app.join_now(table, req).await }).await
    }

    async fn join_now(
        self: Arc<App>,
        table: Arc<Table>,
        req: JoinRequest,
    ) -> Result<Joined, ApiError> {
        let mut st = table.lock().await;
        let by_invite = req.invite.is_some();
        let seat = match (&req.invite, req.seat) {
            (Some(code), _) => {
                let h = secret::hash(code);
                st.seats
                    .iter()
                    .position(
                        |s| matches!(s, SavedSeat::Human { invite_hash, .. } if *invite_hash == h),
                    )
                    .ok_or_else(|| {
                        ApiError::new(
                            StatusCode::FORBIDDEN,
                            "wrong_invite",
                            "no seat of this game has that invite code",
                        )
                    })?
            }
            (None, Some(seat)) if table.public => seat as usize,
            (None, Some(_)) => {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    "wrong_invite",
                    "this game is not public: claim a seat with its invite code",
                ))
            }
            (None, None) => {
                return Err(ApiError::bad_request(
                    "give an invite code, or a seat number of a public game",
                ))
            }
        };
        match st.seats.get(seat) {
            None => {
                return Err(ApiError::bad_request(format!(
                    "this game has seats 0 to {}, not {seat}",
                    st.seats.len() - 1
                )))
            }
            Some(SavedSeat::Bot { .. }) => {
                return Err(ApiError::conflict(
                    "seat_taken",
                    format!("seat {seat} is played by a bot"),
                    st.version(),
                ))
            }
            // The invite claims its seat again (a lost answer, a second device): a new token,
            // and the old one stops working. A public seat taken by number has no such proof.
            Some(SavedSeat::Human {
                token_hash: Some(_),
                ..
            }) if !by_invite => {
                return Err(ApiError::conflict(
                    "seat_taken",
                    format!("seat {seat} is already claimed"),
                    st.version(),
                ))
            }
            Some(SavedSeat::Human { .. }) => {}
        }
        let token = secret::random_hex(32);
        let token_hash = secret::hash(&token);
        let claimed = self
            .commit(Event::Claimed {
                game: table.id.clone(),
                seat: seat as u8,
                token_hash: token_hash.clone(),
                by_invite,
            })
            .await;
        if let Err(e) = claimed {
            self.resync(&table, &mut st, |_| {}).await;
            return Err(e);
        }
        if let SavedSeat::Human {
            token_hash: t,
            invite_hash,
        } = &mut st.seats[seat]
        {
            *t = Some(token_hash);
            if !by_invite {
                // Taken by number: the creator's invite for it no longer takes it over.
                invite_hash.clear();
            }
        }
        table.changed(&st);
        tracing::info!("game {} seat {seat} claimed", table.id);
        Ok(Joined {
            game: table.id.clone(),
            seat: seat as u8,
            token,
        })
    }

    /// Plays `mv` for `seat`, made against `version`: refused if stale, not `seat`'s turn or
    /// illegal; a repeat of the move already played at `version` is answered, not replayed.
    /// `token_hash` is checked again under the table's lock (a re-claim may have revoked it).
    pub async fn play(
        self: &Arc<App>,
        table: &Arc<Table>,
        token_hash: String,
        seat: u8,
        version: u64,
        mv: Move,
    ) -> Result<Played, ApiError> {
        let (app, table) = (self.clone(), table.clone());
        detached(async move {
            app.play_now(&table, Some(&token_hash), seat, version, mv)
                .await
        })
        .await
    }

    /// `token_hash` is `None` for a bot.
    async fn play_now(
        self: &Arc<App>,
        table: &Arc<Table>,
        token_hash: Option<&str>,
        seat: u8,
        version: u64,
        mv: Move,
    ) -> Result<Played, ApiError> {
        let mut st = table.lock().await;
        if token_hash.is_some_and(|h| st.seat_of_hash(h) != Some(seat)) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "wrong_token",
                "this token holds no seat at this game",
            ));
        }
        let current = st.version();
        if version != current {
            if version < current && st.played_at(version, seat, mv) {
                // A retry: perhaps of a move whose answer was lost, so nobody asked the bot.
                self.kick_bot(table, &mut st);
                return Ok(Played {
                    applied: false,
                    state: st.state_for(&table.id, Some(seat)),
                });
            }
            return Err(ApiError::conflict(
                "stale_version",
                format!("the game is at version {current}, not {version}: fetch the game and choose again"),
                current,
            ));
        }
        match st.game.game().to_act() {
            None => return Err(ApiError::conflict("game_over", "the game is over", current)),
            Some(p) if p != seat => {
                return Err(ApiError::conflict(
                    "not_your_turn",
                    format!("it is seat {p}'s turn, not seat {seat}'s"),
                    current,
                ))
            }
            Some(_) => {}
        }
        st.game.play(mv).map_err(|e| ApiError {
            version: Some(current),
            ..ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "illegal_move",
                e.to_string(),
            )
        })?;
        let event = Event::Moved {
            game: table.id.clone(),
            n: current,
            seat,
            mv,
        };
        if let Err(e) = self.commit(event).await {
            self.resync(table, &mut st, |st| st.undo_last()).await;
            return Err(e);
        }
        table.changed(&st);
        if st.game.game().is_over() {
            tracing::info!("game {} is over after {} moves", table.id, current + 1);
        }
        self.kick_bot(table, &mut st);
        Ok(Played {
            applied: true,
            state: st.state_for(&table.id, Some(seat)),
        })
    }

    /// Starts the bot whose turn it is, if any, once per version. Called after every change
    /// and whenever someone looks, so a bot held up by a failure is asked again.
    pub(crate) fn kick_bot(self: &Arc<App>, table: &Arc<Table>, st: &mut TableState) {
        let game = st.game.game();
        let Some(seat) = game.to_act() else { return };
        let SavedSeat::Bot { bot, level } = &st.seats[seat as usize] else {
            return;
        };
        let version = st.version();
        if st.bot_thinking == Some(version) {
            return;
        }
        let job = bots::Job {
            bot: bot.clone(),
            level: *level,
            view: game.view(Some(seat)),
            legal: game.legal_moves(),
            think: Duration::from_millis(self.config.bot_think_ms),
            seed: self.config.deck_seed.map(|seed| {
                let deck = &st.game.record().deck;
                seed ^ version.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(deck[0]) << 32
            }),
        };
        st.bot_thinking = Some(version);
        let (app, table) = (self.clone(), table.clone());
        tokio::spawn(async move {
            let mv = bots::think(&app.bot_slots, job).await;
            // A store that fails is tried again, less and less often; the move stays the
            // same, so a write that did land is answered as a retry.
            let mut wait = Duration::from_millis(250);
            loop {
                match app.play_now(&table, None, seat, version, mv).await {
                    Ok(_) => break,
                    Err(e) if e.code == "storage" => {
                        tracing::warn!("game {} bot seat {seat}: retrying in {wait:?}", table.id);
                        tokio::time::sleep(wait).await;
                        wait = (wait * 2).min(Duration::from_secs(30));
                    }
                    Err(e) => {
                        tracing::error!("game {} bot seat {seat}: {}", table.id, e.message);
                        let mut st = table.lock().await;
                        if st.bot_thinking == Some(version) {
                            st.bot_thinking = None;
                        }
                        break;
                    }
                }
            }
        });
    }
}

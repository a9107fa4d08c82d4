//! Creating a game: its seats checked, its deck dealt, stored, and its first bot queued.

use super::{detached, store_refusal, App};
use crate::api::{CreateGame, Created, Invite, SeatRequest};
use crate::bots;
use crate::error::{ApiError, RefusalDetail};
use crate::secret;
use crate::store::{replay, Conflict, SavedGame, SavedSeat, StoreError};
use crate::table::Table;
use crate::time_control::TimeControl;
use sagani_core::{TileId, Variant};
use std::sync::Arc;

/// A public game's clock when its creator names none: ten minutes, ten seconds a decision.
pub const PUBLIC_CLOCK: TimeControl = TimeControl::Realtime {
    initial_s: 600,
    increment_s: 10,
};

pub(super) fn created(id: String, invites: Vec<Invite>) -> Created {
    Created {
        url: format!("/api/games/{id}"),
        watch_url: format!("/games/{id}"),
        game: id,
        invites,
    }
}

impl App {
    /// Creates the game `req` asks for, by `ip`; `host` is the creator's name for the lobby.
    pub async fn create(
        self: &Arc<App>,
        req: CreateGame,
        ip: String,
        host: Option<String>,
    ) -> Result<Created, ApiError> {
        let app = self.clone();
        detached(async move { app.create_now(req, ip, host).await }).await
    }

    async fn create_now(
        self: Arc<App>,
        req: CreateGame,
        ip: String,
        host: Option<String>,
    ) -> Result<Created, ApiError> {
        let n = req.seats.len();
        if !(1..=4).contains(&n) {
            return Err(ApiError::bad_request(format!(
                "a game has 1 to 4 seats, not {n}"
            )));
        }
        let variant = match req.variant {
            None if n == 1 => Variant::Solo,
            None => Variant::Standard,
            Some(v) => v,
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
        if req.tutorial
            && (n != 1 || !matches!(req.seats[0], SeatRequest::Human) || variant != Variant::Solo)
        {
            return Err(ApiError::bad_request(
                "the tutorial is a solo game: exactly one human seat, variant solo (or none)",
            ));
        }
        if req.rated
            && (n < 2 || req.tutorial || req.seats.iter().any(|s| !matches!(s, SeatRequest::Human)))
        {
            return Err(ApiError::bad_request(
                "a rated game has 2 to 4 seats, every one of them a person's (no bots)",
            ));
        }
        if req.practice
            && (n != 1
                || !matches!(req.seats[0], SeatRequest::Human)
                || req.tutorial
                || req.public
                || req.rated)
        {
            return Err(ApiError::bad_request(
                "a practice game is a solo game: one human seat, variant solo or solo-all, \
                 neither public, rated nor the tutorial",
            ));
        }
        let clock = match (req.clock, req.public) {
            (Some(TimeControl::None), true) => {
                return Err(ApiError::refused(RefusalDetail::PublicNeedsClock))
            }
            (Some(c), _) => c.check().map_err(|e| ApiError::refused(e.into()))?,
            (None, true) => PUBLIC_CLOCK,
            (None, false) => TimeControl::None,
        };
        if req.tutorial && !clock.is_none() {
            return Err(ApiError::bad_request("the tutorial has no clock"));
        }
        let mut seats = Vec::new();
        let mut codes = Vec::new();
        for (i, s) in req.seats.iter().enumerate() {
            match s {
                SeatRequest::Human => {
                    let code = secret::random_hex(16);
                    seats.push(SavedSeat::human(secret::hash(&code)));
                    codes.push((i as u8, code));
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
        let (mut deck, mut start_player) = self.deal(n);
        if req.tutorial {
            // Dealt all the same, so that `--deck-seed` numbers every game.
            (deck, start_player) = (crate::tutorial::deck_ids(), 0);
        }
        let mut saved = SavedGame {
            id: secret::random_hex(8),
            created_at: self.now_ms() / 1000,
            variant,
            deck,
            start_player,
            public: req.public,
            creator: ip,
            host,
            rated: req.rated,
            practice: req.practice,
            seats,
            moves: Vec::new(),
            rev: 0,
            rematch: None,
            clock,
            started_ms: None,
            ended: None,
            chats: 0,
            daily: None,
            ratings: Vec::new(),
        };
        // 64 random bits: a taken id is all but impossible, but costs only a new one.
        let mut tries = 0;
        loop {
            match self.open_game(&saved, None, true).await {
                Err(StoreError::Conflict(Conflict::Exists)) if tries < 3 => {
                    tries += 1;
                    saved.id = secret::random_hex(8);
                }
                Err(e) => return Err(store_refusal(e)),
                Ok(()) => break,
            }
        }
        let id = saved.id;
        let invites = codes
            .into_iter()
            .map(|(seat, code)| Invite {
                seat,
                url: format!("/games/{id}/join/{code}"),
                code,
            })
            .collect();
        Ok(created(id, invites))
    }

    /// A game just stored: cached, its watchers told, its first bot queued.
    pub(super) async fn opened(
        &self,
        table: &Arc<Table>,
        st: &crate::table::TableState,
        changed: &[(String, u64)],
    ) {
        self.keep(table).await;
        self.announce(changed, &table.id).await;
        self.queue_bot(table, st);
    }

    /// A new deck and start player for `n` seats: from the OS's randomness, or dealt from
    /// `config.deck_seed`.
    pub(super) fn deal(&self, n: usize) -> (Vec<TileId>, u8) {
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

    /// Stores a new game (counted against its creator's open games when `limited`), then
    /// caches it, tells the watchers and queues its first bot.
    pub(super) async fn open_game(
        self: &Arc<App>,
        saved: &SavedGame,
        rematch_of: Option<(&str, u64)>,
        limited: bool,
    ) -> Result<(), StoreError> {
        let table = Arc::new(Table::restore(saved).map_err(|e| StoreError::damaged(&saved.id, e))?);
        let st = table.lock().await;
        let max = self.config.limits.open_games_per_ip as u64;
        let changed = self
            .store
            .create(
                saved,
                st.progress(),
                (limited && max > 0).then_some(max),
                rematch_of,
            )
            .await?;
        self.opened(&table, &st, &changed).await;
        // Every game is a line at debug level: a busy server makes thousands a day.
        tracing::debug!(
            "game {} created: {} seat{}, {}",
            saved.id,
            saved.seats.len(),
            if saved.seats.len() == 1 { "" } else { "s" },
            saved.variant
        );
        // The progress the store was given is the engine's, from the same setup.
        debug_assert_eq!(
            replay::progress(&st.game, &saved.seats).over,
            st.game.game().is_over()
        );
        Ok(())
    }
}

//! The daily challenge at this server: the secret its decks come from, starting an attempt
//! (one ranked per account, day and variant, on the day's deck; a guest's unranked, on a deck
//! of its own), and the bot's par game on the day's deck, played on the bot scheduler like any
//! bot seat.

use super::{detached, store_refusal, App, Claimer};
use crate::api::{JoinRequest, Joined};
use crate::daily::{self, Day};
use crate::error::ApiError;
use crate::secret;
use crate::store::{Conflict, DailyTag, SavedGame, SavedSeat, StoreError};
use crate::time_control::TimeControl;
use sagani_core::Variant;
use std::sync::Arc;

/// An attempt at the day's challenge, taken by the caller.
pub struct Started {
    pub joined: Joined,
    /// The seat's invite, which takes it again (only for a new attempt: an account's attempt
    /// taken up again is taken by the account).
    pub invite: Option<String>,
    pub day: Day,
    pub variant: Variant,
    pub ranked: bool,
    /// The account's attempt of the day existed already: this is it.
    pub again: bool,
}

/// The id of the par game of `day` in `variant`: derived (so every server finds the same one)
/// with the secret (so nobody can name it).
fn par_id(secret: &str, day: Day, variant: Variant) -> String {
    secret::hash(&format!("daily par {day} {variant} {secret}"))[..16].to_string()
}

impl App {
    /// The UTC day now.
    pub fn today(&self) -> Day {
        Day::of_ms(self.now_ms())
    }

    /// The secret the daily decks come from: made once for the database by whichever server
    /// asks first, then kept in memory. It never leaves the server.
    pub(crate) async fn daily_secret(&self) -> Result<String, ApiError> {
        self.daily_secret
            .get_or_try_init(|| async {
                let fresh = secret::random_hex(32);
                self.store
                    .server_secret(crate::secret::DAILY, &fresh)
                    .await
                    .map_err(store_refusal)
            })
            .await
            .cloned()
    }

    /// Starts today's challenge in `variant` for `who`, created by `ip`: an account's first
    /// attempt of the day (ranked), or that attempt again; a guest's attempt (unranked, as many
    /// as they like, each on a deck of its own: nobody plays the day's deck before their
    /// ranked attempt).
    pub async fn start_daily(
        self: &Arc<App>,
        variant: Variant,
        who: Claimer,
        ip: String,
    ) -> Result<Started, ApiError> {
        let app = self.clone();
        detached(async move { app.start_daily_now(variant, who, ip).await }).await
    }

    async fn start_daily_now(
        self: Arc<App>,
        variant: Variant,
        who: Claimer,
        ip: String,
    ) -> Result<Started, ApiError> {
        let day = self.today();
        let secret = self.daily_secret().await?;
        self.ensure_par(day, variant, &secret).await;
        if let Some(player) = &who.player {
            if let Some(again) = self.attempt_again(day, variant, player, &who).await? {
                return Ok(again);
            }
        }
        let code = secret::random_hex(16);
        let token = secret::random_hex(32);
        // A guest plays a deck of its own: unlimited guest attempts at the day's deck would
        // let anyone learn it before their ranked attempt. (Dealt for accounts all the same,
        // so that `--deck-seed` numbers every game.)
        let (own_deck, _) = self.deal(1);
        let deck = match who.player {
            Some(_) => daily::deck(&secret, day, variant),
            None => own_deck,
        };
        let now = self.now_ms();
        let mut saved = SavedGame {
            id: secret::random_hex(8),
            created_at: now / 1000,
            variant,
            deck,
            start_player: 0,
            public: false,
            creator: ip,
            host: who.name.clone(),
            rated: false,
            practice: false,
            // The seat is the caller's from the start: claimed, with an invite to take it again.
            seats: vec![SavedSeat::Human {
                invite_hash: secret::hash(&code),
                token_hash: Some(secret::hash(&token)),
                name: who.name.clone(),
                player: who.player.clone(),
                left: None,
            }],
            moves: Vec::new(),
            rev: 0,
            rematch: None,
            clock: TimeControl::None,
            started_ms: Some(now),
            ended: None,
            chats: 0,
            daily: Some(DailyTag {
                day: day.to_string(),
                par: false,
                result: None,
            }),
            ratings: Vec::new(),
        };
        let mut tries = 0;
        loop {
            match self.open_game(&saved, None, true).await {
                Ok(()) => break,
                Err(StoreError::Conflict(Conflict::Exists)) if tries < 3 => {
                    tries += 1;
                    saved.id = secret::random_hex(8);
                }
                // The same account started it on another device (or server) just now.
                Err(StoreError::Conflict(Conflict::Played)) if who.player.is_some() => {
                    let player = who.player.as_deref().unwrap_or_default();
                    if let Some(again) = self.attempt_again(day, variant, player, &who).await? {
                        return Ok(again);
                    }
                    return Err(store_refusal(StoreError::Conflict(Conflict::Played)));
                }
                Err(e) => return Err(store_refusal(e)),
            }
        }
        tracing::info!("game {} is a daily challenge of {day}", saved.id);
        Ok(Started {
            joined: Joined {
                game: saved.id,
                seat: 0,
                token,
            },
            invite: Some(code),
            day,
            variant,
            ranked: who.player.is_some(),
            again: false,
        })
    }

    /// The account's attempt of `day` in `variant`, if it made one, taken up here: its seat
    /// gets a new token and the old one stops working (as "Play here" does).
    async fn attempt_again(
        self: &Arc<App>,
        day: Day,
        variant: Variant,
        player: &str,
        who: &Claimer,
    ) -> Result<Option<Started>, ApiError> {
        let mine = self
            .store
            .daily_of(player, &day.to_string())
            .await
            .map_err(store_refusal)?;
        let Some(attempt) = mine.into_iter().find(|e| e.variant == variant && !e.par) else {
            return Ok(None);
        };
        let joined = self
            .join(
                &attempt.game,
                JoinRequest {
                    seat: Some(0),
                    ..JoinRequest::default()
                },
                who.clone(),
            )
            .await?;
        Ok(Some(Started {
            joined,
            invite: None,
            day,
            variant,
            ranked: true,
            again: true,
        }))
    }

    /// Makes the par game of `day` in `variant` unless it exists: the par bot plays the day's
    /// deck on the bot scheduler (its fast lane, its leases: it cannot starve the tables), once,
    /// whichever server makes it first; its result is stored with its last move. A failure is
    /// logged: the next start tries again.
    pub(crate) async fn ensure_par(self: &Arc<App>, day: Day, variant: Variant, secret: &str) {
        let id = par_id(secret, day, variant);
        match self.store.rev(&id).await {
            Ok(_) => return,
            Err(StoreError::NotFound) => {}
            Err(e) => {
                tracing::warn!("the par game of {day} ({variant}): {e}");
                return;
            }
        }
        let _ = self.deal(1);
        let saved = SavedGame {
            id,
            created_at: self.now_ms() / 1000,
            variant,
            deck: daily::deck(secret, day, variant),
            start_player: 0,
            public: false,
            creator: "daily par".into(),
            host: None,
            rated: false,
            practice: false,
            seats: vec![SavedSeat::Bot {
                bot: daily::PAR_BOT.into(),
                level: 1,
            }],
            moves: Vec::new(),
            rev: 0,
            rematch: None,
            clock: TimeControl::None,
            started_ms: None,
            ended: None,
            chats: 0,
            daily: Some(DailyTag {
                day: day.to_string(),
                par: true,
                result: None,
            }),
            ratings: Vec::new(),
        };
        match self.open_game(&saved, None, false).await {
            // Another server made it first.
            Ok(()) | Err(StoreError::Conflict(Conflict::Exists | Conflict::Played)) => {}
            Err(e) => tracing::warn!("the par game of {day} ({variant}): {e}"),
        }
    }
}

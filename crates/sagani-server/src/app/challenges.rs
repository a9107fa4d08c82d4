//! Challenges and follows between accounts at this server: a challenge sent by name (with its
//! notice for the challenged account), accepted into a game where both accounts hold their
//! seats, declined or withdrawn; follows, and who is online now.

use super::{detached, store_refusal, App, Claimer};
use crate::api::{
    ChallengeAccepted, ChallengeInfo, ChallengeList, ChallengeRequest, ChallengeStatus,
    ChallengesFrom, FollowEntry, FollowList, JoinRequest,
};
use crate::error::{ApiError, ErrorCode, RefusalDetail};
use crate::secret;
use crate::store::{
    Challenge, ChallengeStatus as Stored, Closing, Conflict, NewChallenge, NewNotice, NoticeKind,
    Player, SavedGame, SavedSeat, StoreError,
};
use crate::table::Table;
use crate::time_control::TimeControl;
use sagani_core::Variant;
use std::sync::Arc;

/// Open challenges one account may have at once.
pub const MAX_OPEN: u64 = 20;
/// How long a challenge waits for its answer: a day with a real-time clock or none, a week
/// with a turn-based one.
pub const EXPIRES_MS: i64 = 24 * 3600 * 1000;
pub const EXPIRES_TURN_MS: i64 = 7 * 24 * 3600 * 1000;
/// Answered challenges stay in the challenger's list this long.
const ANSWERED_SHOWN_MS: i64 = 24 * 3600 * 1000;
/// Challenges listed at most.
const LISTED: u32 = 100;
/// An account is online if it made a request, logged in, this recently …
pub const ONLINE_MS: i64 = 2 * 60 * 1000;
/// … which is noted at most this often per account.
pub const SEEN_EVERY_MS: i64 = 60 * 1000;
/// The challenger's seat and the challenged account's seat.
const CHALLENGER_SEAT: u8 = 0;
const CHALLENGED_SEAT: u8 = 1;

fn no_challenge() -> ApiError {
    ApiError::not_found("no challenge of yours has that id")
}

fn closed() -> ApiError {
    ApiError::new(
        ErrorCode::ChallengeClosed,
        "this challenge is no longer open: it was answered, withdrawn, or it expired",
    )
}

/// The refusal for a challenge's store answer.
fn refusal(e: StoreError) -> ApiError {
    match e {
        StoreError::NotFound => no_challenge(),
        StoreError::Conflict(Conflict::Changed) => closed(),
        StoreError::Conflict(Conflict::TooManyChallenges { open }) => ApiError::new(
            ErrorCode::TooManyChallenges,
            format!("you have {open} open challenges: withdraw one, or wait for answers"),
        ),
        StoreError::Conflict(Conflict::NotFollowed) => ApiError::new(
            ErrorCode::ChallengeRefused,
            "this player takes challenges only from players they follow",
        ),
        e => store_refusal(e),
    }
}

/// A challenge as `viewer` sees it at `now_ms`.
pub fn info(c: &Challenge, viewer: &str, now_ms: i64) -> ChallengeInfo {
    let status = match c.status {
        Stored::Open if now_ms >= c.expires_ms => ChallengeStatus::Expired,
        Stored::Open => ChallengeStatus::Open,
        Stored::Accepted => ChallengeStatus::Accepted,
        Stored::Declined => ChallengeStatus::Declined,
        Stored::Withdrawn => ChallengeStatus::Withdrawn,
    };
    let seat = if viewer == c.from {
        CHALLENGER_SEAT
    } else {
        CHALLENGED_SEAT
    };
    ChallengeInfo {
        challenge: c.id.clone(),
        from: c.from_name.clone(),
        to: c.to_name.clone(),
        variant: c.variant,
        clock: c.clock,
        rated: c.rated,
        status,
        game_url: c.game.as_ref().map(|g| format!("/games/{g}")),
        seat: c.game.as_ref().map(|_| seat),
        game: c.game.clone(),
        at_ms: c.at_ms,
        expires_ms: c.expires_ms,
    }
}

/// How long a challenge with `clock` waits for its answer.
pub fn expires_after(clock: TimeControl) -> i64 {
    match clock {
        TimeControl::Turn { .. } => EXPIRES_TURN_MS,
        _ => EXPIRES_MS,
    }
}

impl App {
    /// The account named `name` (in any case or normal form, as a log-in takes it).
    pub(crate) async fn account_named(&self, name: &str) -> Result<Player, ApiError> {
        self.store
            .player_named(&crate::names::key(name))
            .await
            .map_err(store_refusal)?
            .ok_or_else(|| ApiError::not_found("no player has that name"))
    }

    /// Sends `req`'s challenge from `from`.
    pub async fn send_challenge(
        &self,
        from: &Player,
        req: ChallengeRequest,
    ) -> Result<ChallengeInfo, ApiError> {
        let to = self.account_named(&req.to).await?;
        if to.id == from.id {
            return Err(ApiError::refused(RefusalDetail::ChallengeYourself));
        }
        let variant = req.variant.unwrap_or(Variant::Standard);
        if variant.is_solo() {
            return Err(ApiError::bad_request(format!(
                "a challenge is a game of two: the {variant} variant is for one"
            )));
        }
        let clock = match req.clock {
            Some(c) => c.check().map_err(|e| ApiError::refused(e.into()))?,
            None => TimeControl::None,
        };
        let now = self.now_ms();
        let ch = NewChallenge {
            id: secret::random_hex(8),
            from: from.id.clone(),
            to: to.id.clone(),
            variant,
            clock,
            rated: req.rated,
            at_ms: now,
            expires_ms: now + expires_after(clock),
        };
        let notice = NewNotice {
            id: secret::random_hex(8),
            player: to.id.clone(),
            kind: NoticeKind::Challenge,
            game: None,
            about: Some(ch.id.clone()),
            at_ms: now,
        };
        self.store
            .challenge(&ch, &notice, MAX_OPEN)
            .await
            .map_err(refusal)?;
        tracing::debug!("challenge {} sent", ch.id);
        Ok(ChallengeInfo {
            challenge: ch.id,
            from: from.name.clone(),
            to: to.name,
            variant,
            clock,
            rated: ch.rated,
            status: ChallengeStatus::Open,
            game: None,
            game_url: None,
            seat: None,
            at_ms: now,
            expires_ms: ch.expires_ms,
        })
    }

    /// The account's open challenges, sent and received, and those it sent that were answered
    /// in the last day.
    pub async fn challenge_list(&self, player: &Player) -> Result<ChallengeList, ApiError> {
        let now = self.now_ms();
        let all = self
            .store
            .challenges_of(&player.id, now, now - ANSWERED_SHOWN_MS, LISTED)
            .await
            .map_err(store_refusal)?;
        let (mut incoming, mut outgoing) = (Vec::new(), Vec::new());
        for c in &all {
            if c.to == player.id {
                if c.open_at(now) {
                    incoming.push(info(c, &player.id, now));
                }
            } else {
                outgoing.push(info(c, &player.id, now));
            }
        }
        Ok(ChallengeList { incoming, outgoing })
    }

    /// Declines (by the challenged account) or withdraws (by the challenger) challenge `id`.
    pub async fn close_challenge(
        &self,
        id: &str,
        player: &Player,
        how: Closing,
    ) -> Result<ChallengeInfo, ApiError> {
        let now = self.now_ms();
        self.store
            .close_challenge(id, &player.id, how, now)
            .await
            .map_err(refusal)?;
        let ch = self.store.challenge_by_id(id).await.map_err(refusal)?;
        Ok(info(&ch, &player.id, now))
    }

    /// Accepts challenge `id` for `player`, asked from `ip`: the game is stored with both
    /// accounts in their seats, once whichever server accepts; the answer is the accepter's
    /// seat with a fresh token.
    pub async fn accept_challenge(
        self: &Arc<App>,
        id: &str,
        player: Player,
        ip: String,
    ) -> Result<ChallengeAccepted, ApiError> {
        let (app, id) = (self.clone(), id.to_string());
        detached(async move { app.accept_now(id, player, ip).await }).await
    }

    async fn accept_now(
        self: Arc<App>,
        id: String,
        player: Player,
        ip: String,
    ) -> Result<ChallengeAccepted, ApiError> {
        let ch = self.store.challenge_by_id(&id).await.map_err(refusal)?;
        if ch.to != player.id {
            return Err(no_challenge());
        }
        if ch.status == Stored::Accepted {
            // Accepted already by this account (another device, another server): its seat again.
            return self.take_seat(&ch, &player).await;
        }
        if !ch.open_at(self.now_ms()) {
            return Err(closed());
        }
        let mut tries = 0;
        loop {
            let token = secret::random_hex(32);
            let saved = self.challenge_game(&ch, &ip, &token);
            let table = Arc::new(
                Table::restore(&saved)
                    .map_err(|e| store_refusal(StoreError::damaged(&saved.id, e)))?,
            );
            let st = table.lock().await;
            let stored = self
                .store
                .accept_challenge(&id, &player.id, &saved, st.progress(), self.now_ms())
                .await;
            match stored {
                Ok(changed) => {
                    drop(st);
                    self.keep(&table).await;
                    self.announce(&changed, &saved.id).await;
                    tracing::info!("challenge {id} accepted: game {}", saved.id);
                    return Ok(ChallengeAccepted {
                        challenge: id,
                        url: format!("/games/{}", saved.id),
                        game: saved.id,
                        seat: CHALLENGED_SEAT,
                        token,
                    });
                }
                Err(StoreError::Conflict(Conflict::Exists)) if tries < 3 => tries += 1,
                // Accepted meanwhile (on another server, or another device of this account):
                // that game is the one.
                Err(StoreError::Conflict(Conflict::Changed)) => {
                    let ch = self.store.challenge_by_id(&id).await.map_err(refusal)?;
                    if ch.status == Stored::Accepted {
                        return self.take_seat(&ch, &player).await;
                    }
                    return Err(closed());
                }
                Err(e) => return Err(refusal(e)),
            }
        }
    }

    /// The game of an accepted challenge: two seats, each its account's from the start (no
    /// invite claims them; each account takes its own seat with its cookie). The accepter's
    /// seat is claimed with `token`; the challenger's waits for them, so the clocks start when
    /// both are at the table, not while the challenger has not seen the answer yet.
    fn challenge_game(&self, ch: &Challenge, ip: &str, token: &str) -> SavedGame {
        let (deck, start_player) = self.deal(2);
        let seat = |player: &str, name: &str, token: Option<&str>| SavedSeat::Human {
            invite_hash: secret::hash(&secret::random_hex(16)),
            token_hash: token.map(secret::hash),
            name: Some(name.to_string()),
            player: Some(player.to_string()),
            left: None,
        };
        SavedGame {
            id: secret::random_hex(8),
            created_at: self.now_ms() / 1000,
            variant: ch.variant,
            deck,
            start_player,
            public: false,
            creator: ip.to_string(),
            host: Some(ch.from_name.clone()),
            rated: ch.rated,
            practice: false,
            seats: vec![
                seat(&ch.from, &ch.from_name, None),
                seat(&ch.to, &ch.to_name, Some(token)),
            ],
            moves: Vec::new(),
            rev: 0,
            rematch: None,
            clock: ch.clock,
            started_ms: None,
            ended: None,
            chats: 0,
            daily: None,
            ratings: Vec::new(),
        }
    }

    /// The accepter's seat in an accepted challenge's game, with a fresh token.
    async fn take_seat(
        self: &Arc<App>,
        ch: &Challenge,
        player: &Player,
    ) -> Result<ChallengeAccepted, ApiError> {
        let game = ch.game.clone().ok_or_else(closed)?;
        let mut tries = 0;
        let joined = loop {
            let joined = self
                .join(
                    &game,
                    JoinRequest {
                        seat: Some(CHALLENGED_SEAT),
                        ..JoinRequest::default()
                    },
                    Claimer {
                        name: Some(player.name.clone()),
                        player: Some(player.id.clone()),
                    },
                )
                .await;
            match joined {
                // The same account took the seat at the same moment (two tabs accepting at
                // once): the later claim holds it, as "Play here" would.
                Err(e) if e.code == ErrorCode::SeatTaken && tries < 3 => tries += 1,
                other => break other?,
            }
        };
        Ok(ChallengeAccepted {
            challenge: ch.id.clone(),
            url: format!("/games/{game}"),
            game,
            seat: joined.seat,
            token: joined.token,
        })
    }

    /// `player` follows the account named `name`.
    pub async fn follow(&self, player: &Player, name: &str) -> Result<(), ApiError> {
        let other = self.account_named(name).await?;
        if other.id == player.id {
            return Err(ApiError::bad_request("you cannot follow yourself"));
        }
        self.store
            .follow(&player.id, &other.id, self.now_ms())
            .await
            .map_err(store_refusal)
    }

    /// `player` no longer follows the account named `name`.
    pub async fn unfollow(&self, player: &Player, name: &str) -> Result<(), ApiError> {
        let other = self.account_named(name).await?;
        self.store
            .unfollow(&player.id, &other.id)
            .await
            .map_err(store_refusal)?;
        Ok(())
    }

    /// Whom `player` follows, each with whether it is online now, and whom it takes challenges
    /// from.
    pub async fn follow_list(&self, player: &Player) -> Result<FollowList, ApiError> {
        let now = self.now_ms();
        let follows = self
            .store
            .follows(&player.id)
            .await
            .map_err(store_refusal)?;
        Ok(FollowList {
            follows: follows
                .into_iter()
                .map(|f| FollowEntry {
                    online: f.last_seen.is_some_and(|s| now - s < ONLINE_MS),
                    name: f.name,
                })
                .collect(),
            challenges_from: self.challenges_from(player).await?,
        })
    }

    pub async fn challenges_from(&self, player: &Player) -> Result<ChallengesFrom, ApiError> {
        let only = self
            .store
            .followed_only(&player.id)
            .await
            .map_err(store_refusal)?;
        Ok(if only {
            ChallengesFrom::Followed
        } else {
            ChallengesFrom::Everyone
        })
    }

    pub async fn set_challenges_from(
        &self,
        player: &Player,
        from: ChallengesFrom,
    ) -> Result<(), ApiError> {
        self.store
            .set_followed_only(&player.id, from == ChallengesFrom::Followed)
            .await
            .map_err(store_refusal)
    }

    /// Notes that `player` made a request now, for "online": once a minute at most per
    /// account and server (the store keeps it to once a minute across servers). A failure is
    /// only logged: the request goes on.
    pub(crate) async fn note_seen(&self, player: &str) {
        let now = self.now_ms();
        {
            let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
            if seen
                .get(player)
                .is_some_and(|&at| now - at < SEEN_EVERY_MS && now >= at)
            {
                return;
            }
            // Forget accounts not seen for a while, so the map stays small.
            if seen.len() > 10_000 {
                seen.retain(|_, at| now - *at < SEEN_EVERY_MS);
            }
            seen.insert(player.to_string(), now);
        }
        if let Err(e) = self.store.seen(player, now, SEEN_EVERY_MS).await {
            tracing::warn!("noting a request of an account: {e}");
        }
    }
}

//! Play now: seeks wait in pools, and the oldest seeks that suit each other become one game.
//! Any server may pair: the store pairs a group only if every seek in it still waits, so a
//! race between servers makes one game and the loser looks again.

use super::{store_refusal, App, Claimer};
use crate::api::{SeekCreated, SeekPool, SeekPools, SeekRequest, SeekState, SeekStatusName};
use crate::error::{ApiError, ErrorCode, RefusalDetail};
use crate::secret;
use crate::store::{
    Conflict, NewNotice, NoticeKind, Pairing, Pool, SavedGame, SavedSeat, Seek, SeekStatus,
    StoreError,
};
use crate::table::Table;
use sagani_core::Variant;
use std::sync::{Arc, Weak};

/// A seeker who neither polled nor held the seek's socket open for this long has gone away.
pub const SEEN_WITHIN_MS: i64 = 60_000;

/// A rated seek accepts partners whose rating is within this many points of its own …
const WINDOW_START: f64 = 100.0;
/// … widening by this many a second of waiting …
const WINDOW_GROWTH: f64 = 10.0;
/// … up to this many.
const WINDOW_MAX: f64 = 600.0;

/// Waiting seeks read in one pass.
const PASS: u32 = 1000;

/// How far a rated seek reaches after waiting since `created_ms`.
pub fn window(created_ms: i64, now_ms: i64) -> f64 {
    let waited_s = (now_ms - created_ms).max(0) as f64 / 1000.0;
    (WINDOW_START + WINDOW_GROWTH * waited_s).min(WINDOW_MAX)
}

/// Whether two seeks of one pool may sit at one table now.
fn suit(a: &Seek, b: &Seek, now_ms: i64) -> bool {
    if a.player.is_some() && a.player == b.player {
        return false;
    }
    if !a.pool.rated {
        return true;
    }
    match (a.rating, b.rating) {
        (Some(ra), Some(rb)) => {
            (ra - rb).abs() <= window(a.created_ms, now_ms).min(window(b.created_ms, now_ms))
        }
        _ => false,
    }
}

/// The groups to pair among `waiting` (oldest first), as indices, each in seat order. In each
/// pool the oldest seek takes the oldest seeks that suit it and each other; a seek nobody suits
/// yet waits, and the next oldest tries. Deterministic: the same seeks at the same time make
/// the same groups.
pub fn groups(waiting: &[Seek], now_ms: i64) -> Vec<Vec<usize>> {
    let mut used = vec![false; waiting.len()];
    let mut out = Vec::new();
    for anchor in 0..waiting.len() {
        if used[anchor] {
            continue;
        }
        let pool = waiting[anchor].pool;
        let mut group = vec![anchor];
        for other in anchor + 1..waiting.len() {
            if group.len() == pool.players as usize {
                break;
            }
            if used[other] || waiting[other].pool != pool {
                continue;
            }
            if group
                .iter()
                .all(|&g| suit(&waiting[g], &waiting[other], now_ms))
            {
                group.push(other);
            }
        }
        if group.len() == pool.players as usize {
            for &g in &group {
                used[g] = true;
            }
            out.push(group);
        }
    }
    out
}

fn not_found() -> ApiError {
    ApiError::not_found("no such seek")
}

fn wrong_token() -> ApiError {
    ApiError::new(ErrorCode::WrongToken, "this token is not the seek's")
}

impl App {
    /// Stores a seek for `who` and pairs it at once if partners wait.
    pub async fn seek(
        self: &Arc<App>,
        req: SeekRequest,
        who: Claimer,
    ) -> Result<SeekCreated, ApiError> {
        if !(2..=4).contains(&req.players) {
            return Err(ApiError::bad_request(format!(
                "play now pairs 2 to 4 players, not {}",
                req.players
            )));
        }
        let clock = req.clock.check().map_err(|e| ApiError::refused(e.into()))?;
        if clock.is_none() {
            // Strangers need a clock: without one, a partner who walks away holds the game.
            return Err(ApiError::refused(RefusalDetail::PublicNeedsClock));
        }
        if req.rated && who.player.is_none() {
            return Err(ApiError::new(
                ErrorCode::AccountNeeded,
                "a rated seek needs an account: log in",
            ));
        }
        if let Some(s) = req.bots_after_s {
            if req.rated {
                return Err(ApiError::bad_request(
                    "bots never take a rated seek's seats: bots_after_s is for unrated seeks",
                ));
            }
            if !(10..=3600).contains(&s) {
                return Err(ApiError::bad_request(format!(
                    "bots_after_s is 10 to 3600 seconds, not {s}"
                )));
            }
        }
        let rating = match (&who.player, req.rated) {
            (Some(player), true) => {
                let r = self
                    .store
                    .rating(player)
                    .await
                    .map_err(store_refusal)?
                    .unwrap_or_else(crate::rating::initial);
                Some(crate::rating::shown(r.mu, r.sigma) as f64)
            }
            _ => None,
        };
        let token = secret::random_hex(32);
        let now = self.now_ms();
        let seek = Seek {
            id: secret::random_hex(8),
            token_hash: secret::hash(&token),
            pool: Pool {
                players: req.players,
                clock,
                rated: req.rated,
            },
            player: who.player,
            name: who.name,
            rating,
            bot_after_s: req.bots_after_s,
            created_ms: now,
            seen_ms: now,
            status: SeekStatus::Waiting,
            game: None,
            seat: None,
            ended_ms: None,
        };
        self.store.add_seek(&seek).await.map_err(store_refusal)?;
        let app = self.clone();
        // Paired in the background: the seeker hears of it by its socket or its next poll.
        tokio::spawn(async move { app.pair_waiting().await });
        let id = seek.id;
        Ok(SeekCreated {
            url: format!("/api/seeks/{id}"),
            ws_url: format!("/api/seeks/{id}/ws"),
            seek: id,
            token,
        })
    }

    /// The seek `id` if `token` is its token.
    pub async fn own_seek(&self, id: &str, token: &str) -> Result<Seek, ApiError> {
        let seek = self
            .store
            .seek(id)
            .await
            .map_err(store_refusal)?
            .ok_or_else(not_found)?;
        if seek.token_hash != secret::hash(token) {
            return Err(wrong_token());
        }
        Ok(seek)
    }

    /// Where the seek stands; a poll keeps a waiting seek (its seeker is there).
    pub async fn seek_state(&self, id: &str, token: &str) -> Result<SeekState, ApiError> {
        let mut seek = self.own_seek(id, token).await?;
        if seek.status == SeekStatus::Waiting {
            let now = self.now_ms();
            if self
                .store
                .touch_seek(id, now)
                .await
                .map_err(store_refusal)?
            {
                seek.seen_ms = now;
            } else {
                // Paired or dropped since it was read.
                seek = self.own_seek(id, token).await?;
            }
        }
        self.state_of(&seek, token).await
    }

    /// What the seeker of `seek` (whose token is `token`) is told.
    pub(crate) async fn state_of(&self, seek: &Seek, token: &str) -> Result<SeekState, ApiError> {
        let now = self.now_ms();
        let waiting = if seek.status == SeekStatus::Waiting {
            let counts = self.store.waiting_counts().await.map_err(store_refusal)?;
            // The others: this seek is one of its pool's.
            counts
                .iter()
                .find(|(pool, _)| *pool == seek.pool)
                .map_or(0, |(_, n)| n.saturating_sub(1))
        } else {
            0
        };
        let until = seek.ended_ms.unwrap_or(now);
        let waited_ms = (until - seek.created_ms).max(0);
        let paired = seek.status == SeekStatus::Paired;
        Ok(SeekState {
            seek: seek.id.clone(),
            status: match seek.status {
                SeekStatus::Waiting => SeekStatusName::Waiting,
                SeekStatus::Paired => SeekStatusName::Paired,
                SeekStatus::Cancelled => SeekStatusName::Cancelled,
            },
            players: seek.pool.players,
            clock: seek.pool.clock,
            rated: seek.pool.rated,
            waited_s: waited_ms as u64 / 1000,
            others_waiting: waiting,
            game: seek.game.clone(),
            seat: seek.seat,
            seat_token: paired.then(|| token.to_string()),
            bots_offered: seek.status == SeekStatus::Waiting
                && seek
                    .bot_after_s
                    .is_some_and(|s| waited_ms >= i64::from(s) * 1000),
        })
    }

    /// Cancels the seek (if it still waits) and says where it stands.
    pub async fn cancel_seek(&self, id: &str, token: &str) -> Result<SeekState, ApiError> {
        self.own_seek(id, token).await?;
        self.store
            .cancel_seek(id, self.now_ms())
            .await
            .map_err(store_refusal)?;
        self.hub.publish(&seek_channel(id), None);
        let seek = self.own_seek(id, token).await?;
        self.state_of(&seek, token).await
    }

    /// Starts the seek's game with bots in the other seats, once they are offered.
    pub async fn bots_instead(
        self: &Arc<App>,
        id: &str,
        token: &str,
        level: Option<u8>,
    ) -> Result<SeekState, ApiError> {
        let seek = self.own_seek(id, token).await?;
        let level =
            crate::bots::check("mcts", level).map_err(|e| ApiError::bad_request(e.to_string()))?;
        let state = self.state_of(&seek, token).await?;
        if !state.bots_offered {
            return Err(ApiError::bad_request(
                if seek.status == SeekStatus::Waiting {
                    "bots are offered once the seek has waited bots_after_s (unrated seeks only)"
                } else {
                    "the seek no longer waits"
                },
            ));
        }
        let mut seats = vec![self.seat_of(&seek)];
        seats.extend((1..seek.pool.players).map(|_| SavedSeat::Bot {
            bot: "mcts".into(),
            level,
        }));
        match self.pair_into(&[&seek], seats, false).await {
            Ok(()) | Err(StoreError::Conflict(Conflict::Changed)) => {}
            Err(e) => return Err(store_refusal(e)),
        }
        let seek = self.own_seek(id, token).await?;
        self.state_of(&seek, token).await
    }

    /// How many wait in each pool with a seek waiting.
    pub async fn seek_pools(&self) -> Result<SeekPools, ApiError> {
        let counts = self.store.waiting_counts().await.map_err(store_refusal)?;
        Ok(SeekPools {
            pools: counts
                .into_iter()
                .map(|(pool, waiting)| SeekPool {
                    players: pool.players,
                    clock: pool.clock,
                    rated: pool.rated,
                    waiting,
                })
                .collect(),
        })
    }

    /// A seeker's seat: theirs from the start, held by the seek's token.
    fn seat_of(&self, seek: &Seek) -> SavedSeat {
        SavedSeat::Human {
            invite_hash: String::new(),
            token_hash: Some(seek.token_hash.clone()),
            name: seek.name.clone(),
            player: seek.player.clone(),
            left: None,
        }
    }

    /// Pairs what waits: every group `groups` finds. A group another server paired first is
    /// skipped; what is left is looked at again in the next pass.
    pub(crate) async fn pair_waiting(self: &Arc<App>) {
        let waiting = match self.store.waiting_seeks(PASS).await {
            Ok(w) => w,
            Err(e) => {
                tracing::warn!("reading seeks: {e}");
                return;
            }
        };
        for group in groups(&waiting, self.now_ms()) {
            let seeks: Vec<&Seek> = group.iter().map(|&i| &waiting[i]).collect();
            let seats = seeks.iter().map(|s| self.seat_of(s)).collect();
            match self.pair_into(&seeks, seats, true).await {
                Ok(()) | Err(StoreError::Conflict(_)) => {}
                Err(e) => tracing::warn!("pairing seeks: {e}"),
            }
        }
    }

    /// Makes the game of `seeks` (seated in `seats`, the seekers first in their order) and
    /// pairs them into it; `Conflict::Changed` if one of them no longer waits.
    async fn pair_into(
        self: &Arc<App>,
        seeks: &[&Seek],
        seats: Vec<SavedSeat>,
        public: bool,
    ) -> Result<(), StoreError> {
        let first = seeks[0];
        let now = self.now_ms();
        let (deck, start_player) = self.deal(seats.len());
        let saved = SavedGame {
            id: secret::random_hex(8),
            created_at: now / 1000,
            variant: Variant::Standard,
            deck,
            start_player,
            public,
            creator: "play-now".into(),
            host: first.name.clone(),
            rated: first.pool.rated,
            practice: false,
            seats,
            moves: Vec::new(),
            rev: 0,
            rematch: None,
            clock: first.pool.clock,
            started_ms: None,
            ended: None,
            chats: 0,
            daily: None,
            ratings: Vec::new(),
        };
        let table =
            Arc::new(Table::restore(&saved).map_err(|e| StoreError::damaged(&saved.id, e))?);
        let st = table.lock().await;
        let pairing = Pairing {
            seats: seeks
                .iter()
                .enumerate()
                .map(|(i, s)| (s.id.clone(), i as u8))
                .collect(),
            after: st.progress(),
            at_ms: now,
            notices: seeks
                .iter()
                .filter_map(|s| {
                    Some(NewNotice {
                        id: secret::random_hex(8),
                        player: s.player.clone()?,
                        kind: NoticeKind::SeekPaired,
                        game: Some(saved.id.clone()),
                        about: None,
                        at_ms: now,
                    })
                })
                .collect(),
            game: saved,
        };
        let changed = self.store.pair(&pairing).await?;
        self.opened(&table, &st, &changed).await;
        for (id, _) in &pairing.seats {
            self.hub.publish(&seek_channel(id), None);
        }
        tracing::debug!(
            "seeks paired into game {}: {} seats",
            pairing.game.id,
            pairing.game.seats.len()
        );
        Ok(())
    }

    /// Drops seeks whose seekers went away, then pairs what waits (each `seek_sweep`; tests
    /// call it themselves).
    pub async fn sweep_seeks(self: &Arc<App>) {
        let now = self.now_ms();
        match self
            .store
            .drop_unseen_seeks(now - SEEN_WITHIN_MS, now)
            .await
        {
            Ok(dropped) => {
                for id in dropped {
                    self.hub.publish(&seek_channel(&id), None);
                }
            }
            Err(e) => tracing::warn!("dropping seeks: {e}"),
        }
        self.pair_waiting().await;
    }
}

/// The hub's channel for a seek: its socket hears of its pairing there, from this server or
/// (through the store's notifications) from another.
pub fn seek_channel(id: &str) -> String {
    format!("seek:{id}")
}

/// Sweeps seeks every `seek_sweep`: rated windows widen with time, and seekers go away.
pub(super) fn start_seek_sweep(app: &Arc<App>) {
    tokio::spawn(seek_sweep(Arc::downgrade(app)));
}

async fn seek_sweep(app: Weak<App>) {
    loop {
        let every = {
            let Some(app) = app.upgrade() else { return };
            app.sweep_seeks().await;
            app.config.seek_sweep
        };
        tokio::time::sleep(every).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time_control::TimeControl;

    fn seek(id: &str, players: u8, rated: bool, rating: Option<f64>, created_ms: i64) -> Seek {
        Seek {
            id: id.into(),
            token_hash: String::new(),
            pool: Pool {
                players,
                clock: TimeControl::Realtime {
                    initial_s: 300,
                    increment_s: 3,
                },
                rated,
            },
            player: Some(format!("p-{id}")),
            name: None,
            rating,
            bot_after_s: None,
            created_ms,
            seen_ms: created_ms,
            status: SeekStatus::Waiting,
            game: None,
            seat: None,
            ended_ms: None,
        }
    }

    #[test]
    fn the_oldest_seeks_of_a_pool_make_a_game() {
        let w = [
            seek("a", 2, false, None, 0),
            seek("b", 3, false, None, 1),
            seek("c", 2, false, None, 2),
            seek("d", 3, false, None, 3),
            seek("e", 2, false, None, 4),
        ];
        // a and c (two players); b and d wait for a third; e waits for a second.
        assert_eq!(groups(&w, 10), vec![vec![0, 2]]);
    }

    #[test]
    fn an_account_is_never_paired_with_itself() {
        let mut w = [seek("a", 2, false, None, 0), seek("b", 2, false, None, 1)];
        w[1].player = w[0].player.clone();
        assert!(groups(&w, 10).is_empty());
        w[1].player = None;
        assert_eq!(groups(&w, 10), vec![vec![0, 1]]);
    }

    #[test]
    fn rated_seeks_pair_within_a_window_that_widens() {
        let w = [
            seek("a", 2, true, Some(1000.0), 0),
            seek("b", 2, true, Some(1300.0), 0),
            seek("c", 2, true, Some(1150.0), 20_000),
        ];
        // At first 300 apart is too far for a and b.
        assert!(groups(&w[..2], 0).is_empty());
        // After 20 s the windows are 300: a and b suit.
        assert_eq!(groups(&w[..2], 20_000), vec![vec![0, 1]]);
        // c has just come: its window (100) takes neither a (150 away) nor b (150 away).
        assert_eq!(groups(&w, 20_000), vec![vec![0, 1]]);
        assert!(groups(&w[1..], 20_000).is_empty());
        // Five seconds on, c's window is 150: b and c suit.
        assert_eq!(groups(&w[1..], 25_000), vec![vec![0, 1]]);
        assert_eq!(window(0, 1_000_000), WINDOW_MAX);
    }

    #[test]
    fn a_table_of_four_takes_seeks_that_all_suit_each_other() {
        let w = [
            seek("a", 4, true, Some(1000.0), 0),
            seek("b", 4, true, Some(1090.0), 0),
            seek("c", 4, true, Some(910.0), 0),
            seek("d", 4, true, Some(1050.0), 0),
            seek("e", 4, true, Some(1000.0), 0),
        ];
        // c and b are 180 apart: c is skipped; a, b, d, e sit together.
        assert_eq!(groups(&w, 0), vec![vec![0, 1, 3, 4]]);
    }
}

//! Playing a move, a person's or a bot's: checked by the engine against the table, stored only
//! as move `n` of the game, and then announced.

use super::{detached, store_refusal, wrong_token, App};
use crate::api::GameState;
use crate::error::{ApiError, ErrorCode};
use crate::store::replay::progress_of;
use crate::store::{Conflict, GameEnd, LeftReason, MoveWrite, SavedSeat, StoreError};
use sagani_core::{Move, Outcome};
use std::sync::Arc;

/// What became of a move.
pub struct Played {
    /// False when the move repeated one already applied.
    pub applied: bool,
    pub state: GameState,
}

impl App {
    /// Plays `mv` for the seat `token_hash` holds, made against `version`: refused if stale,
    /// not the seat's turn or illegal; a repeat of the move already played at `version` (on
    /// any server) is answered, not played again.
    pub async fn play(
        self: &Arc<App>,
        id: &str,
        token_hash: String,
        version: u64,
        mv: Move,
    ) -> Result<Played, ApiError> {
        let (app, id) = (self.clone(), id.to_string());
        detached(async move {
            app.play_now(&id, Some(&token_hash), None, version, mv)
                .await
        })
        .await
    }

    /// `token_hash` is `None` for a bot, which names its `seat`.
    pub(super) async fn play_now(
        self: &Arc<App>,
        id: &str,
        token_hash: Option<&str>,
        bot_seat: Option<u8>,
        version: u64,
        mv: Move,
    ) -> Result<Played, ApiError> {
        let (table, mut st) = self.fresh(id, None).await?;
        let seat = match (token_hash, bot_seat) {
            (Some(h), _) => st.seat_of_hash(h).ok_or_else(wrong_token)?,
            (None, Some(seat)) => seat,
            (None, None) => return Err(wrong_token()),
        };
        let current = st.version();
        if version != current {
            if version < current && st.played_at(version, seat, mv) {
                // A retry, perhaps of a move whose answer was lost.
                return Ok(Played {
                    applied: false,
                    state: st.state_for(id, Some(seat), self.now_ms()),
                });
            }
            return Err(stale(current));
        }
        if st.ended.is_some() {
            return Err(ApiError::conflict(
                ErrorCode::GameOver,
                "the game is over",
                current,
            ));
        }
        if token_hash.is_some() {
            if let Some(left) = st.seats[seat as usize].left() {
                return Err(ApiError::conflict(
                    ErrorCode::SeatLeft,
                    match left.reason {
                        LeftReason::TimedOut => "your time ran out: a bot plays this seat now",
                        LeftReason::Resigned => "you resigned: a bot plays this seat now",
                    },
                    current,
                ));
            }
        }
        let now = self.now_ms();
        let clocks = st.clocks(now);
        if token_hash.is_some()
            && clocks.running == Some(seat)
            && clocks.left_ms[seat as usize] == Some(0)
        {
            // Too late: the time-out is due, whichever server's sweep gets there first.
            let app = self.clone();
            let game = id.to_string();
            tokio::spawn(async move { app.time_out(&game).await });
            return Err(ApiError::conflict(
                ErrorCode::TimeUp,
                "your time ran out: a bot plays this seat now",
                current,
            ));
        }
        match st.game.game().to_act() {
            None => {
                return Err(ApiError::conflict(
                    ErrorCode::GameOver,
                    "the game is over",
                    current,
                ))
            }
            Some(p) if p != seat => {
                return Err(ApiError::conflict(
                    ErrorCode::NotYourTurn,
                    format!("it is seat {p}'s turn, not seat {seat}'s"),
                    current,
                ))
            }
            Some(_) => {}
        }
        let mut next = st.game.clone();
        next.play(mv).map_err(|e| ApiError {
            version: Some(current),
            ..ApiError::illegal(&e)
        })?;
        let mut times = st.times.clone();
        times.push(now);
        // Every seat was taken when the game was made (a rematch): its first move starts the
        // clocks, so nobody's runs before the players are back at the table.
        let start_ms = (st.started_ms.is_none()
            && !st.clock.is_none()
            && st.status() == crate::store::Status::Playing)
            .then_some(now);
        let started = st.started_ms.or(start_ms);
        let notices =
            super::notices::raised_by_move(id, next.game(), &st.seats, st.clock, seat, now);
        let write = MoveWrite {
            game: id.to_string(),
            n: current,
            seat,
            mv,
            token_hash: token_hash.map(str::to_string),
            at_ms: now,
            start_ms,
            after: progress_of(&next, &st.seats, st.clock, started, &times, None),
            end: next.game().outcome().map(|outcome| {
                let mut end = game_end(&outcome, now, &st.seats);
                // A daily attempt that ends after its day is over has no result: by then
                // the day's games, par's record with the deck among them, are everyone's.
                if st
                    .daily
                    .as_ref()
                    .is_some_and(|d| !d.par && crate::daily::day_over(d, now))
                {
                    end.solo = None;
                }
                end
            }),
            notices,
        };
        let rated_end = st.rated && write.end.is_some();
        match self.store.append_move(&write).await {
            Ok(rev) => {
                self.metrics.move_played();
                if rev == st.rev + 1 && !rated_end {
                    st.game = next;
                    st.rev = rev;
                    st.times = times;
                    st.started_ms = started;
                } else {
                    // Something else changed the game meanwhile (a claim on another server),
                    // or its end changed ratings the store worked out: the store's copy has
                    // all of it.
                    self.reload(&table, &mut st).await?;
                }
                let state = st.state_for(id, Some(seat), self.now_ms());
                self.queue_bot(&table, &st);
                if st.game.game().is_over() {
                    tracing::info!("game {id} is over after {} moves", current + 1);
                }
                drop(st);
                self.keep(&table).await;
                self.announce(&[(id.to_string(), rev)], id).await;
                Ok(Played {
                    applied: true,
                    state,
                })
            }
            Err(e) => {
                // Another server moved first, the token was revoked, or the store cannot say:
                // the table as the store has it now decides.
                let reloaded = self.reload(&table, &mut st).await;
                if reloaded.is_ok() && st.version() > current {
                    // Whatever landed is news to this server's watchers and bots.
                    self.queue_bot(&table, &st);
                    self.announce(&[(id.to_string(), st.rev)], id).await;
                }
                // The same move by the same seat, stored by another server: a retry.
                if reloaded.is_ok()
                    && st.played_at(version, seat, mv)
                    && matches!(e, StoreError::Conflict(_))
                {
                    return Ok(Played {
                        applied: false,
                        state: st.state_for(id, Some(seat), self.now_ms()),
                    });
                }
                Err(match e {
                    StoreError::Conflict(Conflict::StaleVersion { .. }) => stale(st.version()),
                    e => store_refusal(e),
                })
            }
        }
    }
}

/// How a game ended, as the store keeps it: the outcome, and each seat's place in the final
/// order (`crate::table::standings`: who left is placed last).
pub(super) fn game_end(outcome: &Outcome, at_ms: i64, seats: &[SavedSeat]) -> GameEnd {
    let at = at_ms / 1000;
    let places = match outcome {
        Outcome::Ranking { ranking, .. } => {
            let mut places = vec![0; ranking.len()];
            for (i, seat) in crate::table::standings(outcome, |s| crate::table::seat_left(seats, s))
                .iter()
                .enumerate()
            {
                places[*seat as usize] = i as u8 + 1;
            }
            places
        }
        Outcome::Solo { .. } | Outcome::SoloAll { .. } => vec![1],
    };
    GameEnd {
        at,
        outcome: serde_json::to_string(outcome).unwrap_or_default(),
        places,
        solo: crate::daily::solo_result(outcome, at_ms),
    }
}

fn stale(current: u64) -> ApiError {
    ApiError::conflict(ErrorCode::StaleVersion,
        format!("the game is at version {current}, not the one the move was made for: fetch the game and choose again"),
        current,
    )
}

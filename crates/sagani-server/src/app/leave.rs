//! Leaving a table: a seat whose time ran out, or whose player resigned, is handed to a bot and
//! the others play on (a solo game ends instead). Games nobody plays any more are ended by a
//! sweep: abandoned after `abandon_after` without a move, closed when their seats were not all
//! claimed within `expire_unstarted`. Every one of these is a conditional write, so it happens
//! once whichever servers race to do it.

use super::{detached, store_refusal, wrong_token, App};
use crate::api::GameState;
use crate::error::{ApiError, ErrorCode};
use crate::store::replay::progress_of;
use crate::store::{Conflict, Ended, IdleSweep, LeaveWrite, Left, LeftReason, StoreError};
use std::sync::{Arc, Weak};

/// Starts the sweeps: due clocks every `bot_sweep`, idle games every `idle_sweep`.
pub(super) fn start_sweeps(app: &Arc<App>) {
    tokio::spawn(clock_sweep(Arc::downgrade(app)));
    tokio::spawn(idle_sweep(Arc::downgrade(app)));
}

async fn clock_sweep(app: Weak<App>) {
    loop {
        let every = {
            let Some(app) = app.upgrade() else { return };
            app.sweep_clocks().await;
            app.config.bot_sweep
        };
        tokio::time::sleep(every).await;
    }
}

async fn idle_sweep(app: Weak<App>) {
    loop {
        let every = {
            let Some(app) = app.upgrade() else { return };
            if let Err(e) = app.sweep_idle().await {
                tracing::warn!("ending idle games: {}", e.message);
            }
            app.config.idle_sweep
        };
        tokio::time::sleep(every).await;
    }
}

/// Why a seat is handed to a bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Leaving {
    /// The seat to act at this version ran out of time.
    TimeOut {
        version: u64,
    },
    Resign,
}

impl App {
    /// Times out every seat whose clock ran out by now (the store names the games to look at;
    /// each is checked against its own moves before anything is written). Returns how many
    /// seats this call timed out.
    pub async fn sweep_clocks(self: &Arc<App>) -> usize {
        let due = match self.store.due_clocks(self.now_ms(), 1000).await {
            Ok(due) => due,
            Err(e) => {
                tracing::warn!("looking for clocks that ran out: {e}");
                return 0;
            }
        };
        let mut timed_out = 0;
        for game in due {
            if self.time_out(&game).await {
                timed_out += 1;
            }
        }
        timed_out
    }

    /// Times out the seat to act in `game` if its time ran out; true if this call did it.
    pub(crate) async fn time_out(self: &Arc<App>, game: &str) -> bool {
        let (app, id, game) = (self.clone(), game.to_string(), game.to_string());
        let done = detached(async move {
            let version = {
                let (table, st) = app.fresh(&game, None).await?;
                let clocks = st.clocks(app.now_ms());
                match clocks.running {
                    Some(s) if clocks.left_ms[s as usize] == Some(0) && !st.over() => {
                        (s, st.version())
                    }
                    _ => {
                        // Not due: what the store keeps of it is stale (a claim and a move, or a
                        // resignation and a move, raced on two servers). Put it right.
                        let repaired = app
                            .store
                            .repair(&game, st.version(), st.progress())
                            .await
                            .map_err(store_refusal)?;
                        if repaired {
                            app.queue_bot(&table, &st);
                        }
                        return Ok(false);
                    }
                }
            };
            let (seat, version) = version;
            app.hand_to_bot(&game, seat, Leaving::TimeOut { version })
                .await
                .map(|_| true)
        })
        .await;
        match done {
            Ok(done) => done,
            // Moved on, or another server got there first: nothing to do.
            Err(e) if e.code == ErrorCode::StaleVersion || e.code == ErrorCode::GameOver => false,
            Err(e) => {
                tracing::warn!("game {id}: timing out: {}", e.message);
                false
            }
        }
    }

    /// The seat `token_hash` holds resigns: a bot plays it from now on (a solo game ends).
    pub async fn resign(
        self: &Arc<App>,
        id: &str,
        token_hash: Option<String>,
        player: Option<String>,
    ) -> Result<GameState, ApiError> {
        let (app, id) = (self.clone(), id.to_string());
        detached(async move {
            let seat = {
                let (_, st) = app.fresh(&id, None).await?;
                let by_token = token_hash.as_deref().and_then(|h| st.seat_of_hash(h));
                let by_account = player.as_deref().and_then(|p| {
                    st.seats
                        .iter()
                        .position(|s| s.player() == Some(p))
                        .map(|i| i as u8)
                });
                by_token.or(by_account).ok_or_else(wrong_token)?
            };
            app.hand_to_bot(&id, seat, Leaving::Resign).await?;
            let (_, st) = app.fresh(&id, None).await?;
            Ok(st.state_for(&id, Some(seat), app.now_ms()))
        })
        .await
    }

    /// Hands `seat` of `id` to the time-out bot, as the store has the game now; a resignation
    /// that loses a race with a move is tried again on the new version.
    async fn hand_to_bot(
        self: &Arc<App>,
        id: &str,
        seat: u8,
        why: Leaving,
    ) -> Result<(), ApiError> {
        for _ in 0..5 {
            let (table, mut st) = self.fresh(id, None).await?;
            let version = st.version();
            if st.over() {
                return Err(ApiError::conflict(
                    ErrorCode::GameOver,
                    "the game is over",
                    version,
                ));
            }
            if let Leaving::TimeOut { version: due } = why {
                if due != version {
                    return Err(stale(version));
                }
            }
            if st.seats[seat as usize].left().is_some() {
                return Err(ApiError::conflict(
                    ErrorCode::SeatLeft,
                    "a bot plays this seat already",
                    version,
                ));
            }
            let now = self.now_ms();
            let reason = match why {
                Leaving::TimeOut { .. } => LeftReason::TimedOut,
                Leaving::Resign => LeftReason::Resigned,
            };
            let (bot, level) = self.config.timeout_bot.clone();
            let left = Left {
                reason,
                version,
                at_ms: now,
                bot,
                level,
            };
            let mut seats = st.seats.clone();
            if let crate::store::SavedSeat::Human { left: l, .. } = &mut seats[seat as usize] {
                *l = Some(left.clone());
            }
            // Alone at the table there is nobody to play on for: the game ends.
            let ended = (seats.len() == 1).then_some(match reason {
                LeftReason::TimedOut => Ended::TimedOut,
                LeftReason::Resigned => Ended::Resigned,
            });
            let after = progress_of(&st.game, &seats, st.clock, st.started_ms, &st.times, ended);
            let write = LeaveWrite {
                game: id.to_string(),
                n: version,
                seat,
                left,
                after,
                ended,
            };
            match self.store.leave(&write).await {
                Ok(rev) => {
                    self.metrics.seat_left(reason);
                    if rev == st.rev + 1 {
                        st.seats = seats;
                        st.ended = ended;
                        st.rev = rev;
                    } else {
                        self.reload(&table, &mut st).await?;
                    }
                    self.queue_bot(&table, &st);
                    drop(st);
                    self.keep(&table).await;
                    self.announce(&[(id.to_string(), rev)], id).await;
                    tracing::info!(
                        "game {id} seat {seat}: {} at version {version}",
                        reason.name()
                    );
                    return Ok(());
                }
                Err(StoreError::Conflict(Conflict::StaleVersion { .. }))
                    if why == Leaving::Resign =>
                {
                    // A move landed meanwhile: resign on the game as it is now.
                    self.reload(&table, &mut st).await?;
                    continue;
                }
                Err(e) => {
                    let _ = self.reload(&table, &mut st).await;
                    return Err(match e {
                        StoreError::Conflict(Conflict::StaleVersion { current }) => stale(current),
                        StoreError::Conflict(Conflict::Changed) => ApiError::conflict(
                            ErrorCode::GameOver,
                            "the game is over, or a bot plays this seat already",
                            st.version(),
                        ),
                        e => store_refusal(e),
                    });
                }
            }
        }
        Err(ApiError::new(
            ErrorCode::StaleVersion,
            "the game kept changing; try again",
        ))
    }

    /// Ends the games nobody plays any more; returns how many.
    pub async fn sweep_idle(self: &Arc<App>) -> Result<usize, ApiError> {
        let now = self.now_ms();
        let sweep = IdleSweep {
            now_ms: now,
            active_before_ms: now - self.config.abandon_after.as_millis() as i64,
            created_before_s: (now - self.config.expire_unstarted.as_millis() as i64) / 1000,
        };
        let ended = self.store.end_idle(sweep).await.map_err(store_refusal)?;
        if !ended.is_empty() {
            tracing::info!("{} games nobody plays were ended", ended.len());
        }
        self.forget(ended.iter().map(|(g, _)| g.as_str())).await;
        self.announce(&ended, "").await;
        Ok(ended.len())
    }

    /// Cancels game `id` for its creator (the seat `token_hash` holds), while nobody else has
    /// joined it.
    pub async fn cancel(
        self: &Arc<App>,
        id: &str,
        token_hash: String,
    ) -> Result<GameState, ApiError> {
        let (app, id) = (self.clone(), id.to_string());
        detached(async move {
            let seat = {
                let (_, st) = app.fresh(&id, None).await?;
                st.seat_of_hash(&token_hash).ok_or_else(wrong_token)?
            };
            match app.store.cancel(&id, &token_hash, app.now_ms()).await {
                Ok(rev) => {
                    app.forget(std::iter::once(id.as_str())).await;
                    app.announce(&[(id.clone(), rev)], "").await;
                    tracing::info!("game {id} cancelled by its creator");
                }
                Err(StoreError::Conflict(Conflict::Changed)) => {
                    return Err(ApiError::new(
                        ErrorCode::GameStarted,
                        "someone else has joined this game (or it is over): it cannot be cancelled; resign instead",
                    ))
                }
                Err(e) => return Err(store_refusal(e)),
            }
            let (_, st) = app.fresh(&id, None).await?;
            Ok(st.state_for(&id, Some(seat), app.now_ms()))
        })
        .await
    }
}

fn stale(current: u64) -> ApiError {
    ApiError::conflict(
        ErrorCode::StaleVersion,
        format!("the game is at version {current}"),
        current,
    )
}

//! Bots' turns: workers take them from the scheduler's lanes, hold the turn's lease in the
//! store (so one server plays it), think, and play the move like anyone else. A sweep asks the
//! store for bot turns that nobody holds (a server died mid-thought, or this one just started).

use super::{store_refusal, App};
use crate::bots::{self, Job};
use crate::scheduler::{Turn, Work};
use std::sync::{Arc, Weak};
use std::time::Duration;

/// Starts `bot_threads` workers on the slow lane, one on the fast lane, and the sweep.
pub(super) fn start_workers(app: &Arc<App>) {
    for _ in 0..app.config.bot_threads.max(1) {
        tokio::spawn(work(Arc::downgrade(app), true));
    }
    tokio::spawn(work(Arc::downgrade(app), false));
    tokio::spawn(sweep(Arc::downgrade(app)));
}

/// The next work of a lane: the slow lane's turns and analyses, the fast lane's turns.
async fn next(app: Arc<App>, slow: bool) -> (Work, std::time::Instant) {
    if slow {
        app.lanes.slow.pop().await
    } else {
        let (turn, at) = app.lanes.fast.pop().await;
        (Work::Turn(turn), at)
    }
}

async fn work(app: Weak<App>, slow: bool) {
    loop {
        // Wait for a turn without keeping the server alive.
        let waiting = {
            let Some(app) = app.upgrade() else { return };
            next(app, slow)
        };
        let (work, queued_at) = waiting.await;
        let Some(app) = app.upgrade() else { return };
        let turn = match work {
            Work::Turn(turn) => turn,
            Work::Study(study) => {
                // On a blocking thread, as a search by a bot is; the worker waits for it, so
                // analyses never take more threads than the bots have.
                if let Err(e) = tokio::task::spawn_blocking(study.run).await {
                    tracing::error!("an analysis failed: {e}");
                }
                continue;
            }
        };
        app.metrics.bot_wait(queued_at.elapsed());
        // A panic here is this turn's alone: the worker goes on.
        let game = turn.game.clone();
        let playing = {
            let app = app.clone();
            tokio::spawn(async move { app.play_turn(turn, slow).await })
        };
        if let Err(e) = playing.await {
            tracing::error!("game {game}: a bot turn failed: {e}");
        }
    }
}

async fn sweep(app: Weak<App>) {
    let every = match app.upgrade() {
        Some(app) => app.config.bot_sweep,
        None => return,
    };
    loop {
        {
            let Some(app) = app.upgrade() else { return };
            match app.store.bot_turns(app.now_ms(), 1000).await {
                Ok(turns) => {
                    for t in turns {
                        app.lanes.fast.push(Turn {
                            game: t.game,
                            version: t.version,
                            creator: t.creator,
                        });
                    }
                }
                Err(e) => tracing::warn!("looking for bot turns: {e}"),
            }
        }
        tokio::time::sleep(every).await;
    }
}

/// A game this server's worker is playing a bot turn of; let go when dropped (a panic too).
struct Playing<'a> {
    app: &'a App,
    game: String,
}

impl Drop for Playing<'_> {
    fn drop(&mut self) {
        self.app
            .playing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&self.game);
    }
}

impl App {
    /// Plays the bot turn `turn` names, if it is still due, no worker of this server is at it,
    /// and no other server holds it.
    async fn play_turn(self: &Arc<App>, turn: Turn, slow: bool) {
        let fresh = self
            .playing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(turn.game.clone());
        if !fresh {
            return;
        }
        let _playing = Playing {
            app: self,
            game: turn.game.clone(),
        };
        let (_table, st) = match self.fresh(&turn.game, None).await {
            Ok(t) => t,
            Err(e) => {
                tracing::warn!("game {}: {}", turn.game, e.message);
                return;
            }
        };
        let game = st.game.game();
        let Some(seat) = game.to_act() else { return };
        let Some((bot, level)) = st.seats[seat as usize].bot() else {
            return;
        };
        let (bot, level) = (bot.to_string(), level);
        let version = st.version();
        if bots::is_slow(&bot, level) && !slow {
            // Searches wait in their own lane, so quick bots never wait behind them.
            self.lanes.slow.push(Work::Turn(Turn { version, ..turn }));
            return;
        }
        let think_ms = bots::level_ms(level, self.config.bot_think_ms);
        let lease = Duration::from_millis(think_ms) + self.config.bot_lease_grace;
        if !self.lease(&turn.game, version, lease).await {
            return;
        }
        let job = Job {
            bot,
            level,
            view: game.view(Some(seat)),
            legal: game.legal_moves(),
            think_ms: self.config.bot_think_ms,
            seed: match self.config.deck_seed {
                // Par is the same whichever server plays it: its bot's seed is fixed.
                _ if st.daily.as_ref().is_some_and(|d| d.par) => version,
                Some(seed) => {
                    let deck = &st.game.record().deck;
                    seed ^ version.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(deck[0]) << 32
                }
                None => crate::secret::random_seed(),
            },
        };
        // Nobody waits on the table while the bot thinks.
        drop(st);
        let mv = bots::think(self.config.bots.clone(), job).await;
        // A store that fails is tried again, less and less often, while the lease lasts; the
        // move stays the same, so a write that did land is answered as a retry.
        let mut wait = Duration::from_millis(100);
        loop {
            match self
                .play_now(&turn.game, None, Some(seat), version, mv)
                .await
            {
                Ok(_) => break,
                Err(e) if e.code == crate::error::ErrorCode::Storage => {
                    tracing::warn!("game {} bot seat {seat}: retrying in {wait:?}", turn.game);
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_secs(5));
                    if !self.lease(&turn.game, version, lease).await {
                        return;
                    }
                }
                Err(e) => {
                    // Moved on meanwhile (another server took the turn over): nothing to do.
                    tracing::debug!("game {} bot seat {seat}: {}", turn.game, e.message);
                    break;
                }
            }
        }
        if !self.store.exclusive() {
            let _ = self.store.release(&turn.game, &self.holder).await;
        }
    }

    /// Takes or renews this server's lease on a bot turn. A server that is the store's only
    /// writer needs none.
    async fn lease(&self, game: &str, version: u64, length: Duration) -> bool {
        if self.store.exclusive() {
            return true;
        }
        let now = self.now_ms();
        let until = now + length.as_millis() as i64;
        match self
            .store
            .lease(game, version, &self.holder, now, until)
            .await
        {
            Ok(got) => got,
            Err(e) => {
                let _ = store_refusal(e);
                false
            }
        }
    }
}

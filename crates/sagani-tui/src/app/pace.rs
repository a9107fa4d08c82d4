//! Time passing: a bot starts thinking on its own thread, its answer is played when the pace
//! allows (at least `bot_pace` after the move before, and never unseen), its display stays in
//! sight for the pace, and a revealed tile comes under the cursor of the person to place it.
//! The time is the clock's the game was handed.

use super::player::Player;
use super::state::{App, Source};
use crate::bots::{Answer, Thinking};
use rand::Rng;
use sagani_ai::Decision;
use std::time::{Duration, Instant};

/// Why a wait for the bots ended without them.
#[derive(Debug, thiserror::Error)]
pub enum WaitError {
    #[error("a bot took longer than {0:?} to answer")]
    Slow(Duration),
}

impl App {
    /// Moves the game on where no key is needed: starts a bot, plays its answer when the pace
    /// allows, and puts a revealed tile under the cursor of the human who must place it.
    pub fn tick(&mut self) {
        self.hear();
        self.replay_tick();
        let now = self.now();
        if let Some((t, _)) = &self.thinking {
            match t.poll() {
                Answer::Waiting => {}
                Answer::Ready(bot, d) => {
                    let seat = t.seat;
                    if let Player::Bot { bot: slot, .. } = &mut self.players[seat as usize] {
                        *slot = Some(bot);
                    }
                    self.thinking = None;
                    self.ready = Some((seat, d));
                }
                Answer::Lost(why) => {
                    let seat = t.seat;
                    self.thinking = None;
                    let name = self.labels[seat as usize].clone();
                    // A random bot plays the seat from now on; the seat keeps its name, so a
                    // saved game goes on with the bot it had.
                    let random = Box::new(sagani_ai::RandomBot::new(self.opts.seed));
                    if let Player::Bot { bot, .. } = &mut self.players[seat as usize] {
                        *bot = Some(self.told.wrap(random));
                    }
                    self.warning = Some(format!(
                        "{name} failed ({why}); a random bot plays its moves now"
                    ));
                }
            }
        }
        if let Some((at, next)) = self.show_next {
            if now.saturating_duration_since(at) >= self.opts.bot_pace {
                self.show_next = None;
                self.show_seat(next);
            }
        }
        if let Some((seat, _)) = &self.ready {
            let seat = *seat;
            // Nothing is played unseen: a bot's move waits while the table is not shown.
            let paced = now.saturating_duration_since(self.last_move) >= self.opts.bot_pace;
            if paced && !self.too_small {
                let (_, d) = self.ready.take().expect("checked");
                self.play_bot(seat, d);
            }
        }
        let Some(seat) = self.game().to_act() else {
            return;
        };
        match &mut self.players[seat as usize] {
            Player::Bot { bot, budget, .. } => {
                if self.thinking.is_none() && self.ready.is_none() {
                    if let Some(b) = bot.take() {
                        let game = match &self.source {
                            Source::Local(rg) => rg.game(),
                            Source::Online(t) => &t.game,
                        };
                        let (view, legal) = (game.view(Some(seat)), game.legal_moves());
                        self.told.ask();
                        let thinking = Thinking::start(seat, b, view, legal, *budget);
                        self.thinking = Some((thinking, self.opts.clock.now()));
                    }
                }
            }
            Player::Remote => {}
            Player::Human { .. } => {
                if self.placing.is_none() {
                    if let Some(t) = self.game().revealed() {
                        self.begin(t);
                    }
                }
            }
        }
    }

    /// Waits for the bots' answers (messages from their threads, at most `limit` each) and
    /// plays them, until a person here must act, the game is over, or a bot's move waits: for
    /// the pace (the clock must move on) or for the table to be seen (a frame big enough). For
    /// tests and scripts; the terminal loop ticks instead.
    pub fn wait_for_bots(&mut self, limit: Duration) -> Result<(), WaitError> {
        // A bound on the real time an answer told may take to arrive (it comes at once).
        let mut arriving: Option<Instant> = None;
        loop {
            self.tick();
            if !self.bot_to_act() || self.ready.is_some() || self.thinking.is_none() {
                // Once more: what follows a bot's move at its pace (the next player's display
                // in sight) comes on the tick after it.
                self.tick();
                return Ok(());
            }
            if self.told.finished() {
                // Its answer is on its way from the bot's thread: a moment.
                let since = *arriving.get_or_insert_with(Instant::now);
                if since.elapsed() > limit {
                    return Err(WaitError::Slow(limit));
                }
                std::thread::yield_now();
            } else {
                arriving = None;
                if !self.told.wait(limit) {
                    return Err(WaitError::Slow(limit));
                }
            }
        }
    }

    fn play_bot(&mut self, seat: u8, d: Decision) {
        let legal = self.game().legal_moves();
        let name = self.labels[seat as usize].clone();
        let mv = if legal.contains(&d.mv) {
            d.mv
        } else {
            let mv = legal[self.rng.random_range(0..legal.len())];
            self.warning = Some(format!(
                "{name} chose an illegal move ({}); a random legal move was played for it",
                d.mv
            ));
            mv
        };
        if let Some(why) = d.fault {
            self.warning = Some(format!("{name}: {why}"));
        }
        self.apply(mv);
    }
}

//! A bot's "I have chosen", so a test or a script waits for a bot's answer (a channel's
//! message) instead of for the clock. Each decision asked is numbered; the bot, wrapped, tells
//! the number of the one it finished (or failed), and its answer follows at once.

use sagani_ai::{Analysis, Bot, Budget, Decision};
use sagani_core::view::View;
use sagani_core::Move;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::Duration;

/// The numbered decisions of a game's bots, and what they told.
pub struct Told {
    asked: Arc<AtomicU64>,
    tx: Sender<u64>,
    rx: Receiver<u64>,
    /// The latest decision a bot told it finished.
    heard: u64,
}

impl Told {
    pub fn new() -> Told {
        let (tx, rx) = channel();
        Told {
            asked: Arc::default(),
            tx,
            rx,
            heard: 0,
        }
    }

    /// The bot, telling when it has chosen. It plays exactly as it would alone.
    pub fn wrap(&self, bot: Box<dyn Bot>) -> Box<dyn Bot> {
        Box::new(Telling {
            bot,
            asked: self.asked.clone(),
            tx: self.tx.clone(),
        })
    }

    /// A new decision is asked (before the bot starts on it).
    pub fn ask(&self) {
        self.asked.fetch_add(1, Ordering::SeqCst);
    }

    /// Whether the bot told it finished the latest decision asked: its answer is then on its
    /// way, or already there.
    pub fn finished(&self) -> bool {
        self.heard >= self.asked.load(Ordering::SeqCst)
    }

    /// Waits until the latest decision asked is finished, for at most `limit`; `false` if it
    /// was not. Older decisions' messages are passed over.
    pub fn wait(&mut self, limit: Duration) -> bool {
        while !self.finished() {
            match self.rx.recv_timeout(limit) {
                Ok(n) => self.heard = self.heard.max(n),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return false,
            }
        }
        true
    }
}

/// A bot that tells the number of each decision it finishes.
struct Telling {
    bot: Box<dyn Bot>,
    asked: Arc<AtomicU64>,
    tx: Sender<u64>,
}

/// Tells when dropped: at the end of a decision, also one the bot panicked in.
struct Tell(u64, Sender<u64>);

impl Drop for Tell {
    fn drop(&mut self) {
        // Nobody listens once the game is gone: nothing to tell then.
        let _ = self.1.send(self.0);
    }
}

impl Bot for Telling {
    fn name(&self) -> String {
        self.bot.name()
    }

    fn choose(&mut self, view: &View, legal: &[Move], budget: Budget) -> Decision {
        let _tell = Tell(self.asked.load(Ordering::SeqCst), self.tx.clone());
        self.bot.choose(view, legal, budget)
    }

    fn observe(&mut self, seat: u8, mv: Move) {
        self.bot.observe(seat, mv)
    }

    fn analyse(
        &mut self,
        view: &View,
        legal: &[Move],
        budget: Budget,
        top: usize,
    ) -> Vec<Analysis> {
        self.bot.analyse(view, legal, budget, top)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sagani_core::record::RecordedGame;
    use sagani_core::Setup;

    /// Panics on every decision.
    struct Broken;

    impl Bot for Broken {
        fn name(&self) -> String {
            "broken".into()
        }
        fn choose(&mut self, _: &View, _: &[Move], _: Budget) -> Decision {
            panic!("broken")
        }
    }

    /// One decision of `bot` on a thread of its own, as `bots.rs` runs it.
    fn decide(mut bot: Box<dyn Bot>) -> std::thread::JoinHandle<Box<dyn Bot>> {
        let rg = RecordedGame::new(&Setup::seeded(2, 1)).unwrap();
        let game = rg.game();
        let (view, legal) = (game.view(game.to_act()), game.legal_moves());
        std::thread::spawn(move || {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                bot.choose(&view, &legal, Budget::default())
            }));
            bot
        })
    }

    #[test]
    fn a_wait_ends_when_the_bot_tells_it_finished_the_latest_decision() {
        let mut told = Told::new();
        assert!(told.finished(), "nothing asked yet");
        let bot = told.wrap(Box::new(sagani_ai::RandomBot::new(1)));
        told.ask();
        assert!(
            !told.finished() && !told.wait(Duration::ZERO),
            "not told yet"
        );
        let bot = decide(bot).join().unwrap();
        assert!(told.wait(Duration::ZERO) && told.finished());
        // The next decision is not finished by the tell of the one before.
        told.ask();
        assert!(!told.wait(Duration::ZERO));
        decide(bot).join().unwrap();
        assert!(told.wait(Duration::from_secs(30)));
    }

    #[test]
    fn a_bot_that_panics_tells_too() {
        let mut told = Told::new();
        let bot = told.wrap(Box::new(Broken));
        told.ask();
        decide(bot).join().unwrap();
        assert!(told.wait(Duration::ZERO));
    }
}

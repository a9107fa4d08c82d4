//! A bot's decision on its own thread, so the screen stays live (and keys work) while it thinks.

use sagani_ai::{Bot, Budget, Decision};
use sagani_core::view::View;
use sagani_core::Move;
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::time::{Duration, Instant};

/// The bot and its decision, or why it failed.
type Reply = Result<(Box<dyn Bot>, Decision), String>;

/// A decision being made. The bot travels to the thread and back with its answer.
pub struct Thinking {
    pub seat: u8,
    pub started: Instant,
    pub budget: Option<Duration>,
    rx: Receiver<Reply>,
}

pub enum Answer {
    Waiting,
    Ready(Box<dyn Bot>, Decision),
    /// The bot failed (it panicked): it is gone, and this is why.
    Lost(String),
}

/// The name of the threads bots think on; the panic hook knows them by it.
pub const THREAD: &str = "sagani-bot";

impl Thinking {
    pub fn start(
        seat: u8,
        mut bot: Box<dyn Bot>,
        view: View,
        legal: Vec<Move>,
        budget: Budget,
    ) -> Thinking {
        let (tx, rx) = channel();
        let spawned = std::thread::Builder::new()
            .name(THREAD.to_string())
            .spawn(move || {
                let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    bot.choose(&view, &legal, budget)
                }));
                let answer = match answer {
                    Ok(d) => Ok((bot, d)),
                    Err(panic) => Err(panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "it stopped with an error".to_string())),
                };
                // The receiver is gone when the player quit meanwhile: nothing to do.
                let _ = tx.send(answer);
            });
        if let Err(e) = spawned {
            // No thread: the answer is that the bot could not start.
            let (tx, rx2) = channel();
            let _ = tx.send(Err(format!("cannot start a thread for it: {e}")));
            return Thinking {
                seat,
                started: Instant::now(),
                budget: budget.time,
                rx: rx2,
            };
        }
        Thinking {
            seat,
            started: Instant::now(),
            budget: budget.time,
            rx,
        }
    }

    pub fn poll(&self) -> Answer {
        match self.rx.try_recv() {
            Ok(Ok((bot, d))) => Answer::Ready(bot, d),
            Ok(Err(why)) => Answer::Lost(why),
            Err(TryRecvError::Empty) => Answer::Waiting,
            Err(TryRecvError::Disconnected) => Answer::Lost("its thread ended".to_string()),
        }
    }
}

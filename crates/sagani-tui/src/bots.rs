//! A bot's decision on its own thread, so the screen stays live (and keys work) while it thinks.

use sagani_ai::{Bot, Budget, Decision};
use sagani_core::view::View;
use sagani_core::Move;
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::time::{Duration, Instant};

/// A decision being made. The bot travels to the thread and back with its answer.
pub struct Thinking {
    pub seat: u8,
    pub started: Instant,
    pub budget: Option<Duration>,
    rx: Receiver<(Box<dyn Bot>, Decision)>,
}

pub enum Answer {
    Waiting,
    Ready(Box<dyn Bot>, Decision),
    /// The bot's thread died (a panic in an engine bot, say): the bot is gone.
    Lost,
}

impl Thinking {
    pub fn start(
        seat: u8,
        mut bot: Box<dyn Bot>,
        view: View,
        legal: Vec<Move>,
        budget: Budget,
    ) -> Thinking {
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let d = bot.choose(&view, &legal, budget);
            // The receiver is gone when the player quit meanwhile: nothing to do.
            let _ = tx.send((bot, d));
        });
        Thinking {
            seat,
            started: Instant::now(),
            budget: budget.time,
            rx,
        }
    }

    pub fn poll(&self) -> Answer {
        match self.rx.try_recv() {
            Ok((bot, d)) => Answer::Ready(bot, d),
            Err(TryRecvError::Empty) => Answer::Waiting,
            Err(TryRecvError::Disconnected) => Answer::Lost,
        }
    }
}

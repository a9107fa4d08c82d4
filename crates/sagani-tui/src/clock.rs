//! The time the game reads: the wall clock at the terminal, a clock moved by hand in tests, so
//! a test moves time (a bot's pace, a replay, a thinking bar) instead of sleeping.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Where the game reads the time now.
pub trait Clock: Send {
    fn now(&self) -> Instant;
}

/// The real time, for the terminal.
pub struct WallClock;

impl Clock for WallClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A clock that stands still until told to move on; its copies share the time, so a test
/// keeps one and hands another to the game.
#[derive(Clone)]
pub struct HandClock {
    start: Instant,
    moved: Arc<Mutex<Duration>>,
}

impl HandClock {
    pub fn new() -> HandClock {
        HandClock {
            start: Instant::now(),
            moved: Arc::default(),
        }
    }

    /// Moves the time on by `by`.
    pub fn advance(&self, by: Duration) {
        *self.moved.lock().unwrap_or_else(|e| e.into_inner()) += by;
    }
}

impl Default for HandClock {
    fn default() -> HandClock {
        HandClock::new()
    }
}

impl Clock for HandClock {
    fn now(&self) -> Instant {
        self.start + *self.moved.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hand_clock_moves_only_when_told_and_its_copies_share_the_time() {
        let clock = HandClock::new();
        let copy = clock.clone();
        let t0 = clock.now();
        assert_eq!(copy.now(), t0);
        copy.advance(Duration::from_millis(300));
        assert_eq!(clock.now() - t0, Duration::from_millis(300));
    }
}

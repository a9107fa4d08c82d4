//! The bot queue: bot turns wait here for a worker. Two lanes, so random and greedy never wait
//! behind mcts searches; in each lane, creators take turns (one creator's hundred games cannot
//! starve everyone else's bots); a game is queued at most once.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;
use tokio::sync::Notify;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    pub game: String,
    pub version: u64,
    pub creator: String,
}

/// Round robin over creators, first come first served within one creator's games.
#[derive(Default)]
pub struct FairQueue {
    creators: VecDeque<String>,
    waiting: HashMap<String, VecDeque<(Turn, Instant)>>,
    queued: HashSet<String>,
}

impl FairQueue {
    /// Queues `turn` unless its game is queued already (the worker plays whatever turn the game
    /// is at when it gets there). False if it was.
    pub fn push(&mut self, turn: Turn, at: Instant) -> bool {
        if !self.queued.insert(turn.game.clone()) {
            return false;
        }
        let list = self.waiting.entry(turn.creator.clone()).or_default();
        if list.is_empty() {
            self.creators.push_back(turn.creator.clone());
        }
        list.push_back((turn, at));
        true
    }

    /// The next creator's oldest turn, with when it was queued.
    pub fn pop(&mut self) -> Option<(Turn, Instant)> {
        let creator = self.creators.pop_front()?;
        let list = self.waiting.get_mut(&creator).expect("a queued creator");
        let (turn, at) = list.pop_front().expect("a creator with turns");
        if list.is_empty() {
            self.waiting.remove(&creator);
        } else {
            self.creators.push_back(creator);
        }
        self.queued.remove(&turn.game);
        Some((turn, at))
    }

    pub fn len(&self) -> usize {
        self.queued.len()
    }
}

/// One lane: a fair queue and the workers waiting on it.
#[derive(Default)]
pub struct Lane {
    queue: Mutex<FairQueue>,
    ready: Notify,
}

impl Lane {
    pub fn push(&self, turn: Turn) -> bool {
        let pushed = self
            .queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(turn, Instant::now());
        if pushed {
            self.ready.notify_one();
        }
        pushed
    }

    /// Waits for the next turn.
    pub async fn pop(&self) -> (Turn, Instant) {
        loop {
            // Registered before looking, so a push between the look and the wait still wakes.
            let notified = self.ready.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if let Some(next) = self
                .queue
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .pop()
            {
                return next;
            }
            notified.await;
        }
    }

    pub fn len(&self) -> usize {
        self.queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

/// The lanes of the server's bots.
#[derive(Default)]
pub struct Lanes {
    /// random and greedy.
    pub fast: Lane,
    /// mcts.
    pub slow: Lane,
}

impl Lanes {
    pub fn len(&self) -> usize {
        self.fast.len() + self.slow.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(game: &str, creator: &str) -> Turn {
        Turn {
            game: game.into(),
            version: 0,
            creator: creator.into(),
        }
    }

    #[test]
    fn creators_take_turns_and_a_game_is_queued_once() {
        let mut q = FairQueue::default();
        let now = Instant::now();
        for i in 0..100 {
            assert!(q.push(turn(&format!("busy{i}"), "busy"), now));
        }
        assert!(q.push(turn("a", "alice"), now));
        assert!(q.push(turn("b", "bob"), now));
        assert!(!q.push(turn("a", "alice"), now), "already queued");
        assert_eq!(q.len(), 102);
        let first: Vec<String> = (0..4).map(|_| q.pop().unwrap().0.game).collect();
        assert_eq!(first, ["busy0", "a", "b", "busy1"]);
        assert!(q.push(turn("a", "alice"), now), "queued again once taken");
        assert_eq!(q.pop().unwrap().0.game, "busy2");
        assert_eq!(q.pop().unwrap().0.game, "a");
        let mut rest = 0;
        while q.pop().is_some() {
            rest += 1;
        }
        assert_eq!(rest, 97);
        assert_eq!(q.len(), 0);
    }

    #[tokio::test]
    async fn a_waiting_worker_wakes_for_a_turn() {
        let lane = std::sync::Arc::new(Lane::default());
        let worker = {
            let lane = lane.clone();
            tokio::spawn(async move { lane.pop().await.0 })
        };
        tokio::task::yield_now().await;
        lane.push(turn("g", "c"));
        assert_eq!(worker.await.unwrap(), turn("g", "c"));
        assert_eq!(lane.len(), 0);
    }
}

//! The bot queue: bot turns wait here for a worker. Two lanes, so random and greedy never wait
//! behind mcts searches; in each lane, creators take turns (one creator's hundred games cannot
//! starve everyone else's bots); a game is queued at most once. Analyses ("what would the
//! engine do?") wait in the slow lane beside the searching bots, each client taking its turn
//! as a creator does, so they share the search threads with the tables and cannot starve them.

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

/// An analysis waiting for a search thread: `run` searches and sends its own answer.
pub struct Study {
    /// Unique among queued work.
    pub id: String,
    /// Who asked (a client's address): clients take turns as creators do.
    pub client: String,
    pub run: Box<dyn FnOnce() + Send>,
}

/// What a worker of the slow lane does next.
pub enum Work {
    Turn(Turn),
    Study(Study),
}

/// Something queued: what makes it unique, and whose turn it waits for.
pub trait Queued {
    fn key(&self) -> String;
    fn creator(&self) -> String;
}

impl Queued for Turn {
    fn key(&self) -> String {
        self.game.clone()
    }
    fn creator(&self) -> String {
        self.creator.clone()
    }
}

impl Queued for Work {
    fn key(&self) -> String {
        match self {
            Work::Turn(t) => t.key(),
            Work::Study(s) => format!("study {}", s.id),
        }
    }
    fn creator(&self) -> String {
        match self {
            Work::Turn(t) => t.creator(),
            Work::Study(s) => format!("study {}", s.client),
        }
    }
}

/// Round robin over creators, first come first served within one creator's games.
pub struct FairQueue<T = Turn> {
    creators: VecDeque<String>,
    waiting: HashMap<String, VecDeque<(T, Instant)>>,
    queued: HashSet<String>,
}

impl<T> Default for FairQueue<T> {
    fn default() -> Self {
        FairQueue {
            creators: VecDeque::new(),
            waiting: HashMap::new(),
            queued: HashSet::new(),
        }
    }
}

impl<T: Queued> FairQueue<T> {
    /// Queues `item` unless its game is queued already (the worker plays whatever turn the game
    /// is at when it gets there). False if it was.
    pub fn push(&mut self, item: T, at: Instant) -> bool {
        if !self.queued.insert(item.key()) {
            return false;
        }
        let creator = item.creator();
        let list = self.waiting.entry(creator.clone()).or_default();
        if list.is_empty() {
            self.creators.push_back(creator);
        }
        list.push_back((item, at));
        true
    }

    /// The next creator's oldest item, with when it was queued.
    pub fn pop(&mut self) -> Option<(T, Instant)> {
        let creator = self.creators.pop_front()?;
        let list = self.waiting.get_mut(&creator).expect("a queued creator");
        let (item, at) = list.pop_front().expect("a creator with turns");
        if list.is_empty() {
            self.waiting.remove(&creator);
        } else {
            self.creators.push_back(creator);
        }
        self.queued.remove(&item.key());
        Some((item, at))
    }

    pub fn len(&self) -> usize {
        self.queued.len()
    }
}

/// One lane: a fair queue and the workers waiting on it.
pub struct Lane<T = Turn> {
    queue: Mutex<FairQueue<T>>,
    ready: Notify,
}

impl<T> Default for Lane<T> {
    fn default() -> Self {
        Lane {
            queue: Mutex::new(FairQueue::default()),
            ready: Notify::new(),
        }
    }
}

impl<T: Queued> Lane<T> {
    pub fn push(&self, item: T) -> bool {
        let pushed = self
            .queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(item, Instant::now());
        if pushed {
            self.ready.notify_one();
        }
        pushed
    }

    /// Waits for the next item.
    pub async fn pop(&self) -> (T, Instant) {
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
    /// mcts, and analyses.
    pub slow: Lane<Work>,
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

    #[test]
    fn analyses_take_turns_with_the_creators_of_bot_turns() {
        let mut q: FairQueue<Work> = FairQueue::default();
        let now = Instant::now();
        let study = |id: &str, client: &str| {
            Work::Study(Study {
                id: id.into(),
                client: client.into(),
                run: Box::new(|| ()),
            })
        };
        for i in 0..3 {
            assert!(q.push(Work::Turn(turn(&format!("g{i}"), "busy")), now));
        }
        for i in 0..3 {
            assert!(q.push(study(&format!("s{i}"), "curious"), now));
        }
        assert!(q.push(Work::Turn(turn("a", "alice")), now));
        let order: Vec<String> = std::iter::from_fn(|| q.pop().map(|(w, _)| w.key())).collect();
        assert_eq!(
            order,
            ["g0", "study s0", "a", "g1", "study s1", "g2", "study s2"]
        );
    }

    #[tokio::test]
    async fn a_waiting_worker_wakes_for_a_turn() {
        let lane = std::sync::Arc::new(Lane::<Turn>::default());
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

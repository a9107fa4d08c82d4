//! This server's spectators: the sockets without a seat it holds, counted per game, and which
//! games' counts changed since they were last written to the store (`app/live.rs` writes them).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::Notify;

/// This server's spectator sockets per game, and the games whose count changed since it was
/// last written.
#[derive(Default)]
pub struct Spectators {
    counts: Mutex<Counts>,
    changed: Notify,
}

#[derive(Default)]
struct Counts {
    now: HashMap<String, u64>,
    unwritten: HashSet<String>,
}

impl Spectators {
    /// A spectator socket opens at `game`: counted until the guard is dropped.
    pub fn watch(self: &Arc<Spectators>, game: &str) -> Spectating {
        self.change(game, |n| n + 1);
        Spectating {
            spectators: self.clone(),
            game: game.to_string(),
        }
    }

    /// Resolves when a count changes (or changed since the last call).
    pub(crate) async fn changed(&self) {
        self.changed.notified().await;
    }

    fn change(&self, game: &str, f: impl FnOnce(u64) -> u64) {
        {
            let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
            let n = f(counts.now.get(game).copied().unwrap_or(0));
            if n == 0 {
                counts.now.remove(game);
            } else {
                counts.now.insert(game.to_string(), n);
            }
            counts.unwritten.insert(game.to_string());
        }
        self.changed.notify_one();
    }

    /// The counts of the games changed since the last call.
    pub(crate) fn take_changed(&self) -> Vec<(String, u64)> {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        let changed = std::mem::take(&mut counts.unwritten);
        changed
            .into_iter()
            .map(|g| {
                let n = counts.now.get(&g).copied().unwrap_or(0);
                (g, n)
            })
            .collect()
    }

    /// Every count, and nothing left unwritten.
    pub(crate) fn take_all(&self) -> Vec<(String, u64)> {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        counts.unwritten.clear();
        counts.now.iter().map(|(g, n)| (g.clone(), *n)).collect()
    }

    /// Puts counts that could not be written back on the list to write.
    pub(crate) fn unwritten(&self, games: impl Iterator<Item = String>) {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        counts.unwritten.extend(games);
    }
}

/// A spectator socket, counted while it lives.
pub struct Spectating {
    spectators: Arc<Spectators>,
    game: String,
}

impl Drop for Spectating {
    fn drop(&mut self) {
        self.spectators.change(&self.game, |n| n.saturating_sub(1));
    }
}

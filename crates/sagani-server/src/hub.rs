//! Who is watching which game: a channel per watched game that says "game g is now at rev r"
//! (or "look again", after a gap in what this server heard), fed by this server's own changes
//! and by the store's notifications of every other server's.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use tokio::sync::broadcast;

/// `Some(rev)`: the game is at `rev` or later. `None`: changes may have been missed.
pub type Heard = Option<u64>;

#[derive(Default)]
pub struct Hub {
    games: Mutex<HashMap<String, broadcast::Sender<Heard>>>,
}

impl Hub {
    pub fn subscribe(&self, game: &str) -> broadcast::Receiver<Heard> {
        let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        games
            .entry(game.to_string())
            // A watcher that falls behind gets `Lagged` and looks again: a few slots suffice.
            .or_insert_with(|| broadcast::channel(16).0)
            .subscribe()
    }

    /// Tells `game`'s watchers, if it has any.
    pub fn publish(&self, game: &str, heard: Heard) {
        let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(tx) = games.get(game) {
            if tx.send(heard).is_err() {
                games.remove(game);
            }
        }
    }

    /// Tells every watcher to look again.
    pub fn publish_all(&self) {
        let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        games.retain(|_, tx| tx.send(None).is_ok());
    }

    /// Forgets games nobody watches any more.
    pub fn tidy(&self) {
        let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        games.retain(|_, tx| tx.receiver_count() > 0);
    }

    pub fn watched(&self) -> usize {
        self.games
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

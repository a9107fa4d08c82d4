//! How many games the store holds, counted in the background once every `idle_sweep`, so that
//! `/healthz` answers from memory: a count reads every game, and a health check polled by
//! several balancers must not cost the players anything, however many games are stored.

use super::App;
use crate::store::Counts;
use std::sync::{Arc, Weak};

impl App {
    /// The last count, if one has been made.
    pub fn census(&self) -> Option<Counts> {
        self.census.lock().expect("census lock").to_owned()
    }

    pub(super) fn start_census(self: &Arc<App>) {
        tokio::spawn(count(Arc::downgrade(self)));
    }
}

async fn count(app: Weak<App>) {
    loop {
        let every = {
            let Some(app) = app.upgrade() else { return };
            match app.store.counts().await {
                Ok(counts) => *app.census.lock().expect("census lock") = Some(counts),
                Err(e) => tracing::warn!("counting the stored games: {e}"),
            }
            app.config.idle_sweep
        };
        tokio::time::sleep(every).await;
    }
}

//! A server starting: its state built over the store, its bot workers and sweeps started, and
//! other servers' changes heard.

use super::{leave, seeks, turns, App, Config};
use crate::hub::Hub;
use crate::limits::Limiters;
use crate::scheduler::Lanes;
use crate::store::{Change, Store, StoreError};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Weak};

/// Why a server does not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// A fixed deck seed with a shared database.
    #[error("--deck-seed is refused with a shared database: whoever knows the seed knows every draw pile")]
    SharedSeed,
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Mail(#[from] crate::mailer::MailSetupError),
}

impl App {
    /// A server over `store`: it starts the bot workers and hears other servers' changes.
    /// Nothing is loaded up front: games are read when asked for.
    pub async fn start(store: Arc<dyn Store>, config: Config) -> Result<Arc<App>, StartError> {
        if config.deck_seed.is_some() && !store.exclusive() {
            return Err(StartError::SharedSeed);
        }
        // Game k of the database is dealt from S+k, across restarts too.
        let dealt = match config.deck_seed {
            Some(_) => store.counts().await?.games,
            None => 0,
        };
        let mailer = match &config.smtp {
            Some(url) => Some(crate::mailer::Mailer::new(url, &config.mail_from)?),
            None => None,
        };
        fill_skeletons(&*store).await?;
        let tables = moka::future::Cache::builder()
            .max_capacity(config.cache_games.max(1))
            .time_to_idle(config.cache_idle)
            .build();
        let committed = moka::sync::Cache::builder()
            .max_capacity(config.cache_games.max(1).saturating_mul(4))
            .time_to_idle(config.cache_idle.saturating_mul(2))
            .build();
        let app = Arc::new(App {
            committed,
            limiters: Limiters::new(&config.limits),
            metrics: crate::metrics::Metrics::new(),
            hub: Hub::default(),
            tables,
            lanes: Lanes::default(),
            holder: crate::secret::random_hex(8),
            playing: Default::default(),
            dealt: AtomicU64::new(dealt),
            daily_secret: tokio::sync::OnceCell::new(),
            census: Default::default(),
            spectators: Default::default(),
            seen: Default::default(),
            mailer,
            store,
            config,
        });
        turns::start_workers(&app);
        leave::start_sweeps(&app);
        seeks::start_seek_sweep(&app);
        app.start_census();
        app.start_spectator_reports();
        super::mail::start_sender(&app);
        if let Some(changes) = app.store.changes() {
            tokio::spawn(hear(Arc::downgrade(&app), changes));
        }
        Ok(app)
    }
}

/// Accounts made before names had skeletons (`names::skeleton`) get theirs, so that no new name
/// and no guest can look like theirs. Names that look like an older account's stay without
/// one (said in the log). A race with another server starting is left to the next start.
async fn fill_skeletons(store: &dyn Store) -> Result<(), StoreError> {
    match store.fill_skeletons().await {
        Ok(left) => {
            for name in left {
                tracing::warn!("the account {name:?} looks like an older account's name");
            }
            Ok(())
        }
        Err(StoreError::Conflict(_)) => {
            tracing::warn!("another server was filling in name skeletons; left to the next start");
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// Passes other servers' changes to this server's watchers.
async fn hear(app: Weak<App>, mut changes: tokio::sync::broadcast::Receiver<Change>) {
    use tokio::sync::broadcast::error::RecvError;
    loop {
        let change = changes.recv().await;
        let Some(app) = app.upgrade() else { return };
        match change {
            Ok(Change::Game { game, rev }) => app.hub.publish(&game, Some(rev)),
            Ok(Change::Resync) | Err(RecvError::Lagged(_)) => app.hub.publish_all(),
            Err(RecvError::Closed) => return,
        }
    }
}

//! The games to watch, and who watches: this server counts its own spectator sockets per game
//! and writes the counts to the store (a moment after they change, and all of them again every
//! little while), so that the list adds up every server's.

use super::{store_refusal, App};
use crate::api::{LiveGame, LiveGames, LivePlayer, SeatKind};
use crate::error::ApiError;
use crate::rating::{shown, PROVISIONAL_GAMES};
use crate::spectators::Spectators;
use crate::store::SavedSeat;
use std::collections::HashMap;
use std::sync::{Arc, Weak};
use std::time::Duration;

/// Games listed at most.
pub const LIVE_GAMES: u32 = 50;
/// How long after a change this server writes its counts: the sockets that open and close
/// meanwhile (a page reloaded) make one write.
const DEBOUNCE: Duration = Duration::from_secs(1);
/// How often this server stamps all its counts again.
const REFRESH: Duration = Duration::from_secs(20);
/// A count stamped longer ago than this (by the App's clock) is not added up: its server
/// stopped, or lost the database.
pub const FRESH_MS: i64 = 60_000;
/// Rows this old are deleted by whichever server refreshes next.
const FORGET_MS: i64 = 10 * 60_000;

impl App {
    /// Games in progress between people, strongest first (`Live::live_games`).
    pub async fn live_games(&self) -> Result<LiveGames, ApiError> {
        let fresh = self.now_ms() - FRESH_MS;
        let listed = self
            .store
            .live_games(LIVE_GAMES, fresh)
            .await
            .map_err(store_refusal)?;
        let games = listed
            .into_iter()
            .map(|g| {
                let players: Vec<LivePlayer> = g
                    .seats
                    .iter()
                    .enumerate()
                    .map(|(i, s)| live_player(i as u8, s, &g.ratings))
                    .collect();
                let people: Vec<i64> = g
                    .seats
                    .iter()
                    .zip(&players)
                    .filter(|(s, _)| is_person(s))
                    .map(|(_, p)| p.rating.unwrap_or_else(newcomer))
                    .collect();
                let strength = if people.is_empty() {
                    newcomer()
                } else {
                    (people.iter().sum::<i64>() as f64 / people.len() as f64).round() as i64
                };
                LiveGame {
                    url: format!("/games/{}", g.id),
                    game: g.id,
                    variant: g.variant,
                    clock: g.clock,
                    moves: g.version,
                    started_at_ms: g.started_ms,
                    rated: g.rated,
                    strength,
                    spectators: g.spectators,
                    players,
                }
            })
            .collect();
        Ok(LiveGames { games })
    }

    /// Writes this server's whole count to the store now, stamped by the App's clock (also done
    /// every `REFRESH` by itself).
    pub async fn report_spectators(&self) {
        let all = self.spectators.take_all();
        let now = self.now_ms();
        if let Err(e) = self
            .store
            .refresh_spectators(&self.holder, &all, now, now - FORGET_MS)
            .await
        {
            tracing::warn!("writing the spectator counts: {e}");
            self.spectators.unwritten(all.into_iter().map(|(g, _)| g));
        }
    }

    /// Takes this server's counts out of the store (it stops).
    pub async fn forget_spectators(&self) {
        if let Err(e) = self.store.drop_spectators(&self.holder).await {
            tracing::warn!("removing the spectator counts: {e}");
        }
    }

    async fn write_changed_spectators(&self) {
        let changed = self.spectators.take_changed();
        if changed.is_empty() {
            return;
        }
        if let Err(e) = self
            .store
            .put_spectators(&self.holder, &changed, self.now_ms())
            .await
        {
            tracing::warn!("writing the spectator counts: {e}");
            self.spectators
                .unwritten(changed.into_iter().map(|(g, _)| g));
        }
    }

    pub(super) fn start_spectator_reports(self: &Arc<App>) {
        tokio::spawn(report(Arc::downgrade(self), self.spectators.clone()));
    }
}

/// Writes the counts a moment after they change, and all of them every `REFRESH`.
async fn report(app: Weak<App>, spectators: Arc<Spectators>) {
    let mut last_refresh = tokio::time::Instant::now();
    loop {
        let next_refresh = last_refresh + REFRESH;
        tokio::select! {
            () = spectators.changed() => tokio::time::sleep(DEBOUNCE).await,
            () = tokio::time::sleep_until(next_refresh) => {}
        }
        let Some(app) = app.upgrade() else { return };
        if tokio::time::Instant::now() >= next_refresh {
            app.report_spectators().await;
            last_refresh = tokio::time::Instant::now();
        } else {
            app.write_changed_spectators().await;
        }
    }
}

fn newcomer() -> i64 {
    let r = crate::rating::initial();
    shown(r.mu, r.sigma)
}

fn is_person(s: &SavedSeat) -> bool {
    matches!(s, SavedSeat::Human { left: None, .. })
}

fn live_player(
    seat: u8,
    s: &SavedSeat,
    ratings: &HashMap<String, crate::rating::Rating>,
) -> LivePlayer {
    match s {
        SavedSeat::Bot { bot, level } => LivePlayer {
            seat,
            kind: SeatKind::Bot,
            name: Some(bot.clone()),
            account: false,
            rating: None,
            provisional: false,
            level: Some(*level),
        },
        SavedSeat::Human {
            left: Some(left), ..
        } => LivePlayer {
            seat,
            kind: SeatKind::Bot,
            name: Some(left.bot.clone()),
            account: false,
            rating: None,
            provisional: false,
            level: Some(left.level),
        },
        SavedSeat::Human { name, player, .. } => {
            let rating = player.as_ref().map(|p| {
                ratings
                    .get(p)
                    .copied()
                    .unwrap_or_else(crate::rating::initial)
            });
            LivePlayer {
                seat,
                kind: SeatKind::Human,
                name: name.clone(),
                // A deleted account's seat keeps its id but has no name any more.
                account: player.is_some() && name.is_some(),
                rating: rating.map(|r| shown(r.mu, r.sigma)),
                provisional: rating.is_some_and(|r| r.games < PROVISIONAL_GAMES),
                level: None,
            }
        }
    }
}

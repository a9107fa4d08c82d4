//! `sagani db copy`: every game of one store into another, game by game, each checked by
//! replaying the copy to the same state as the original.

use super::replay::{progress_of, replay, ReplayError};
use super::{Conflict, SavedGame, Store, StoreError};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CopyReport {
    pub copied: u64,
    /// Games the target held already, identical.
    pub already: u64,
    /// Games that could not be read or replayed, with why (left where they are).
    pub skipped: Vec<(String, String)>,
}

/// Why a copy stopped.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error("reading the daily secret: {0}")]
    ReadSecret(#[source] StoreError),
    #[error("writing the daily secret: {0}")]
    WriteSecret(#[source] StoreError),
    #[error("the target has a daily secret of its own (it dealt daily decks already): copy into an empty database")]
    OtherSecret,
    #[error("reading the games to copy: {0}")]
    List(#[source] StoreError),
    #[error("reading game {game}: {source}")]
    Read { game: String, source: StoreError },
    #[error("writing game {game}: {source}")]
    Write { game: String, source: StoreError },
    #[error("game {game} in the target: {source}")]
    ReadTarget { game: String, source: StoreError },
    #[error("game {game} is in the target already, and differs: copy into an empty database")]
    Differs { game: String },
    #[error("reading back game {game}: {source}")]
    ReadBack { game: String, source: StoreError },
    #[error("game {game} does not replay: {source}")]
    Replay { game: String, source: ReplayError },
    #[error("game {game} differs after copying")]
    Changed { game: String },
}

/// The same game, leaving out what the copy may count afresh (`rev`).
fn same(a: &SavedGame, b: &SavedGame) -> bool {
    SavedGame {
        rev: 0,
        ..a.clone()
    } == SavedGame {
        rev: 0,
        ..b.clone()
    }
}

/// Copies every game of `from` into `to`. A game already in `to` must be identical (a copy run
/// twice copies nothing twice); any other difference stops the copy. `each` hears every game
/// done.
pub async fn copy(
    from: &dyn Store,
    to: &dyn Store,
    mut each: impl FnMut(&str),
) -> Result<CopyReport, CopyError> {
    let mut report = CopyReport::default();
    // The daily decks come from the server's secret: the copy deals the same decks (today's
    // attempts go on with the deck they began with).
    let fresh = crate::secret::random_hex(32);
    let secret = from
        .server_secret(crate::secret::DAILY, &fresh)
        .await
        .map_err(CopyError::ReadSecret)?;
    let there = to
        .server_secret(crate::secret::DAILY, &secret)
        .await
        .map_err(CopyError::WriteSecret)?;
    if there != secret {
        return Err(CopyError::OtherSecret);
    }
    let mut after: Option<String> = None;
    loop {
        let ids = from
            .game_ids(after.as_deref(), 500)
            .await
            .map_err(CopyError::List)?;
        let Some(last) = ids.last() else { break };
        after = Some(last.clone());
        for game in ids {
            let saved = match from.game(&game).await {
                Ok(g) => g,
                Err(e @ StoreError::Damaged { .. }) => {
                    report.skipped.push((game.clone(), e.to_string()));
                    continue;
                }
                Err(source) => return Err(CopyError::Read { game, source }),
            };
            let original = match replay(&saved) {
                Ok(r) => r,
                Err(e) => {
                    report.skipped.push((game.clone(), e.to_string()));
                    continue;
                }
            };
            // Where it stands, its clocks and an early end included.
            let times: Vec<i64> = saved.moves.iter().map(|m| m.at_ms).collect();
            let after = progress_of(
                &original,
                &saved.seats,
                saved.clock,
                saved.started_ms,
                &times,
                saved.ended,
            );
            match to.import(&saved, after).await {
                Ok(()) => report.copied += 1,
                Err(StoreError::Conflict(Conflict::Exists)) => {
                    let there = match to.game(&game).await {
                        Ok(g) => g,
                        Err(source) => return Err(CopyError::ReadTarget { game, source }),
                    };
                    if !same(&there, &saved) {
                        return Err(CopyError::Differs { game });
                    }
                    report.already += 1;
                }
                Err(source) => return Err(CopyError::Write { game, source }),
            }
            let copied = match to.game(&game).await {
                Ok(g) => g,
                Err(source) => return Err(CopyError::ReadBack { game, source }),
            };
            let again = match replay(&copied) {
                Ok(g) => g,
                Err(source) => return Err(CopyError::Replay { game, source }),
            };
            if again.record() != original.record() || !same(&copied, &saved) {
                return Err(CopyError::Changed { game });
            }
            each(&game);
        }
    }
    Ok(report)
}

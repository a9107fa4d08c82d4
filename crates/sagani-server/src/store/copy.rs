//! `sagani db copy`: every game of one store into another, game by game, each checked by
//! replaying the copy to the same state as the original.

use super::replay::replay;
use super::{Conflict, SavedGame, Store, StoreError};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CopyReport {
    pub copied: u64,
    /// Games the target held already, identical.
    pub already: u64,
    /// Games that could not be read or replayed, with why (left where they are).
    pub skipped: Vec<(String, String)>,
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
) -> Result<CopyReport, String> {
    let mut report = CopyReport::default();
    // The daily decks come from the server's secret: the copy deals the same decks (today's
    // attempts go on with the deck they began with).
    let fresh = crate::secret::random_hex(32);
    let secret = from
        .server_secret(crate::daily::SECRET, &fresh)
        .await
        .map_err(|e| format!("reading the daily secret: {e}"))?;
    let there = to
        .server_secret(crate::daily::SECRET, &secret)
        .await
        .map_err(|e| format!("writing the daily secret: {e}"))?;
    if there != secret {
        return Err(
            "the target has a daily secret of its own (it dealt daily decks already): copy into an empty database"
                .into(),
        );
    }
    let mut after: Option<String> = None;
    loop {
        let ids = from
            .game_ids(after.as_deref(), 500)
            .await
            .map_err(|e| format!("reading the games to copy: {e}"))?;
        let Some(last) = ids.last() else { break };
        after = Some(last.clone());
        for id in ids {
            let game = match from.game(&id).await {
                Ok(g) => g,
                Err(e @ StoreError::Damaged { .. }) => {
                    report.skipped.push((id.clone(), e.to_string()));
                    continue;
                }
                Err(e) => return Err(format!("reading game {id}: {e}")),
            };
            // Where it stands, its clocks and an early end included.
            let (original, after) = match crate::table::TableState::restore(&game) {
                Ok(st) => {
                    let after = st.progress();
                    (st.game, after)
                }
                Err(e) => {
                    report.skipped.push((id.clone(), e));
                    continue;
                }
            };
            match to.import(&game, after).await {
                Ok(()) => report.copied += 1,
                Err(StoreError::Conflict(Conflict::Exists)) => {
                    let there = to
                        .game(&id)
                        .await
                        .map_err(|e| format!("game {id} in the target: {e}"))?;
                    if !same(&there, &game) {
                        return Err(format!(
                            "game {id} is in the target already, and differs: copy into an empty database"
                        ));
                    }
                    report.already += 1;
                }
                Err(e) => return Err(format!("writing game {id}: {e}")),
            }
            let copied = to
                .game(&id)
                .await
                .map_err(|e| format!("reading back game {id}: {e}"))?;
            let again = replay(&copied).map_err(|e| format!("game {id} does not replay: {e}"))?;
            if again.record() != original.record() || !same(&copied, &game) {
                return Err(format!("game {id} differs after copying"));
            }
            each(&id);
        }
    }
    Ok(report)
}

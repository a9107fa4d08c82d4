//! Notices: which a move raises (the account whose turn it now is in a turn-based game, every
//! account seated when a game among people ends), and an account's list and count.

use super::{store_refusal, App};
use crate::error::ApiError;
use crate::store::{NewNotice, Notice, NoticeKind, SavedSeat};
use crate::time_control::TimeControl;
use sagani_core::Game;

/// Notices an account's list shows at most.
pub const LISTED: u32 = 50;

/// The notices a move raises: `next` is the game after it, `mover` the seat that made it.
/// "Your turn" only in a turn-based game, for an account's seat still its own (not a guest's,
/// not a bot's, not the mover's own next decision); "game over" for every account seated when
/// a game with at least two people ends.
pub(super) fn raised_by_move(
    game_id: &str,
    next: &Game,
    seats: &[SavedSeat],
    clock: TimeControl,
    mover: u8,
    now_ms: i64,
) -> Vec<NewNotice> {
    let notice = |player: &str, kind| NewNotice {
        id: crate::secret::random_hex(8),
        player: player.to_string(),
        kind,
        game: Some(game_id.to_string()),
        about: None,
        at_ms: now_ms,
    };
    let account = |s: &SavedSeat| match s {
        SavedSeat::Human { player, .. } => player.clone(),
        SavedSeat::Bot { .. } => None,
    };
    if next.is_over() {
        let people = seats
            .iter()
            .filter(|s| {
                matches!(
                    s,
                    SavedSeat::Human {
                        token_hash: Some(_),
                        ..
                    }
                )
            })
            .count();
        if people < 2 {
            return Vec::new();
        }
        return seats
            .iter()
            .filter_map(account)
            .map(|p| notice(&p, NoticeKind::GameOver))
            .collect();
    }
    if !matches!(clock, TimeControl::Turn { .. }) {
        return Vec::new();
    }
    match next.to_act() {
        Some(seat) if seat != mover => match seats.get(seat as usize) {
            Some(s @ SavedSeat::Human { left: None, .. }) => account(s)
                .map(|p| vec![notice(&p, NoticeKind::YourTurn)])
                .unwrap_or_default(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

impl App {
    /// The account's notices, newest first, and how many are unread.
    pub async fn notices_of(&self, player: &str) -> Result<(Vec<Notice>, u64), ApiError> {
        let list = self
            .store
            .notices(player, LISTED)
            .await
            .map_err(store_refusal)?;
        let unread = self.unread_of(player).await?;
        Ok((list, unread))
    }

    /// How many of the account's notices are unread.
    pub async fn unread_of(&self, player: &str) -> Result<u64, ApiError> {
        self.store
            .unread_notices(player)
            .await
            .map_err(store_refusal)
    }

    /// Marks the account's notices up to `upto_ms` read; how many are still unread.
    pub async fn read_up_to(&self, player: &str, upto_ms: i64) -> Result<u64, ApiError> {
        self.store
            .read_notices(player, upto_ms, self.now_ms())
            .await
            .map_err(store_refusal)?;
        self.unread_of(player).await
    }
}

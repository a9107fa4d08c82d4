//! Who may read a game's history, and when: its record, its moves, its replay and the engine's
//! analysis of its positions. Every such read goes through `check`, so a rule about history
//! (such as a daily challenge hidden until its day is over) is written in one place.

use crate::error::{ApiError, ErrorCode};
use crate::secret;
use crate::table::TableState;

/// What of a game's history is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum History {
    /// The record (RECORD.md): it holds the deck's order.
    Record,
    /// The moves played, with their effects (the table's log).
    Moves,
    /// Every position of the game, for the replay page.
    Replay,
    /// The engine's best moves at a position.
    Analysis,
}

/// Who asks: the seat token they sent and the account they are logged in to, if any.
#[derive(Clone, Debug, Default)]
pub struct Viewer {
    pub token_hash: Option<String>,
    pub player: Option<String>,
}

impl Viewer {
    /// A viewer with the seat token `token` (in plain) and the account `player`.
    pub fn new(token: Option<&str>, player: Option<String>) -> Viewer {
        Viewer {
            token_hash: token.map(secret::hash),
            player,
        }
    }

    /// The seat of the game this viewer holds, by token, else by account.
    pub fn seat(&self, st: &TableState) -> Option<u8> {
        if let Some(seat) = self.token_hash.as_deref().and_then(|h| st.seat_of_hash(h)) {
            return Some(seat);
        }
        let player = self.player.as_deref()?;
        st.seats
            .iter()
            .position(|s| s.player() == Some(player))
            .map(|i| i as u8)
    }
}

/// Whether `viewer` may read `what` of the game now; the refusal says why not.
///
/// Today's rules:
/// - a daily challenge's game is its player's alone until its UTC day is over (403
///   `history_hidden`, every part of its history): everyone plays the same deck that day; its
///   record, which holds the deck, is nobody's until then;
/// - the moves are public at any time (the table shows them as they are played);
/// - the record holds the deck's order, so it is given out once the game is over
///   (409 `game_in_progress` before);
/// - the replay shows only what the table showed, but a game is looked back at once it is
///   over (409 `game_in_progress` before);
/// - the analysis is advice: for a finished game only (403 `history_hidden` while it is played),
///   so nobody asks the engine for help during a game;
/// - but a practice game's player (by the seat's token or the account holding the seat) has
///   its replay and the engine's hints while it is played: that is what practice is for.
pub fn check(st: &TableState, viewer: &Viewer, what: History, now_ms: i64) -> Result<(), ApiError> {
    if !crate::daily::history_open(st, viewer.seat(st), now_ms) {
        return Err(crate::daily::hidden());
    }
    // Its record holds the day's deck, which its player may play again as a guest: even theirs
    // waits for the day's end.
    if what == History::Record
        && st
            .daily
            .as_ref()
            .is_some_and(|d| !crate::daily::day_over(d, now_ms))
    {
        return Err(crate::daily::hidden());
    }
    if what == History::Moves || st.over() {
        return Ok(());
    }
    let own = viewer.seat(st).is_some();
    if st.practice && own && matches!(what, History::Replay | History::Analysis) {
        return Ok(());
    }
    Err(match what {
        History::Analysis => ApiError::new(
            ErrorCode::HistoryHidden,
            if st.practice {
                "hints for a practice game go to its player (send the seat's token)"
            } else {
                "the engine's analysis is given once the game is over, not while it is played \
                 (start a practice game for hints)"
            },
        ),
        _ => ApiError::conflict(
            ErrorCode::GameInProgress,
            match what {
                History::Record => {
                    "the record is given out once the game is over (it holds the draw pile's order)"
                }
                _ => "the replay is shown once the game is over",
            },
            st.version(),
        ),
    })
}

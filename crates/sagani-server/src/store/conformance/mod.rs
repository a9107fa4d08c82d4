//! The `Store` contract as tests: every store runs these same cases (tests/store.rs), each as a
//! test of its own on a new, empty database. `a` and `b` are two handles on that one database, as two servers
//! would hold them, so races between them are races between servers.

use super::{
    BotTurn, Change, ChatRate, ChatText, ChatWrite, ClaimWrite, Conflict, DailyTag, Ended, GameEnd,
    IdleSweep, LeaveWrite, Left, LeftReason, LoginCount, MoveWrite, NewPlayer, Progress, SavedGame,
    SavedMove, SavedSeat, SoloResult, Status, Store, StoreError, Value,
};
use crate::time_control::TimeControl;
use sagani_core::{Move, Variant};
use std::sync::Arc;

mod accounts;
mod challenges;
mod chat;
mod clocks;
mod daily;
mod games;
mod live;
mod mail;
mod notices;
mod ratings;
mod seeks;
pub use accounts::*;
pub use challenges::*;
pub use chat::*;
pub use clocks::*;
pub use daily::*;
pub use games::*;
pub use live::*;
pub use mail::*;
pub use notices::*;
pub use ratings::*;
pub use seeks::*;

pub type Handles = (Arc<dyn Store>, Arc<dyn Store>);

/// Declares one test per case (tests/store.rs does, once per store). `$open` is an async
/// function that takes the test's name and gives two handles on a new, empty database with
/// whatever keeps it alive, or `None` when the store is not at hand (the test is skipped).
#[macro_export]
macro_rules! store_conformance {
    ($open:path) => {
        $crate::store_conformance!(@each $open:
            reads_back_as_written,
            created_once,
            moves_are_conditional,
            moves_need_the_token,
            claims_are_conditional,
            reclaim_revokes_in_rematch,
            lobby,
            open_games_limit,
            leases,
            listing_and_import,
            whole_tables,
            racing_moves,
            racing_claims,
            changes_are_heard,
            names_are_unique,
            sessions,
            deleted_accounts,
            login_failures,
            login_counts_race,
            sessions_end_with_seats,
            seat_holders,
            rated_end,
            rated_too_early,
            rated_pairs_a_day,
            unrated_end,
            clocks_start_once,
            leaving,
            due_clocks,
            idle_games,
            cancelling,
            chat,
            chat_rates,
            look_alike_names,
            repairs,
            server_secrets,
            daily_attempts,
            daily_results,
            notices,
            seeks_wait_and_cancel,
            seeks_pair_once,
            live_games,
            spectator_counts,
            challenges_stored_with_notice,
            challenges_from_followed,
            challenge_accepted_once,
            challenges_closed,
            follows_and_seen,
            your_turn_notices_do_not_pile_up,
            mail_outbox,
        );
    };
    (@each $open:path: $($case:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $case() {
                if let Some((handles, _keep)) = $open(stringify!($case)).await {
                    $crate::store::conformance::$case(handles).await;
                }
            }
        )*
    };
}

fn human(invite: &str) -> SavedSeat {
    SavedSeat::Human {
        invite_hash: invite.into(),
        token_hash: None,
        name: None,
        player: None,
        left: None,
    }
}

fn bot() -> SavedSeat {
    SavedSeat::Bot {
        bot: "greedy".into(),
        level: 1,
    }
}

pub fn game(id: &str, seats: Vec<SavedSeat>) -> SavedGame {
    SavedGame {
        id: id.into(),
        created_at: 1_700_000_000,
        variant: if seats.len() == 1 {
            Variant::Solo
        } else {
            Variant::Standard
        },
        deck: (1..=72).collect(),
        start_player: 0,
        public: false,
        creator: "10.0.0.1".into(),
        host: None,
        rated: false,
        practice: false,
        seats,
        moves: Vec::new(),
        rev: 0,
        rematch: None,
        clock: TimeControl::None,
        started_ms: None,
        ended: None,
        chats: 0,
        daily: None,
        ratings: Vec::new(),
    }
}

const PLAYING: Progress = Progress {
    over: false,
    bot_to_act: false,
    deadline_ms: None,
};

fn place(tile: u8) -> Move {
    Move::Place {
        tile,
        x: 0,
        y: 0,
        rot: 0,
    }
}

fn mv(game: &str, n: u64, seat: u8, token: Option<&str>, m: Move) -> MoveWrite {
    MoveWrite {
        game: game.into(),
        n,
        seat,
        mv: m,
        token_hash: token.map(str::to_string),
        at_ms: 1_700_000_000_000 + n as i64,
        start_ms: None,
        after: PLAYING,
        end: None,
        notices: Vec::new(),
    }
}

fn claim(game: &str, seat: u8, seen: Option<&str>, token: &str) -> ClaimWrite {
    ClaimWrite {
        game: game.into(),
        seat,
        seen: seen.map(str::to_string),
        token_hash: token.into(),
        by_number: false,
        name: None,
        player: None,
        at_ms: 1_700_000_000_000,
        deadline_if_started: None,
    }
}

async fn create(s: &dyn Store, g: &SavedGame) {
    s.create(g, PLAYING, None, None).await.expect("created");
}

fn conflict<T: std::fmt::Debug>(r: Result<T, StoreError>) -> Conflict {
    match r {
        Err(StoreError::Conflict(c)) => c,
        other => panic!("expected a conflict, got {other:?}"),
    }
}

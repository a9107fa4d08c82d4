//! A table whose bot panics on one of its own threads, as a search thread of a buggy bot
//! would: for the test that the screen survives it (tests/play.rs). You start; `q` saves to
//! `sagani-game.json` in the current folder.

use sagani_ai::{Bot, Budget, Decision};
use sagani_core::record::RecordedGame;
use sagani_core::view::View;
use sagani_core::{Move, Setup};
use sagani_tui::{run_play, App, Options, Player, SaveTo, WallClock};
use std::time::Duration;

struct Failing;

impl Bot for Failing {
    fn name(&self) -> String {
        "failing".into()
    }

    fn choose(&mut self, _: &View, _: &[Move], _: Budget) -> Decision {
        std::thread::scope(|s| {
            s.spawn(|| panic!("a search thread fails"))
                .join()
                .expect("search threads do not panic")
        });
        unreachable!("the search panicked")
    }
}

fn main() {
    let setup = Setup {
        start_player: Some(0),
        ..Setup::seeded(2, 4)
    };
    let rg = RecordedGame::new(&setup).expect("a seeded setup");
    let players = vec![
        Player::human(""),
        Player::bot("failing", Box::new(Failing), Budget::default()),
    ];
    let opts = Options {
        save_to: SaveTo::NewIn(Default::default()),
        seed: 1,
        bot_pace: Duration::ZERO,
        clock: Box::new(WallClock),
    };
    let mut app = App::new(rg, players, opts).expect("two players for two seats");
    match run_play(&mut app) {
        Ok(saved) => println!("saved: {saved:?}"),
        Err(e) => eprintln!("{e}"),
    }
}

//! Helpers for the screen tests: a game in an `App`, drawn on ratatui's TestBackend.

#![allow(dead_code)]

use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::Terminal;
use sagani_ai::{make_bot, Budget};
use sagani_core::record::RecordedGame;
use sagani_core::Setup;
use sagani_tui::{App, HandClock, Options, Player, SaveTo};
use std::path::PathBuf;
use std::time::Duration;

pub fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sagani-tui-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join("game.json")
}

pub fn opts(seed: u64, name: &str) -> Options {
    clocked(seed, name).0
}

/// Options with a clock that moves only when the test moves it (its other copy).
pub fn clocked(seed: u64, name: &str) -> (Options, HandClock) {
    let clock = HandClock::new();
    let opts = Options {
        save_to: SaveTo::File(temp(name)),
        seed,
        bot_pace: Duration::ZERO,
        clock: Box::new(clock.clone()),
    };
    (opts, clock)
}

/// `seats`: "human" or a bot name.
pub fn app(setup: &Setup, seats: &[&str], seed: u64, name: &str) -> App {
    let players = seats
        .iter()
        .enumerate()
        .map(|(s, &n)| match n {
            "human" => Player::human(""),
            bot => Player::bot(
                bot,
                make_bot(bot, seed + s as u64).unwrap(),
                Budget::millis(200),
            ),
        })
        .collect();
    App::new(RecordedGame::new(setup).unwrap(), players, opts(seed, name)).unwrap()
}

pub fn render(app: &mut App, w: u16, h: u16) -> Buffer {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| app.draw(f)).unwrap();
    t.backend().buffer().clone()
}

/// The screen as text, one line per row.
pub fn text(buf: &Buffer) -> String {
    let mut s = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            s.push_str(buf[(x, y)].symbol());
        }
        s.push('\n');
    }
    s
}

//! Criterion bench of one frame of the terminal table: the screen is redrawn every 80 ms and
//! after every key, so a frame must cost little. Drawn on ratatui's TestBackend (no terminal
//! I/O), late in a 2-player game, idle and while placing a tile (with the engine's preview).

use criterion::{criterion_group, criterion_main, Criterion};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use sagani_core::record::RecordedGame;
use sagani_core::{Expect, Setup};
use sagani_tui::{App, Options, Player, SaveTo};
use std::time::Duration;

/// Two people, 40 placements in: large displays.
fn late_game() -> App {
    let rg = RecordedGame::new(&Setup::seeded(2, 3)).unwrap();
    let opts = Options {
        save_to: SaveTo::File(std::env::temp_dir().join("sagani-bench-unused.json")),
        seed: 3,
        bot_pace: Duration::ZERO,
        clock: Box::new(sagani_tui::WallClock),
    };
    let mut app = App::new(rg, vec![Player::human(""), Player::human("")], opts).unwrap();
    let key = |app: &mut App, c| app.key(KeyEvent::new(c, KeyModifiers::NONE));
    while app.game().placements() < 40 && !app.game().is_over() {
        if app.game().expects() == Some(Expect::IntermezzoPick) {
            key(&mut app, KeyCode::Char('p'));
        } else {
            key(&mut app, KeyCode::Char('1'));
            key(&mut app, KeyCode::Enter);
        }
    }
    app
}

fn frame(c: &mut Criterion) {
    let mut term = Terminal::new(TestBackend::new(160, 50)).unwrap();
    let mut app = late_game();
    c.bench_function("frame 160x50, idle", |b| {
        b.iter(|| term.draw(|f| app.draw(f)).unwrap().area)
    });
    app.key(KeyEvent::new(KeyCode::Char('1'), KeyModifiers::NONE));
    assert!(app.placement().is_some());
    c.bench_function("frame 160x50, placing", |b| {
        b.iter(|| term.draw(|f| app.draw(f)).unwrap().area)
    });
    c.bench_function("cursor move + preview + frame", |b| {
        b.iter(|| {
            app.key(KeyEvent::new(KeyCode::Char(' '), KeyModifiers::NONE));
            term.draw(|f| app.draw(f)).unwrap().area
        })
    });
}

criterion_group!(benches, frame);
criterion_main!(benches);

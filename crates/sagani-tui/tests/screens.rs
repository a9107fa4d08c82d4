//! The main screens on ratatui's TestBackend, driven by key events as a player drives them:
//! the start, a placement with the engine's preview, the intermezzo, a bot thinking, the end,
//! saving and resuming, the replay viewer, and a terminal too small.

mod common;

use common::*;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Color;
use sagani_core::record::{replay_json, Summary};
use sagani_core::{tile, Direction, Element, Expect, Move, Outcome, Setup, Variant};
use sagani_tui::{load, App, HandClock, Viewer, MARKED};
use std::collections::BTreeSet;
use std::time::Duration;

const W: u16 = 100;
const H: u16 = 30;

/// "Fire 10": a tile as the screen's sentences name it.
fn tile_words(t: u8) -> String {
    let d = tile(t).unwrap();
    let name = match d.element {
        Element::Fire => "Fire",
        Element::Water => "Water",
        Element::Earth => "Earth",
        Element::Air => "Air",
    };
    format!("{name} {}", d.value())
}

fn colour(e: Element) -> Color {
    match e {
        Element::Fire => Color::Red,
        Element::Water => Color::LightBlue,
        Element::Earth => Color::Green,
        Element::Air => Color::Yellow,
    }
}

/// Where an arrow pointing `d` sits on a tile face drawn at (x, y).
fn arrow_cell(x: u16, y: u16, d: Direction) -> (u16, u16) {
    let (cx, cy) = sagani_tui::ARROW_AT[d.index()];
    (x + cx, y + cy)
}

/// Where the letter of an arrow pointing `d` sits on a tile face drawn at (x, y).
fn letter_cell(x: u16, y: u16, d: Direction) -> (u16, u16) {
    let (cx, cy) = sagani_tui::LETTER_AT[d.index()];
    (x + cx, y + cy)
}

/// Every `#id` written on the screen.
fn ids_on(text: &str) -> BTreeSet<u8> {
    let mut ids = BTreeSet::new();
    let b = text.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if c == b'#' {
            let digits: String = text[i + 1..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            if let Ok(n) = digits.parse() {
                ids.insert(n);
            }
        }
    }
    ids
}

fn setup(players: u8, seed: u64, start: u8) -> Setup {
    Setup {
        start_player: Some(start),
        ..Setup::seeded(players, seed)
    }
}

/// You against one bot, on a game from `rg`.
fn against(
    rg: sagani_core::record::RecordedGame,
    name: &str,
    bot: Box<dyn sagani_ai::Bot>,
    budget: sagani_ai::Budget,
    o: sagani_tui::Options,
) -> App {
    let players = vec![
        sagani_tui::Player::human(""),
        sagani_tui::Player::bot(name, bot, budget),
    ];
    App::new(rg, players, o).unwrap()
}

fn new_game(setup: &Setup) -> sagani_core::record::RecordedGame {
    sagani_core::record::RecordedGame::new(setup).unwrap()
}

fn wait(app: &mut App) {
    app.wait_for_bots(Duration::from_secs(30)).unwrap();
}

/// Cells of the board marked as a preview marks them (yellow background).
fn marked(buf: &Buffer) -> Vec<(u16, u16, String)> {
    let mut v = Vec::new();
    for y in 6..buf.area.height - 5 {
        for x in 35..buf.area.width {
            let c = &buf[(x, y)];
            if c.bg == Color::LightYellow {
                v.push((x, y, c.symbol().to_string()));
            }
        }
    }
    v
}

/// Whether the board (right of the players, between the strip and the panel) shows `sym`.
fn on_board(buf: &Buffer, sym: &str) -> bool {
    (6..buf.area.height - 4).any(|y| (34..buf.area.width).any(|x| buf[(x, y)].symbol() == sym))
}

#[test]
fn the_start_screen_shows_offer_pile_players_and_arrows_in_their_colours() {
    let mut app = app(&setup(2, 11, 0), &["human", "greedy"], 11, "start");
    let buf = render(&mut app, W, H);
    let text = text(&buf);
    let game = app.game();
    assert!(text.contains("▶ You: take a tile"), "{text}");
    assert!(
        text.contains("Offer") && text.contains("Intermezzo storage"),
        "{text}"
    );
    for (i, &t) in game.offer().iter().enumerate() {
        assert!(
            text.contains(&format!("[{}] #{t}", i + 1)),
            "offer tile {t}\n{text}"
        );
        // Each offer tile as printed: its letter and value, each arrow in its element's colour
        // with the element's letter beside it.
        let d = tile(t).unwrap();
        let x = i as u16 * (sagani_tui::FACE_W + 1);
        let centre = &buf[(x + 3, 2 + 1)];
        assert_eq!(centre.symbol(), d.element.letter().to_string());
        assert_eq!(centre.bg, colour(d.element));
        for (dir, e) in d.placed_arrows(0) {
            let (ax, ay) = arrow_cell(x, 2, dir);
            let cell = &buf[(ax, ay)];
            assert_eq!(
                cell.symbol(),
                dir.arrow().to_string(),
                "tile {t} arrow {dir:?}"
            );
            assert_eq!(cell.fg, colour(e), "tile {t} arrow {dir:?}");
            let (lx, ly) = letter_cell(x, 2, dir);
            assert_eq!(
                buf[(lx, ly)].symbol(),
                e.letter().to_ascii_lowercase().to_string(),
                "tile {t} arrow {dir:?}"
            );
        }
    }
    let view = game.view(None);
    let top = view.draw_pile.top.unwrap();
    assert!(
        text.contains(&format!(
            "Draw pile {} · top  {}{} ",
            view.draw_pile.count,
            top.element.letter(),
            top.value
        )),
        "{text}"
    );
    assert!(text.contains("You") && text.contains("greedy"), "{text}");
    assert!(text.contains(" 24    0"), "24 discs, no Cacophony\n{text}");
    assert!(
        text.contains("No tiles yet: the first one goes in the middle."),
        "{text}"
    );
    // Nothing of the pile's order: no tile still in the pile is named on screen.
    let pile: BTreeSet<u8> = view.draw_pile.tiles.iter().copied().collect();
    assert!(
        ids_on(&text).is_disjoint(&pile),
        "{:?}",
        ids_on(&text).intersection(&pile).collect::<Vec<_>>()
    );
    // The help overlay, and any key closes it.
    app.keys(&[KeyCode::Char('?')]);
    let help = crate::text(&render(&mut app, W, H));
    assert!(
        help.contains("Keys and signs") && help.contains("turn the tile clockwise"),
        "{help}"
    );
    app.keys(&[KeyCode::Char('x')]);
    assert!(!crate::text(&render(&mut app, W, H)).contains("Keys and signs"));
}

/// Plays the human's turns with the first offer tile on the first cell until `want` says the
/// tile under the cursor (any offer tile, cell and rotation) is worth showing.
fn find_placement(app: &mut App, want: impl Fn(&sagani_core::Preview) -> bool) -> bool {
    for _ in 0..40 {
        wait(app);
        if app.game().is_over() {
            return false;
        }
        let offer = app.game().offer().len();
        for t in 0..offer {
            app.keys(&[app.tile_key(t)]);
            let cells = app.game().display(0).open_len().max(1);
            for _ in 0..4 {
                for _ in 0..cells {
                    let pv = app.game().preview(app.placement().unwrap()).unwrap();
                    if want(&pv) {
                        return true;
                    }
                    app.keys(&[KeyCode::Char(' ')]);
                }
                app.keys(&[KeyCode::Char('r')]);
            }
        }
        app.keys(&[app.tile_key(0), KeyCode::Enter]);
        if app.game().expects() == Some(Expect::IntermezzoPick) && app.game().to_act() == Some(0) {
            app.keys(&[KeyCode::Char('p')]);
        }
    }
    false
}

#[test]
fn a_placement_shows_the_engines_preview_and_enter_plays_it() {
    let mut app = app(&setup(2, 4, 0), &["human", "greedy"], 4, "preview");
    assert!(find_placement(&mut app, |pv| pv.covered.len() >= 2
        && !pv.completed.is_empty()));
    let mv = app.placement().unwrap();
    let pv = app.game().preview(mv).unwrap();
    let buf = render(&mut app, W, H);
    let text = text(&buf);
    let Move::Place { tile: t, rot, .. } = mv else {
        unreachable!()
    };
    // Tiles in words, as the board shows them: no tile ids, no cell numbers.
    assert!(
        text.contains(&format!(
            "{}, turned {}°: covers {} arrows: ",
            tile_words(t),
            rot as u16 * 90,
            pv.covered.len()
        )),
        "{text}"
    );
    let panel: String = text.lines().skip(H as usize - 4).collect();
    assert!(!panel.contains('#') && !panel.contains(" on ("), "{panel}");
    assert!(text.contains(&format!("(+{})", pv.points)), "{text}");
    let before = pv.score_after - pv.score_change;
    assert!(
        text.contains(&format!("score {before} → {}", pv.score_after)),
        "{text}"
    );
    assert!(
        text.contains(&format!("{} discs left", pv.supply_after)),
        "{text}"
    );
    // On the board: one yellow mark per covered arrow (on an arrow glyph), one ✓ per completed
    // tile.
    let marks = marked(&buf);
    // Double arrows: they read without colour, bold or underline (NO_COLOR).
    let arrows: Vec<_> = marks
        .iter()
        .filter(|m| MARKED.iter().any(|d| d.to_string() == m.2))
        .collect();
    assert!(
        marks
            .iter()
            .all(|m| !Direction::ALL.iter().any(|d| d.arrow().to_string() == m.2)),
        "a marked arrow is a double arrow\n{marks:?}"
    );
    let ticks = marks.iter().filter(|m| m.2 == "✓").count();
    assert_eq!(arrows.len(), pv.covered.len(), "{marks:?}\n{text}");
    assert_eq!(ticks, pv.completed.len(), "{marks:?}\n{text}");
    // Esc puts the tile back; choosing it again keeps the cursor and the turn.
    app.keys(&[KeyCode::Esc]);
    assert_eq!(app.placement(), None);
    // Its slot's number (slots stay put until the refill).
    let i = app
        .offer_slots()
        .iter()
        .position(|&o| o == Some(t))
        .unwrap();
    app.keys(&[KeyCode::Char(char::from(b'1' + i as u8))]);
    assert_eq!(app.placement(), Some(mv));
    let moves = app.recorded().unwrap().record().moves.len();
    app.keys(&[KeyCode::Enter]);
    let record = app.recorded().unwrap().record();
    assert_eq!(record.moves[moves].mv, mv);
    assert_eq!(app.game().score(0), pv.score_after);
    assert_eq!(app.game().supply(0), pv.supply_after);
    // The completed tiles now show their backs, on my display (Tab brings it).
    while app.game().to_act() != Some(0) && !app.game().is_over() {
        wait(&mut app);
    }
    let after = crate::text(&render(&mut app, W, H));
    assert!(after.contains("╭───────╮"), "{after}");
}

#[test]
fn an_illegal_cell_or_key_changes_nothing_and_says_why() {
    let mut app = app(&setup(2, 5, 0), &["human", "human"], 5, "illegal");
    app.keys(&[KeyCode::Char('9')]);
    assert!(text(&render(&mut app, W, H)).contains("the offer display has no tile 9"));
    app.keys(&[KeyCode::Char('p')]);
    assert!(text(&render(&mut app, W, H)).contains("pass is only possible during an intermezzo"));
    app.keys(&[KeyCode::Char('i')]);
    assert!(text(&render(&mut app, W, H))
        .contains("needs exactly one tile in the offer display; it holds 5"));
    // The first tile has one cell, (0,0): moving finds nothing further.
    app.keys(&[app.tile_key(0), KeyCode::Left]);
    let t = text(&render(&mut app, W, H));
    assert!(
        t.contains("turned 0°:") && t.contains("no free cell further that way"),
        "{t}"
    );
    assert_eq!(app.recorded().unwrap().record().moves.len(), 0);
}

#[test]
fn the_intermezzo_choice_the_drawn_tile_and_the_picks() {
    // Two people at one keyboard: every decision is a key.
    let mut app = app(&setup(2, 21, 0), &["human", "human"], 21, "intermezzo");
    let mut guard = 0;
    while !(app.game().expects() == Some(Expect::Turn) && app.game().offer().len() == 1) {
        app.keys(&[app.tile_key(0), KeyCode::Enter]);
        if app.game().expects() == Some(Expect::IntermezzoPick) {
            app.keys(&[KeyCode::Char('p')]);
        }
        guard += 1;
        assert!(guard < 100, "no turn with one offer tile");
    }
    let seat = app.game().to_act().unwrap();
    let last = app.game().offer()[0];
    let t = text(&render(&mut app, W, H));
    assert!(t.contains("or i for the intermezzo"), "{t}");
    app.keys(&[KeyCode::Char('i')]);
    assert_eq!(app.game().expects(), Some(Expect::PlaceDrawn));
    let drawn = app.game().revealed().unwrap();
    // The drawn tile is under the cursor at once, and it cannot go back.
    assert!(matches!(app.placement(), Some(Move::Place { tile, .. }) if tile == drawn));
    app.keys(&[KeyCode::Esc]);
    let t = text(&render(&mut app, W, H));
    assert!(
        t.contains("place the drawn tile")
            && t.contains("Revealed")
            && t.contains(&format!("#{drawn}")),
        "{t}"
    );
    assert!(t.contains("cannot go back"), "{t}");
    assert!(
        t.contains(&format!("#{last}")),
        "the stored tile is shown\n{t}"
    );
    app.keys(&[KeyCode::Enter]);
    // Store the last tile whenever possible until the storage holds 4: the intermezzo.
    let mut guard = 0;
    while app.game().expects() != Some(Expect::IntermezzoPick) {
        let g = app.game();
        if g.expects() == Some(Expect::Turn) && g.offer().len() == 1 && g.draw_pile_len() > 0 {
            app.keys(&[KeyCode::Char('i')]);
        } else if g.expects() == Some(Expect::Turn) {
            app.keys(&[app.tile_key(0)]);
        }
        app.keys(&[KeyCode::Enter]);
        guard += 1;
        assert!(guard < 200, "no intermezzo");
    }
    // The intermezzo: the players pick from the storage, numbered, or pass; the header names
    // who picks.
    assert_ne!(seat, 2);
    let picker = app.game().to_act().unwrap();
    let t = text(&render(&mut app, W, H));
    assert!(
        t.contains(&format!(
            "▶ Player {}: intermezzo: take a stored tile or pass",
            picker + 1
        )),
        "{t}"
    );
    let stored = app.game().intermezzo_storage().to_vec();
    for (i, s) in stored.iter().enumerate() {
        assert!(t.contains(&format!("[{}] #{s}", i + 1)), "{t}");
    }
    app.keys(&[app.tile_key(0)]);
    assert!(matches!(app.placement(), Some(Move::Place { tile, .. }) if tile == stored[0]));
    app.keys(&[KeyCode::Esc, KeyCode::Char('p')]);
    let moves: Vec<Move> = app
        .recorded()
        .unwrap()
        .record()
        .moves
        .iter()
        .map(|m| m.mv)
        .collect();
    assert_eq!(moves.last(), Some(&Move::Pass));
    let i = moves
        .iter()
        .position(|m| *m == Move::Intermezzo { tile: last })
        .unwrap();
    assert!(matches!(moves[i + 1], Move::Place { tile, .. } if tile == drawn));
}

/// A bot that answers only when the test lets it: thinking lasts exactly as long as a test
/// needs, however slow the machine.
struct Gate {
    open: std::sync::Arc<std::sync::Mutex<std::sync::mpsc::Receiver<()>>>,
}

impl sagani_ai::Bot for Gate {
    fn name(&self) -> String {
        "gate".into()
    }
    fn choose(
        &mut self,
        _: &sagani_core::view::View,
        legal: &[Move],
        _: sagani_ai::Budget,
    ) -> sagani_ai::Decision {
        let _ = self.open.lock().unwrap().recv();
        legal[0].into()
    }
}

/// A gate bot and the key to it (each send lets one decision through).
fn gate() -> (Box<dyn sagani_ai::Bot>, std::sync::mpsc::Sender<()>) {
    let (tx, rx) = std::sync::mpsc::channel();
    let open = std::sync::Arc::new(std::sync::Mutex::new(rx));
    (Box::new(Gate { open }), tx)
}

#[test]
fn a_bot_thinks_on_its_own_thread_with_a_progress_bar() {
    // The bot starts, with a budget of 600 ms, and thinks until the test opens the gate: the
    // screen and the keys stay live meanwhile.
    let (bot, open) = gate();
    let budget = sagani_ai::Budget::millis(600);
    let (o, clock) = clocked(9, "thinking");
    let mut app = against(new_game(&setup(2, 9, 1)), "gate", bot, budget, o);
    assert!(app.thinking());
    let first = text(&render(&mut app, W, H));
    assert!(
        first.contains("P2 gate is thinking") && first.contains("/0.6 s"),
        "{first}"
    );
    clock.advance(Duration::from_millis(150));
    app.keys(&[KeyCode::Char('?')]);
    let later = text(&render(&mut app, W, H));
    assert!(
        later.contains("Keys and signs"),
        "help opens while the bot thinks\n{later}"
    );
    assert!(later.contains("█"), "the bar has grown\n{later}");
    assert_ne!(
        first.lines().next(),
        later.lines().next(),
        "the header moves on"
    );
    app.keys(&[KeyCode::Char('x')]);
    // A key for the bot's turn is refused, and nothing is played.
    app.keys(&[app.tile_key(0)]);
    assert!(text(&render(&mut app, W, H)).contains("P2 gate is to play; wait for it"));
    assert_eq!(app.recorded().unwrap().record().moves.len(), 0);
    open.send(()).unwrap();
    wait(&mut app);
    assert!(!app.thinking());
    assert_eq!(app.game().to_act(), Some(0));
    assert_eq!(app.recorded().unwrap().record().moves.len(), 1);
    let t = text(&render(&mut app, W, H));
    assert!(t.contains("P2 gate placed"), "{t}");
}

/// Plays a whole game from the keyboard: tiles, cells, turns and the intermezzo chosen by a
/// rota so that every kind of decision comes up.
fn play_by_keys(app: &mut App) -> usize {
    let mut decisions = 0;
    while !app.game().is_over() {
        assert!(decisions < 200, "the game does not end");
        wait(app);
        if app.game().is_over() {
            break;
        }
        decisions += 1;
        let g = app.game();
        match g.expects().unwrap() {
            Expect::Turn if g.offer().len() == 1 && g.draw_pile_len() > 0 && decisions % 2 == 0 => {
                app.keys(&[KeyCode::Char('i')])
            }
            Expect::Turn => {
                let k = decisions % g.offer().len();
                app.keys(&[app.tile_key(k)]);
            }
            Expect::IntermezzoPick if decisions % 3 == 0 => app.keys(&[KeyCode::Char('p')]),
            Expect::IntermezzoPick => app.keys(&[app.tile_key(0)]),
            _ => {}
        }
        if app.placement().is_some() {
            for _ in 0..decisions % 4 {
                app.keys(&[KeyCode::Char('r')]);
            }
            for _ in 0..decisions % 5 {
                app.keys(&[KeyCode::Char(' ')]);
            }
            app.keys(&[[KeyCode::Up, KeyCode::Right, KeyCode::Down, KeyCode::Left][decisions % 4]]);
            app.keys(&[KeyCode::Enter]);
        }
    }
    decisions
}

#[test]
fn a_whole_game_by_keys_against_two_bots_then_saved_and_replayed() {
    let mut app = app(
        &setup(3, 31, 0),
        &["human", "greedy", "random"],
        31,
        "whole",
    );
    let decisions = play_by_keys(&mut app);
    assert!(decisions > 10, "{decisions}");
    let game = app.game();
    let Some(Outcome::Ranking { ranking, scores }) = game.outcome() else {
        panic!("not over")
    };
    let moves = app.recorded().unwrap().record().moves.clone();
    assert!(
        moves
            .iter()
            .any(|m| m.player == 0 && matches!(m.mv, Move::Intermezzo { .. })),
        "the human stored a tile"
    );
    // The end screen: the engine's ranking with scores.
    let t = text(&render(&mut app, W, H));
    assert!(t.contains("The game is over"), "{t}");
    let names = ["You", "P2 greedy", "P3 random"];
    let mut at = 0;
    for (i, &s) in ranking.iter().enumerate() {
        let line = format!(
            "{}. {:<14} {:>3} points",
            i + 1,
            names[s as usize],
            scores[s as usize]
        );
        let found = t[at..]
            .find(&line)
            .unwrap_or_else(|| panic!("{line:?} in order\n{t}"));
        at += found;
    }
    app.keys(&[KeyCode::Esc]);
    assert!(!text(&render(&mut app, W, H)).contains("Esc shows the table"));
    app.keys(&[KeyCode::Char('e')]);
    assert!(text(&render(&mut app, W, H)).contains("Esc shows the table"));
    // q saves a record that replays to the same end.
    app.keys(&[KeyCode::Char('q')]);
    let path = app.saved().unwrap().clone();
    let json = std::fs::read_to_string(&path).unwrap();
    let (record, replayed) = replay_json(&json).unwrap();
    assert_eq!(record.moves, moves);
    assert_eq!(Summary::of(&replayed), Summary::of(app.game()));
    // The viewer steps through it to the same end, and back.
    let loaded = load(&path).unwrap();
    assert_eq!(
        loaded.seats.as_deref(),
        Some(&["human".to_string(), "greedy".into(), "random".into()][..])
    );
    let mut v = Viewer::new(
        "game.json".into(),
        loaded.game.record().clone(),
        loaded.seats,
    )
    .unwrap();
    for i in 1..=moves.len() {
        v.key(KeyEvent::new(KeyCode::Right, KeyModifiers::NONE));
        assert_eq!(v.at(), i);
    }
    assert_eq!(Summary::of(v.game()), Summary::of(&replayed));
    let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(W, H)).unwrap();
    term.draw(|f| v.draw(f)).unwrap();
    let t = text(term.backend().buffer());
    assert!(
        t.contains(&format!("Move {} of {}", moves.len(), moves.len()))
            && t.contains("The end of the game: "),
        "{t}"
    );
    v.key(KeyEvent::new(KeyCode::Home, KeyModifiers::NONE));
    assert_eq!(v.at(), 0);
    assert_eq!(v.game().placements(), 0);
    let _ = std::fs::remove_file(path);
}

#[test]
fn quit_saves_and_load_goes_on_where_it_stopped() {
    let mut app = app(&setup(2, 41, 0), &["human", "greedy"], 41, "resume");
    for _ in 0..3 {
        app.keys(&[app.tile_key(0), KeyCode::Enter]);
        wait(&mut app);
    }
    let before = Summary::of(app.game());
    let made = app.recorded().unwrap().record().moves.len();
    let log = app.log_lines();
    let slots = app.offer_slots().to_vec();
    app.keys(&[KeyCode::Char('q')]);
    let path = app.saved().unwrap().clone();
    let loaded = load(&path).unwrap();
    assert_eq!(Summary::of(loaded.game.game()), before);
    assert_eq!(loaded.seed, Some(41));
    let greedy = sagani_ai::make_bot("greedy", 1).unwrap();
    let mut again = against(
        loaded.game,
        "greedy",
        greedy,
        Default::default(),
        opts(41, "resume"),
    );
    // The log goes on as it was told, and the offer keeps its slots' numbers.
    assert_eq!(again.log_lines(), log);
    assert!(log[0].starts_with("1. You placed"), "{log:?}");
    assert_eq!(again.offer_slots(), &slots[..]);
    again.keys(&[again.tile_key(0), KeyCode::Enter]);
    wait(&mut again);
    assert_eq!(again.recorded().unwrap().record().moves.len(), made + 2);
    assert_eq!(again.log_lines()[..log.len()], log[..]);
    // A save that cannot be written keeps the game going and says why.
    let mut stuck = app_with_save(&unwritable("resume"));
    stuck.keys(&[KeyCode::Char('q')]);
    assert!(stuck.saved().is_none());
    let t = text(&render(&mut stuck, W, H));
    assert!(
        t.contains(&format!(
            "cannot save the game to {}",
            unwritable("resume").display()
        )),
        "{t}"
    );
    let _ = std::fs::remove_file(path);
}

/// A path no one can write, root included: its folder is a file.
fn unwritable(name: &str) -> std::path::PathBuf {
    let file = temp(name).with_file_name("plain-file");
    std::fs::write(&file, "").unwrap();
    file.join("game.json")
}

fn app_with_save(path: &std::path::Path) -> App {
    let rg = sagani_core::record::RecordedGame::new(&Setup::seeded(2, 1)).unwrap();
    let players = vec![sagani_tui::Player::human(""), sagani_tui::Player::human("")];
    let mut o = opts(1, "stuck");
    o.save_to = sagani_tui::SaveTo::File(path.to_path_buf());
    App::new(rg, players, o).unwrap()
}

#[test]
fn a_solo_game_by_enter_alone() {
    let setup = Setup {
        variant: Some(Variant::Solo),
        ..Setup::seeded(1, 3)
    };
    let mut app = app(&setup, &["human"], 3, "solo");
    let t = text(&render(&mut app, W, H));
    assert!(
        t.contains("place the revealed tile") && t.contains("Revealed") && !t.contains("Offer"),
        "{t}"
    );
    for _ in 0..80 {
        if app.game().is_over() {
            break;
        }
        app.keys(&[KeyCode::Enter]);
    }
    assert!(
        app.game().is_over(),
        "a solo game has at most 72 placements"
    );
    let Some(Outcome::Solo {
        tiles_used,
        reached,
        ..
    }) = app.game().outcome()
    else {
        panic!()
    };
    let t = text(&render(&mut app, W, H));
    let want = if reached {
        format!("75 reached with {tiles_used} tiles")
    } else {
        "The pile ran out at".to_string()
    };
    assert!(t.contains(&want), "{t}");
}

#[test]
fn a_terminal_too_small_gets_a_message_not_a_panic() {
    let mut app = app(&setup(2, 1, 0), &["human", "greedy"], 1, "small");
    for (w, h) in [(60, 20), (79, 40), (120, 23), (1, 1)] {
        let t = text(&render(&mut app, w, h));
        if w >= 30 {
            assert!(t.contains("too small"), "{w}×{h}\n{t}");
        }
    }
    let t = text(&render(&mut app, 60, 20));
    assert!(
        t.contains("It is 60×20; the table needs at least 80×24."),
        "{t}"
    );
    // Keys do nothing unseen while the table is not shown; q still saves and quits.
    app.keys(&[app.tile_key(0), KeyCode::Enter]);
    assert_eq!(app.placement(), None);
    assert_eq!(app.recorded().unwrap().record().moves.len(), 0);
    let t = text(&render(&mut app, 80, 24));
    assert!(t.contains("Offer") && t.contains("Display of You"), "{t}");
    app.keys(&[app.tile_key(0)]);
    assert!(app.placement().is_some());
    let _ = render(&mut app, 40, 10);
    app.keys(&[KeyCode::Char('q')]);
    assert!(app.saved().is_some());
}

/// Brings the cursor to the free cell furthest right (Space goes through the free cells).
fn to_the_rightmost_free_cell(app: &mut App) {
    let x_of = |app: &App| match app.placement() {
        Some(Move::Place { x, .. }) => x,
        _ => i32::MIN,
    };
    let mut best = x_of(app);
    for _ in 0..60 {
        app.keys(&[KeyCode::Char(' ')]);
        best = best.max(x_of(app));
    }
    for _ in 0..60 {
        if x_of(app) == best {
            return;
        }
        app.keys(&[KeyCode::Char(' ')]);
    }
}

#[test]
fn large_displays_scroll() {
    // Two people each play 20 tiles in a row westwards would be long; instead one player's
    // display grows from many turns and the view scrolls to keep the cursor in sight.
    let mut app = app(&setup(2, 8, 0), &["human", "human"], 8, "scroll");
    for i in 0..30 {
        if app.game().is_over() {
            break;
        }
        if app.game().expects() == Some(Expect::IntermezzoPick) {
            app.keys(&[KeyCode::Char('p')]);
            continue;
        }
        app.keys(&[app.tile_key(0)]);
        // Seat 0 goes ever further right, seat 1 wherever the cursor starts.
        if app.game().to_act() == Some(0) && i > 0 {
            to_the_rightmost_free_cell(&mut app);
        }
        app.keys(&[KeyCode::Enter]);
    }
    for _ in 0..10 {
        if app.game().to_act() == Some(0) && app.game().expects() == Some(Expect::Turn) {
            break;
        }
        app.keys(&[app.tile_key(0), KeyCode::Enter, KeyCode::Char('p')]);
    }
    assert_eq!(app.game().expects(), Some(Expect::Turn));
    assert_eq!(app.game().to_act(), Some(0));
    let (min_x, max_x) = app
        .game()
        .display(0)
        .tiles()
        .fold((0, 0), |(a, b), t| (a.min(t.cell.x), b.max(t.cell.x)));
    assert!(max_x - min_x >= 10, "a wide display: {min_x}..{max_x}");
    // Far right: the cursor is on screen (its cell is named in the preview, its tile outlined).
    app.keys(&[app.tile_key(0)]);
    for _ in 0..20 {
        app.keys(&[KeyCode::Right]);
    }
    let buf = render(&mut app, W, H);
    let t = text(&buf);
    assert!(on_board(&buf, "◀"), "more to the left\n{t}");
    let outlined = (0..H).any(|y| {
        (0..W).any(|x| buf[(x, y)].symbol() == "]" && buf[(x, y)].fg == Color::LightYellow)
    });
    assert!(outlined, "the cursor is in sight\n{t}");
    // Away and back (Tab Tab, and Tab then a placing key): the cursor is in sight again.
    let cursor_in_sight = |buf: &Buffer| {
        (0..H).any(|y| {
            (0..W).any(|x| buf[(x, y)].symbol() == "]" && buf[(x, y)].fg == Color::LightYellow)
        })
    };
    app.keys(&[KeyCode::Tab, KeyCode::Tab]);
    assert!(cursor_in_sight(&render(&mut app, W, H)));
    app.keys(&[KeyCode::Tab, KeyCode::Char('r')]);
    let buf = render(&mut app, W, H);
    assert!(cursor_in_sight(&buf), "{}", text(&buf));
    app.keys(&[KeyCode::Char('R')]);
    // Esc, then scroll left by hand until the left edge shows.
    app.keys(&[KeyCode::Esc]);
    for _ in 0..30 {
        app.keys(&[KeyCode::Left]);
    }
    let buf = render(&mut app, W, H);
    assert!(
        on_board(&buf, "▶") && !on_board(&buf, "◀"),
        "{}",
        text(&buf)
    );
    // c centres it again: more on both sides.
    app.keys(&[KeyCode::Char('c')]);
    let buf = render(&mut app, W, H);
    assert!(on_board(&buf, "◀") && on_board(&buf, "▶"), "{}", text(&buf));
    // A scroll by hand while placing stays (the cursor is only followed when it moves).
    app.keys(&[app.tile_key(0)]);
    let placing = text(&render(&mut app, W, H));
    for _ in 0..30 {
        app.key(KeyEvent::new(KeyCode::Left, KeyModifiers::SHIFT));
    }
    let buf = render(&mut app, W, H);
    assert!(
        !on_board(&buf, "◀"),
        "scrolled to the left edge
{}",
        text(&buf)
    );
    assert_ne!(placing, text(&buf));
}

fn draw_viewer(v: &mut Viewer) -> Buffer {
    let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(W, H)).unwrap();
    term.draw(|f| v.draw(f)).unwrap();
    term.backend().buffer().clone()
}

#[test]
fn the_viewer_steps_through_a_record_and_marks_what_each_move_covered() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/two-player-game.json");
    let loaded = load(&path).unwrap();
    let record = loaded.game.record().clone();
    let total = record.moves.len();
    let mut v = Viewer::new("two-player-game.json".into(), record.clone(), None).unwrap();
    let t = text(&draw_viewer(&mut v));
    assert!(
        t.contains(&format!("The start: {total} moves follow")),
        "{t}"
    );
    assert!(t.contains(&format!("move 0/{total}")), "{t}");
    // At the start, the display of the player the marker says begins.
    let first = record.moves[0].player;
    assert!(
        t.contains(&format!("Display of Player {}", first + 1)),
        "the start player's display\n{t}"
    );
    let marked_row = t
        .lines()
        .find(|l| l.contains(&format!(".▶ Player {}", first + 1)));
    assert!(marked_row.is_some(), "{t}");
    // The first move whose placement covered two arrows or more.
    let mut g = sagani_core::Game::new(&record.setup()).unwrap();
    let mut target = None;
    for (i, m) in record.moves.iter().enumerate() {
        if let Ok(pv) = g.preview(m.mv) {
            if pv.covered.len() >= 2 && target.is_none() {
                target = Some((i, m.player, pv));
            }
        }
        g.play(m.mv).unwrap();
    }
    let (i, player, pv) = target.expect("a move that covers arrows");
    for _ in 0..=i {
        v.key(KeyEvent::new(KeyCode::Right, KeyModifiers::NONE));
    }
    assert_eq!(v.at(), i + 1);
    let buf = draw_viewer(&mut v);
    let t = text(&buf);
    assert!(
        t.contains(&format!(
            "Move {} of {total}: Player {} placed",
            i + 1,
            player + 1
        )),
        "{t}"
    );
    assert!(
        t.contains(&format!("Display of Player {}", player + 1)),
        "the mover's display\n{t}"
    );
    assert!(
        t.contains(&format!("covered {} arrows", pv.covered.len())),
        "{t}"
    );
    // The log: numbered sentences with names, as the game told them.
    assert!(
        t.contains(&format!("{}. Player {} placed", i + 1, player + 1)),
        "{t}"
    );
    // Arrows covered by the move that are still on an unflipped tile are marked on the board.
    let after = v.game().display(player);
    let still = pv
        .covered
        .iter()
        .filter(|c| after.tiles().any(|p| p.tile == c.tile && !p.flipped))
        .count();
    let marks = marked(&buf).into_iter().filter(|m| m.2 == "●").count();
    assert_eq!(marks, still, "{t}");
    v.key(KeyEvent::new(KeyCode::End, KeyModifiers::NONE));
    let t = text(&draw_viewer(&mut v));
    assert!(
        t.contains(&format!("Move {total} of {total}")) && t.contains("The end of the game: "),
        "{t}"
    );
    // The ranking: who won in the panel, every place closing the log.
    let Some(Outcome::Ranking { ranking, scores }) = v.game().outcome() else {
        panic!("a 2-player game ends with a ranking")
    };
    let winner = format!(
        "Player {} wins with {} points",
        ranking[0] + 1,
        scores[ranking[0] as usize]
    );
    assert!(t.contains(&winner), "{t}");
    let side: String = t
        .lines()
        .map(|l| l.chars().take(34).collect::<String>().trim().to_string())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(side.contains("The end: 1. Player"), "{side}");
    v.key(KeyEvent::new(KeyCode::Left, KeyModifiers::NONE));
    assert_eq!(v.at(), total - 1);
    v.key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE));
    assert!(v.done);
}

/// A bot that misbehaves on purpose: answers a pass on a turn, or panics.
struct Unruly {
    panics: bool,
}

impl sagani_ai::Bot for Unruly {
    fn name(&self) -> String {
        "unruly".into()
    }
    fn choose(
        &mut self,
        _: &sagani_core::view::View,
        _: &[Move],
        _: sagani_ai::Budget,
    ) -> sagani_ai::Decision {
        if self.panics {
            panic!("unruly bot panics on purpose");
        }
        Move::Pass.into()
    }
}

fn unruly_game(panics: bool, name: &str) -> App {
    let bot = Box::new(Unruly { panics });
    against(
        new_game(&setup(2, 12, 1)),
        "unruly",
        bot,
        Default::default(),
        opts(12, name),
    )
}

#[test]
fn a_bot_that_answers_nonsense_or_fails_is_replaced_and_the_screen_says_so() {
    for panics in [false, true] {
        let mut app = unruly_game(panics, if panics { "panics" } else { "illegal" });
        wait(&mut app);
        // A legal move was played for it, and the reason stays on screen after its move.
        assert_eq!(app.recorded().unwrap().record().moves.len(), 1);
        assert_eq!(app.game().to_act(), Some(0));
        let t = text(&render(&mut app, W, H));
        let why = if panics {
            "P2 unruly failed (unruly bot panics on purpose); a random bot plays its moves now"
        } else {
            "P2 unruly chose an illegal move (pass); a random legal move was played for it"
        };
        assert!(t.contains(why) && t.contains("P2 unruly placed"), "{t}");
        // It stays until the person moves, and the seat goes on playing.
        app.keys(&[KeyCode::Tab, KeyCode::Tab]);
        assert!(text(&render(&mut app, W, H)).contains(why));
        app.keys(&[app.tile_key(0), KeyCode::Enter]);
        wait(&mut app);
        assert_eq!(app.recorded().unwrap().record().moves.len(), 3);
        // The saved game keeps the seat's own bot.
        assert!(app
            .save_json()
            .unwrap()
            .contains(r#""seats": ["human","unruly"]"#));
    }
}

#[test]
fn a_failed_save_keeps_the_game_and_a_second_q_leaves_without_saving() {
    let mut app = app_with_save(&unwritable("twice"));
    app.keys(&[app.tile_key(0), KeyCode::Enter]);
    app.keys(&[KeyCode::Char('q')]);
    assert!(!app.done());
    let t = text(&render(&mut app, W, H));
    assert!(t.contains("q again quits without saving"), "{t}");
    // Any other key first: the next q tries to save again.
    app.keys(&[KeyCode::Char('?'), KeyCode::Char('x'), KeyCode::Char('q')]);
    assert!(!app.done());
    app.keys(&[KeyCode::Char('q')]);
    assert!(app.done());
    assert!(app.saved().is_none());
    assert_eq!(app.recorded().unwrap().record().moves.len(), 1);
}

#[test]
fn keys_while_another_display_is_shown_bring_the_tile_back_first() {
    let mut app = app(&setup(2, 5, 0), &["human", "human"], 5, "tab");
    app.keys(&[app.tile_key(0), KeyCode::Enter]);
    app.keys(&[app.tile_key(0), KeyCode::Enter]);
    app.keys(&[app.tile_key(0)]);
    let mv = app.placement().unwrap();
    app.keys(&[KeyCode::Tab]);
    assert!(text(&render(&mut app, W, H)).contains("Display of Player 2"));
    // Enter out of sight places nothing: it shows the tile again.
    app.keys(&[KeyCode::Enter]);
    assert_eq!(app.recorded().unwrap().record().moves.len(), 2);
    let t = text(&render(&mut app, W, H));
    assert!(
        t.contains("Display of Player 1") && t.contains("back to your display"),
        "{t}"
    );
    app.keys(&[KeyCode::Enter]);
    assert_eq!(
        app.recorded().unwrap().record().moves.last().unwrap().mv,
        mv
    );
}

/// You, greedy, and a gate bot that holds its turn (while the test keeps its key), at a pace
/// of 300 ms on a clock the test moves.
fn paced(seed: u64, name: &str) -> (App, HandClock, std::sync::mpsc::Sender<()>) {
    let (held, key) = gate();
    let players = vec![
        sagani_tui::Player::human(""),
        sagani_tui::Player::bot(
            "greedy",
            sagani_ai::make_bot("greedy", seed).unwrap(),
            Default::default(),
        ),
        sagani_tui::Player::bot("gate", held, Default::default()),
    ];
    let (mut o, clock) = clocked(seed, name);
    o.bot_pace = Duration::from_millis(300);
    let app = App::new(new_game(&setup(3, seed + 76, 0)), players, o).unwrap();
    (app, clock, key)
}

fn moves(app: &App) -> usize {
    app.recorded().unwrap().record().moves.len()
}

#[test]
fn a_bots_move_waits_for_the_pace_on_the_clock_it_was_handed() {
    let (mut app, clock, _gate) = paced(1, "pace-held");
    app.keys(&[app.tile_key(0), KeyCode::Enter]);
    assert_eq!(moves(&app), 1);
    // Greedy answered at once, and its move waits: the clock has not moved.
    wait(&mut app);
    assert!(app.bot_to_act() && !app.thinking());
    assert_eq!(moves(&app), 1, "played before the pace");
    clock.advance(Duration::from_millis(299));
    app.tick();
    assert_eq!(moves(&app), 1, "played before the pace");
    clock.advance(Duration::from_millis(1));
    app.tick();
    assert_eq!(moves(&app), 2, "played at the pace");
}

#[test]
fn a_bots_move_is_shown_on_its_display_for_the_pace_and_no_seed_is_shown() {
    let (mut app, clock, _gate) = paced(1, "pace");
    let t = text(&render(&mut app, W, H));
    assert!(!t.contains("seed"), "the seed tells the deck\n{t}");
    app.keys(&[app.tile_key(0), KeyCode::Enter]);
    wait(&mut app);
    clock.advance(Duration::from_millis(300));
    app.tick();
    assert_eq!(moves(&app), 2);
    let t = text(&render(&mut app, W, H));
    assert!(
        t.contains("Display of P2 greedy"),
        "its new tile in sight\n{t}"
    );
    clock.advance(Duration::from_millis(299));
    app.tick();
    let t = text(&render(&mut app, W, H));
    assert!(t.contains("Display of P2 greedy"), "for the pace\n{t}");
    clock.advance(Duration::from_millis(1));
    app.tick();
    let t = text(&render(&mut app, W, H));
    assert!(
        t.contains("Display of P3 gate"),
        "then the next player's\n{t}"
    );
    // A display chosen by hand is kept: the pace does not switch it back.
    app.keys(&[app.tile_key(0), KeyCode::Enter]); // refused: the gate bot is to play
    assert_eq!(moves(&app), 2);
    let (mut app, clock, _gate2) = paced(2, "pace2");
    app.keys(&[app.tile_key(0), KeyCode::Enter]);
    wait(&mut app);
    clock.advance(Duration::from_millis(300));
    app.tick();
    assert_eq!(moves(&app), 2);
    app.key(KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT));
    clock.advance(Duration::from_millis(300));
    app.tick();
    let t = text(&render(&mut app, W, H));
    assert!(
        t.contains("Display of You"),
        "the display chosen by hand stays\n{t}"
    );
}

#[test]
fn bots_wait_while_the_table_is_not_shown() {
    let (mut o, clock) = clocked(5, "small-bots");
    o.bot_pace = Duration::from_millis(100);
    let greedy = sagani_ai::make_bot("greedy", 1).unwrap();
    let mut app = against(
        new_game(&setup(2, 5, 1)),
        "greedy",
        greedy,
        Default::default(),
        o,
    );
    let _ = render(&mut app, 60, 20);
    // Its answer is there, and the pace long past.
    wait(&mut app);
    clock.advance(Duration::from_secs(1));
    app.tick();
    assert_eq!(moves(&app), 0, "nothing played unseen");
    let _ = render(&mut app, W, H);
    app.tick();
    assert_eq!(moves(&app), 1);
}

#[test]
fn after_a_failed_save_the_screen_says_the_game_is_not_saved_until_another_key() {
    // The bot holds its turn: q fails while it thinks, then it moves.
    let (bot, open) = gate();
    let mut o = opts(6, "armed");
    o.save_to = sagani_tui::SaveTo::File(unwritable("armed"));
    let mut app = against(
        new_game(&setup(2, 6, 1)),
        "gate",
        bot,
        Default::default(),
        o,
    );
    app.keys(&[KeyCode::Char('q')]);
    assert!(!app.done());
    open.send(()).unwrap();
    wait(&mut app);
    let t = text(&render(&mut app, W, H));
    assert!(t.contains("P2 gate placed"), "{t}");
    assert!(
        t.contains("the game is NOT saved · q again: quit without saving"),
        "{t}"
    );
    // Another key: the warning goes, and q tries to save again.
    app.keys(&[KeyCode::Tab]);
    let t = text(&render(&mut app, W, H));
    assert!(!t.contains("NOT saved") && !t.contains("q again"), "{t}");
    app.keys(&[KeyCode::Char('q')]);
    assert!(!app.done());
    app.keys(&[KeyCode::Char('q')]);
    assert!(app.done() && app.saved().is_none());
}

#[test]
fn the_help_fits_the_smallest_table() {
    let mut app = app(&setup(2, 1, 0), &["human", "greedy"], 1, "help80");
    app.keys(&[KeyCode::Char('?')]);
    let t = text(&render(&mut app, 80, 24));
    for line in [
        "take that tile of the offer (intermezzo: of the storage)",
        "save the game (a record) and quit",
        "first there ahead.",
    ] {
        assert!(t.contains(line), "{line}\n{t}");
    }
}

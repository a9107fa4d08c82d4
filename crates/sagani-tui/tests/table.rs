//! The table as a player follows the whole game, on ratatui's TestBackend: every display at
//! once when the screen has room, what happened since my move in words, the pile and the
//! game's state, arrows readable without colour, the mouse, and the fixes found by playing
//! (outlines of tiles that complete at once, offer slots that stay put, a 4-player table at
//! 80×24, a cursor whose moves come back, the header and the key line saying what works).

mod common;

use common::*;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use sagani_core::{tile, Cell, Expect, Move, Setup, TileId};
use sagani_tui::{App, Viewer, LETTER_AT, PITCH_X, PITCH_Y};
use std::time::Duration;

fn setup(players: u8, seed: u64, start: u8) -> Setup {
    Setup {
        start_player: Some(start),
        ..Setup::seeded(players, seed)
    }
}

fn wait(app: &mut App) {
    app.wait_for_bots(Duration::from_secs(30)).unwrap();
}

/// The first offer tile (by what is there) placed where the cursor starts.
fn take_first(app: &mut App) {
    app.keys(&[app.tile_key(0), KeyCode::Enter]);
    if app.game().expects() == Some(Expect::IntermezzoPick) && app.game().to_act() == Some(0) {
        app.keys(&[KeyCode::Char('p')]);
    }
}

/// Screen rows joined, with each line's leading spaces and bullet dropped, so wrapped
/// sentences read whole.
fn prose(buf: &Buffer, x0: u16, x1: u16) -> String {
    (0..buf.area.height)
        .map(|y| {
            let row: String = (x0..x1).map(|x| buf[(x, y)].symbol().to_string()).collect();
            row.trim().trim_start_matches("• ").to_string()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn click(app: &mut App, kind: MouseEventKind, column: u16, row: u16) {
    app.mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    });
}

/// Where `sym` is on screen, right of the players' column (the boards, under their titles),
/// first from the top.
fn find(buf: &Buffer, sym: &str, from_x: u16) -> Option<(u16, u16)> {
    (7..buf.area.height.saturating_sub(5)).find_map(|y| {
        (from_x..buf.area.width)
            .find(|&x| buf[(x, y)].symbol() == sym)
            .map(|x| (x, y))
    })
}

#[test]
fn all_displays_at_once_when_the_screen_has_room() {
    let mut app = app(
        &setup(4, 3, 0),
        &["human", "greedy", "greedy", "greedy"],
        3,
        "four",
    );
    take_first(&mut app);
    wait(&mut app);
    let titles = |buf: &Buffer| text(buf).matches("Display of ").count();
    // 200×60: four displays, each named with its score and discs; the one in focus marked.
    let buf = render(&mut app, 200, 60);
    let t = text(&buf);
    assert_eq!(titles(&buf), 4, "{t}");
    for seat in 0..4u8 {
        let name = if seat == 0 {
            "You".to_string()
        } else {
            format!("P{} greedy", seat + 1)
        };
        let s = app.game().score(seat);
        let d = app.game().supply(seat);
        let title = format!("Display of {name} · {s} point");
        assert!(t.contains(&title), "{title}\n{t}");
        assert!(t.contains(&format!("· {d} disc")), "{d} discs\n{t}");
    }
    assert!(t.contains("▶ Display of You"), "the display in focus\n{t}");
    // Each bot's tile of this round is outlined on its own display, until I move.
    let outlines = (0..60)
        .map(|y| (0..200).filter(|&x| buf[(x, y)].symbol() == "▐").count())
        .sum::<usize>();
    assert!(
        outlines >= 3 * 3,
        "three bots' new tiles outlined: {outlines}\n{t}"
    );
    // 160×40: two side by side (mine, and the next seat); 100×30: one, with Tab.
    let buf = render(&mut app, 160, 40);
    assert_eq!(titles(&buf), 2, "{}", text(&buf));
    let buf = render(&mut app, 100, 30);
    assert_eq!(titles(&buf), 1);
    assert!(text(&buf).contains("(Tab: next)"));
    // Tab moves the focus; with four shown, all stay in sight.
    app.keys(&[KeyCode::Tab]);
    let t = text(&render(&mut app, 200, 60));
    assert!(t.contains("▶ Display of P2 greedy"), "{t}");
    assert_eq!(t.matches("Display of ").count(), 4);
    // After my move, the others' old tiles are no longer outlined on their displays.
    app.keys(&[KeyCode::BackTab]);
    take_first(&mut app);
    let buf = render(&mut app, 200, 60);
    let mine = (0..60)
        .map(|y| (0..200).filter(|&x| buf[(x, y)].symbol() == "▐").count())
        .sum::<usize>();
    assert_eq!(mine, 3, "only my new tile\n{}", text(&buf));
}

#[test]
fn since_my_move_the_others_moves_in_words() {
    let mut app = app(&setup(3, 5, 0), &["human", "greedy", "random"], 5, "since");
    take_first(&mut app);
    wait(&mut app);
    let record = app.recorded().unwrap().record().clone();
    let buf = render(&mut app, 120, 40);
    let side = prose(&buf, 0, 34);
    assert!(side.contains("Since your move"), "{side}");
    // My move in the log, then each bot's since it, numbered, by name and tile in words;
    // nowhere a grid coordinate or a tile id.
    for (i, m) in record.moves.iter().enumerate() {
        let who = match m.player {
            0 => "You",
            1 => "P2 greedy",
            _ => "P3 random",
        };
        let Move::Place { tile: t, .. } = m.mv else {
            continue;
        };
        let d = tile(t).unwrap();
        let element = match d.element.letter() {
            'F' => "Fire",
            'W' => "Water",
            'E' => "Earth",
            _ => "Air",
        };
        let words = format!("{}. {who} placed {element} {}", i + 1, d.value());
        assert!(side.contains(&words), "{words:?}\n{side}");
    }
    assert!(side.contains("as your first tile"), "{side}");
    let since_at = side.find("Since your move").unwrap();
    assert!(side.find("1. You placed").unwrap() < since_at, "{side}");
    let log = &side[side.find("1. You placed").unwrap()..];
    assert!(!log.contains("(0,0)") && !log.contains('#'), "{log}");
    // w plays the moves since mine again on the board, one after another; any key ends it.
    app.keys(&[KeyCode::Char('w')]);
    let t = text(&render(&mut app, 120, 40));
    assert!(t.contains("Again, 1 of 2: 2. P2 greedy placed"), "{t}");
    assert!(t.contains("replaying the moves since yours"), "{t}");
    app.tick();
    let t = text(&render(&mut app, 120, 40));
    assert!(t.contains("Again, 2 of 2: 3. P3 random placed"), "{t}");
    assert!(
        t.contains("Display of P3 random"),
        "the mover's display\n{t}"
    );
    app.keys(&[KeyCode::Char('x')]);
    let t = text(&render(&mut app, 120, 40));
    assert!(!t.contains("Again, "), "{t}");
}

#[test]
fn the_pile_the_start_player_and_the_final_round() {
    let mut app = app(&setup(2, 9, 1), &["human", "greedy"], 9, "state");
    wait(&mut app);
    let t = text(&render(&mut app, 100, 30));
    assert!(t.contains("start: P2 greedy"), "{t}");
    // d: the pile's tiles by element, adding up to the count; any key closes it.
    app.keys(&[KeyCode::Char('d')]);
    let t = text(&render(&mut app, 100, 30));
    let view = app.game().view(None);
    assert!(t.contains("The draw pile"), "{t}");
    assert!(
        t.contains(&format!("{} tiles face down", view.draw_pile.count)),
        "{t}"
    );
    let mut total = 0;
    for name in ["Fire", "Water", "Earth", "Air"] {
        // " F  Fire    12: 3 3 6 …" in the window.
        let row = format!("{}  {name}", &name[..1]);
        let line = t.lines().find(|l| l.contains(&row)).expect(name);
        let after = &line[line.find(&row).unwrap() + row.len()..];
        let n: usize = after.split(':').next().unwrap().trim().parse().unwrap();
        total += n;
    }
    assert_eq!(total, view.draw_pile.count);
    app.keys(&[KeyCode::Char('x')]);
    assert!(!text(&render(&mut app, 100, 30)).contains("The draw pile"));
    // Played to the final round: the side says how many turns are left and who plays last,
    // and the story says it began.
    for _ in 0..200 {
        if app.game().view(None).final_round || app.game().is_over() {
            break;
        }
        take_first(&mut app);
        wait(&mut app);
    }
    let view = app.game().view(None);
    assert!(view.final_round, "the final round came");
    let buf = render(&mut app, 120, 40);
    let side = prose(&buf, 0, 34);
    let left = view.turns_left.unwrap();
    let turns = if left == 1 {
        "1 turn".to_string()
    } else {
        format!("{left} turns")
    };
    let last = if view.last_player == 0 {
        "you play last"
    } else {
        "P2 greedy plays last"
    };
    assert!(
        side.contains(&format!("Final round: {turns} left {last}")),
        "{side}"
    );
    assert!(
        side.contains(&format!("The final round begins: {turns} left, {last}.")),
        "{side}"
    );
    // The move that began it is still told beside it.
    let log = app.log_lines();
    let began = log
        .iter()
        .position(|l| l.starts_with("The final round"))
        .unwrap();
    let before = &log[began - 1];
    let shown = before
        .split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(side.contains(&shown), "{shown:?}\n{side}");
    // At 80×24 too: the final round's lines and the move that began it.
    let small = prose(&render(&mut app, 80, 24), 0, 34);
    assert!(
        small.contains(&format!("Final round: {turns} left")),
        "{small}"
    );
    assert!(small.contains(&shown), "{shown:?}\n{small}");
    assert!(small.contains("The final round begins"), "{small}");
}

#[test]
fn arrows_read_without_colour_and_the_cursor_differs_from_the_last_tile_by_its_shape() {
    let mut app = app(&setup(2, 11, 0), &["human", "greedy"], 11, "letters");
    take_first(&mut app);
    wait(&mut app);
    app.keys(&[app.tile_key(0)]);
    let buf = render(&mut app, 100, 30);
    // Every arrow on the display, the cursor's tile too, has its element's letter beside it.
    let game = app.game();
    let mv = app.placement().unwrap();
    let Move::Place {
        tile: ghost, rot, ..
    } = mv
    else {
        unreachable!()
    };
    let (gx, gy) = find(&buf, "[", 35).expect("the cursor's bracket");
    for (d, e) in tile(ghost).unwrap().placed_arrows(rot) {
        let (lx, ly) = LETTER_AT[d.index()];
        let at = &buf[(gx + 1 + lx, gy + ly)];
        assert_eq!(
            at.symbol(),
            e.letter().to_ascii_lowercase().to_string(),
            "{d:?}\n{}",
            text(&buf)
        );
    }
    // The last placed tile: half blocks; the tile being placed: brackets.
    assert!(
        find(&buf, "▐", 35).is_some() && find(&buf, "]", 35).is_some(),
        "{}",
        text(&buf)
    );
    assert!(game.display(0).tiles().count() >= 1);
}

/// Plays my turns with the first tile on any cell, until a placement under the cursor (over
/// the tiles and cells) completes the placed tile itself at once.
fn find_self_completing(app: &mut App) -> bool {
    for _ in 0..60 {
        wait(app);
        if app.game().is_over() {
            return false;
        }
        if app.game().expects() == Some(Expect::Turn) {
            let n = app.offer_slots().iter().flatten().count();
            for k in 0..n {
                app.keys(&[app.tile_key(k)]);
                for _ in 0..4 {
                    for _ in 0..40 {
                        let pv = app.game().preview(app.placement().unwrap()).unwrap();
                        if pv.completed.contains(&pv.tile) {
                            return true;
                        }
                        app.keys(&[KeyCode::Char(' ')]);
                    }
                    app.keys(&[KeyCode::Char('r')]);
                }
                app.keys(&[KeyCode::Esc]);
            }
        }
        take_first(app);
    }
    false
}

#[test]
fn a_tile_that_completes_at_once_is_outlined_in_play_and_in_the_viewer() {
    let mut app = app(&setup(2, 2, 0), &["human", "greedy"], 2, "at-once");
    assert!(
        find_self_completing(&mut app),
        "a placement that completes its own tile"
    );
    let Some(Move::Place { tile: t, .. }) = app.placement() else {
        unreachable!()
    };
    app.keys(&[KeyCode::Enter]);
    let moves = app.recorded().unwrap().record().moves.len();
    let check = |buf: &Buffer| {
        // Its back shows, with the half blocks of the last placed tile beside it.
        let flipped: Vec<(u16, u16)> = (6..buf.area.height - 5)
            .flat_map(|y| (35..buf.area.width).map(move |x| (x, y)))
            .filter(|&(x, y)| buf[(x, y)].symbol() == "╭")
            .collect();
        flipped
            .iter()
            .any(|&(x, y)| x > 0 && buf[(x - 1, y)].symbol() == "▐")
    };
    // Wide enough for my display beside the next player's.
    let buf = render(&mut app, 160, 40);
    assert!(check(&buf), "{}", text(&buf));
    // The viewer at that move shows it the same way.
    let record = app.recorded().unwrap().record().clone();
    let mut v = Viewer::new("at-once".into(), record, None).unwrap();
    for _ in 0..moves {
        v.key(ratatui::crossterm::event::KeyEvent::new(
            KeyCode::Right,
            KeyModifiers::NONE,
        ));
    }
    let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(100, 30)).unwrap();
    term.draw(|f| v.draw(f)).unwrap();
    let buf = term.backend().buffer().clone();
    assert!(check(&buf), "{}", text(&buf));
    assert!(app.game().view(None).seats[0]
        .display
        .iter()
        .any(|d| d.tile == t && d.flipped));
}

#[test]
fn offer_slots_stay_put_until_the_refill() {
    let mut app = app(&setup(2, 6, 0), &["human", "human"], 6, "slots");
    let start: Vec<TileId> = app.game().offer().to_vec();
    // Seat 1 takes slot 2, seat 2 slot 4: the others keep their numbers, the taken are empty.
    app.keys(&[KeyCode::Char('2'), KeyCode::Enter]);
    app.keys(&[KeyCode::Char('4'), KeyCode::Enter]);
    let slots = app.offer_slots().to_vec();
    assert_eq!(slots.len(), 5);
    for (i, s) in slots.iter().enumerate() {
        match i {
            1 | 3 => assert_eq!(*s, None),
            _ => assert_eq!(*s, Some(start[i]), "slot {}", i + 1),
        }
    }
    let t = text(&render(&mut app, 100, 30));
    assert!(
        t.contains("(taken)") && t.contains(&format!("[5] #{}", start[4])),
        "{t}"
    );
    assert!(
        t.contains("Choose a tile of the offer display: 1, 3 or 5."),
        "{t}"
    );
    // A taken slot's key says so and changes nothing.
    app.keys(&[KeyCode::Char('2')]);
    assert!(text(&render(&mut app, 100, 30)).contains("slot 2 is empty"));
    assert_eq!(app.placement(), None);
    // Slot 5 is still the tile that was there.
    app.keys(&[KeyCode::Char('5')]);
    let Some(Move::Place { tile: t5, .. }) = app.placement() else {
        panic!("placing")
    };
    assert_eq!(t5, start[4]);
}

#[test]
fn four_players_at_80_by_24_still_tell_what_happened() {
    let mut app = app(
        &setup(4, 3, 0),
        &["human", "greedy", "greedy", "greedy"],
        3,
        "small4",
    );
    take_first(&mut app);
    wait(&mut app);
    let buf = render(&mut app, 80, 24);
    let side = prose(&buf, 0, 34);
    // Everyone at 0 at the start: no line on ties, and the story has room.
    assert_eq!(side.matches("ties:").count(), 0, "{side}");
    assert!(
        side.contains("Since your move") && side.contains("greedy placed"),
        "{side}"
    );
    // The key line fits the width, keeping q.
    let last = (0..80)
        .map(|x| buf[(x, 23)].symbol().to_string())
        .collect::<String>();
    assert!(last.trim_end().ends_with("q save, quit"), "{last}");
}

#[test]
fn cursor_moves_come_back() {
    let mut app = app(&setup(2, 4, 0), &["human", "greedy"], 4, "cursor");
    for _ in 0..4 {
        take_first(&mut app);
        wait(&mut app);
    }
    app.keys(&[app.tile_key(0)]);
    let at = |app: &App| match app.placement() {
        Some(Move::Place { x, y, .. }) => Cell::new(x, y),
        _ => panic!("placing"),
    };
    for _ in 0..6 {
        let c = at(&app);
        for (there, back) in [
            (KeyCode::Up, KeyCode::Down),
            (KeyCode::Down, KeyCode::Up),
            (KeyCode::Left, KeyCode::Right),
            (KeyCode::Right, KeyCode::Left),
        ] {
            app.keys(&[there]);
            let moved = at(&app) != c;
            app.keys(&[back]);
            if moved {
                assert_eq!(at(&app), c, "{there:?} then {back:?}");
            }
        }
        // Up Down Right Up: one up and one right of where it was (over tiles, if any).
        app.keys(&[KeyCode::Char(' ')]);
    }
    // On an empty cell that is not free, the engine says why and Enter plays nothing.
    let moves = app.recorded().unwrap().record().moves.len();
    for _ in 0..12 {
        app.keys(&[KeyCode::Up, KeyCode::Left]);
    }
    let pv = app.game().preview(app.placement().unwrap());
    if pv.is_err() {
        app.keys(&[KeyCode::Enter]);
        assert_eq!(app.recorded().unwrap().record().moves.len(), moves);
    }
}

#[test]
fn the_header_and_the_key_line_say_what_works_now() {
    let mut app = app(&setup(2, 21, 0), &["human", "human"], 21, "keyline");
    let t = text(&render(&mut app, 100, 30));
    let keys = t.lines().last().unwrap().to_string();
    assert!(
        keys.contains("1-5 tile") && !keys.contains("i intermezzo") && !keys.contains("p pass"),
        "{keys}"
    );
    // Placing: the header names the tile, and Esc may put it back.
    app.keys(&[app.tile_key(0)]);
    let Some(Move::Place { tile: t0, .. }) = app.placement() else {
        panic!()
    };
    let d = tile(t0).unwrap();
    let t = text(&render(&mut app, 100, 30));
    assert!(
        t.lines().next().unwrap().contains(&format!(
            ": place {} {}",
            sagani_tui_element(d.element.letter()),
            d.value()
        )),
        "{t}"
    );
    assert!(t.lines().last().unwrap().contains("Esc back"), "{t}");
    app.keys(&[KeyCode::Esc]);
    // A turn with one offer tile left: the intermezzo is offered; after it, the drawn tile
    // cannot go back and the key line does not say it can.
    let mut guard = 0;
    while !(app.game().expects() == Some(Expect::Turn) && app.game().offer().len() == 1) {
        take_first(&mut app);
        if app.game().expects() == Some(Expect::IntermezzoPick) {
            app.keys(&[KeyCode::Char('p')]);
        }
        guard += 1;
        assert!(guard < 100);
    }
    let t = text(&render(&mut app, 100, 30));
    assert!(t.lines().last().unwrap().contains("i intermezzo"), "{t}");
    // The key line names the one key that still takes a tile, as the prompt does.
    let last = t.lines().last().unwrap();
    let key = last.split(" tile").next().unwrap().trim();
    assert!(
        key.parse::<usize>().is_ok() && !last.contains("1-5 tile"),
        "{last}"
    );
    assert!(
        t.contains(&format!("Take the last offer tile ({key})")),
        "{t}"
    );
    app.keys(&[KeyCode::Char('i')]);
    assert_eq!(app.game().expects(), Some(Expect::PlaceDrawn));
    let t = text(&render(&mut app, 100, 30));
    let keys = t.lines().last().unwrap();
    assert!(
        keys.contains("Enter place") && !keys.contains("Esc back"),
        "{keys}"
    );
    assert!(
        t.lines().next().unwrap().contains("place the drawn tile"),
        "{t}"
    );
}

fn sagani_tui_element(letter: char) -> &'static str {
    match letter {
        'F' => "Fire",
        'W' => "Water",
        'E' => "Earth",
        _ => "Air",
    }
}

#[test]
fn the_mouse_takes_tiles_places_them_and_scrolls() {
    let mut app = app(&setup(2, 7, 0), &["human", "greedy"], 7, "mouse");
    take_first(&mut app);
    wait(&mut app);
    let buf = render(&mut app, 100, 30);
    // A click on slot 2's tile takes it, as the key 2 does.
    let label = (0..100)
        .find(|&x| buf[(x, 5)].symbol() == "[" && buf[(x + 1, 5)].symbol() == "2")
        .expect("slot 2");
    let want = app.offer_slots()[1].unwrap();
    click(
        &mut app,
        MouseEventKind::Down(MouseButton::Left),
        label + 2,
        3,
    );
    let Some(Move::Place { tile: took, .. }) = app.placement() else {
        panic!("placing")
    };
    assert_eq!(took, want);
    // A click on a free cell (its dot) moves the cursor there; a second click places the tile.
    let buf = render(&mut app, 100, 30);
    let before = app.placement();
    let (dx, dy) = find(&buf, "·", 35).expect("a free cell");
    click(&mut app, MouseEventKind::Down(MouseButton::Left), dx, dy);
    click(&mut app, MouseEventKind::Up(MouseButton::Left), dx, dy);
    let moved = app.placement();
    assert_ne!(moved, before, "the cursor went to the cell clicked");
    let moves = app.recorded().unwrap().record().moves.len();
    render(&mut app, 100, 30);
    click(&mut app, MouseEventKind::Down(MouseButton::Left), dx, dy);
    click(&mut app, MouseEventKind::Up(MouseButton::Left), dx, dy);
    assert_eq!(
        app.recorded().unwrap().record().moves.len(),
        moves + 1,
        "placed"
    );
    assert_eq!(
        app.recorded().unwrap().record().moves[moves].mv,
        moved.unwrap()
    );
    wait(&mut app);
    // The wheel scrolls the display under the pointer a cell a notch; a drag moves it along.
    let buf = render(&mut app, 100, 30);
    let (x0, y0) = find(&buf, "▐", 35).expect("an outlined tile");
    click(&mut app, MouseEventKind::ScrollDown, x0, y0);
    let buf = render(&mut app, 100, 30);
    let (x1, y1) = find(&buf, "▐", 35).expect("still in sight");
    assert_eq!((x1, y1 + PITCH_Y as u16), (x0, y0), "{}", text(&buf));
    click(
        &mut app,
        MouseEventKind::Down(MouseButton::Left),
        x1 + 20,
        y1,
    );
    click(
        &mut app,
        MouseEventKind::Drag(MouseButton::Left),
        x1 + 20 + PITCH_X as u16,
        y1,
    );
    click(
        &mut app,
        MouseEventKind::Up(MouseButton::Left),
        x1 + 20 + PITCH_X as u16,
        y1,
    );
    let buf = render(&mut app, 100, 30);
    let (x2, y2) = find(&buf, "▐", 35).expect("still in sight");
    assert_eq!((x2, y2), (x1 + PITCH_X as u16, y1), "{}", text(&buf));
}

/// The display's title row (the row of "Display of" or of the seat's name), right of the
/// players' column.
fn title_row(buf: &Buffer, name: &str) -> String {
    (0..buf.area.height)
        .map(|y| {
            (34..buf.area.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .find(|r| r.contains(name) && r.contains("point"))
        .unwrap_or_default()
}

#[test]
fn four_players_at_80_by_24_show_the_display_the_story_and_the_log_all_game_long() {
    // Seat 2 starts, so I play last: the final round comes to my turn.
    let mut app = app(
        &setup(4, 3, 1),
        &["human", "greedy", "greedy", "greedy"],
        3,
        "small4-long",
    );
    let mut final_seen = false;
    for round in 0..40 {
        if app.game().is_over() {
            break;
        }
        take_first(&mut app);
        wait(&mut app);
        if round < 2 || app.game().is_over() {
            continue;
        }
        let buf = render(&mut app, 80, 24);
        let side = prose(&buf, 0, 34);
        let t = text(&buf);
        // The display with tiles, what happened since my move, and a move of the log before.
        assert!(title_row(&buf, "You").contains("You"), "{t}");
        assert!(t.contains('●') || t.contains('↑') || t.contains('╭'), "{t}");
        let since = side.find("Since your move").expect("since your move");
        let log = app.log_lines();
        let mine = log.iter().rposition(|l| l.contains(". You ")).unwrap();
        // "65. You placed": its number and name.
        let head = |l: &str| l.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        let at = side
            .find(&head(&log[mine]))
            .unwrap_or_else(|| panic!("{}\n{t}", log[mine]));
        assert!(at < since, "my move in the log above the story\n{t}");
        // Every line since mine, a line at least.
        for l in &log[mine + 1..] {
            assert!(side.contains(&head(l)), "{l}\n{t}");
        }
        final_seen |= app.game().view(None).final_round;
    }
    assert!(final_seen, "played into the final round");
}

#[test]
fn a_negative_score_shows_in_the_title_and_the_scroll_marker_keeps_the_title_whole() {
    let mut app = app(&setup(2, 11, 0), &["human", "greedy"], 11, "minus");
    for _ in 0..80 {
        if app.game().is_over() || app.game().score(0) < 0 {
            break;
        }
        take_first(&mut app);
        wait(&mut app);
    }
    let score = app.game().score(0);
    assert!(score < 0, "placing anywhere costs Cacophony: {score}");
    // Scrolled down far enough that more of the display lies above.
    app.keys(&[KeyCode::Down, KeyCode::Down, KeyCode::Down, KeyCode::Down]);
    let buf = render(&mut app, 80, 24);
    let row = title_row(&buf, "You");
    let discs = app.game().supply(0);
    let want = format!("You · −{} points · {discs} disc", -score);
    assert!(row.contains(&want), "{want}\n{}", text(&buf));
    // ▲ on the frame's last column, after the title, never inside it.
    assert!(row.trim_end().ends_with('▲'), "{row}");
    assert_eq!(row.matches('▲').count(), 1, "{row}");
    let title_end = row.find(" disc").unwrap();
    assert!(row.find('▲').unwrap() > title_end, "{row}");
}

#[test]
fn solo_since_your_move_starts_again_and_only_the_latest_tile_is_new() {
    let setup = Setup {
        variant: Some(sagani_core::Variant::Solo),
        ..Setup::seeded(1, 3)
    };
    let mut app = app(&setup, &["human"], 3, "solo-new");
    for _ in 0..4 {
        app.keys(&[KeyCode::Enter]);
    }
    let buf = render(&mut app, 100, 30);
    let t = text(&buf);
    assert!(
        !t.contains("Since your move"),
        "nothing happened since my move\n{t}"
    );
    assert!(t.contains("4. You placed"), "{t}");
    // One tile outlined: three rows of half blocks on its left.
    let outlined = (0..30)
        .map(|y| (34..100).filter(|&x| buf[(x, y)].symbol() == "▐").count())
        .sum::<usize>();
    assert_eq!(outlined, 3, "{t}");
}

#[test]
fn a_placement_at_the_displays_left_edge_keeps_its_bracket() {
    let mut app = app(&setup(2, 6, 0), &["human", "greedy"], 6, "edge");
    for _ in 0..3 {
        take_first(&mut app);
        wait(&mut app);
    }
    // A tile taken, the cursor moved as far left as it goes.
    app.keys(&[app.tile_key(0)]);
    for _ in 0..8 {
        app.keys(&[KeyCode::Left]);
    }
    let buf = render(&mut app, 80, 24);
    let t = text(&buf);
    let (x, _) = find(&buf, "]", 35).expect("the cursor's right bracket");
    let (lx, _) = find(&buf, "[", 35).expect("the cursor's left bracket");
    assert_eq!(x - lx, 10, "{t}");
}

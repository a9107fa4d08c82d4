//! The help overlay (`?`): keys, and how to read the screen.

use crate::style;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use sagani_core::Element;

const PLAY_KEYS: [(&str, &str); 14] = [
    (
        "1-5",
        "take that tile of the offer (intermezzo: of the storage)",
    ),
    (
        "i",
        "intermezzo choice: store the last offer tile, draw one",
    ),
    ("p", "pass (in an intermezzo)"),
    (
        "←↑→↓ hjkl",
        "placing: the cursor to the nearest free cell that way",
    ),
    ("Space n / N ⌫", "placing: the next / previous free cell"),
    ("r ] / R [", "turn the tile clockwise / anticlockwise"),
    ("Enter", "place the tile as the preview shows"),
    ("Esc", "put the tile back (a drawn tile cannot go back)"),
    ("Tab / S-Tab", "the next / previous player's display"),
    (
        "←↑→↓ S-arrows",
        "scroll the display (plain arrows when not placing)",
    ),
    ("c", "centre the display"),
    ("e / Esc Enter", "game over: show / hide the result"),
    ("?", "this help; any key closes it"),
    ("q  Ctrl-C", "save the game (a record) and quit"),
];

const VIEW_KEYS: [(&str, &str); 7] = [
    ("→ l Space", "next move"),
    ("← h Backspace", "previous move"),
    ("PgDn / PgUp", "ten moves on / back"),
    ("Home / End", "the start / the end"),
    ("Tab / S-Tab", "next / previous player's display"),
    ("S-arrows c", "scroll the display, centre it"),
    ("?  q Esc", "this help, quit"),
];

fn legend() -> Vec<Line<'static>> {
    let mut elements = vec![Span::raw("Elements: ")];
    for e in Element::ALL {
        elements.push(Span::styled(format!(" {} ", e.letter()), style::letter(e)));
        elements.push(Span::raw(format!(" {}  ", e.name())));
    }
    vec![
        Line::from(elements),
        Line::raw("A tile: element letter and value in the middle; arrows around it"),
        Line::raw("(↑ ↗ → ↘ ↓ ↙ ← ↖) in the colour of the element each one asks for."),
        Line::raw("● a disc on a covered arrow.  │ F 6 │ framed: a flipped (completed) tile."),
        Line::from(vec![
            Span::raw("Preview: "),
            Span::styled("↑", Style::new().bg(style::MARK).fg(Color::Red)),
            Span::raw(" an arrow it covers, "),
            Span::styled("✓", Style::new().bg(style::MARK).fg(Color::Black)),
            Span::raw(" a tile it completes."),
        ]),
        Line::raw("▐ ▌ pink: the tile placed last.  · a free cell.  ◀▶▲▼ more to scroll."),
        Line::raw("Players best first; at equal scores, whoever got there first."),
    ]
}

fn table(keys: &[(&str, &str)]) -> Vec<Line<'static>> {
    keys.iter()
        .map(|(k, what)| {
            Line::from(vec![
                Span::styled(format!("{k:<15}"), style::bold()),
                Span::raw(what.to_string()),
            ])
        })
        .collect()
}

pub fn play() -> Vec<Line<'static>> {
    let mut lines = table(&PLAY_KEYS);
    lines.push(Line::raw(""));
    lines.extend(legend());
    lines
}

pub fn view() -> Vec<Line<'static>> {
    let mut lines = table(&VIEW_KEYS);
    lines.push(Line::raw(""));
    lines.extend(legend());
    lines
}

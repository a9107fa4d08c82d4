//! The help overlay (`?`): keys, and how to read the screen.

use crate::style;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use sagani_core::Element;

const PLAY_KEYS: [(&str, &str); 14] = [
    (
        "1-5",
        "take that tile of the offer (intermezzo: of the storage)",
    ),
    (
        "i / p",
        "intermezzo: store the last offer tile and draw / pass",
    ),
    (
        "←↑→↓ hjkl",
        "placing: the cursor one cell that way (over tiles)",
    ),
    ("Space n / N ⌫", "placing: the next / previous free cell"),
    ("r ] / R [", "turn the tile clockwise / anticlockwise"),
    ("Enter", "place the tile as the preview shows"),
    ("Esc", "put the tile back (a drawn tile cannot go back)"),
    ("Tab / S-Tab", "the next / previous player's display"),
    (
        "←↑→↓ S-arr. c",
        "scroll the display (plain arrows when not placing); centre",
    ),
    (
        "d / w",
        "the draw pile's tiles / the moves since yours again",
    ),
    (
        "mouse",
        "click a tile, a cell (twice: place); wheel, drag: scroll",
    ),
    ("e / Esc Enter", "game over: show / hide the result"),
    (
        "? PgUp PgDn",
        "this help (any key closes it); the log earlier / later",
    ),
    (
        "q  Ctrl-C",
        "save the game (a record) and quit (online: leave)",
    ),
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
        elements.push(Span::raw(format!(" {}  ", crate::words::element_words(e))));
    }
    vec![
        Line::from(elements),
        Line::raw("A tile: its element's capital and value in the middle; around it the arrows"),
        Line::raw("↑↗→↘↓↙←↖, each with the small letter of the element it asks for (↑f: Fire)."),
        Line::raw("● a disc on a covered arrow.  │  F 6  │ framed: a flipped (completed) tile."),
    ]
}

/// The line both legends end with.
const SCROLL_AND_RANK: &str =
    "◀▶▲▼ more to scroll. Players best first; at equal scores, first there ahead.";

/// An arrow a placement covers (or covered), as the displays mark it.
fn marked_arrow() -> Span<'static> {
    Span::styled(
        "⇑",
        Style::new()
            .bg(style::MARK)
            .fg(Color::Red)
            .add_modifier(Modifier::REVERSED),
    )
}

/// What only the game shows: the preview, the cursor, the tiles placed since your move.
fn play_signs() -> Vec<Line<'static>> {
    vec![
        Line::from(vec![
            Span::raw("Preview: "),
            marked_arrow(),
            Span::raw(" an arrow it covers, "),
            Span::styled("✓", Style::new().bg(style::MARK).fg(Color::Black)),
            Span::raw(" a tile it completes."),
        ]),
        Line::raw("▐ ▌ tiles placed since your move · [ ] the tile you place · · a free cell"),
        Line::raw(SCROLL_AND_RANK),
    ]
}

/// What the viewer shows of a move.
fn view_signs() -> Vec<Line<'static>> {
    vec![
        Line::from(vec![
            Span::raw("▐ ▌ the tile the move placed · "),
            marked_arrow(),
            Span::raw(" an arrow it covered."),
        ]),
        Line::raw(SCROLL_AND_RANK),
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
    lines.extend(play_signs());
    lines
}

pub fn view() -> Vec<Line<'static>> {
    let mut lines = table(&VIEW_KEYS);
    lines.push(Line::raw(""));
    lines.extend(legend());
    lines.extend(view_signs());
    lines
}

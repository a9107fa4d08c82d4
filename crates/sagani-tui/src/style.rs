//! Colours and short names: every element has a colour and a letter, so the screen also reads
//! without colour.

use ratatui::style::{Color, Modifier, Style};
use sagani_core::{tile, Element, TileId};

/// The colour of an element's arrows and letters.
pub fn element(e: Element) -> Color {
    match e {
        Element::Fire => Color::Red,
        Element::Water => Color::LightBlue,
        Element::Earth => Color::Green,
        Element::Air => Color::Yellow,
    }
}

/// The background of a tile's face, so that tiles stand apart from empty cells.
pub const FACE: Color = Color::Indexed(236);
/// Marks what a placement would do (arrows covered, tiles completed) and the cursor.
pub const MARK: Color = Color::LightYellow;

pub fn arrow(e: Element) -> Style {
    Style::new()
        .fg(element(e))
        .bg(FACE)
        .add_modifier(Modifier::BOLD)
}

/// A tile's element letter on its face: black on the element's colour.
pub fn letter(e: Element) -> Style {
    Style::new()
        .fg(Color::Black)
        .bg(element(e))
        .add_modifier(Modifier::BOLD)
}

pub fn dim() -> Style {
    Style::new().fg(Color::DarkGray)
}

pub fn bold() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}

pub fn error() -> Style {
    Style::new()
        .fg(Color::LightRed)
        .add_modifier(Modifier::BOLD)
}

/// "F3 #17": element letter, value, id.
pub fn tile_name(id: TileId) -> String {
    match tile(id) {
        Some(t) => format!("{}{} #{id}", t.element.letter(), t.value()),
        None => format!("#{id}"),
    }
}

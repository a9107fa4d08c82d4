//! One player's display on a grid of character cells: tiles with their arrows (each with its
//! element's letter, so nothing depends on colour), discs on covered arrows, flipped tiles, the
//! placement cursor with the tile to place, and what the engine's preview says the placement
//! would do. Large displays scroll.

use crate::style;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::StatefulWidget;
use sagani_core::view::SeatView;
use sagani_core::{tile, Cell, CoveredArrow, Direction, Element, TileId};

/// A tile face in character cells, and the pitch of display cells: the face and a gap.
pub const FACE_W: u16 = 9;
pub const PITCH_X: i32 = 10;
pub const PITCH_Y: i32 = 4;

/// Where each direction's arrow sits on a tile face (column, row): around the middle, as on
/// the printed tile.
pub const ARROW_AT: [(u16, u16); 8] = [
    (4, 0),
    (8, 0),
    (8, 1),
    (8, 2),
    (4, 2),
    (0, 2),
    (0, 1),
    (0, 0),
];

/// Where the letter of the element an arrow asks for sits: beside the arrow, towards the
/// middle (lower case; the tile's own element is the capital in the middle).
pub const LETTER_AT: [(u16, u16); 8] = [
    (5, 0),
    (7, 0),
    (7, 1),
    (7, 2),
    (5, 2),
    (1, 2),
    (1, 1),
    (1, 0),
];

/// The tile being placed, at the cursor.
#[derive(Clone, Debug)]
pub struct Ghost {
    pub tile: TileId,
    pub rot: u8,
    pub cell: Cell,
}

/// What is drawn over the display while a tile is being placed.
#[derive(Clone, Debug, Default)]
pub struct Overlay {
    /// Cells where the tile may go.
    pub cells: Vec<Cell>,
    pub ghost: Option<Ghost>,
    /// Arrows the placement would cover (on earlier tiles, or the new tile's own).
    pub covered: Vec<CoveredArrow>,
    /// Tiles the placement would complete.
    pub completed: Vec<TileId>,
}

/// How far the user scrolled from the display's centre, in display cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scroll {
    pub dx: i32,
    pub dy: i32,
    /// The cursor moved: scroll to keep it in sight (once, so a scroll by hand stays).
    pub follow: bool,
}

pub struct Board<'a> {
    pub seat: &'a SeatView,
    pub overlay: Option<&'a Overlay>,
    /// Tiles placed lately on this display (since the player's own move), outlined so the
    /// moves are easy to follow.
    pub fresh: &'a [TileId],
}

/// How a tile is outlined: glyphs that differ, not only colours.
#[derive(Clone, Copy)]
struct Outline {
    left: &'static str,
    right: &'static str,
    colour: Color,
}

/// A tile placed lately: half blocks.
const FRESH: Outline = Outline {
    left: "▐",
    right: "▌",
    colour: Color::Magenta,
};
/// The tile being placed, at the cursor: brackets.
const CURSOR: Outline = Outline {
    left: "[",
    right: "]",
    colour: style::MARK,
};

/// What a drawn board showed: whether more of the display lies beyond each edge, and the
/// display cell at its top left (so a click finds its cell).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Beyond {
    pub left: bool,
    pub right: bool,
    pub up: bool,
    pub down: bool,
    pub origin: (i32, i32),
}

/// Where a display's cells are drawn in its area: a column in, so a tile at the left edge
/// keeps its outline's left mark (`[`, `▐`).
pub fn cells(area: Rect) -> Rect {
    Rect {
        x: area.x + 1,
        width: area.width.saturating_sub(1),
        ..area
    }
}

/// The cells a display spans: its tiles with a ring of empty cells, and the free cells.
fn extent(seat: &SeatView, overlay: Option<&Overlay>) -> (i32, i32, i32, i32) {
    let mut cells: Vec<(i32, i32)> = Vec::new();
    for t in &seat.display {
        cells.extend([(t.x - 1, t.y - 1), (t.x + 1, t.y + 1)]);
    }
    if let Some(o) = overlay {
        cells.extend(o.cells.iter().map(|c| (c.x, c.y)));
    }
    let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let max_x = cells.iter().map(|c| c.0).max().unwrap_or(0);
    let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let max_y = cells.iter().map(|c| c.1).max().unwrap_or(0);
    (min_x, max_x, min_y, max_y)
}

impl StatefulWidget for Board<'_> {
    /// The scroll in, the scroll actually used (kept so the cursor stays in sight) out.
    type State = (Scroll, Beyond);

    fn render(self, area: Rect, buf: &mut Buffer, state: &mut Self::State) {
        let area = cells(area);
        let cols = (area.width as i32 / PITCH_X).max(1);
        let rows = (area.height as i32 / PITCH_Y).max(1);
        let (min_x, max_x, min_y, max_y) = extent(self.seat, self.overlay);
        let centre_x = (min_x + max_x).div_euclid(2);
        let centre_y = (min_y + max_y).div_euclid(2);
        let scroll = &mut state.0;
        // Keep the cursor on screen after it moved: scroll just enough.
        let ghost = self.overlay.and_then(|o| o.ghost.as_ref());
        if let Some(g) = ghost.filter(|_| std::mem::take(&mut scroll.follow)) {
            let left = centre_x - cols / 2 + scroll.dx;
            let top = centre_y - rows / 2 + scroll.dy;
            if g.cell.x < left {
                scroll.dx -= left - g.cell.x;
            } else if g.cell.x >= left + cols {
                scroll.dx += g.cell.x - (left + cols - 1);
            }
            if g.cell.y < top {
                scroll.dy -= top - g.cell.y;
            } else if g.cell.y >= top + rows {
                scroll.dy += g.cell.y - (top + rows - 1);
            }
        }
        let left = centre_x - cols / 2 + scroll.dx;
        let top = centre_y - rows / 2 + scroll.dy;
        state.1 = Beyond {
            left: min_x < left,
            right: max_x >= left + cols,
            up: min_y < top,
            down: max_y >= top + rows,
            origin: (left, top),
        };
        let at = |c: Cell| -> Option<(u16, u16)> {
            let (cx, cy) = (c.x - left, c.y - top);
            if (0..cols).contains(&cx) && (0..rows).contains(&cy) {
                Some((
                    area.x + (cx * PITCH_X) as u16,
                    area.y + (cy * PITCH_Y) as u16,
                ))
            } else {
                None
            }
        };
        let overlay = self.overlay;
        if let Some(o) = overlay {
            for &c in &o.cells {
                if let Some((x, y)) = at(c) {
                    buf.set_string(x + FACE_W / 2, y + 1, "·", style::dim());
                }
            }
        }
        for t in &self.seat.display {
            let Some((x, y)) = at(Cell::new(t.x, t.y)) else {
                continue;
            };
            let element = tile(t.tile).map_or(Element::Fire, |d| d.element);
            let value = tile(t.tile).map_or(0, |d| d.value());
            let completes = overlay.is_some_and(|o| o.completed.contains(&t.tile));
            if t.flipped {
                draw_back(buf, x, y, element, value);
            } else {
                face(buf, x, y);
                for a in &t.arrows {
                    let marked = overlay.is_some_and(|o| {
                        o.covered
                            .iter()
                            .any(|c| c.tile == t.tile && c.direction == a.direction)
                    });
                    draw_arrow(buf, x, y, a.direction, a.element, a.covered, marked);
                }
                draw_centre(buf, x, y, element, value, completes);
            }
            // Outlined also when it completed at once (it shows its back then).
            if self.fresh.contains(&t.tile) {
                outline(buf, area, x, y, FRESH);
            }
        }
        if let Some((o, g)) = overlay.and_then(|o| o.ghost.as_ref().map(|g| (o, g))) {
            if let (Some((x, y)), Some(d)) = (at(g.cell), tile(g.tile)) {
                face(buf, x, y);
                for (direction, e) in d.placed_arrows(g.rot) {
                    let marked = o
                        .covered
                        .iter()
                        .any(|c| c.tile == g.tile && c.direction == direction);
                    draw_arrow(buf, x, y, direction, e, false, marked);
                }
                let completes = o.completed.contains(&g.tile);
                draw_centre(buf, x, y, d.element, d.value(), completes);
                outline(buf, area, x, y, CURSOR);
            }
        }
        // Marks on the frame (left, top) and in the gaps (right, bottom), never over a tile,
        // say there is more to scroll to.
        let more = Style::new().fg(Color::White).add_modifier(Modifier::BOLD);
        let mid_x = area.x + (cols * PITCH_X) as u16 / 2;
        let mid_y = area.y + (rows * PITCH_Y) as u16 / 2 - 1;
        // Left: on the frame, left of the margin column.
        if state.1.left && area.x > 1 {
            buf.set_string(area.x - 2, mid_y, "◀", more);
        }
        if state.1.right {
            buf.set_string(area.x + (cols * PITCH_X) as u16 - 1, mid_y, "▶", more);
        }
        if state.1.up && area.y > 0 {
            // On the frame's last column, which the title never reaches (`title_room`).
            buf.set_string(area.right() - 1, area.y - 1, "▲", more);
        }
        if state.1.down {
            buf.set_string(mid_x, area.y + (rows * PITCH_Y) as u16 - 1, "▼", more);
        }
    }
}

fn face(buf: &mut Buffer, x: u16, y: u16) {
    for row in 0..3 {
        buf.set_string(
            x,
            y + row,
            " ".repeat(FACE_W as usize),
            Style::new().bg(style::FACE),
        );
    }
}

/// An arrow the previewed placement would cover, by direction: a double arrow, which reads
/// without colour and without bold or underline (NO_COLOR, a plain terminal).
pub const MARKED: [char; 8] = ['⇑', '⇗', '⇒', '⇘', '⇓', '⇙', '⇐', '⇖'];

/// An arrow in its element's colour with the element's letter beside it; a covered arrow is a
/// disc (●); an arrow the previewed placement would cover is a double arrow (`MARKED`) in
/// reverse video on yellow.
fn draw_arrow(
    buf: &mut Buffer,
    x: u16,
    y: u16,
    d: Direction,
    e: Element,
    covered: bool,
    marked: bool,
) {
    let (cx, cy) = ARROW_AT[d.index()];
    let (lx, ly) = LETTER_AT[d.index()];
    let glyph = match (covered, marked) {
        (true, _) => '●',
        (false, true) => MARKED[d.index()],
        (false, false) => d.arrow(),
    };
    let mut s = style::arrow(e);
    if marked {
        s = s
            .bg(style::MARK)
            .add_modifier(Modifier::UNDERLINED | Modifier::REVERSED);
    }
    buf.set_string(x + cx, y + cy, glyph.to_string(), s);
    let letter = e.letter().to_ascii_lowercase();
    buf.set_string(x + lx, y + ly, letter.to_string(), s);
}

/// The element letter and the tile's value; a tile the preview would complete gets a ✓.
fn draw_centre(buf: &mut Buffer, x: u16, y: u16, e: Element, value: u8, completes: bool) {
    buf.set_string(
        x + 3,
        y + 1,
        format!("{}{:<2}", e.letter(), value),
        style::letter(e),
    );
    if completes {
        let s = Style::new()
            .fg(Color::Black)
            .bg(style::MARK)
            .add_modifier(Modifier::BOLD);
        buf.set_string(x + 6, y + 1, "✓", s);
    }
}

/// A flipped tile shows its back: a framed plate in the element's colour with letter and value.
fn draw_back(buf: &mut Buffer, x: u16, y: u16, e: Element, value: u8) {
    let s = Style::new().fg(Color::Black).bg(style::element(e));
    buf.set_string(x, y, "╭───────╮", s);
    buf.set_string(
        x,
        y + 1,
        format!("│{:^7}│", format!("{} {value}", e.letter())),
        s.add_modifier(Modifier::BOLD),
    );
    buf.set_string(x, y + 2, "╰───────╯", s);
}

/// Marks in the gaps left and right of a cell.
fn outline(buf: &mut Buffer, area: Rect, x: u16, y: u16, o: Outline) {
    let s = Style::new().fg(o.colour).add_modifier(Modifier::BOLD);
    for row in 0..3 {
        if x > area.x {
            buf.set_string(x - 1, y + row, o.left, s);
        }
        if x + FACE_W < area.right() {
            buf.set_string(x + FACE_W, y + row, o.right, s);
        }
    }
}

/// A tile not on a display (offer, storage, revealed), as printed: rotation 0.
pub fn loose_tile(buf: &mut Buffer, x: u16, y: u16, id: TileId) {
    let Some(d) = tile(id) else {
        return;
    };
    face(buf, x, y);
    for (direction, e) in d.placed_arrows(0) {
        draw_arrow(buf, x, y, direction, e, false, false);
    }
    draw_centre(buf, x, y, d.element, d.value(), false);
}

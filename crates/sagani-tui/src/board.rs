//! One player's display on a grid of character cells: tiles with their arrows, discs on covered
//! arrows, flipped tiles, the placement cursor with the tile to place, and what the engine's
//! preview says the placement would do. Large displays scroll.

use crate::style;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::StatefulWidget;
use sagani_core::view::SeatView;
use sagani_core::{tile, Cell, CoveredArrow, Direction, Element, TileId};

/// Screen columns and rows per display cell: a 7×3 tile face and a gap.
pub const PITCH_X: i32 = 8;
pub const PITCH_Y: i32 = 4;

/// Where each direction's arrow sits on a tile face (column, row): around the middle, as on
/// the printed tile.
pub const ARROW_AT: [(u16, u16); 8] = [
    (3, 0),
    (6, 0),
    (6, 1),
    (6, 2),
    (3, 2),
    (0, 2),
    (0, 1),
    (0, 0),
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
    /// The tile placed last on this display, outlined so a move is easy to follow.
    pub fresh: Option<TileId>,
}

/// What a drawn board showed: whether more of the display lies beyond each edge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Beyond {
    pub left: bool,
    pub right: bool,
    pub up: bool,
    pub down: bool,
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
                    buf.set_string(x + 3, y + 1, "·", style::dim());
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
                continue;
            }
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
            if self.fresh == Some(t.tile) {
                outline(buf, area, x, y, Color::Magenta);
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
                outline(buf, area, x, y, style::MARK);
            }
        }
        // Marks on the frame (left, top) and in the gaps (right, bottom), never over a tile,
        // say there is more to scroll to.
        let more = Style::new().fg(Color::White).add_modifier(Modifier::BOLD);
        let mid_x = area.x + (cols * PITCH_X) as u16 / 2;
        let mid_y = area.y + (rows * PITCH_Y) as u16 / 2 - 1;
        if state.1.left && area.x > 0 {
            buf.set_string(area.x - 1, mid_y, "◀", more);
        }
        if state.1.right {
            buf.set_string(area.x + (cols * PITCH_X) as u16 - 1, mid_y, "▶", more);
        }
        if state.1.up && area.y > 0 {
            // On the frame's right end, clear of its title.
            buf.set_string(area.x + (cols * PITCH_X) as u16 - 1, area.y - 1, "▲", more);
        }
        if state.1.down {
            buf.set_string(mid_x, area.y + (rows * PITCH_Y) as u16 - 1, "▼", more);
        }
    }
}

fn face(buf: &mut Buffer, x: u16, y: u16) {
    for row in 0..3 {
        buf.set_string(x, y + row, "       ", Style::new().bg(style::FACE));
    }
}

/// An arrow in its element's colour; a covered arrow is a disc (●) in that colour; an arrow the
/// previewed placement would cover is marked in yellow.
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
    let glyph = if covered { '●' } else { d.arrow() };
    let mut s = style::arrow(e);
    if marked {
        s = s.bg(style::MARK).add_modifier(Modifier::UNDERLINED);
    }
    buf.set_string(x + cx, y + cy, glyph.to_string(), s);
}

/// The element letter and the tile's value; a tile the preview would complete gets a ✓.
fn draw_centre(buf: &mut Buffer, x: u16, y: u16, e: Element, value: u8, completes: bool) {
    buf.set_string(
        x + 2,
        y + 1,
        format!("{}{:<2}", e.letter(), value),
        style::letter(e),
    );
    if completes {
        let s = Style::new()
            .fg(Color::Black)
            .bg(style::MARK)
            .add_modifier(Modifier::BOLD);
        buf.set_string(x + 5, y + 1, "✓", s);
    }
}

/// A flipped tile shows its back: a framed plate in the element's colour with letter and value.
fn draw_back(buf: &mut Buffer, x: u16, y: u16, e: Element, value: u8) {
    let s = Style::new().fg(Color::Black).bg(style::element(e));
    buf.set_string(x, y, "╭─────╮", s);
    buf.set_string(
        x,
        y + 1,
        format!("│{:^5}│", format!("{} {value}", e.letter())),
        s.add_modifier(Modifier::BOLD),
    );
    buf.set_string(x, y + 2, "╰─────╯", s);
}

/// Brackets in the gaps left and right of a cell.
fn outline(buf: &mut Buffer, area: Rect, x: u16, y: u16, colour: Color) {
    let s = Style::new().fg(colour).add_modifier(Modifier::BOLD);
    for row in 0..3 {
        if x > area.x {
            buf.set_string(x - 1, y + row, "▐", s);
        }
        if x + 7 < area.right() {
            buf.set_string(x + 7, y + row, "▌", s);
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

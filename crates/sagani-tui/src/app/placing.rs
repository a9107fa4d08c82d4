//! A tile on its way to a display: the cells where the engine lets it go, the cursor, the
//! turn, and the engine's preview of placing it there.

use crate::board::MARKED;
use crate::style;
use crate::words;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use sagani_core::{Cell, Game, IllegalMove, Move, Preview, TileId};

pub struct Placing {
    pub tile: TileId,
    /// Cells where it may go, top row first.
    pub cells: Vec<Cell>,
    pub cursor: Cell,
    pub rot: u8,
    pub preview: Result<Preview, IllegalMove>,
}

impl Placing {
    /// `tile` for the player to act, the cursor on `kept` (cell and turn) if the tile may go
    /// there, else on a free cell near the middle of the display; `None` when it may go nowhere.
    pub fn start(game: &Game, tile: TileId, kept: Option<(Cell, u8)>) -> Option<Placing> {
        let mut cells: Vec<Cell> = game
            .legal_moves()
            .into_iter()
            .filter_map(|m| match m {
                Move::Place {
                    tile: t,
                    x,
                    y,
                    rot: 0,
                } if t == tile => Some(Cell::new(x, y)),
                _ => None,
            })
            .collect();
        cells.sort_by_key(|c| (c.y, c.x));
        cells.dedup();
        let seat = game.to_act()?;
        // Start next to the middle of the display, where most moves are.
        let placed: Vec<Cell> = game.display(seat).tiles().map(|t| t.cell).collect();
        let n = placed.len().max(1) as i32;
        let (mx, my) = placed.iter().fold((0, 0), |(x, y), c| (x + c.x, y + c.y));
        let first = cells
            .iter()
            .copied()
            .min_by_key(|c| ((c.x * n - mx).abs() + (c.y * n - my).abs(), c.y, c.x))?;
        let (cursor, rot) = match kept {
            Some((c, r)) if cells.contains(&c) => (c, r),
            _ => (first, 0),
        };
        let mv = Move::place(tile, cursor, rot);
        Some(Placing {
            tile,
            cells,
            cursor,
            rot,
            preview: game.preview(mv),
        })
    }

    /// The move Enter would play.
    pub fn placement(&self) -> Move {
        Move::place(self.tile, self.cursor, self.rot)
    }

    /// One cell on the grid that way, over the display's tiles (`taken`) to the next empty
    /// cell, as far as the free cells reach: a move and its opposite always come back. An empty
    /// cell that is not free shows the engine's reason, and Enter refuses it. `false`: no free
    /// cell further that way.
    pub fn go(&mut self, (dx, dy): (i32, i32), taken: &[Cell]) -> bool {
        let xs = self.cells.iter().map(|c| c.x);
        let ys = self.cells.iter().map(|c| c.y);
        let (Some(lo_x), Some(hi_x), Some(lo_y), Some(hi_y)) =
            (xs.clone().min(), xs.max(), ys.clone().min(), ys.max())
        else {
            return false;
        };
        let inside = |c: Cell| (lo_x..=hi_x).contains(&c.x) && (lo_y..=hi_y).contains(&c.y);
        let mut to = Cell::new(self.cursor.x + dx, self.cursor.y + dy);
        while taken.contains(&to) {
            to = Cell::new(to.x + dx, to.y + dy);
        }
        if !inside(to) {
            return false;
        }
        self.cursor = to;
        true
    }

    /// The next (or previous) free cell in reading order.
    pub fn next_cell(&mut self, by: i32) {
        let n = self.cells.len() as i32;
        let i = self
            .cells
            .iter()
            .position(|&c| c == self.cursor)
            .unwrap_or(0) as i32;
        self.cursor = self.cells[(i + by).rem_euclid(n) as usize];
    }

    /// Turns the tile by quarter turns.
    pub fn turn(&mut self, by: u8) {
        self.rot = (self.rot + by) % 4;
    }

    /// The preview panel: where, what gets covered and completed, points, Cacophony, the score.
    pub fn preview_lines(&self) -> Vec<Line<'static>> {
        // Words the board shows: tiles by element and value, no cell numbers or tile ids.
        let head = format!(
            "{}, turned {}°:",
            words::tile_words(self.tile),
            self.rot as u16 * 90
        );
        match &self.preview {
            Err(e) => vec![Line::from(vec![
                Span::raw(head + " "),
                Span::styled(e.to_string(), style::error()),
            ])],
            Ok(pv) => {
                let mut covers = vec![Span::raw(format!("{head} covers {} ", pv.covered.len()))];
                covers.push(Span::raw(if pv.covered.len() == 1 {
                    "arrow"
                } else {
                    "arrows"
                }));
                for (i, c) in pv.covered.iter().enumerate() {
                    covers.push(Span::raw(if i == 0 { ": " } else { ", " }));
                    covers.push(Span::styled(
                        MARKED[c.direction.index()].to_string(),
                        Style::new()
                            .fg(style::element(c.element))
                            .bg(style::MARK)
                            .add_modifier(Modifier::REVERSED),
                    ));
                    let whose = if c.tile == self.tile {
                        "its own".to_string()
                    } else {
                        format!("on {}", words::tile_words(c.tile))
                    };
                    covers.push(Span::raw(format!(" {whose}")));
                }
                let completed = if pv.completed.is_empty() {
                    "completes nothing".to_string()
                } else {
                    let done: Vec<String> =
                        pv.completed.iter().map(|&t| words::tile_words(t)).collect();
                    format!("completes {} (+{})", done.join(", "), pv.points)
                };
                let caco = if pv.cacophony == 0 {
                    "no Cacophony".to_string()
                } else {
                    format!("Cacophony {} (−{})", pv.cacophony, 2 * pv.cacophony)
                };
                let mut result = vec![Span::raw(format!(
                    "{completed} · {caco} · score {} → {} · {} left",
                    pv.score_after - pv.score_change,
                    pv.score_after,
                    words::count(pv.supply_after as usize, "disc")
                ))];
                if pv.reaches_target {
                    result.push(Span::styled(
                        " · reaches the goal",
                        Style::new().fg(Color::LightGreen),
                    ));
                }
                vec![Line::from(covers), Line::from(result)]
            }
        }
    }
}

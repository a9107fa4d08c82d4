//! The table on one screen: a header, the offer display and the intermezzo storage, the
//! players with scores, discs and Cacophony in ranking order, the draw pile, the move log, one
//! display, and a panel for the preview or messages. The game and the replay viewer both draw it.

use crate::board::{self, Beyond, Board, Overlay, Scroll};
use crate::style;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;
use sagani_core::view::{TileBack, View};
use sagani_core::{TileId, Variant};
use std::time::Duration;

/// The smallest terminal the table fits in.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

/// A bot at work, for the progress indicator.
#[derive(Clone, Debug)]
pub struct Progress {
    pub who: String,
    pub elapsed: Duration,
    pub budget: Option<Duration>,
}

/// Which loose tiles carry the number keys that choose them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbered {
    None,
    Offer,
    Storage,
}

pub struct Scene<'a> {
    pub view: &'a View,
    /// A label per seat ("You", "Player 2", "mcts").
    pub names: &'a [String],
    /// Whose display is shown.
    pub shown: u8,
    /// Marks drawn on the shown display: the placement in progress, or a move's covered arrows.
    pub overlay: Option<&'a Overlay>,
    /// Per seat, the tile placed last (outlined).
    pub fresh: &'a [Option<TileId>],
    pub title: String,
    pub progress: Option<Progress>,
    pub numbered: Numbered,
    /// The bottom panel: a preview, a message, the result.
    pub info: Vec<Line<'static>>,
    /// The key reminder at the bottom.
    pub keys: String,
    pub log: &'a [String],
    /// A window over everything: help, or the end of the game.
    pub popup: Option<(String, Vec<Line<'static>>)>,
    /// Each seat's clock, in a game with a time control (`None` for a seat a bot plays).
    pub clocks: Option<Vec<Option<Clock>>>,
}

/// A seat's clock as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// `4:07`
    pub text: String,
    /// It is this seat's time that passes now.
    pub running: bool,
    /// Under 30 seconds left.
    pub low: bool,
}

/// The players' column: wider with clocks.
fn side_width(scene: &Scene) -> u16 {
    if scene.clocks.is_some() {
        41
    } else {
        34
    }
}

pub fn draw(f: &mut Frame, scene: &Scene, scroll: &mut (Scroll, Beyond)) {
    let area = f.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        too_small(f, area);
        return;
    }
    let [header, strip, middle, info, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(5),
        Constraint::Min(8),
        Constraint::Length(4),
        Constraint::Length(1),
    ])
    .areas(area);
    draw_header(f, header, scene);
    draw_strip(f.buffer_mut(), strip, scene);
    let [side, display] =
        Layout::horizontal([Constraint::Length(side_width(scene)), Constraint::Min(39)])
            .areas(middle);
    draw_side(f, side, scene);
    draw_display(f, display, scene, scroll);
    f.render_widget(
        Paragraph::new(scene.info.clone()).wrap(Wrap { trim: false }),
        info,
    );
    f.render_widget(Paragraph::new(scene.keys.clone()).style(style::dim()), keys);
    if let Some((title, lines)) = &scene.popup {
        popup(f, area, title, lines.clone());
    }
}

fn too_small(f: &mut Frame, area: Rect) {
    let text = vec![
        Line::styled(
            "The terminal is too small for the Sagani table.",
            style::error(),
        ),
        Line::raw(format!(
            "It is {}×{}; the table needs at least {MIN_WIDTH}×{MIN_HEIGHT}.",
            area.width, area.height
        )),
        Line::raw(
            "Enlarge the window (the table comes back at once), or press q to save and quit.",
        ),
    ];
    f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
}

fn draw_header(f: &mut Frame, area: Rect, scene: &Scene) {
    let mut spans = vec![Span::styled(scene.title.clone(), style::bold())];
    if let Some(p) = &scene.progress {
        // A spinner and a bar of the think time used: the screen stays live while a bot thinks.
        const SPIN: [char; 8] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧'];
        let spin = SPIN[(p.elapsed.as_millis() / 100) as usize % SPIN.len()];
        let secs = p.elapsed.as_secs_f64();
        let bar = match p.budget {
            Some(b) if !b.is_zero() => {
                let part = (secs / b.as_secs_f64()).clamp(0.0, 1.0);
                let full = (part * 10.0).round() as usize;
                format!(
                    " {}{} {secs:.1}/{:.1} s",
                    "█".repeat(full),
                    "░".repeat(10 - full),
                    b.as_secs_f64()
                )
            }
            _ => format!(" {secs:.1} s"),
        };
        spans.push(Span::raw("   "));
        spans.push(Span::styled(
            format!("{spin} {} is thinking{bar}", p.who),
            Style::new().fg(Color::Cyan),
        ));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The loose tiles: the revealed tile, the offer display, the intermezzo storage.
fn draw_strip(buf: &mut Buffer, area: Rect, scene: &Scene) {
    let v = scene.view;
    let mut x = area.x;
    let mut group = |buf: &mut Buffer, name: &str, tiles: &[TileId], numbers: bool| {
        let width = (tiles.len().max(1) as u16) * 8 + 1;
        if x + width > area.right() + 1 {
            return;
        }
        buf.set_string(x, area.y, name, style::bold());
        if tiles.is_empty() {
            buf.set_string(x, area.y + 2, "(empty)", style::dim());
        }
        for (i, &t) in tiles.iter().enumerate() {
            let tx = x + i as u16 * 8;
            board::loose_tile(buf, tx, area.y + 1, t);
            let label = if numbers {
                format!("[{}] #{t}", i + 1)
            } else {
                format!("#{t}")
            };
            let s = if numbers { style::bold() } else { style::dim() };
            buf.set_string(tx, area.y + 4, label, s);
        }
        x += width.max(name.len() as u16 + 2);
        // A thin line between groups.
        for row in 1..4 {
            buf.set_string(x - 1, area.y + row, "│", style::dim());
        }
    };
    if let Some(t) = v.revealed {
        group(buf, "Revealed", &[t], false);
    }
    if !v.variant.is_solo() {
        group(buf, "Offer", &v.offer, scene.numbered == Numbered::Offer);
        group(
            buf,
            "Intermezzo storage",
            &v.intermezzo,
            scene.numbered == Numbered::Storage,
        );
    }
}

/// Players in ranking order, the draw pile, the goal, and the move log.
fn draw_side(f: &mut Frame, area: Rect, scene: &Scene) {
    let v = scene.view;
    let acting = v.next.map(|n| n.player);
    let clocks = scene.clocks.as_ref();
    let mut head = format!(
        "{:<4}{:<13}{:>5}{:>6}{:>5}",
        "", "Player", "score", "discs", "caco"
    );
    if clocks.is_some() {
        head.push_str(&format!("{:>7}", "time"));
    }
    let mut lines = vec![Line::styled(head, style::dim())];
    for (rank, &s) in v.ranking.iter().enumerate() {
        let seat = &v.seats[s as usize];
        let marker = if acting == Some(s) { "▶" } else { " " };
        let name: String = scene.names[s as usize].chars().take(12).collect();
        let mut st = Style::new();
        if s == scene.shown {
            st = st.add_modifier(Modifier::BOLD);
        }
        let mut row = vec![Span::styled(
            format!(
                "{}.{marker} {name:<13}{:>5}{:>6}{:>5}",
                rank + 1,
                seat.score,
                seat.supply,
                seat.cacophony
            ),
            st,
        )];
        if let Some(clocks) = clocks {
            // A running clock is bold, and red under 30 seconds; a seat a bot plays has none.
            let (text, mut cs) = match clocks.get(s as usize).cloned().flatten() {
                Some(c) => {
                    let cs = if c.low { style::error() } else { Style::new() };
                    let cs = if c.running {
                        cs.add_modifier(Modifier::BOLD)
                    } else {
                        cs
                    };
                    (c.text, cs)
                }
                None => ("—".to_string(), style::dim()),
            };
            if s == scene.shown {
                cs = cs.add_modifier(Modifier::BOLD);
            }
            row.push(Span::styled(format!("{text:>7}"), cs));
        }
        lines.push(Line::from(row));
    }
    // Ties on the score track: the marker that arrived first ranks ahead (RULES.md).
    for pair in v.ranking.windows(2) {
        let (a, b) = (pair[0] as usize, pair[1] as usize);
        if v.seats[a].score == v.seats[b].score {
            lines.push(Line::styled(
                format!("tie: {} got there first", scene.names[a]),
                style::dim(),
            ));
        }
    }
    if v.variant == Variant::SoloAll {
        if let Some(fs) = v.seats[0].final_score {
            lines.push(Line::raw(format!("final score now {fs}")));
        }
    }
    lines.push(Line::raw(""));
    let mut pile = vec![Span::raw(format!("Draw pile {:>2} ", v.draw_pile.count))];
    if let Some(TileBack { element, value }) = v.draw_pile.top {
        pile.push(Span::raw("top "));
        pile.push(Span::styled(
            format!(" {}{value} ", element.letter()),
            style::letter(element),
        ));
    }
    lines.push(Line::from(pile));
    let mut goal = Vec::new();
    if let Some(t) = v.target {
        goal.push(format!("goal {t}"));
    }
    if v.final_round {
        goal.push("final round".to_string());
    }
    if !v.removed.is_empty() {
        goal.push(format!("{} removed", v.removed.len()));
    }
    if !goal.is_empty() {
        lines.push(Line::raw(goal.join(" · ")));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled("Moves", style::dim()));
    let room = (area.height as usize).saturating_sub(lines.len());
    let start = scene.log.len().saturating_sub(room);
    for l in &scene.log[start..] {
        lines.push(Line::raw(l.clone()));
    }
    f.render_widget(Paragraph::new(lines), area);
}

fn draw_display(f: &mut Frame, area: Rect, scene: &Scene, scroll: &mut (Scroll, Beyond)) {
    let seat = scene.shown;
    let v = scene.view;
    let overlay = scene.overlay;
    let mut title = format!(" Display of {} ", scene.names[seat as usize]);
    if v.players > 1 {
        title.push_str("(Tab: next) ");
    }
    let block = Block::new()
        .borders(Borders::LEFT | Borders::TOP)
        .title(title)
        .title_style(style::bold());
    let inner = block.inner(area);
    f.render_widget(block, area);
    f.render_stateful_widget(
        Board {
            seat: &v.seats[seat as usize],
            overlay,
            fresh: scene.fresh.get(seat as usize).copied().flatten(),
        },
        inner,
        scroll,
    );
    if v.seats[seat as usize].display.is_empty() && overlay.is_none() {
        f.buffer_mut().set_string(
            inner.x + 2,
            inner.y + 1,
            "No tiles yet: the first one goes on (0,0).",
            style::dim(),
        );
    }
}

/// A bordered window in the middle of the screen.
fn popup(f: &mut Frame, area: Rect, title: &str, lines: Vec<Line<'static>>) {
    let width = lines
        .iter()
        .map(|l| l.width() as u16)
        .max()
        .unwrap_or(20)
        .max(title.len() as u16 + 4)
        .saturating_add(4)
        .min(area.width);
    let height = (lines.len() as u16 + 2).min(area.height);
    let r = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .title(format!(" {title} "))
                .title_style(style::bold())
                .border_style(Style::new().fg(Color::Cyan)),
        ),
        r,
    );
}

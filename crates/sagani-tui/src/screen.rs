//! The table on one screen: a header, the offer display and the intermezzo storage, the
//! players with scores, discs, Cacophony and clocks in ranking order, the state of the game
//! (draw pile, start player, final round), what happened since the player's own move, the
//! move log, the displays (all of them when the screen has room, else the one in focus), and a
//! panel for the preview or messages. The game and the replay viewer both draw it, and what is
//! drawn where is kept (`Hits`), so a mouse click finds what it landed on.

use crate::board::{self, Beyond, Board, Overlay, Scroll, FACE_W, PITCH_X, PITCH_Y};
use crate::style;
use crate::words::count;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;
use sagani_core::view::{TileBack, View};
use sagani_core::{Cell, TileId, Variant};
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

pub struct Scene<'a> {
    pub view: &'a View,
    /// A label per seat ("You", "Player 2", "mcts").
    pub names: &'a [String],
    /// The display in focus (Tab): the one shown when only one fits, framed in bold else.
    pub shown: u8,
    /// Marks drawn on the display in focus: the placement in progress, or a move's covered
    /// arrows.
    pub overlay: Option<&'a Overlay>,
    /// Per seat, the tiles placed lately (outlined).
    pub fresh: &'a [Vec<TileId>],
    /// The offer display by slot: a taken tile leaves its slot empty until the refill.
    pub offer: &'a [Option<TileId>],
    pub title: String,
    pub progress: Option<Progress>,
    pub numbered: Numbered,
    /// The bottom panel: a preview, a message, the result.
    pub info: Vec<Line<'static>>,
    /// The key reminder at the bottom.
    pub keys: String,
    /// The log, a numbered sentence a move (and the final round's start).
    pub log: &'a [String],
    /// Where what happened since the player's own last move begins in the log (none: the
    /// viewer, or nobody here to read it).
    pub since: Option<usize>,
    /// Lines the log is scrolled back from its end (PgUp).
    pub log_scroll: usize,
    /// A window over everything: help, the draw pile, or the end of the game.
    pub popup: Option<(String, Vec<Line<'static>>)>,
    /// Each seat's clock, in a game with a time control (`None` for a seat a bot plays).
    pub clocks: Option<Vec<Option<Clock>>>,
}

/// What the last frame drew where, for the mouse.
#[derive(Clone, Debug, Default)]
pub struct Hits {
    /// Offer slots and intermezzo storage tiles, by index.
    pub offer: Vec<(Rect, usize)>,
    pub storage: Vec<(Rect, usize)>,
    /// Each display drawn: its seat, where its cells are, and which cell is at its top left.
    pub boards: Vec<BoardHit>,
}

#[derive(Clone, Copy, Debug)]
pub struct BoardHit {
    pub seat: u8,
    pub area: Rect,
    pub left: i32,
    pub top: i32,
}

impl Hits {
    /// The display cell under a screen position, and whose display it is.
    pub fn cell(&self, col: u16, row: u16) -> Option<(u8, Cell)> {
        self.boards.iter().find_map(|b| {
            if !b.area.contains(Position::new(col, row)) {
                return None;
            }
            let (dx, dy) = (
                (col - b.area.x) as i32 / PITCH_X,
                (row - b.area.y) as i32 / PITCH_Y,
            );
            Some((b.seat, Cell::new(b.left + dx, b.top + dy)))
        })
    }
}

/// The players' column: wider with clocks.
fn side_width(scene: &Scene) -> u16 {
    if scene.clocks.is_some() {
        41
    } else {
        34
    }
}

/// Draws the table; `scrolls` holds each seat's scroll (in, and as used, out).
pub fn draw(f: &mut Frame, scene: &Scene, scrolls: &mut [(Scroll, Beyond)]) -> Hits {
    let area = f.area();
    let mut hits = Hits::default();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        too_small(f, area);
        return hits;
    }
    // A short screen gives the panel a line less, for the log.
    let panel = if area.height < 30 { 3 } else { 4 };
    let [header, strip, middle, info, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(5),
        Constraint::Min(8),
        Constraint::Length(panel),
        Constraint::Length(1),
    ])
    .areas(area);
    draw_header(f, header, scene);
    draw_strip(f.buffer_mut(), strip, scene, &mut hits);
    let [side, displays] =
        Layout::horizontal([Constraint::Length(side_width(scene)), Constraint::Min(39)])
            .areas(middle);
    draw_side(f, side, scene);
    let shown = panes(displays, scene.view.players, scene.shown);
    let many = shown.len() > 1;
    for (seat, pane) in shown {
        if let Some(scroll) = scrolls.get_mut(seat as usize) {
            if let Some(hit) = draw_display(f, pane, scene, seat, many, scroll) {
                hits.boards.push(hit);
            }
        }
    }
    f.render_widget(
        Paragraph::new(scene.info.clone()).wrap(Wrap { trim: false }),
        info,
    );
    f.render_widget(
        Paragraph::new(fit_keys(&scene.keys, keys.width as usize)).style(style::dim()),
        keys,
    );
    if let Some((title, lines)) = &scene.popup {
        popup(f, area, title, lines.clone());
        // Nothing under the window is clicked through it.
        hits = Hits::default();
    }
    hits
}

/// The key reminder in the width there is: items before the last (`q …`) are left out, the
/// least needed (the last but one) first.
fn fit_keys(keys: &str, width: usize) -> String {
    let mut items: Vec<&str> = keys.split(" · ").collect();
    while items.len() > 2 && items.join(" · ").chars().count() > width {
        items.remove(items.len() - 2);
    }
    items.join(" · ")
}

/// The displays shown and where: all of them when the screen has room (two side by side from
/// about 160 columns, four in two rows from about 200×60), else as many as fit, the one in
/// focus first and then the seats after it.
pub fn panes(area: Rect, players: u8, focus: u8) -> Vec<(u8, Rect)> {
    let n = players.max(1);
    let cols: u16 = if area.width >= 118 { 2 } else { 1 };
    let rows: u16 = if area.height >= 44 && n > 2 { 2 } else { 1 };
    let fit = (cols * rows).min(n as u16) as u8;
    let seats: Vec<u8> = if fit >= n {
        (0..n).collect()
    } else {
        (0..fit).map(|i| (focus + i) % n).collect()
    };
    let cols = cols.min(seats.len() as u16).max(1);
    let rows = (seats.len() as u16).div_ceil(cols).max(1);
    let row_areas = Layout::vertical(vec![Constraint::Ratio(1, rows as u32); rows as usize])
        .split(area)
        .to_vec();
    seats
        .iter()
        .enumerate()
        .map(|(i, &seat)| {
            let row = row_areas[i / cols as usize];
            let col_areas =
                Layout::horizontal(vec![Constraint::Ratio(1, cols as u32); cols as usize])
                    .split(row);
            (seat, col_areas[i % cols as usize])
        })
        .collect()
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

/// Columns per loose tile in the strip.
const LOOSE: u16 = FACE_W + 1;

/// The loose tiles: the revealed tile, the offer display (by slot), the intermezzo storage.
/// A group without room for its tiles drawn whole is listed by name instead; the group the
/// player chooses from now is drawn whole first.
fn draw_strip(buf: &mut Buffer, area: Rect, scene: &Scene, hits: &mut Hits) {
    let v = scene.view;
    let mut groups: Vec<(&str, Vec<Option<TileId>>, Numbered)> = Vec::new();
    if let Some(t) = v.revealed {
        groups.push(("Revealed", vec![Some(t)], Numbered::None));
    }
    if !v.variant.is_solo() {
        groups.push(("Offer", scene.offer.to_vec(), Numbered::Offer));
        let storage = v.intermezzo.iter().map(|&t| Some(t)).collect();
        groups.push(("Intermezzo storage", storage, Numbered::Storage));
    }
    let whole = |tiles: &[Option<TileId>], name: &str| {
        (tiles.len().max(1) as u16 * LOOSE + 1).max(name.len() as u16 + 2)
    };
    // Which groups are drawn whole: the one to choose from, then in order, while they fit.
    let mut full = vec![false; groups.len()];
    let mut room = area.width;
    let order = (0..groups.len())
        .filter(|&i| groups[i].2 == scene.numbered && scene.numbered != Numbered::None)
        .chain(0..groups.len());
    for i in order {
        if full[i] {
            continue;
        }
        let w = whole(&groups[i].1, groups[i].0);
        // Leave room for the others listed by name.
        let rest: u16 = (0..groups.len())
            .filter(|&j| j != i && !full[j])
            .map(|j| listed_width(&groups[j].1, groups[j].0))
            .sum();
        if w + rest <= room {
            full[i] = true;
            room -= w;
        }
    }
    let mut x = area.x;
    for (i, (name, tiles, kind)) in groups.iter().enumerate() {
        let numbers = scene.numbered == *kind && *kind != Numbered::None;
        let width = if full[i] {
            whole(tiles, name)
        } else {
            listed_width(tiles, name)
        };
        if x + width > area.right() + 1 {
            break;
        }
        buf.set_string(x, area.y, *name, style::bold());
        if tiles.is_empty() {
            buf.set_string(x, area.y + 2, "(empty)", style::dim());
        }
        for (k, slot) in tiles.iter().enumerate() {
            let (tx, ty, w) = if full[i] {
                (x + k as u16 * LOOSE, area.y + 1, FACE_W)
            } else {
                (x, area.y + 1 + k as u16, width - 1)
            };
            let Some(t) = *slot else {
                // A slot emptied by a take, kept until the refill.
                if full[i] {
                    buf.set_string(tx, ty + 1, "  (taken)", style::dim());
                }
                continue;
            };
            if full[i] {
                board::loose_tile(buf, tx, ty, t);
            }
            let label = match (numbers, full[i]) {
                (true, true) => format!("[{}] #{t}", k + 1),
                (false, true) => format!("#{t}"),
                (true, false) => format!("[{}] {}", k + 1, short_tile(t)),
                (false, false) => short_tile(t),
            };
            let s = if numbers { style::bold() } else { style::dim() };
            let ly = if full[i] { area.y + 4 } else { ty };
            if ly < area.bottom() {
                buf.set_string(tx, ly, label, s);
            }
            let rect = Rect::new(tx, ty, w, if full[i] { 4 } else { 1 });
            match kind {
                Numbered::Offer => hits.offer.push((rect, k)),
                Numbered::Storage => hits.storage.push((rect, k)),
                Numbered::None => {}
            }
        }
        x += width;
        // A thin line between groups.
        for row in 1..4 {
            buf.set_string(x - 1, area.y + row, "│", style::dim());
        }
    }
}

/// "F10 #9": a loose tile listed by name where it is not drawn.
fn short_tile(t: TileId) -> String {
    style::tile_name(t)
}

fn listed_width(tiles: &[Option<TileId>], name: &str) -> u16 {
    let widest = tiles
        .iter()
        .flatten()
        .map(|&t| short_tile(t).len() as u16 + 4)
        .max()
        .unwrap_or(7);
    widest.max(name.len() as u16) + 2
}

/// Players in ranking order, the state of the game, the log with what happened since the
/// player's move, as far as there is room.
fn draw_side(f: &mut Frame, area: Rect, scene: &Scene) {
    let v = scene.view;
    let width = area.width as usize;
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
            // A running clock is bold; under 30 seconds it is red and marked with "!" (which
            // reads without colour); a seat a bot plays has none.
            let (text, mut cs) = match clocks.get(s as usize).cloned().flatten() {
                Some(c) if c.low => (format!("!{}", c.text), style::error()),
                Some(c) => (c.text, Style::new()),
                None => ("—".to_string(), style::dim()),
            };
            if clocks
                .get(s as usize)
                .is_some_and(|c| c.as_ref().is_some_and(|c| c.running))
                || s == scene.shown
            {
                cs = cs.add_modifier(Modifier::BOLD);
            }
            row.push(Span::styled(format!("{text:>7}"), cs));
        }
        lines.push(Line::from(row));
    }
    // Ties on the score track: the marker that arrived first ranks ahead (RULES.md), as the
    // order above shows. Said where there is room to spare, and not at the start, when all
    // are at 0 (the help says it too).
    let tied = v.ranking.windows(2).any(|p| {
        let score = v.seats[p[0] as usize].score;
        score != 0 && score == v.seats[p[1] as usize].score
    });
    if tied && area.height >= 20 {
        lines.push(Line::styled(
            cut("ties: the first there ranks ahead", width),
            style::dim(),
        ));
    }
    if v.variant == Variant::SoloAll {
        if let Some(fs) = v.seats[0].final_score {
            lines.push(Line::raw(format!("final score now {fs}")));
        }
    }
    lines.extend(state_lines(scene, width));
    let room = (area.height as usize).saturating_sub(lines.len());
    lines.extend(story(scene, width, room));
    f.render_widget(Paragraph::new(lines), area);
}

/// The log in `room` lines: what happened since the player's move in whole sentences (the
/// latest first to get room), and above it the moves before, a line each; scrolled back
/// (PgUp), the log alone in whole sentences.
fn story(scene: &Scene, width: usize, room: usize) -> Vec<Line<'static>> {
    let log = scene.log;
    let mut out = Vec::new();
    if room < 2 {
        return out;
    }
    let scroll = scene.log_scroll.min(log.len().saturating_sub(1));
    let whole = |s: &str| -> Vec<Line<'static>> {
        wrap_hanging(s, width)
            .into_iter()
            .map(Line::raw)
            .collect::<Vec<_>>()
    };
    if scroll > 0 {
        out.push(Line::styled(
            cut(&format!("Moves, {scroll} back · PgDn: on"), width),
            style::dim(),
        ));
        let mut body: Vec<Vec<Line<'static>>> = Vec::new();
        let mut used = 0;
        for s in log[..log.len() - scroll].iter().rev() {
            let w = whole(s);
            if used + w.len() > room - 1 {
                if used < room - 1 {
                    body.push(vec![Line::raw(cut(s, width))]);
                }
                break;
            }
            used += w.len();
            body.push(w);
        }
        out.extend(body.into_iter().rev().flatten());
        return out;
    }
    let from = scene.since.unwrap_or(log.len()).min(log.len());
    let (older, since) = log.split_at(from);
    // A row kept for the moves before, when there are any.
    let keep = usize::from(!older.is_empty());
    let mut told: Vec<Vec<Line<'static>>> = Vec::new();
    if !since.is_empty() {
        // Every sentence a line at least (the latest, if not all fit), then whole sentences,
        // the latest first, while there is room.
        let budget = room.saturating_sub(keep + 1).max(1);
        let shown = &since[since.len().saturating_sub(budget)..];
        let mut extra = budget - shown.len();
        for s in shown.iter().rev() {
            let w = whole(s);
            if w.len() - 1 <= extra {
                extra -= w.len() - 1;
                told.push(w);
            } else {
                told.push(vec![Line::raw(cut(s, width))]);
            }
        }
    }
    let told_rows = told.iter().map(Vec::len).sum::<usize>() + usize::from(!told.is_empty());
    let left = room.saturating_sub(told_rows);
    let mut before: Vec<Vec<Line<'static>>> = Vec::new();
    // Above what happened since, the moves before need no heading of their own.
    let heading = usize::from(told.is_empty());
    if !older.is_empty() && left > heading {
        // Whole while they fit, else a line each.
        let budget = left - heading;
        let mut used = 0;
        for s in older.iter().rev() {
            let w = whole(s);
            let w = if used + w.len() <= budget {
                w
            } else {
                vec![Line::raw(cut(s, width))]
            };
            if used + w.len() > budget {
                break;
            }
            used += w.len();
            before.push(w);
        }
    }
    if !before.is_empty() {
        if heading == 1 {
            out.push(Line::styled(cut("Moves", width), style::dim()));
        }
        out.extend(
            before
                .into_iter()
                .rev()
                .flatten()
                .map(|l| l.style(style::dim())),
        );
    }
    if !told.is_empty() {
        out.push(Line::styled("Since your move", style::dim()));
        out.extend(told.into_iter().rev().flatten());
    }
    out
}

/// A sentence wrapped to `width`, its later lines indented under its first.
fn wrap_hanging(s: &str, width: usize) -> Vec<String> {
    let lines = wrap(s, width.saturating_sub(2));
    lines
        .into_iter()
        .enumerate()
        .map(|(k, l)| if k == 0 { l } else { format!("  {l}") })
        .collect()
}

/// The draw pile with its top and the goal; the start player and removed tiles, or in the
/// final round the turns left and who plays last.
fn state_lines(scene: &Scene, width: usize) -> Vec<Line<'static>> {
    let v = scene.view;
    let mut lines = Vec::new();
    let mut pile = vec![Span::raw(format!("Draw pile {}", v.draw_pile.count))];
    let mut used = pile[0].content.chars().count();
    if let Some(TileBack { element, value }) = v.draw_pile.top {
        pile.push(Span::raw(" · top "));
        pile.push(Span::styled(
            format!(" {}{value} ", element.letter()),
            style::letter(element),
        ));
        used += 7 + 2 + value.to_string().len() + 1;
    }
    let mut rest = Vec::new();
    if let Some(t) = v.target {
        let goal = format!(" · goal {t}");
        if used + goal.chars().count() <= width {
            pile.push(Span::raw(goal));
        } else {
            rest.push(format!("goal {t}"));
        }
    }
    lines.push(Line::from(pile));
    if v.final_round && !v.over {
        let loud = Style::new()
            .fg(Color::LightMagenta)
            .add_modifier(Modifier::BOLD);
        let text = match v.turns_left {
            Some(n) => format!("Final round: {} left", count(n as usize, "turn")),
            None => "Final round".to_string(),
        };
        let last = crate::words::plays_last(&scene.names[v.last_player as usize]);
        let one = format!("{text} · {last}");
        if one.chars().count() <= width {
            lines.push(Line::styled(one, loud));
        } else {
            lines.push(Line::styled(cut(&text, width), loud));
            lines.push(Line::styled(cut(&last, width), loud));
        }
        return lines;
    }
    if v.players > 1 {
        rest.insert(
            0,
            format!("start: {}", scene.names[v.start_player as usize]),
        );
    }
    if !v.removed.is_empty() {
        rest.push(format!("{} removed", v.removed.len()));
    }
    // As many lines as the items need, each whole.
    let mut line = String::new();
    for item in rest {
        if !line.is_empty() && line.chars().count() + 3 + item.chars().count() > width {
            lines.push(Line::raw(cut(&std::mem::take(&mut line), width)));
        }
        if !line.is_empty() {
            line.push_str(" · ");
        }
        line.push_str(&item);
    }
    if !line.is_empty() {
        lines.push(Line::raw(cut(&line, width)));
    }
    lines
}

fn cut(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        s.to_string()
    } else {
        let mut c: String = s.chars().take(width.saturating_sub(1)).collect();
        c.push('…');
        c
    }
}

/// Words into lines of at most `width` characters.
pub fn wrap(s: &str, width: usize) -> Vec<String> {
    let width = width.max(8);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// One display in its frame: the title names the player with their score and discs, in bold
/// (with ▶) for the display in focus.
fn draw_display(
    f: &mut Frame,
    area: Rect,
    scene: &Scene,
    seat: u8,
    many: bool,
    scroll: &mut (Scroll, Beyond),
) -> Option<BoardHit> {
    let v = scene.view;
    let s = v.seats.get(seat as usize)?;
    let focused = seat == scene.shown;
    // The title ends before the frame's last column, where ▲ says there is more above.
    let room = (area.width as usize).saturating_sub(3);
    let title_of = |of: &str| {
        format!(
            " {}{of}{} · {} · {} ",
            if focused && many { "▶ " } else { "" },
            scene.names[seat as usize],
            crate::words::count_signed(s.score, "point"),
            count(s.supply as usize, "disc"),
        )
    };
    let mut title = title_of("Display of ");
    if title.chars().count() > room {
        title = title_of("");
    }
    if v.players > 1 && !many && title.chars().count() + 12 <= room {
        title.push_str("(Tab: next) ");
    }
    let title = cut(&title, room);
    let mut block = Block::new()
        .borders(Borders::LEFT | Borders::TOP)
        .title(title);
    block = if focused {
        block
            .title_style(style::bold())
            .border_style(Style::new().add_modifier(Modifier::BOLD))
    } else {
        block.border_style(style::dim())
    };
    let inner = block.inner(area);
    f.render_widget(block, area);
    let overlay = scene.overlay.filter(|_| focused);
    let fresh = scene.fresh.get(seat as usize).map_or(&[][..], |f| &f[..]);
    f.render_stateful_widget(
        Board {
            seat: s,
            overlay,
            fresh,
        },
        inner,
        scroll,
    );
    if s.display.is_empty() && overlay.is_none() {
        f.buffer_mut().set_string(
            inner.x + 2,
            inner.y + 1,
            cut(
                "No tiles yet: the first one goes in the middle.",
                inner.width.saturating_sub(3) as usize,
            ),
            style::dim(),
        );
    }
    let (left, top) = scroll.1.origin;
    Some(BoardHit {
        seat,
        area: board::cells(inner),
        left,
        top,
    })
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

/// The tiles in the draw pile by element, as a window's lines (`d`).
pub fn pile_lines(view: &View) -> Vec<Line<'static>> {
    let p = &view.draw_pile;
    let mut lines = vec![Line::raw(format!(
        "{} face down; their order is hidden.",
        count(p.count, "tile")
    ))];
    for e in sagani_core::Element::ALL {
        let mut values: Vec<u8> = p
            .tiles
            .iter()
            .filter_map(|&t| sagani_core::tile(t))
            .filter(|t| t.element == e)
            .map(|t| t.value())
            .collect();
        values.sort_unstable();
        let list: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        lines.push(Line::from(vec![
            Span::styled(format!(" {} ", e.letter()), style::letter(e)),
            Span::raw(format!(
                " {:<6} {:>2}: {}",
                crate::words::element_words(e),
                values.len(),
                if list.is_empty() {
                    "none".to_string()
                } else {
                    list.join(" ")
                }
            )),
        ]));
    }
    if let Some(TileBack { element, value }) = p.top {
        lines.push(Line::raw(format!(
            "On top (its back shows): {}",
            tile_words_back(element, value)
        )));
    }
    lines.push(Line::raw(""));
    lines.push(Line::styled("any key closes this", style::dim()));
    lines
}

fn tile_words_back(e: sagani_core::Element, value: u8) -> String {
    format!("{} {value}", crate::words::element_words(e))
}

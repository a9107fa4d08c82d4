//! What happened, in a player's words: tiles as "Fire 10", places as "left of its Water 6",
//! what a placement did as "+12, covered 3 arrows", never grid coordinates or tile ids.

use sagani_core::view::{TileView, View};
use sagani_core::{tile, Element, Move, Preview, TileId};

/// "Fire 10": a tile by its element and value.
pub fn tile_words(id: TileId) -> String {
    match tile(id) {
        Some(t) => format!("{} {}", element_words(t.element), t.value()),
        None => format!("tile {id}"),
    }
}

/// "Fire": an element's name as a sentence writes it.
pub fn element_words(e: Element) -> String {
    let name = e.name();
    let mut c = name.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// "1 arrow", "3 arrows".
pub fn count(n: usize, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// "1 point", "−214 points": a score, below zero too.
pub fn count_signed(n: i16, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else if n < 0 {
        format!("−{} {one}s", n.unsigned_abs())
    } else {
        format!("{n} {one}s")
    }
}

/// Whose tiles a sentence speaks of: "your", "its" (a bot's) or "their" (a person's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whose {
    Yours,
    Its,
    Theirs,
}

impl Whose {
    fn word(self) -> &'static str {
        match self {
            Whose::Yours => "your",
            Whose::Its => "its",
            Whose::Theirs => "their",
        }
    }
}

const SIDES: [(i32, i32, &str); 4] = [
    (-1, 0, "left of"),
    (1, 0, "right of"),
    (0, -1, "above"),
    (0, 1, "below"),
];

/// Where tile `id` went on `display` (tiles in the order placed), by a neighbour placed before
/// it: "left of its Water 6", or "as its first tile".
pub fn place_words(display: &[TileView], id: TileId, whose: Whose) -> String {
    let Some(i) = display.iter().position(|t| t.tile == id) else {
        return String::new();
    };
    if i == 0 {
        return format!("as {} first tile", whose.word());
    }
    let me = &display[i];
    for (dx, dy, side) in SIDES {
        // The new tile is `side` its neighbour when the neighbour lies the other way.
        if let Some(n) = display[..i]
            .iter()
            .find(|d| d.x == me.x - dx && d.y == me.y - dy)
        {
            return format!("{side} {} {}", whose.word(), tile_words(n.tile));
        }
    }
    String::new()
}

/// "+12, covered 3 arrows, completed Fire 3, 1 Cacophony disc": what a placement did.
pub fn effect_words(pv: &Preview) -> String {
    let mut parts = Vec::new();
    // The same minus sign as the scores in the titles.
    match pv.score_change {
        0 => {}
        n if n < 0 => parts.push(format!("−{}", n.unsigned_abs())),
        n => parts.push(format!("+{n}")),
    }
    if !pv.covered.is_empty() {
        parts.push(format!("covered {}", count(pv.covered.len(), "arrow")));
    }
    if !pv.completed.is_empty() {
        let done: Vec<String> = pv.completed.iter().map(|&t| tile_words(t)).collect();
        parts.push(format!("completed {}", done.join(", ")));
    }
    if pv.cacophony > 0 {
        parts.push(count(pv.cacophony as usize, "Cacophony disc"));
    }
    parts.join(", ")
}

/// One move as a sentence, from the view after it: "mcts placed Fire 10 left of its Water 6:
/// +12, covered 3 arrows". `picked`: the placed tile came from the intermezzo storage.
pub fn move_words(
    who: &str,
    whose: Whose,
    mv: Move,
    effect: Option<&Preview>,
    after: &View,
    seat: u8,
    picked: bool,
) -> String {
    match mv {
        Move::Place { tile, .. } => {
            let display = after
                .seats
                .get(seat as usize)
                .map_or(&[][..], |s| &s.display[..]);
            let place = place_words(display, tile, whose);
            let took = if picked {
                format!(
                    "took {} from the intermezzo storage and placed it",
                    tile_words(tile)
                )
            } else {
                format!("placed {}", tile_words(tile))
            };
            let mut s = format!("{who} {took}");
            if !place.is_empty() {
                s.push(' ');
                s.push_str(&place);
            }
            let did = effect.map(effect_words).unwrap_or_default();
            if !did.is_empty() {
                s.push_str(": ");
                s.push_str(&did);
            }
            s
        }
        Move::Intermezzo { tile } => format!(
            "{who} stored {} for the intermezzo and drew a tile",
            tile_words(tile)
        ),
        Move::Pass => format!("{who} passed in the intermezzo"),
    }
}

/// "Bea plays last", "you play last".
pub fn plays_last(name: &str) -> String {
    if name == "You" {
        "you play last".to_string()
    } else {
        format!("{name} plays last")
    }
}

/// "The final round begins: 3 turns left, Bea plays last." None when the move that began it
/// also ended the game (the result says the rest).
pub fn final_round_words(view: &View, names: &[String]) -> Option<String> {
    if view.over {
        return None;
    }
    let last = names
        .get(view.last_player as usize)
        .map_or("", String::as_str);
    Some(match view.turns_left {
        Some(n) => format!(
            "The final round begins: {} left, {}.",
            count(n as usize, "turn"),
            plays_last(last)
        ),
        None => "The final round begins.".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sagani_core::{Game, Setup};

    #[test]
    fn tiles_and_places_in_words() {
        let id = (1..=72).find(|&t| tile(t).unwrap().value() == 10).unwrap();
        let t = tile(id).unwrap();
        assert_eq!(tile_words(id), format!("{} 10", element_words(t.element)));
        assert_eq!(element_words(Element::Water), "Water");
        // A game's first two placements by seat 0: the second lies next to the first.
        let mut g = Game::new(&Setup {
            start_player: Some(0),
            ..Setup::seeded(1, 3)
        })
        .unwrap();
        let first = g.legal_moves()[0];
        g.play(first).unwrap();
        let second = g.legal_moves()[0];
        g.play(second).unwrap();
        let view = g.view(None);
        let display = &view.seats[0].display;
        assert_eq!(
            place_words(display, display[0].tile, Whose::Yours),
            "as your first tile"
        );
        let (a, b) = (&display[0], &display[1]);
        let side = match (b.x - a.x, b.y - a.y) {
            (-1, 0) => "left of",
            (1, 0) => "right of",
            (0, -1) => "above",
            (0, 1) => "below",
            d => panic!("not next to it: {d:?}"),
        };
        assert_eq!(
            place_words(display, b.tile, Whose::Its),
            format!("{side} its {}", tile_words(a.tile))
        );
        assert_eq!(count(1, "disc"), "1 disc");
        assert_eq!(count_signed(-214, "point"), "−214 points");
        let lost = Preview {
            player: 0,
            tile: 23,
            x: 0,
            y: 1,
            rot: 0,
            covered: Vec::new(),
            completed: Vec::new(),
            points: 0,
            cacophony: 4,
            score_change: -8,
            score_after: -8,
            supply_after: 0,
            reaches_target: false,
        };
        assert_eq!(effect_words(&lost), "−8, 4 Cacophony discs");
        assert_eq!(plays_last("You"), "you play last");
        assert_eq!(plays_last("Bea"), "Bea plays last");
        assert_eq!(count(2, "disc"), "2 discs");
    }
}

#[cfg(test)]
mod final_round {
    use super::*;
    use sagani_core::{Game, Setup};

    /// A 2-player game played by the first legal move until the final round or the end.
    fn to_the_end() -> (View, View) {
        let mut g = Game::new(&Setup {
            start_player: Some(0),
            ..Setup::seeded(2, 8)
        })
        .unwrap();
        let mut in_final = None;
        while !g.is_over() {
            let mv = g.legal_moves()[0];
            g.play(mv).unwrap();
            let v = g.view(None);
            if v.final_round && !v.over && in_final.is_none() {
                in_final = Some(v);
            }
        }
        (in_final.expect("a final round"), g.view(None))
    }

    #[test]
    fn the_final_round_is_told_while_it_runs_and_never_once_over() {
        let names = vec!["You".to_string(), "Bea".to_string()];
        let (running, over) = to_the_end();
        let said = final_round_words(&running, &names).unwrap();
        assert!(said.starts_with("The final round begins: "), "{said}");
        assert!(!said.contains("0 turns"), "{said}");
        assert!(!said.contains("You plays"), "{said}");
        assert_eq!(final_round_words(&over, &names), None);
    }
}

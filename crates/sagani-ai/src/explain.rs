//! Why a bot chose a move, in one line of plain words: what the move does that the bot's
//! evaluation counts ("covers 2 arrows on Fire 10, keeps 6 discs"), and for a search how it
//! fared ("won 62% of 2,400 playouts").

use crate::Analysis;
use sagani_core::{tile, Game, Move, TileId};

/// "Fire 10".
fn tile_words(id: TileId) -> String {
    match tile(id) {
        Some(t) => {
            let name = t.element.name();
            let mut c = name.chars();
            let first: String = c
                .next()
                .map(|f| f.to_uppercase().collect())
                .unwrap_or_default();
            format!("{first}{} {}", c.as_str(), t.value())
        }
        None => format!("tile {id}"),
    }
}

fn plural(n: usize, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// "2,400".
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The reason for `mv` in `game` (the position it is played in), the move a bot chose, with
/// the search's rating of it when there is one (`value` from 0 to 1, `visits` its playouts).
pub fn reason(game: &Game, mv: Move, rated: Option<&Analysis>) -> String {
    words(game, mv, rated, "passes: no stored tile is worth taking")
}

/// What `mv` does, as one of several moves listed side by side (`sagani hint`): a pass listed
/// below a better move is no verdict on the stored tiles.
pub fn option(game: &Game, mv: Move, rated: Option<&Analysis>) -> String {
    words(game, mv, rated, "passes: takes no stored tile")
}

fn words(game: &Game, mv: Move, rated: Option<&Analysis>, pass: &str) -> String {
    let mut s = match mv {
        Move::Place { tile: t, .. } => match game.preview(mv) {
            Ok(pv) => {
                let mut parts = Vec::new();
                // Covered arrows by the tile they lie on, the new tile's own last.
                let mut on: Vec<(TileId, usize)> = Vec::new();
                for c in &pv.covered {
                    match on.iter_mut().find(|(id, _)| *id == c.tile) {
                        Some((_, n)) => *n += 1,
                        None => on.push((c.tile, 1)),
                    }
                }
                if on.is_empty() {
                    parts.push("covers no arrow".to_string());
                } else {
                    let list: Vec<String> = on
                        .iter()
                        .map(|&(id, n)| {
                            let what = if id == t {
                                "its own".to_string()
                            } else {
                                tile_words(id)
                            };
                            format!("{} on {what}", plural(n, "arrow"))
                        })
                        .collect();
                    parts.push(format!("covers {}", list.join(" and ")));
                }
                if !pv.completed.is_empty() {
                    let done: Vec<String> = pv.completed.iter().map(|&c| tile_words(c)).collect();
                    parts.push(format!("completes {} (+{})", done.join(", "), pv.points));
                }
                if pv.cacophony > 0 {
                    parts.push(format!(
                        "takes {} (−{})",
                        plural(pv.cacophony as usize, "Cacophony disc"),
                        2 * pv.cacophony
                    ));
                }
                parts.push(format!(
                    "keeps {}",
                    plural(pv.supply_after as usize, "disc")
                ));
                format!("{}: {}", tile_words(t), parts.join(", "))
            }
            Err(e) => format!("{}: {e}", tile_words(t)),
        },
        Move::Intermezzo { tile: t } => format!(
            "stores {} for the intermezzo and draws the top tile",
            tile_words(t)
        ),
        Move::Pass => pass.to_string(),
    };
    if let Some(a) = rated.filter(|a| a.visits > 1 && a.value.is_finite()) {
        if game.players() == 1 {
            // A solo playout ends in a number of tiles or a score, not in a win.
            let goal = match game.variant() {
                sagani_core::Variant::Solo => "1 is the fewest tiles to reach 75",
                _ => "higher is a better score",
            };
            s.push_str(&format!(
                "; search value {:.2} over {} playouts ({goal})",
                a.value,
                thousands(a.visits)
            ));
        } else {
            s.push_str(&format!(
                "; won {:.0}% of {} playouts",
                100.0 * a.value,
                thousands(a.visits)
            ));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use sagani_core::Setup;

    #[test]
    fn reasons_say_what_a_move_does_in_words() {
        let mut g = Game::new(&Setup::seeded(2, 3)).unwrap();
        let first = g.legal_moves()[0];
        let Move::Place { tile: t, .. } = first else {
            panic!()
        };
        let r = reason(&g, first, None);
        assert!(r.starts_with(&tile_words(t)), "{r}");
        assert!(r.contains("covers no arrow") && r.contains("keeps "), "{r}");
        assert!(!r.contains('#') && !r.contains("(0,0)"), "{r}");
        g.play(first).unwrap();
        let rated = Analysis {
            mv: first,
            value: 0.625,
            visits: 2400,
        };
        assert!(reason(&g, Move::Pass, Some(&rated)).ends_with("; won 62% of 2,400 playouts"));
        assert!(reason(&g, Move::Pass, None).contains("no stored tile is worth taking"));
        assert_eq!(option(&g, Move::Pass, None), "passes: takes no stored tile");
        let solo = Game::new(&Setup::seeded(1, 3)).unwrap();
        let r = reason(&solo, Move::Pass, Some(&rated));
        assert!(
            r.ends_with(
                "; search value 0.62 over 2,400 playouts (1 is the fewest tiles to reach 75)"
            ),
            "{r}"
        );
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(plural(1, "disc"), "1 disc");
    }
}

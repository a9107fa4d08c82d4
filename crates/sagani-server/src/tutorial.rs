//! The interactive tutorial: a solo game on a fixed deck, with a script (`web/tutorial.json`)
//! the page's coach follows. The server only deals the deck (`POST /api/games` with
//! `"tutorial": true`); the tests below replay every guided placement through the engine and
//! check what its words promise, so the page and the engine cannot disagree.

use sagani_core::TileId;
use serde::Deserialize;
use std::sync::OnceLock;

/// The script, as the page reads it (`/assets/tutorial.json`).
pub const SCRIPT_JSON: &str = include_str!("../../../web/tutorial.json");

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    /// The 72 tile ids, top of the draw pile first.
    pub deck: Vec<i64>,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Step {
    /// A placement the learner is guided to make: the revealed tile on (`x`, `y`), turned `rot`.
    Place {
        tile: TileId,
        x: i32,
        y: i32,
        rot: u8,
        /// The message key of the coach's words.
        text: String,
        expect: Expect,
    },
    /// An explanation with a Next button, for what a solo game cannot show.
    Card { text: String },
}

/// What the placement does, as the engine previews it.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Arrows that get a disc (of earlier tiles and of the new one).
    pub covered: usize,
    /// Tiles that flip, in the engine's order.
    pub completed: Vec<TileId>,
    /// Cacophony discs taken.
    pub cacophony: u16,
    pub score_after: i16,
    pub supply_after: u16,
}

/// The script, read once.
pub fn script() -> &'static Script {
    static SCRIPT: OnceLock<Script> = OnceLock::new();
    SCRIPT.get_or_init(|| serde_json::from_str(SCRIPT_JSON).expect("web/tutorial.json is a script"))
}

/// The tutorial's deck, top of the draw pile first.
pub fn deck() -> Vec<i64> {
    script().deck.clone()
}

/// The deck as the store keeps it.
pub(crate) fn deck_ids() -> Vec<TileId> {
    deck().into_iter().map(|t| t as TileId).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sagani_core::{DeckOrder, Game, Move, Setup, Variant};
    use serde_json::Value;

    fn tutorial_game() -> Game {
        Game::new(&Setup {
            players: 1,
            variant: Some(Variant::Solo),
            deck: DeckOrder::Explicit(deck()),
            start_player: None,
        })
        .expect("the tutorial deck starts a solo game")
    }

    #[test]
    fn tutorial_every_guided_step_does_what_the_script_expects() {
        let mut game = tutorial_game();
        let mut placed = 0;
        for (i, step) in script().steps.iter().enumerate() {
            let Step::Place {
                tile,
                x,
                y,
                rot,
                expect,
                ..
            } = step
            else {
                continue;
            };
            assert_eq!(
                game.revealed(),
                Some(*tile),
                "step {i}: the revealed tile is the script's"
            );
            if placed == 0 {
                assert_eq!((*x, *y), (0, 0), "the first tile goes on (0,0)");
            }
            let mv = Move::Place {
                tile: *tile,
                x: *x,
                y: *y,
                rot: *rot,
            };
            let p = game.preview(mv).unwrap_or_else(|e| panic!("step {i}: {e}"));
            let got = Expect {
                covered: p.covered.len(),
                completed: p.completed.clone(),
                cacophony: p.cacophony,
                score_after: p.score_after,
                supply_after: p.supply_after,
            };
            assert_eq!(
                &got, expect,
                "step {i}: tile {tile} on ({x},{y}) turned {rot}"
            );
            game.play(mv).expect("a previewed placement is legal");
            placed += 1;
            assert_eq!(game.score(0), expect.score_after);
            assert_eq!(game.supply(0), expect.supply_after);
            assert!(!game.is_over(), "the game goes on after the guided steps");
        }
        assert!(placed > 0);
    }

    #[test]
    fn tutorial_teaches_covering_completing_cacophony_and_a_growing_score() {
        let places: Vec<&Expect> = script()
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Place { expect, .. } => Some(expect),
                Step::Card { .. } => None,
            })
            .collect();
        assert!((8..=12).contains(&places.len()), "about 8 to 12 placements");
        let first = |f: &dyn Fn(&Expect) -> bool| places.iter().position(|e| f(e));
        let covers = first(&|e| e.covered > 0 && e.completed.is_empty()).expect("an arrow covered");
        let completes = first(&|e| !e.completed.is_empty()).expect("a tile completed");
        let cacophony = first(&|e| e.cacophony > 0).expect("Cacophony taken");
        assert!(
            covers < completes && completes < cacophony,
            "one thing at a time"
        );
        let last = places.last().unwrap();
        assert!(last.score_after > places[cacophony].score_after + 10);
        assert!(last.score_after > 0);
    }

    /// Every message the script names exists in both catalogues.
    #[test]
    fn tutorial_texts_are_in_every_catalogue() {
        for (lang, text) in [
            ("en", include_str!("../../../web/i18n/en.json")),
            ("de", include_str!("../../../web/i18n/de.json")),
        ] {
            let catalogue: Value = serde_json::from_str(text).expect("a catalogue");
            for step in &script().steps {
                let (Step::Place { text, .. } | Step::Card { text }) = step;
                assert!(text.starts_with("tutorial."), "{text}");
                assert!(
                    catalogue.get(text).is_some(),
                    "{text} is missing in {lang}.json"
                );
            }
        }
    }

    #[test]
    fn tutorial_script_has_no_unknown_fields() {
        // serde's internally tagged enums take unknown fields silently: check them here.
        let raw: Value = serde_json::from_str(SCRIPT_JSON).unwrap();
        for step in raw["steps"].as_array().unwrap() {
            let keys: Vec<&str> = step
                .as_object()
                .unwrap()
                .keys()
                .map(|k| k.as_str())
                .collect();
            let allowed: &[&str] = match step["kind"].as_str() {
                Some("place") => &["kind", "tile", "x", "y", "rot", "text", "expect"],
                Some("card") => &["kind", "text"],
                other => panic!("unknown step kind {other:?}"),
            };
            for k in keys {
                assert!(allowed.contains(&k), "unknown field {k} in {step}");
            }
        }
    }
}

/// How the script was found: a beam search over placements, run by hand
/// (`cargo test -p sagani-server tutorial_search -- --ignored --nocapture`). Step 1 puts a
/// 2-arrow tile on (0,0); step 2 covers one of its arrows and nothing else; step 3 completes it;
/// then tiles of 3 or 4 arrows that complete nothing, until the placement `CACOPHONY` takes 1 or
/// 2 Cacophony discs; the last placement completes as much as it can. The beam prefers
/// nearly complete tiles, discs on the display and a compact display. It prints the best
/// scripts; their decks are the placed tiles, then the rest in any order. (The script in use
/// came from this search with small random tie-breaks added; without them it finds others of
/// the same shape. Its step texts then had to be written for it: they name directions.)
#[cfg(test)]
mod search {
    use sagani_core::{tile, Cell, DeckOrder, Game, Move, Setup, Variant};

    const CACOPHONY: usize = 8;
    const WIDTH: usize = 400;

    type Placement = (u8, i32, i32, u8);

    fn game_after(moves: &[Placement], next: u8) -> Game {
        let mut deck: Vec<i64> = moves.iter().map(|m| m.0 as i64).collect();
        deck.push(next as i64);
        deck.extend((1..=72).filter(|t| !deck.contains(t)).collect::<Vec<_>>());
        let mut g = Game::new(&Setup {
            players: 1,
            variant: Some(Variant::Solo),
            deck: DeckOrder::Explicit(deck),
            start_player: None,
        })
        .unwrap();
        for &(tile, x, y, rot) in moves {
            g.play(Move::Place { tile, x, y, rot }).unwrap();
        }
        g
    }

    fn arrows(t: u8) -> u8 {
        tile(t).unwrap().arrow_count()
    }

    /// Nearly complete tiles, covered arrows and discs on the display; a compact display.
    fn promise(g: &Game) -> f64 {
        let d = g.display(0);
        let (mut x0, mut x1, mut y0, mut y1, mut f) = (0, 0, 0, 0, 0.0);
        for p in d.tiles() {
            (x0, x1) = (x0.min(p.cell.x), x1.max(p.cell.x));
            (y0, y1) = (y0.min(p.cell.y), y1.max(p.cell.y));
            if p.flipped {
                continue;
            }
            let open = p.uncovered.count_ones();
            f += (p.arrows().count_ones() - open) as f64;
            if open == 1 {
                f += 3.0 + arrows(p.tile) as f64 * 0.5;
            }
        }
        f + d.discs_on_unflipped() as f64 - 0.15 * ((x1 - x0 + 1) * (y1 - y0 + 1)) as f64
    }

    #[test]
    #[ignore]
    fn tutorial_search() {
        let mut beam: Vec<(Vec<Placement>, f64)> = vec![(vec![], 0.0)];
        for step in 1..=CACOPHONY + 1 {
            let mut kids = Vec::new();
            for (moves, _) in &beam {
                let first = moves.first().map(|m| m.0).unwrap_or(0);
                for t in (1..=72u8).filter(|t| !moves.iter().any(|m| m.0 == *t)) {
                    if (step == 1 && arrows(t) != 2)
                        || ((2..CACOPHONY).contains(&step) && arrows(t) < 3)
                    {
                        continue;
                    }
                    let g = game_after(moves, t);
                    let cells: Vec<Cell> = g.display(0).open_cells().collect();
                    for c in cells {
                        for rot in 0..if step == 1 { 1 } else { 4 } {
                            let mv = Move::Place {
                                tile: t,
                                x: c.x,
                                y: c.y,
                                rot,
                            };
                            let Ok(p) = g.preview(mv) else { continue };
                            let bonus = match step {
                                1 => 0.0,
                                2 if p.covered.len() == 1 && p.covered[0].tile == first => 0.0,
                                3 if p.completed == [first] => {
                                    -1.5 * (p.covered.len() as f64 - 1.0)
                                }
                                s if s > 3
                                    && s < CACOPHONY
                                    && p.completed.is_empty()
                                    && p.cacophony == 0 =>
                                {
                                    if p.covered.is_empty() {
                                        -2.0
                                    } else {
                                        0.0
                                    }
                                }
                                s if s == CACOPHONY
                                    && p.completed.is_empty()
                                    && (1..=2).contains(&p.cacophony) =>
                                {
                                    -(p.cacophony as f64)
                                }
                                s if s == CACOPHONY + 1
                                    && !p.completed.is_empty()
                                    && p.cacophony == 0 =>
                                {
                                    p.points as f64 + 5.0 * (p.completed.len() as f64 - 1.0)
                                }
                                _ => continue,
                            };
                            let mut after = g.clone();
                            after.play(mv).unwrap();
                            let mut next = moves.clone();
                            next.push((t, c.x, c.y, rot));
                            let h = if step == CACOPHONY + 1 {
                                bonus + p.score_after as f64 * 0.5
                            } else {
                                promise(&after) + bonus
                            };
                            kids.push((next, h));
                        }
                    }
                }
            }
            kids.sort_by(|a, b| b.1.total_cmp(&a.1));
            // At most 6 children per parent, so the beam keeps some variety.
            let mut per = std::collections::HashMap::<Vec<Placement>, usize>::new();
            beam = kids
                .into_iter()
                .filter(|(m, _)| {
                    let n = per.entry(m[..m.len() - 1].to_vec()).or_default();
                    *n += 1;
                    *n <= 6 || m.len() == 1
                })
                .take(WIDTH)
                .collect();
            assert!(!beam.is_empty(), "no script reaches step {step}");
        }
        for (moves, h) in beam.iter().take(3) {
            println!("{h:.1}: {moves:?}");
        }
    }
}

//! The last placements of a solo game played exactly for the symphony: with few placements
//! left that can still make one (75 points with 25 tiles or fewer), every draw is counted out
//! and every placement tried, so each placement of the tile in hand gets its true chance of a
//! symphony when the later ones are made for it. The search's playouts only estimate that
//! chance, and only among the candidates its policy ranks first.

use crate::sampler::PileSampler;
use sagani_core::view::{TileBack, View};
use sagani_core::{Gain, Game, Move, TileId, Variant, SOLO_TARGET, SYMPHONY_TILES};

/// The most placements counted out: three take a few hundred milliseconds where the score is
/// near 75, four would take minutes.
pub const MAX_DEPTH: u8 = 3;

/// Each legal placement of the tile in hand with its chance of a symphony, every later
/// placement made for it and every draw's chance counted out (the player sees the next tile's
/// back, as at the table). `None` unless the game is the standard solo game with at most
/// `depth` placements left that can still make a symphony (this one included; `MAX_DEPTH` at
/// most).
pub fn symphony_chances(view: &View, depth: u8) -> Option<Vec<(Move, f64)>> {
    let g = PileSampler::new(view).any_game(view).ok()?;
    if g.variant() != Variant::Solo || g.is_over() {
        return None;
    }
    let left = SYMPHONY_TILES.checked_sub(g.display(0).len() as u8)?;
    if left == 0 || left > depth.min(MAX_DEPTH) {
        return None;
    }
    let pile = &view.draw_pile.tiles;
    // The tiles the pile's top can be, by the back it shows.
    let tops: Vec<TileId> = match view.draw_pile.top {
        Some(back) => pile
            .iter()
            .copied()
            .filter(|&t| TileBack::of(t) == back)
            .collect(),
        None => Vec::new(),
    };
    let mut scratch = Vec::new();
    Some(
        g.legal_moves()
            .into_iter()
            .map(|mv| {
                let c = chance_of(&g, view, mv, left, &tops, &mut scratch);
                (mv, c)
            })
            .collect(),
    )
}

/// The chance of a symphony from placing `mv` in `g` (seen as `view`, the pile's top one of
/// `tops`) with `left` placements that count, this one included.
fn chance_of(
    g: &Game,
    view: &View,
    mv: Move,
    left: u8,
    tops: &[TileId],
    scratch: &mut Vec<(Move, Gain)>,
) -> f64 {
    let Ok(gain) = g.gain(mv) else {
        return 0.0;
    };
    if g.score(0) + gain.score_change >= SOLO_TARGET {
        return 1.0;
    }
    if left <= 1 || tops.is_empty() {
        return 0.0;
    }
    if left == 2 {
        // Which tile comes next changes nothing until it is placed: one game for all.
        let mut g1 = g.clone();
        g1.play(mv).expect("legal moves are legal");
        let reach = reaching(&g1, tops, scratch);
        return reach.iter().filter(|&&r| r).count() as f64 / tops.len() as f64;
    }
    let pile = &view.draw_pile.tiles;
    let mut sum = 0.0;
    for &t in tops {
        let mut order = vec![t];
        order.extend(pile.iter().copied().filter(|&x| x != t));
        let mut g1 = Game::from_view(view, &order).expect("a view's own pile rebuilds it");
        g1.play(mv).expect("legal moves are legal");
        sum += best_of_two(&g1, &order[1..], scratch);
    }
    sum / tops.len() as f64
}

/// `g` has just revealed its next tile with two placements left that count: the chance of a
/// symphony when it is placed for it, over the backs the tile after it (one of `rest`) can
/// show, each back's best placement chosen when it is seen.
fn best_of_two(g: &Game, rest: &[TileId], scratch: &mut Vec<(Move, Gain)>) -> f64 {
    if g.is_over() || rest.is_empty() {
        return 0.0;
    }
    // The backs `rest` can show, and which of its tiles show each.
    let mut backs: Vec<TileBack> = Vec::new();
    let of: Vec<usize> = rest
        .iter()
        .map(|&t| {
            let b = TileBack::of(t);
            backs.iter().position(|&x| x == b).unwrap_or_else(|| {
                backs.push(b);
                backs.len() - 1
            })
        })
        .collect();
    let mut shown = vec![0usize; backs.len()];
    for &k in &of {
        shown[k] += 1;
    }
    let mut best = vec![0.0f64; backs.len()];
    for b in g.legal_moves() {
        let Ok(gain) = g.gain(b) else { continue };
        if g.score(0) + gain.score_change >= SOLO_TARGET {
            return 1.0;
        }
        let mut g2 = g.clone();
        g2.play(b).expect("legal moves are legal");
        let reach = reaching(&g2, rest, scratch);
        let mut hits = vec![0usize; backs.len()];
        for (i, _) in reach.iter().enumerate().filter(|r| *r.1) {
            hits[of[i]] += 1;
        }
        for k in 0..backs.len() {
            best[k] = best[k].max(hits[k] as f64 / shown[k] as f64);
        }
        if best.iter().all(|&x| x >= 1.0) {
            return 1.0;
        }
    }
    (0..backs.len())
        .map(|k| shown[k] as f64 / rest.len() as f64 * best[k])
        .sum()
}

/// For each of `tiles`, whether placing it next in `g` (just after a placement) can reach 75.
fn reaching(g: &Game, tiles: &[TileId], scratch: &mut Vec<(Move, Gain)>) -> Vec<bool> {
    let mut reach = vec![false; tiles.len()];
    if g.is_over() {
        return reach;
    }
    let need = SOLO_TARGET - g.score(0);
    // A placement scores only the tiles it flips: itself, and earlier tiles whose one open
    // arrow it covers (one arrow of each at most), each arrow asking for its own element.
    let mut one_open = [0i16; 4];
    for p in g.display(0).tiles().filter(|p| !p.flipped) {
        if p.uncovered.count_ones() == 1 {
            one_open[p.uncovered.trailing_zeros() as usize / 8] +=
                TileBack::of(p.tile).value as i16;
        }
    }
    let hopeful: Vec<TileId> = tiles
        .iter()
        .copied()
        .filter(|&t| {
            let back = TileBack::of(t);
            back.value as i16 + one_open[back.element.index()] >= need
        })
        .collect();
    if hopeful.is_empty() {
        return reach;
    }
    // One pass over the display for all of them.
    g.gains_of(&hopeful, scratch);
    for (mv, gain) in scratch.iter() {
        if let (Move::Place { tile, .. }, true) = (mv, gain.score_change >= need) {
            if let Some(i) = tiles.iter().position(|t| t == tile) {
                reach[i] = true;
            }
        }
    }
    reach
}

/// Puts the root's placements with the best chance of a symphony first, keeping the search's
/// order among equal chances; a placement the search did not grow that has the best chance
/// comes first where none it grew has (with no visits). Unchanged where no placement has a
/// chance: then only the tiles used are left to play for, and the search plays for them.
pub fn order_by_chance(root: &mut Vec<crate::Analysis>, chances: &[(Move, f64)]) {
    // Chances are sums of fractions: compare them to a billionth.
    let key = |c: f64| (c * 1e9).round() as i64;
    let Some(best) = chances.iter().map(|c| key(c.1)).max() else {
        return;
    };
    if best == 0 {
        return;
    }
    let of = |mv: Move| chances.iter().find(|c| c.0 == mv).map_or(0, |c| key(c.1));
    if !root.iter().any(|a| of(a.mv) == best) {
        let mv = chances
            .iter()
            .find(|c| key(c.1) == best)
            .expect("the best is one")
            .0;
        root.insert(
            0,
            crate::Analysis {
                mv,
                value: 0.0,
                visits: 0,
            },
        );
    }
    root.sort_by_key(|a| std::cmp::Reverse(of(a.mv)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solo_tune::solo_game;
    use crate::td::{Scratch, Td};
    use crate::Bot;

    /// Deck `deck` played by the learned value until `placed` tiles are down (None if the
    /// game ends first).
    fn played_to(deck: u64, placed: usize) -> Option<Game> {
        let mut g = solo_game(deck);
        let mut s = Scratch::default();
        while g.display(0).len() < placed {
            let (mv, _) = Td::trained().best(&g, &mut s, 0.4)?;
            g.play(mv).ok()?;
            if g.is_over() {
                return None;
            }
        }
        Some(g)
    }

    /// Positions with `placed` tiles down where some placement has a chance and some has
    /// none, from the first decks that have one.
    fn telling(placed: usize, depth: u8, want: usize) -> Vec<(Game, Vec<(Move, f64)>)> {
        let mut found = Vec::new();
        for deck in 1..400 {
            let Some(g) = played_to(deck, placed) else {
                continue;
            };
            let c = symphony_chances(&g.view(Some(0)), depth).expect("the end is near");
            if c.iter().any(|x| x.1 > 0.0) && c.iter().any(|x| x.1 == 0.0) {
                found.push((g, c));
                if found.len() == want {
                    break;
                }
            }
        }
        assert_eq!(found.len(), want, "decks with a telling position");
        found
    }

    #[test]
    fn the_last_placement_counts_only_what_reaches_75() {
        for (g, chances) in telling(24, 1, 3) {
            assert_eq!(chances.len(), g.legal_moves().len());
            for (mv, c) in chances {
                let mut after = g.clone();
                after.play(mv).unwrap();
                let symphony = matches!(
                    after.outcome(),
                    Some(sagani_core::Outcome::Solo { symphony: true, .. })
                );
                assert_eq!(c, symphony as u8 as f64, "{mv:?}");
            }
        }
    }

    /// The chance of a symphony from placing `mv` in `g`, `left` placements counting, worked
    /// out the slow way: every tile the top can be put on top of the pile in turn (and every
    /// back the tile after it can show), every placement played on a copy of the game.
    fn by_play(g: &Game, mv: Move, left: u8) -> f64 {
        let mut after = g.clone();
        after.play(mv).unwrap();
        if after.score(0) >= SOLO_TARGET {
            return 1.0;
        }
        let view = g.view(Some(0));
        let pile = view.draw_pile.tiles.clone();
        let Some(back) = view.draw_pile.top else {
            return 0.0;
        };
        if left == 1 {
            return 0.0;
        }
        let tops: Vec<TileId> = pile
            .iter()
            .copied()
            .filter(|&t| TileBack::of(t) == back)
            .collect();
        let mut sum = 0.0;
        for &t in &tops {
            let rest: Vec<TileId> = pile.iter().copied().filter(|&x| x != t).collect();
            // One tile for each back the next can show, with the share of the tiles showing it.
            let mut seconds: Vec<(f64, TileId)> = Vec::new();
            for &u in &rest {
                match seconds
                    .iter_mut()
                    .find(|s| TileBack::of(s.1) == TileBack::of(u))
                {
                    Some(s) => s.0 += 1.0 / rest.len() as f64,
                    None => seconds.push((1.0 / rest.len() as f64, u)),
                }
            }
            if left == 2 || seconds.is_empty() {
                seconds = vec![(1.0, rest.first().copied().unwrap_or(t))];
            }
            for (share, u) in seconds {
                let mut order = vec![t];
                if u != t {
                    order.push(u);
                }
                order.extend(rest.iter().copied().filter(|&x| x != u));
                let mut g1 = Game::from_view(&view, &order).unwrap();
                g1.play(mv).unwrap();
                let best = if g1.is_over() {
                    0.0
                } else {
                    g1.legal_moves()
                        .into_iter()
                        .map(|m| by_play(&g1, m, left - 1))
                        .fold(0.0, f64::max)
                };
                sum += share * best;
            }
        }
        sum / tops.len() as f64
    }

    /// Two placements left: a placement's chance is the share of the tiles the pile's top
    /// can be (by its back) after which some placement reaches 75.
    #[test]
    fn two_placements_left_count_every_draw_the_back_allows() {
        for (g, chances) in telling(23, 2, 4) {
            for (mv, c) in chances {
                assert!((c - by_play(&g, mv, 2)).abs() < 1e-9, "{mv:?}: {c}");
            }
        }
    }

    /// Three placements left: the tile after next shows its back before the next one is
    /// placed, so the next placement is chosen for each back.
    #[test]
    fn three_placements_left_choose_the_next_placement_by_the_back_after_it() {
        let mut split = 0;
        for (g, chances) in telling(22, 3, 1) {
            let mut sorted = chances.clone();
            sorted.sort_by(|a, b| b.1.total_cmp(&a.1));
            // The slow way is slow: the best three, and two with no chance.
            let zeros = sorted.iter().filter(|c| c.1 == 0.0).take(2);
            for &(mv, c) in sorted.iter().take(3).chain(zeros) {
                let slow = by_play(&g, mv, 3);
                assert!((c - slow).abs() < 1e-9, "{mv:?}: {c} against {slow}");
                split += (c > 0.0 && c < 1.0) as usize;
            }
        }
        assert!(split > 0, "some chance between 0 and 1 was checked");
    }

    #[test]
    fn it_says_nothing_before_the_end_or_outside_the_solo_game() {
        let g = played_to(1, 22).expect("deck 1 lasts 22 tiles");
        assert!(symphony_chances(&g.view(Some(0)), 2).is_none());
        let g = played_to(1, 23).expect("deck 1 lasts 23 tiles");
        assert!(symphony_chances(&g.view(Some(0)), 2).is_some());
        let two = Game::seeded(2, 1).unwrap();
        assert!(symphony_chances(&two.view(Some(0)), 25).is_none());
        let g = played_to(1, 25).map(|g| g.view(Some(0)));
        if let Some(v) = g {
            assert!(
                symphony_chances(&v, 3).is_none(),
                "no symphony after 25 tiles"
            );
        }
    }

    #[test]
    fn the_best_chance_goes_first_and_the_search_orders_the_rest() {
        let g = played_to(1, 20).unwrap();
        let m = g.legal_moves();
        let a = |i: usize, visits| crate::Analysis {
            mv: m[i],
            value: 0.5,
            visits,
        };
        let mut root = vec![a(0, 90), a(1, 50), a(2, 40), a(3, 10)];
        order_by_chance(&mut root, &[(m[2], 0.5), (m[3], 0.5), (m[0], 0.25)]);
        let order: Vec<Move> = root.iter().map(|r| r.mv).collect();
        assert_eq!(order, vec![m[2], m[3], m[0], m[1]]);
        // A placement the search did not grow comes first where it alone has the best.
        order_by_chance(&mut root, &[(m[4], 1.0), (m[2], 0.5)]);
        assert_eq!((root[0].mv, root[0].visits), (m[4], 0));
        assert_eq!(root[1].mv, m[2]);
        // No chance anywhere: the search's order stands.
        let before: Vec<Move> = root.iter().map(|r| r.mv).collect();
        order_by_chance(&mut root, &[(m[1], 0.0)]);
        assert_eq!(root.iter().map(|r| r.mv).collect::<Vec<_>>(), before);
    }

    /// `mcts/solo_endgame=2` plays a placement with the best chance, where a short search
    /// alone would not always.
    #[test]
    fn the_search_plays_the_best_chance_when_told() {
        let budget = crate::Budget {
            time: None,
            iterations: Some(20),
        };
        let mut worse_alone = 0;
        for (g, chances) in telling(23, 2, 4) {
            let best = chances.iter().map(|c| c.1).fold(0.0, f64::max);
            let chance = |mv: Move| chances.iter().find(|c| c.0 == mv).unwrap().1;
            let (view, legal) = (g.view(Some(0)), g.legal_moves());
            let cfg = crate::MctsConfig {
                threads: 1,
                ..crate::MctsConfig::default()
            };
            let told = crate::MctsConfig {
                solo_endgame: 2,
                ..cfg.clone()
            };
            let mut told = crate::Mcts::new(7, told);
            assert_eq!(chance(told.choose(&view, &legal, budget).mv), best);
            let mut alone = crate::Mcts::new(7, cfg);
            worse_alone += (chance(alone.choose(&view, &legal, budget).mv) < best) as usize;
        }
        assert!(
            worse_alone > 0,
            "a search of 20 iterations misses some best chance"
        );
    }
}

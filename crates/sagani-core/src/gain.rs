//! Quick, read-only assessment of placements: what one would score and cost, without cloning
//! the game. For bots that weigh hundreds of placements per decision.

use crate::display::{Spot, SpotGain, WORTH_PER_ARROW};
use crate::game::Game;
use crate::geometry::Cell;
use crate::moves::{IllegalMove, Move};
use crate::tiles::{TileId, ARROWS_OF, ARROW_MASKS, ELEMENT_OF};

/// What a placement would do for the player who makes it (`Game::gain`). The same numbers as
/// `Game::preview`, without the lists of arrows and tiles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gain {
    /// Values of the tiles that would flip (earlier ones and the new one).
    pub points: i16,
    /// Cacophony discs the placement would cost.
    pub cacophony: u16,
    /// `points - 2 * cacophony`.
    pub score_change: i16,
    /// Arrows of earlier tiles that get a disc.
    pub covered: u8,
    /// Tiles that would flip, the new one included.
    pub completed: u8,
    /// Arrows of the new tile covered at once.
    pub own_covered: u8,
    /// Arrows of the new tile left open (each holds a disc until the tile flips).
    pub own_open: u8,
    /// Those arrows, as bits `element * 8 + direction` (directions after rotation).
    pub open_arrows: u32,
    /// Discs in the supply afterwards.
    pub supply_after: u16,
    /// Progress towards tiles that do not flip yet, in half points: for each arrow covered
    /// (earlier tiles' and the new tile's own), twice its tile's value per arrow (2, 3, 4, 5
    /// for tiles of 1, 2, 3, 4 arrows).
    pub worth: u16,
}

impl Game {
    fn gain_at(&self, seat: u8, tile: TileId, rot: u8, spot: &Spot, sg: SpotGain) -> Gain {
        let arrows = ARROW_MASKS[tile as usize][rot as usize];
        let covers = spot.covers_own(arrows);
        let own_covered = covers.count_ones() as u8;
        let need = ARROWS_OF[tile as usize];
        let new_completes = own_covered == need;
        // The same rules as a real placement, on a copy of the seat. Which returning discs are
        // Cacophony changes no number here: 0 will do.
        let mut after = self.seats[seat as usize];
        let cacophony = after
            .settle_discs(tile, sg.points, sg.discs, 0, new_completes)
            .shortfall;
        let score_change = after.score - self.seats[seat as usize].score;
        Gain {
            points: score_change + 2 * cacophony as i16,
            cacophony,
            score_change,
            covered: sg.covered,
            completed: sg.completed + new_completes as u8,
            own_covered,
            own_open: need - own_covered,
            open_arrows: arrows & !covers,
            supply_after: after.supply,
            worth: sg.worth
                + if new_completes {
                    0
                } else {
                    own_covered as u16 * WORTH_PER_ARROW[tile as usize] as u16
                },
        }
    }

    /// What a placement would do, without doing it; the error says why it is not legal.
    pub fn gain(&self, mv: Move) -> Result<Gain, IllegalMove> {
        let Move::Place { tile, x, y, rot } = mv else {
            return Err(IllegalMove::NotAPlacement);
        };
        let (seat, _, spot) = self.check_place(tile, Cell::new(x, y), rot)?;
        let sg = self.displays[seat as usize].spot_gain(&spot, ELEMENT_OF[tile as usize]);
        Ok(self.gain_at(seat, tile, rot, &spot, sg))
    }

    /// Every legal placement for whoever must act, with its gain, into `out` (cleared first).
    /// The intermezzo choice and passing are not placements and are not listed.
    pub fn placement_gains(&self, out: &mut Vec<(Move, Gain)>) {
        self.gains_of(self.placeable(), out);
    }

    /// What placing each of `tiles` on any open cell in any rotation would do for whoever must
    /// act, into `out` (cleared first), whether or not the tiles can be placed now: for bots
    /// that weigh a tile they might get (the intermezzo's reveal). Nothing when nobody acts.
    pub fn gains_of(&self, tiles: &[TileId], out: &mut Vec<(Move, Gain)>) {
        out.clear();
        let Some(seat) = self.to_act() else { return };
        let display = &self.displays[seat as usize];
        for (i, cell) in display.open_cells().enumerate() {
            // One pass over the display per element, shared by its tiles and rotations.
            let mut by_elem: [Option<(Spot, SpotGain)>; 4] = [None; 4];
            for &tile in tiles {
                let elem = ELEMENT_OF[tile as usize];
                let (spot, sg) = *by_elem[elem as usize].get_or_insert_with(|| {
                    let spot = display.open_spot(i, elem);
                    (spot, display.spot_gain(&spot, elem))
                });
                for rot in 0..4 {
                    out.push((
                        Move::place(tile, cell, rot),
                        self.gain_at(seat, tile, rot, &spot, sg),
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn gains_of_a_tile_not_on_offer_are_what_placing_it_would_do() {
        // The tile on top of the pile is weighed as if the player to act placed it: the same
        // numbers as placing it after the intermezzo choice reveals it.
        let mut rng = SmallRng::seed_from_u64(4);
        let mut gains = Vec::new();
        let mut checked = 0;
        for seed in 0..60u64 {
            let mut game = Game::seeded(2 + (seed % 3) as u8, seed).unwrap();
            while !game.is_over() {
                if game
                    .legal_moves()
                    .iter()
                    .any(|m| matches!(m, Move::Intermezzo { .. }))
                {
                    let top = game.deck[game.next_draw as usize];
                    game.gains_of(&[top], &mut gains);
                    let mut revealed = game.clone();
                    let stored = game.offer()[0];
                    revealed.play(Move::Intermezzo { tile: stored }).unwrap();
                    let mut expected = Vec::new();
                    revealed.placement_gains(&mut expected);
                    assert_eq!(gains, expected, "seed {seed}");
                    checked += 1;
                }
                let moves = game.legal_moves();
                game.play(moves[rng.random_range(0..moves.len())]).unwrap();
            }
        }
        assert!(checked > 20, "only {checked} intermezzo choices came up");
    }

    #[test]
    fn gains_agree_with_preview_for_every_legal_placement() {
        let mut rng = SmallRng::seed_from_u64(9);
        let mut gains = Vec::new();
        for seed in 0..120u64 {
            let mut game = Game::seeded((seed % 4 + 1) as u8, seed).unwrap();
            while !game.is_over() {
                game.placement_gains(&mut gains);
                let placements: Vec<Move> = game
                    .legal_moves()
                    .into_iter()
                    .filter(|m| matches!(m, Move::Place { .. }))
                    .collect();
                assert_eq!(gains.len(), placements.len());
                for (k, &(mv, g)) in gains.iter().enumerate() {
                    assert!(placements.contains(&mv));
                    assert_eq!(g.open_arrows.count_ones(), g.own_open as u32);
                    if k % 7 == 0 {
                        // The arrows it leaves open are those the placed tile has uncovered.
                        let seat = game.to_act().unwrap();
                        let mut after = game.clone();
                        after.play(mv).unwrap();
                        let d = after.display(seat);
                        let placed = d.tile_at_index(d.len() - 1);
                        assert_eq!(placed.uncovered, g.open_arrows, "{mv:?}");
                    }
                    let p = game.preview(mv).unwrap();
                    assert_eq!(game.gain(mv).unwrap(), g);
                    assert_eq!(g.points, p.points);
                    assert_eq!(g.cacophony, p.cacophony);
                    assert_eq!(g.score_change, p.score_change);
                    assert_eq!(g.supply_after, p.supply_after);
                    assert_eq!(g.completed as usize, p.completed.len());
                    let own = p.covered.iter().filter(|c| c.tile == p.tile).count();
                    assert_eq!(g.own_covered as usize, own);
                    assert_eq!(g.covered as usize, p.covered.len() - own);
                    let worth: u16 = p
                        .covered
                        .iter()
                        .filter(|c| !p.completed.contains(&c.tile))
                        .map(|c| {
                            let t = crate::tile(c.tile).unwrap();
                            2 * t.value() as u16 / t.arrow_count() as u16
                        })
                        .sum();
                    assert_eq!(g.worth, worth);
                    assert_eq!(
                        (g.own_covered + g.own_open) as usize,
                        crate::tile(p.tile).unwrap().arrows.iter().flatten().count()
                    );
                }
                let moves = game.legal_moves();
                game.play(moves[rng.random_range(0..moves.len())]).unwrap();
            }
        }
        assert!(Game::seeded(2, 1).unwrap().gain(Move::Pass).is_err());
    }
}

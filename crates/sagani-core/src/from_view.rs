//! Rebuilding a game from what one seat sees, with a draw pile order of the caller's choosing.
//!
//! This is how a bot searches without knowing the hidden order: it takes its `View`, guesses an
//! order for the tiles it knows are in the pile (a "determinization"), and plays on the result.

use crate::display::Display;
use crate::game::{Game, Phase, Seat, SetupError, MAX_PLAYERS, OFFER_SIZE, STORAGE_SIZE};
use crate::geometry::Cell;
use crate::tiles::{TileId, TILE_COUNT};
use crate::view::{TileBack, View};
use crate::view_error::ViewError;
use crate::Expect;

fn err<T>(e: ViewError) -> Result<T, SetupError> {
    Err(SetupError::View(e))
}

/// A set of tile ids as bits, refusing unknown ids and repeats.
fn tile_set(tiles: &[TileId], what: &'static str) -> Result<u128, SetupError> {
    let mut set = 0u128;
    for &t in tiles {
        if t == 0 || t as usize > TILE_COUNT {
            return err(ViewError::NoSuchTile { what, tile: t });
        }
        if set >> t & 1 == 1 {
            return err(ViewError::Twice { what, tile: t });
        }
        set |= 1 << t;
    }
    Ok(set)
}

impl Game {
    /// The game a view describes, with `pile` (top first) as the draw pile's order. `pile` must
    /// hold exactly the view's `draw_pile.tiles`. The result plays on exactly like the real game
    /// would if its pile were in that order.
    pub fn from_view(view: &View, pile: &[TileId]) -> Result<Game, SetupError> {
        let players = view.players;
        if !(1..=MAX_PLAYERS as u8).contains(&players) || view.seats.len() != players as usize {
            return err(ViewError::Seats {
                players,
                seats: view.seats.len(),
            });
        }
        if view.offer.len() > OFFER_SIZE || view.intermezzo.len() > STORAGE_SIZE {
            return err(ViewError::TooLarge);
        }
        if tile_set(pile, "pile")? != tile_set(&view.draw_pile.tiles, "draw pile")? {
            return err(ViewError::NotTheViewsPile);
        }
        if let (Some(&top), Some(back)) = (pile.first(), view.draw_pile.top) {
            if TileBack::of(top) != back {
                return err(ViewError::WrongTop {
                    tile: top,
                    element: back.element.to_string(),
                    value: back.value,
                });
            }
        }
        let phase = match (view.next, view.revealed) {
            (None, _) => Phase::Over,
            (Some(next), revealed) => match (next.expects, revealed) {
                (Expect::Turn, None) => Phase::Turn,
                (Expect::PlaceDrawn, Some(t)) => Phase::PlaceDrawn(t),
                (Expect::PlaceRevealed, Some(t)) => Phase::PlaceRevealed(t),
                (Expect::IntermezzoPick, None) => {
                    let queue = &view.intermezzo_queue;
                    if queue.is_empty() || queue.len() > players as usize {
                        return err(ViewError::IntermezzoQueue);
                    }
                    // Seats that already acted come first; their order no longer matters.
                    let mut order = [0u8; MAX_PLAYERS];
                    let done = (0..players).filter(|s| !queue.contains(s));
                    for (i, s) in done.chain(queue.iter().copied()).enumerate() {
                        if i >= players as usize || s >= players {
                            return err(ViewError::IntermezzoSeats);
                        }
                        order[i] = s;
                    }
                    Phase::Intermezzo {
                        order,
                        pos: players - queue.len() as u8,
                        taken: view.intermezzo_taken,
                    }
                }
                (e, r) => {
                    return err(ViewError::Expectation {
                        expects: e.name(),
                        revealed: format!("{r:?}"),
                    })
                }
            },
        };
        if view.current_player >= players || view.start_player >= players {
            return err(ViewError::NoSuchPlayer);
        }

        let mut seats = [Seat::default(); MAX_PLAYERS];
        let mut displays: [Display; MAX_PLAYERS] = std::array::from_fn(|_| Display::new());
        let mut on_table = 0u128;
        for (s, sv) in view.seats.iter().enumerate() {
            // The supply's Cacophony discs are those taken that are not on a tile.
            let on_tiles: u16 = sv.display.iter().map(|t| t.cacophony as u16).sum();
            let supply_cacophony = sv
                .cacophony
                .checked_sub(on_tiles)
                .filter(|&c| c <= sv.supply)
                .ok_or(SetupError::View(ViewError::Cacophony { seat: s }))?;
            seats[s] = Seat {
                score: sv.score,
                supply: sv.supply,
                cacophony: sv.cacophony,
                supply_cacophony,
                arrival: sv.arrival,
            };
            // Replaying the display in its order rebuilds its arrows and open cells exactly:
            // which arrows are covered depends only on where the tiles lie and in what order.
            for t in &sv.display {
                let bit = tile_set(&[t.tile], "display")?;
                if on_table & bit != 0 || t.rot > 3 {
                    return err(ViewError::WrongTile {
                        seat: s,
                        tile: t.tile,
                    });
                }
                on_table |= bit;
                let elem = crate::tiles::ELEMENT_OF[t.tile as usize];
                let spot = displays[s].spot(Cell::new(t.x, t.y), elem).map_err(|_| {
                    SetupError::View(ViewError::Misplaced {
                        seat: s,
                        tile: t.tile,
                        x: t.x,
                        y: t.y,
                    })
                })?;
                displays[s].place(t.tile, t.rot, spot, &mut ());
            }
            // Cacophony discs lie on unflipped tiles only, at most one per arrow.
            for (i, t) in sv.display.iter().enumerate() {
                if t.cacophony > 0 {
                    let placed = displays[s].tile_at_index(i);
                    if placed.flipped || t.cacophony > crate::tiles::ARROWS_OF[t.tile as usize] {
                        return err(ViewError::Cacophony { seat: s });
                    }
                    displays[s].set_cacophony(i, t.cacophony);
                }
            }
        }

        let mut offer = [0; OFFER_SIZE];
        offer[..view.offer.len()].copy_from_slice(&view.offer);
        let mut storage = [0; STORAGE_SIZE];
        storage[..view.intermezzo.len()].copy_from_slice(&view.intermezzo);
        let removed = tile_set(&view.removed, "removed")?;
        let pile_set = tile_set(pile, "pile")?;
        let revealed = tile_set(view.revealed.as_slice(), "revealed")?;
        let parts = [
            on_table,
            tile_set(&view.offer, "offer")?,
            tile_set(&view.intermezzo, "storage")?,
            removed,
            revealed,
            pile_set,
        ];
        let mut all = 0u128;
        for p in parts {
            if all & p != 0 {
                return err(ViewError::TwoPlaces);
            }
            all |= p;
        }
        if all != ((1u128 << TILE_COUNT) - 1) << 1 {
            return err(ViewError::Not72);
        }

        // Tiles that left the pile first (their order no longer matters), then the pile.
        let mut deck = [0; TILE_COUNT];
        let gone = (1..=TILE_COUNT as u8).filter(|&t| pile_set >> t & 1 == 0);
        for (slot, t) in deck.iter_mut().zip(gone.chain(pile.iter().copied())) {
            *slot = t;
        }
        Ok(Game {
            variant: view.variant,
            players,
            start: view.start_player,
            current: view.current_player,
            phase,
            final_round: view.final_round,
            next_draw: (TILE_COUNT - pile.len()) as u8,
            offer,
            offer_len: view.offer.len() as u8,
            storage,
            storage_len: view.intermezzo.len() as u8,
            removed,
            placements: view.placements,
            seats,
            displays,
            deck,
        })
    }

    /// Puts the draw pile in a new order (top first); `pile` must hold exactly its tiles.
    /// For searches that guess the hidden order again and again from one rebuilt game.
    pub fn set_draw_pile(&mut self, pile: &[TileId]) -> Result<(), SetupError> {
        let start = self.next_draw as usize;
        if tile_set(pile, "pile")? != tile_set(&self.deck[start..], "draw pile")? {
            return err(ViewError::NotTheGamesPile);
        }
        self.deck[start..].copy_from_slice(pile);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    /// Plays random moves (intermezzo choices and passes included) on both games at once.
    fn step(a: &mut Game, b: &mut Game, rng: &mut SmallRng) {
        let moves = a.legal_moves();
        let mv = moves[rng.random_range(0..moves.len())];
        a.play(mv).unwrap();
        b.play(mv).unwrap();
    }

    #[test]
    fn a_game_rebuilt_from_a_view_with_the_true_order_plays_on_identically() {
        let mut rng = SmallRng::seed_from_u64(5);
        for seed in 0..300u64 {
            let players = (seed % 4 + 1) as u8;
            let variant = match seed % 8 {
                0 => Some(crate::Variant::SoloAll),
                _ => None,
            };
            let setup = crate::Setup {
                variant: if players == 1 { variant } else { None },
                ..crate::Setup::seeded(players, seed)
            };
            let mut game = Game::new(&setup).unwrap();
            let cut = rng.random_range(0..60);
            for _ in 0..cut {
                if game.is_over() {
                    break;
                }
                let moves = game.legal_moves();
                game.play(moves[rng.random_range(0..moves.len())]).unwrap();
            }
            let seat = game.to_act();
            let view = game.view(seat);
            let pile = game.deck()[game.next_draw as usize..].to_vec();
            let mut copy = Game::from_view(&view, &pile).unwrap();
            assert_eq!(copy.view(seat), view, "seed {seed}");
            assert_eq!(copy.legal_moves(), game.legal_moves(), "seed {seed}");
            while !game.is_over() {
                step(&mut game, &mut copy, &mut rng);
                assert_eq!(copy.view(None), game.view(None), "seed {seed}");
            }
        }
    }

    /// The view's pile tiles with one whose back fits on top.
    fn fitting(view: &View) -> Vec<TileId> {
        let back = view.draw_pile.top.unwrap();
        let mut pile = view.draw_pile.tiles.clone();
        let i = pile
            .iter()
            .position(|&t| {
                let t = crate::tile(t).unwrap();
                (t.element, t.value()) == (back.element, back.value)
            })
            .unwrap();
        pile.swap(0, i);
        pile
    }

    #[test]
    fn from_view_refuses_a_pile_that_is_not_the_views() {
        let game = Game::seeded(2, 3).unwrap();
        let view = game.view(Some(0));
        let mut pile = view.draw_pile.tiles.clone();
        pile.pop();
        assert!(Game::from_view(&view, &pile).is_err());
        pile.push(view.offer[0]);
        assert!(Game::from_view(&view, &pile).is_err());
        let mut g = Game::from_view(&view, &fitting(&view)).unwrap();
        let mut rev = view.draw_pile.tiles.clone();
        rev.reverse();
        g.set_draw_pile(&rev).unwrap();
        assert_eq!(g.draw_pile_tiles(), view.draw_pile.tiles);
        assert!(g.set_draw_pile(&rev[1..]).is_err());
        // A top tile whose back is not the one on the table.
        let back = view.draw_pile.top.unwrap();
        let wrong = view
            .draw_pile
            .tiles
            .iter()
            .position(|&t| {
                let t = crate::tile(t).unwrap();
                (t.element, t.value()) != (back.element, back.value)
            })
            .unwrap();
        let mut pile = view.draw_pile.tiles.clone();
        pile.swap(0, wrong);
        let e = Game::from_view(&view, &pile).unwrap_err();
        assert!(
            matches!(e, SetupError::View(ViewError::WrongTop { .. })),
            "{e}"
        );
        assert!(e.to_string().contains("cannot be on top"), "{e}");
        let mut bad = view.clone();
        bad.seats[0].score = 3;
        bad.offer[1] = bad.offer[0];
        let e = Game::from_view(&bad, &fitting(&view)).unwrap_err();
        assert!(
            matches!(e, SetupError::View(ViewError::Twice { .. })),
            "{e}"
        );
        assert!(e.to_string().contains("appears twice"), "{e}");
    }
}

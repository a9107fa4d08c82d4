//! Arbitrary moves fed to `play`: no panic; a refused move leaves the game unchanged; an
//! accepted one keeps the disc and score invariants.
//!
//! Bytes: players (1 byte), seed (8 bytes), then moves of 5 bytes each:
//! kind, tile, x, y, rot. Kind % 4 == 0 plays a legal move chosen by the tile byte, so games get
//! deep; otherwise the move is taken as it is (placement, intermezzo choice or pass).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sagani_core::{tile, Game, Move};

fuzz_target!(|data: &[u8]| {
    if data.len() < 9 {
        return;
    }
    let players = data[0] % 4 + 1;
    let seed = u64::from_le_bytes(data[1..9].try_into().unwrap());
    let mut game = Game::seeded(players, seed).expect("1 to 4 players");
    for m in data[9..].chunks_exact(5) {
        let mv = match m[0] % 4 {
            0 => {
                let legal = game.legal_moves();
                if legal.is_empty() {
                    return;
                }
                legal[m[1] as usize * 257 % legal.len()]
            }
            1 => Move::Intermezzo { tile: m[1] },
            2 if m[4] > 250 => Move::Pass,
            _ => Move::Place {
                tile: m[1],
                x: m[2] as i8 as i32,
                y: m[3] as i8 as i32,
                rot: m[4] % 6,
            },
        };
        let before = game.clone();
        match game.play(mv) {
            Ok(()) => {
                assert!(before.legal_moves().contains(&mv));
                for s in 0..players {
                    let d = game.display(s);
                    assert_eq!(
                        game.supply(s) + d.discs_on_unflipped(),
                        24 + game.cacophony(s)
                    );
                    let flipped: i32 = d
                        .tiles()
                        .filter(|t| t.flipped)
                        .map(|t| tile(t.tile).unwrap().value() as i32)
                        .sum();
                    assert_eq!(game.score(s) as i32, flipped - 2 * game.cacophony(s) as i32);
                }
            }
            Err(_) => {
                assert_eq!(game, before, "a refused move changed the game");
                assert!(!before.legal_moves().contains(&mv));
            }
        }
    }
});

//! Secrets: decks, seat tokens and invite codes from the operating system's randomness
//! (tokens and invites are kept only as SHA-256 hashes).

use rand::seq::SliceRandom;
use rand::{Rng, RngCore};
use sagani_core::{TileId, TILE_COUNT};
use sha2::{Digest, Sha256};
use std::fmt::Write;

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// `bytes` random bytes as lowercase hex (rand's thread generator: a CSPRNG seeded by the OS).
pub fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut buf);
    hex(&buf)
}

pub fn random_seed() -> u64 {
    rand::rng().next_u64()
}

/// A uniform number in `0..n`.
pub fn random_below(n: u32) -> u32 {
    rand::rng().random_range(0..n.max(1))
}

/// The 72 tiles in a uniformly random order, top of the draw pile first.
pub fn random_deck() -> Vec<TileId> {
    let mut deck: Vec<TileId> = (1..=TILE_COUNT as TileId).collect();
    deck.shuffle(&mut rand::rng());
    deck
}

/// The SHA-256 of a secret, as stored and compared.
pub fn hash(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_and_differ() {
        let a = random_hex(32);
        let b = random_hex(32);
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
    }

    #[test]
    fn hash_is_sha256() {
        assert_eq!(
            hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}

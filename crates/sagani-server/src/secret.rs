//! Secrets: decks, seat tokens and invite codes from the operating system's randomness
//! (tokens and invites are kept only as SHA-256 hashes).

use rand::seq::SliceRandom;
use rand::{Rng, RngCore};
use sagani_core::{TileId, TILE_COUNT};
use sha2::{Digest, Sha256};
use std::fmt::Write;

/// The name of the server secret the daily challenge's decks are derived from.
pub const DAILY: &str = "daily";

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

/// HMAC-SHA256 of `message` under `key` (RFC 2104): a keyed hash nobody can work out without
/// the key. Written out over `sha2` (the `hmac` crate in the lock file is for another `digest`).
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    const BLOCK: usize = 64;
    let mut padded = [0u8; BLOCK];
    if key.len() > BLOCK {
        padded[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        padded[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| padded.map(|k| k ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 4231, test cases 2 and 6 (a short key, and a key longer than a block).
    #[test]
    fn hmac_is_rfc_4231s() {
        assert_eq!(
            hex(&hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(
            hex(&hmac_sha256(
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            )),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

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

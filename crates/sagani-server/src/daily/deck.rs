//! The day's deck: the 72 tiles in an order derived from the server's secret with the day and
//! the variant, so it is the same for everyone that day, different the next, and unknown before
//! the day to anyone without the secret (which never leaves the database).

use super::Day;
use crate::secret::hmac_sha256;
use sagani_core::{TileId, Variant, TILE_COUNT};

/// The deck of `day`'s challenge in `variant`, top of the draw pile first.
pub fn deck(secret: &str, day: Day, variant: Variant) -> Vec<TileId> {
    let mut stream = Stream::new(secret, &format!("sagani daily deck {day} {variant}"));
    let mut deck: Vec<TileId> = (1..=TILE_COUNT as TileId).collect();
    // Fisher-Yates, from the top down.
    for i in (1..deck.len()).rev() {
        let j = stream.below(i as u64 + 1) as usize;
        deck.swap(i, j);
    }
    deck
}

/// Random numbers: block `k` is HMAC-SHA256(secret, "`label` `k`"). Written out here (not a
/// library's generator), so a day's deal never changes with a library's version: a server
/// upgraded at noon deals the morning's deck.
struct Stream {
    key: Vec<u8>,
    label: String,
    block: u64,
    bytes: [u8; 32],
    used: usize,
}

impl Stream {
    fn new(secret: &str, label: &str) -> Stream {
        Stream {
            key: secret.as_bytes().to_vec(),
            label: label.to_string(),
            block: 0,
            bytes: [0; 32],
            used: 32,
        }
    }

    fn next_u64(&mut self) -> u64 {
        if self.used + 8 > self.bytes.len() {
            let message = format!("{} {}", self.label, self.block);
            self.bytes = hmac_sha256(&self.key, message.as_bytes());
            self.block += 1;
            self.used = 0;
        }
        let mut word = [0; 8];
        word.copy_from_slice(&self.bytes[self.used..self.used + 8]);
        self.used += 8;
        u64::from_le_bytes(word)
    }

    /// A uniform number in `0..n` (rejection sampling: no value more likely than another).
    fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deck_is_every_tile_once_and_depends_on_secret_day_and_variant() {
        let day = Day::parse("2026-12-03").unwrap();
        let a = deck("secret one", day, Variant::Solo);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (1..=72).collect::<Vec<TileId>>());
        assert_eq!(
            a,
            deck("secret one", day, Variant::Solo),
            "the same for everyone"
        );
        assert_ne!(
            a,
            deck("secret two", day, Variant::Solo),
            "another server's"
        );
        assert_ne!(
            a,
            deck("secret one", day.next(), Variant::Solo),
            "the next day's"
        );
        assert_ne!(
            a,
            deck("secret one", day, Variant::SoloAll),
            "the other variant's"
        );
    }

    /// The deal is fixed by this file alone: a change to it would deal the players of one day
    /// two decks. These first tiles were worked out apart from this code, by Python's `hmac`
    /// module and the same Fisher-Yates over the same stream.
    #[test]
    fn the_deal_never_changes() {
        let d = deck("fixed", Day::parse("2026-12-03").unwrap(), Variant::Solo);
        assert_eq!(&d[..6], &FIRST_TILES);
    }

    const FIRST_TILES: [TileId; 6] = [13, 52, 21, 9, 17, 45];

    /// Every tile comes first about as often as any other, over many days.
    #[test]
    fn the_first_tile_is_uniform() {
        let mut counts = [0u32; 73];
        for n in 0..7200 {
            counts[deck("s", Day(20_000 + n), Variant::Solo)[0] as usize] += 1;
        }
        // 100 expected each; a fair deal stays well inside this.
        assert!(
            counts[1..].iter().all(|&c| (50..=160).contains(&c)),
            "{counts:?}"
        );
    }
}

//! Arbitrary bytes as a game record: parsing and replay never panic, and a record that replays
//! replays the same way through both entry points.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sagani_core::record::{replay_json, Record};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let streamed = replay_json(text);
    let parsed = Record::from_json(text).and_then(|r| r.replay());
    if let (Ok((_, a)), Ok(b)) = (&streamed, &parsed) {
        assert_eq!(a, b);
    }
    if let Ok((record, game)) = streamed {
        // What replays, re-serialises and replays again to the same game.
        let again = replay_json(&record.to_json()).expect("a replayed record replays").1;
        assert_eq!(again, game);
    }
});

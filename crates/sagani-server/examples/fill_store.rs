//! Fills a store with finished games, to measure what a large database costs a server (start-up
//! time, memory): `cargo run --release -p sagani-server --example fill_store -- DB GAMES`.
//! DB is a SQLite file or a postgres:// URL. The games are random 2- to 4-player games played
//! to the end by the engine; a few hundred distinct ones are stored again under new ids.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sagani_core::record::RecordedGame;
use sagani_core::{DeckOrder, Setup, Variant};
use sagani_server::store::{self, replay, SavedGame, SavedMove, SavedSeat};
use std::sync::Arc;

const DISTINCT: usize = 300;

fn finished_game(rng: &mut SmallRng) -> SavedGame {
    let players = rng.random_range(2..=4u8);
    let (deck, start_player) = sagani_core::shuffled_deck(rng.random(), players);
    let setup = Setup {
        players,
        variant: Some(Variant::Standard),
        deck: DeckOrder::Explicit(deck.iter().map(|&t| t as i64).collect()),
        start_player: Some(start_player),
    };
    let mut game = RecordedGame::new(&setup).expect("a valid setup");
    let mut moves = Vec::new();
    while let Some(seat) = game.game().to_act() {
        let legal = game.game().legal_moves();
        let mv = legal[rng.random_range(0..legal.len())];
        game.play(mv).expect("a legal move");
        moves.push(SavedMove { seat, mv, at_ms: 0 });
    }
    SavedGame {
        id: String::new(),
        created_at: 1_700_000_000,
        variant: Variant::Standard,
        deck: deck.to_vec(),
        start_player,
        public: false,
        creator: "127.0.0.1".into(),
        host: None,
        rated: false,
        practice: false,
        seats: (0..players)
            .map(|_| SavedSeat::Human {
                invite_hash: "0".repeat(64),
                token_hash: Some("1".repeat(64)),
                name: None,
                player: None,
                left: None,
            })
            .collect(),
        moves,
        rev: 0,
        rematch: None,
        clock: Default::default(),
        started_ms: None,
        ended: None,
        chats: 0,
        daily: None,
        ratings: Vec::new(),
    }
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(db), Some(Ok(games))) = (args.get(1), args.get(2).map(|n| n.parse::<usize>())) else {
        return Err("usage: fill_store DB GAMES".into());
    };
    let store = store::open(db, false).await.map_err(|e| e.to_string())?;
    let mut rng = SmallRng::seed_from_u64(1);
    let distinct: Arc<Vec<SavedGame>> = Arc::new(
        (0..DISTINCT.min(games))
            .map(|_| finished_game(&mut rng))
            .collect(),
    );
    let started = std::time::Instant::now();
    // A few writers at once: PostgreSQL commits them side by side.
    let writers = 8;
    let mut tasks = Vec::new();
    for w in 0..writers {
        let (store, distinct) = (store.clone(), distinct.clone());
        tasks.push(tokio::spawn(async move {
            for i in (w..games).step_by(writers) {
                let mut g = distinct[i % distinct.len()].clone();
                g.id = format!("fill{i:08}");
                g.created_at += i as i64;
                let after = replay::progress(&replay::replay(&g).expect("replays"), &g.seats);
                store.import(&g, after).await.map_err(|e| e.to_string())?;
            }
            Ok::<(), String>(())
        }));
    }
    for t in tasks {
        t.await.map_err(|e| e.to_string())??;
    }
    let counts = store.counts().await.map_err(|e| e.to_string())?;
    println!(
        "{games} finished games stored in {:.0?}; the store holds {} games, {} open",
        started.elapsed(),
        counts.games,
        counts.open
    );
    Ok(())
}

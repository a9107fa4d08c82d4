//! A bounded load generator for the Sagani game server: many concurrent 2-player games over
//! HTTP, every seat a fast random player, each game paced like people who think between moves.
//! Every request goes to one of the given servers chosen at random, so with several instances
//! on one database each game is played through all of them. It measures accepted moves per
//! second and the latency of move and state requests.
//!
//! It speaks only HTTP and the protocol's JSON (`sagani_protocol`), so it tests any build of
//! the server without linking it.

mod error;
mod latency;
mod player;

pub use error::{Failure, LoadError, RequestError};
pub use latency::{Latency, Percentiles};

use player::{Run, Tally};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// The servers, e.g. `http://127.0.0.1:8080`: instances of one game server on one
    /// database, since any request of a game may go to any of them.
    pub urls: Vec<String>,
    /// Games in play at once; a game that ends is replaced by a new one.
    pub games: usize,
    /// Target moves per second over all games (each game moves every `games / rate` seconds).
    pub rate: f64,
    /// How long to measure.
    pub duration: Duration,
    /// Seeds the choice of server and of move: the same seed makes the same choices.
    pub seed: u64,
}

#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    pub elapsed: Duration,
    /// Moves accepted inside the measured window.
    pub moves: u64,
    /// Every move the servers acknowledged, warm-up and wind-down included.
    pub acknowledged: u64,
    /// Every game this run created, with the number of moves acknowledged in it (they come
    /// in order, so all of them must be stored).
    pub acknowledged_by_game: HashMap<String, u64>,
    pub games_started: u64,
    pub games_finished: u64,
    /// Requests that failed (an error status other than 429, or no answer).
    pub errors: u64,
    pub rate_limited: u64,
    /// Requests sent to each server (retries included), in the order of `LoadConfig::urls`.
    pub requests: Vec<u64>,
    /// Move request latencies (POST /moves), in milliseconds.
    pub move_ms: Percentiles,
    /// State request latencies (GET /api/games/{id}), in milliseconds.
    pub state_ms: Percentiles,
    pub first_error: Option<String>,
}

/// Runs the load against `cfg.urls` and measures it. The window opens two seconds after the
/// start, once all games exist.
pub async fn run(cfg: LoadConfig) -> Result<LoadReport, LoadError> {
    if cfg.games == 0 || !(cfg.rate > 0.0 && cfg.rate.is_finite()) {
        return Err(LoadError::Settings);
    }
    if cfg.urls.is_empty() {
        return Err(LoadError::NoServer);
    }
    let urls: Vec<String> = cfg
        .urls
        .iter()
        .map(|u| u.trim_end_matches('/').to_string())
        .collect();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(cfg.games * 2)
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(LoadError::Client)?;
    // Check every server is there before starting hundreds of games.
    for url in &urls {
        client
            .get(format!("{url}/healthz"))
            .send()
            .await
            .and_then(|r| r.error_for_status())
            .map_err(|source| LoadError::Absent {
                url: url.clone(),
                source,
            })?;
    }
    let every = Duration::from_secs_f64(cfg.games as f64 / cfg.rate);
    let start = Instant::now() + Duration::from_secs(2);
    let run = Arc::new(Run {
        client,
        start,
        end: start + cfg.duration,
        tally: Mutex::new(Tally {
            requests: vec![0; urls.len()],
            ..Tally::default()
        }),
        urls,
    });
    player::play_all(run.clone(), cfg.games, every, cfg.seed).await?;
    let t = std::mem::take(&mut *run.tally.lock().expect("tally"));
    Ok(LoadReport {
        elapsed: cfg.duration,
        moves: t.moves,
        acknowledged: t.acknowledged,
        acknowledged_by_game: t.acknowledged_by_game,
        games_started: t.games_started,
        games_finished: t.games_finished,
        errors: t.errors,
        rate_limited: t.rate_limited,
        requests: t.requests,
        move_ms: t.move_latency.percentiles(),
        state_ms: t.state_latency.percentiles(),
        first_error: t.first_error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(urls: &[&str]) -> LoadConfig {
        LoadConfig {
            urls: urls.iter().map(|u| u.to_string()).collect(),
            games: 2,
            rate: 10.0,
            duration: Duration::from_secs(1),
            seed: 1,
        }
    }

    #[tokio::test]
    async fn refuses_no_server_no_game_and_no_rate() {
        let none = run(config(&[])).await.unwrap_err();
        assert!(matches!(none, LoadError::NoServer), "{none}");
        assert!(none.to_string().contains("server URL"));
        let mut cfg = config(&["http://127.0.0.1:1"]);
        cfg.games = 0;
        assert!(matches!(run(cfg.clone()).await, Err(LoadError::Settings)));
        cfg.games = 2;
        cfg.rate = f64::NAN;
        assert!(matches!(run(cfg).await, Err(LoadError::Settings)));
    }

    #[tokio::test]
    async fn names_the_server_that_is_not_there() {
        // Port 1 on loopback: nothing listens there, so the connection is refused at once.
        let e = run(config(&["http://127.0.0.1:1/"])).await.unwrap_err();
        assert!(
            matches!(&e, LoadError::Absent { url, .. } if url == "http://127.0.0.1:1"),
            "{e}"
        );
        assert!(
            e.to_string()
                .starts_with("no server at http://127.0.0.1:1:"),
            "{e}"
        );
    }
}

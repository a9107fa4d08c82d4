//! A bounded load generator: many concurrent 2-player games over HTTP, every seat a fast
//! random player, each game paced like people who think between moves. It measures accepted
//! moves per second and the latency of each move request.

use crate::api::{Created, GameState, Joined, MoveResult};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sagani_core::Move;
use serde_json::json;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// The server, e.g. `http://127.0.0.1:8080`.
    pub url: String,
    /// Games in play at once; a game that ends is replaced by a new one.
    pub games: usize,
    /// Target moves per second over all games (each game moves every `games / rate` seconds).
    pub rate: f64,
    /// How long to measure.
    pub duration: Duration,
    pub seed: u64,
}

#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    pub elapsed: Duration,
    /// Moves accepted inside the measured window.
    pub moves: u64,
    /// Every move the server acknowledged, warm-up and wind-down included.
    pub acknowledged: u64,
    /// Per game, the number of moves the server acknowledged (they come in order, so all of
    /// them must be stored).
    pub acknowledged_by_game: HashMap<String, u64>,
    pub games_started: u64,
    pub games_finished: u64,
    /// Requests that failed (an error status other than 429, or no answer).
    pub errors: u64,
    pub rate_limited: u64,
    /// Move request latencies (POST /moves), in milliseconds.
    pub move_ms: Percentiles,
    /// State request latencies (GET /api/games/{id}), in milliseconds.
    pub state_ms: Percentiles,
    pub first_error: Option<String>,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Percentiles {
    pub count: usize,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
}

impl Percentiles {
    pub fn of(mut samples: Vec<f64>) -> Percentiles {
        if samples.is_empty() {
            return Percentiles::default();
        }
        samples.sort_by(f64::total_cmp);
        let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
        Percentiles {
            count: samples.len(),
            p50: at(0.50),
            p90: at(0.90),
            p99: at(0.99),
            max: *samples.last().expect("not empty"),
        }
    }
}

#[derive(Default)]
struct Tally {
    moves: u64,
    acknowledged: u64,
    acknowledged_by_game: HashMap<String, u64>,
    games_started: u64,
    games_finished: u64,
    errors: u64,
    rate_limited: u64,
    move_ms: Vec<f64>,
    state_ms: Vec<f64>,
    first_error: Option<String>,
}

struct Run {
    client: reqwest::Client,
    url: String,
    start: Instant,
    end: Instant,
    tally: Mutex<Tally>,
}

impl Run {
    fn error(&self, what: String) {
        let mut t = self.tally.lock().expect("tally");
        t.errors += 1;
        t.first_error.get_or_insert(what);
    }

    fn measuring(&self, at: Instant) -> bool {
        at >= self.start && at < self.end
    }
}

/// Sends a request and reads its JSON, retrying after a 429.
async fn call<T: serde::de::DeserializeOwned>(
    run: &Run,
    make: impl Fn() -> reqwest::RequestBuilder,
) -> Result<(T, f64, Instant), String> {
    loop {
        let sent = Instant::now();
        let response = make().send().await.map_err(|e| e.to_string())?;
        let status = response.status();
        if status.as_u16() == 429 {
            run.tally.lock().expect("tally").rate_limited += 1;
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        }
        let body = response.bytes().await.map_err(|e| e.to_string())?;
        let ms = sent.elapsed().as_secs_f64() * 1000.0;
        if !status.is_success() {
            return Err(format!("{status}: {}", String::from_utf8_lossy(&body)));
        }
        let value = serde_json::from_slice(&body).map_err(|e| e.to_string())?;
        return Ok((value, ms, sent));
    }
}

/// Creates a 2-player game and claims both seats.
async fn new_game(run: &Run) -> Result<(String, Vec<String>), String> {
    let (created, _, _): (Created, _, _) = call(run, || {
        run.client
            .post(format!("{}/api/games", run.url))
            .json(&json!({"seats": [{"kind": "human"}, {"kind": "human"}]}))
    })
    .await?;
    let mut tokens = Vec::new();
    for invite in &created.invites {
        let (joined, _, _): (Joined, _, _) = call(run, || {
            run.client
                .post(format!("{}/api/games/{}/join", run.url, created.game))
                .json(&json!({"invite": invite.code}))
        })
        .await?;
        tokens.push(joined.token);
    }
    run.tally.lock().expect("tally").games_started += 1;
    Ok((created.game, tokens))
}

async fn state(run: &Run, game: &str, token: &str) -> Result<GameState, String> {
    let (s, ms, at): (GameState, _, _) = call(run, || {
        run.client
            .get(format!("{}/api/games/{game}", run.url))
            .bearer_auth(token)
    })
    .await?;
    if run.measuring(at) {
        run.tally.lock().expect("tally").state_ms.push(ms);
    }
    Ok(s)
}

/// Plays games one after another until the window closes, one move per `every`.
async fn player(run: Arc<Run>, every: Duration, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    // Spread the games' first moves over one interval.
    let mut next = run.start + every.mul_f64(rng.random::<f64>());
    while Instant::now() < run.end {
        let (game, tokens) = match new_game(&run).await {
            Ok(g) => g,
            Err(e) => {
                run.error(format!("creating a game: {e}"));
                tokio::time::sleep(Duration::from_millis(500)).await;
                continue;
            }
        };
        let mut current: Option<GameState> = None;
        loop {
            tokio::time::sleep_until(next.into()).await;
            next += every;
            if Instant::now() >= run.end {
                return;
            }
            let s = match current.take() {
                Some(s) if !s.legal.is_empty() => s,
                Some(s) if s.view.over => break,
                Some(s) => match s.view.next {
                    Some(n) => match state(&run, &game, &tokens[n.player as usize]).await {
                        Ok(s) => s,
                        Err(e) => {
                            run.error(format!("game {game}: {e}"));
                            break;
                        }
                    },
                    None => break,
                },
                None => match state(&run, &game, &tokens[0]).await {
                    Ok(s) => {
                        current = Some(s);
                        continue;
                    }
                    Err(e) => {
                        run.error(format!("game {game}: {e}"));
                        break;
                    }
                },
            };
            if s.legal.is_empty() {
                current = Some(s);
                continue;
            }
            let seat = s.you.expect("a seat's state") as usize;
            let mv: Move = s.legal[rng.random_range(0..s.legal.len())];
            let body = json!({"version": s.version, "move": mv});
            let posted: Result<(MoveResult, _, _), _> = call(&run, || {
                run.client
                    .post(format!("{}/api/games/{game}/moves", run.url))
                    .bearer_auth(&tokens[seat])
                    .json(&body)
            })
            .await;
            match posted {
                Ok((result, ms, at)) => {
                    let mut t = run.tally.lock().expect("tally");
                    t.acknowledged += 1;
                    t.acknowledged_by_game
                        .insert(game.clone(), result.state.version);
                    if run.measuring(at) {
                        t.moves += 1;
                        t.move_ms.push(ms);
                    }
                    if result.state.view.over {
                        t.games_finished += 1;
                    }
                    current = Some(result.state);
                }
                Err(e) => {
                    run.error(format!("game {game} move: {e}"));
                    break;
                }
            }
            if current.as_ref().is_some_and(|s| s.view.over) {
                break;
            }
        }
    }
}

/// Runs the load against `cfg.url` and measures it. The window opens once all games exist.
pub async fn run(cfg: LoadConfig) -> Result<LoadReport, String> {
    if cfg.games == 0 || cfg.rate <= 0.0 {
        return Err("need at least one game and a positive rate".into());
    }
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(cfg.games * 2)
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(|e| e.to_string())?;
    // Check the server is there before starting hundreds of games.
    client
        .get(format!("{}/healthz", cfg.url))
        .send()
        .await
        .and_then(|r| r.error_for_status())
        .map_err(|e| format!("no server at {}: {e}", cfg.url))?;
    let every = Duration::from_secs_f64(cfg.games as f64 / cfg.rate);
    let start = Instant::now() + Duration::from_secs(2);
    let run = Arc::new(Run {
        client,
        url: cfg.url.trim_end_matches('/').to_string(),
        start,
        end: start + cfg.duration,
        tally: Mutex::new(Tally::default()),
    });
    let tasks: Vec<_> = (0..cfg.games)
        .map(|i| {
            tokio::spawn(player(
                run.clone(),
                every,
                cfg.seed.wrapping_mul(1_000_003).wrapping_add(i as u64),
            ))
        })
        .collect();
    for t in tasks {
        t.await.map_err(|e| e.to_string())?;
    }
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
        move_ms: Percentiles::of(t.move_ms),
        state_ms: Percentiles::of(t.state_ms),
        first_error: t.first_error,
    })
}

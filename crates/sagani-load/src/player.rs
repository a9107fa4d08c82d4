//! One simulated table: plays 2-player games one after another, both seats random players,
//! one move per interval, every request sent to one of the servers chosen at random.

use crate::error::{Failure, LoadError, RequestError};
use crate::latency::Latency;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sagani_protocol::{Created, GameState, Joined, MoveResult};
use serde::de::DeserializeOwned;
use serde_json::json;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What all players share: the servers, the measured window and the counts.
pub struct Run {
    pub client: reqwest::Client,
    /// Base URLs, without a trailing slash.
    pub urls: Vec<String>,
    pub start: Instant,
    pub end: Instant,
    pub tally: Mutex<Tally>,
}

#[derive(Default)]
pub struct Tally {
    pub moves: u64,
    pub acknowledged: u64,
    pub acknowledged_by_game: HashMap<String, u64>,
    pub games_started: u64,
    pub games_finished: u64,
    pub errors: u64,
    pub rate_limited: u64,
    /// Requests sent to each server, by its index in `Run::urls`.
    pub requests: Vec<u64>,
    pub move_latency: Latency,
    pub state_latency: Latency,
    pub first_error: Option<String>,
}

impl Run {
    fn tally(&self) -> std::sync::MutexGuard<'_, Tally> {
        self.tally.lock().expect("tally")
    }

    fn error(&self, what: String) {
        let mut t = self.tally();
        t.errors += 1;
        t.first_error.get_or_insert(what);
    }

    fn measuring(&self, at: Instant) -> bool {
        at >= self.start && at < self.end
    }
}

struct Player {
    run: Arc<Run>,
    /// Picks the server of each request and each move: the same seed gives the same choices.
    rng: SmallRng,
}

/// A JSON answer, how long it took and when it was sent.
type Answer<T> = Result<(T, Duration, Instant), RequestError>;

impl Player {
    /// Sends a request to a server chosen at random and reads its JSON, retrying on the same
    /// server after a 429. `make` builds the request from the server's base URL.
    async fn call<T: DeserializeOwned>(
        &mut self,
        make: impl Fn(&str) -> reqwest::RequestBuilder,
    ) -> Answer<T> {
        let server = self.rng.random_range(0..self.run.urls.len());
        let base = self.run.urls[server].as_str();
        loop {
            self.run.tally().requests[server] += 1;
            let sent = Instant::now();
            let failed = |failure| RequestError {
                server: base.to_string(),
                failure,
            };
            let response = make(base)
                .send()
                .await
                .map_err(|e| failed(Failure::Http(e)))?;
            let status = response.status();
            if status.as_u16() == 429 {
                self.run.tally().rate_limited += 1;
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
            let body = response
                .bytes()
                .await
                .map_err(|e| failed(Failure::Http(e)))?;
            let took = sent.elapsed();
            if !status.is_success() {
                let body = String::from_utf8_lossy(&body).into_owned();
                return Err(failed(Failure::Status(status, body)));
            }
            let value = serde_json::from_slice(&body).map_err(|e| failed(Failure::Json(e)))?;
            return Ok((value, took, sent));
        }
    }

    /// Creates a 2-player game and claims both seats.
    async fn new_game(&mut self) -> Result<(String, Vec<String>), RequestError> {
        let client = self.run.client.clone();
        let (created, _, _): (Created, _, _) = self
            .call(|base| {
                client
                    .post(format!("{base}/api/games"))
                    .json(&json!({"seats": [{"kind": "human"}, {"kind": "human"}]}))
            })
            .await?;
        let mut tokens = Vec::new();
        for invite in &created.invites {
            let (joined, _, _): (Joined, _, _) = self
                .call(|base| {
                    client
                        .post(format!("{base}/api/games/{}/join", created.game))
                        .json(&json!({"invite": invite.code}))
                })
                .await?;
            tokens.push(joined.token);
        }
        let mut t = self.run.tally();
        t.games_started += 1;
        // Listed from the start, so the durability check covers every game this run made.
        t.acknowledged_by_game.insert(created.game.clone(), 0);
        Ok((created.game, tokens))
    }

    async fn state(&mut self, game: &str, token: &str) -> Result<GameState, RequestError> {
        let client = self.run.client.clone();
        let (s, took, at): (GameState, _, _) = self
            .call(|base| {
                client
                    .get(format!("{base}/api/games/{game}"))
                    .bearer_auth(token)
            })
            .await?;
        if self.run.measuring(at) {
            self.run.tally().state_latency.record(took);
        }
        Ok(s)
    }

    /// Plays a random legal move for the seat of `s`; gives the state after it.
    async fn play(&mut self, game: &str, tokens: &[String], s: GameState) -> Answer<MoveResult> {
        let seat = s.you.ok_or_else(|| RequestError {
            server: String::new(),
            failure: Failure::NoSeat,
        })? as usize;
        let mv = &s.legal[self.rng.random_range(0..s.legal.len())];
        let body = json!({"version": s.version, "move": mv});
        let client = self.run.client.clone();
        self.call(|base| {
            client
                .post(format!("{base}/api/games/{game}/moves"))
                .bearer_auth(&tokens[seat])
                .json(&body)
        })
        .await
    }

    /// Plays games one after another until the window closes, one move per `every`.
    async fn play_games(mut self, every: Duration) {
        let run = self.run.clone();
        // Spread the games' first moves over one interval.
        let mut next = run.start + every.mul_f64(self.rng.random::<f64>());
        while Instant::now() < run.end {
            let (game, tokens) = match self.new_game().await {
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
                // The state of the seat that must act: the last answer if it is that seat's,
                // else asked for (a move's answer is the mover's view).
                let asked = match current.take() {
                    Some(s) if !s.legal.is_empty() => Ok(s),
                    Some(s) if s.view.over => break,
                    Some(s) => match s.view.next {
                        Some(n) => self.state(&game, &tokens[n.player as usize]).await,
                        None => break,
                    },
                    // A new game: seat 0's view says who acts; the first move waits for the
                    // next interval.
                    None => match self.state(&game, &tokens[0]).await {
                        Ok(s) => {
                            current = Some(s);
                            continue;
                        }
                        Err(e) => Err(e),
                    },
                };
                let s = match asked {
                    Ok(s) if s.legal.is_empty() => {
                        current = Some(s);
                        continue;
                    }
                    Ok(s) => s,
                    Err(e) => {
                        run.error(format!("game {game}: {e}"));
                        break;
                    }
                };
                match self.play(&game, &tokens, s).await {
                    Ok((result, took, at)) => {
                        let mut t = run.tally();
                        t.acknowledged += 1;
                        // Answers come in order, so the last version counts every move.
                        t.acknowledged_by_game
                            .insert(game.clone(), result.state.version);
                        if run.measuring(at) {
                            t.moves += 1;
                            t.move_latency.record(took);
                        }
                        if result.state.view.over {
                            t.games_finished += 1;
                            break;
                        }
                        current = Some(result.state);
                    }
                    Err(e) => {
                        run.error(format!("game {game} move: {e}"));
                        break;
                    }
                }
            }
        }
    }
}

/// Starts one player per game slot, each with its own seed, and waits for all of them.
pub async fn play_all(
    run: Arc<Run>,
    games: usize,
    every: Duration,
    seed: u64,
) -> Result<(), LoadError> {
    let tasks: Vec<_> = (0..games)
        .map(|i| {
            let player = Player {
                run: run.clone(),
                rng: SmallRng::seed_from_u64(seed.wrapping_mul(1_000_003).wrapping_add(i as u64)),
            };
            tokio::spawn(player.play_games(every))
        })
        .collect();
    for t in tasks {
        t.await?;
    }
    Ok(())
}

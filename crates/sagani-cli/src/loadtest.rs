//! `sagani loadtest`: many concurrent games against a server (by default a fresh `sagani serve`
//! on 127.0.0.1 and a new database), then the accepted moves per second, the latencies, and a
//! check that every acknowledged move is in the database.

use crate::seats::exit;
use sagani_server::loadtest::{run, LoadConfig, LoadReport, Percentiles};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::Duration;

/// Load-test the game server: GAMES concurrent 2-player games over HTTP, every seat a random
/// player, together RATE moves per second, measured for SECONDS.
///
/// Without --url it starts `sagani serve` on a free port of 127.0.0.1 with a new database in a
/// temporary folder, and the move limits off (all the load comes from one address), then
/// checks that every acknowledged move was stored.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sagani loadtest --games 500 --rate 1000 --seconds 30\n  sagani loadtest --url http://127.0.0.1:8080 --games 20 --rate 20"
)]
pub struct Args {
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..=5000))]
    games: u64,
    /// Target moves per second over all games.
    #[arg(long, default_value_t = 1000.0)]
    rate: f64,
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    seconds: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A running server to test instead (its limits apply).
    #[arg(long)]
    url: Option<String>,
    /// Keep the started server's database here instead of a temporary folder.
    #[arg(long)]
    db: Option<PathBuf>,
}

pub fn run_cmd(args: Args) -> ExitCode {
    exit(run_inner(args).map_err(|e| format!("error: {e}")))
}

/// A `sagani serve` child, stopped when dropped.
struct Server {
    child: Child,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_server(db: &std::path::Path) -> Result<(Server, String), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut child = Command::new(exe)
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .args([
            "--moves-per-token",
            "0",
            "--moves-per-ip",
            "0",
            "--open-games-per-ip",
            "0",
        ])
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let stdout = child.stdout.take().expect("piped");
    let server = Server { child };
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .ok_or_else(|| format!("the server did not start: {line:?}"))?
        .to_string();
    Ok((server, url))
}

fn row(name: &str, p: &Percentiles) -> String {
    format!(
        "{name:<14} {:>8} {:>8.2} {:>8.2} {:>8.2} {:>8.2}",
        p.count, p.p50, p.p90, p.p99, p.max
    )
}

fn print(report: &LoadReport, cfg: &LoadConfig) {
    let secs = report.elapsed.as_secs_f64();
    println!(
        "{} games at once, target {} moves/s, {:.0} s measured",
        cfg.games, cfg.rate, secs
    );
    println!(
        "accepted moves: {} ({:.0}/s); games started {}, finished {}; errors {}; rate-limited {}",
        report.moves,
        report.moves as f64 / secs,
        report.games_started,
        report.games_finished,
        report.errors,
        report.rate_limited
    );
    println!(
        "latency (ms)   {:>8} {:>8} {:>8} {:>8} {:>8}",
        "count", "p50", "p90", "p99", "max"
    );
    println!("{}", row("POST move", &report.move_ms));
    println!("{}", row("GET state", &report.state_ms));
    if let Some(e) = &report.first_error {
        println!("first error: {e}");
    }
}

fn run_inner(args: Args) -> Result<(), String> {
    if !args.rate.is_finite() || args.rate <= 0.0 {
        return Err("--rate must be a number above 0".into());
    }
    let temp;
    let (server, url, db) = match &args.url {
        Some(url) => (None, url.clone(), None),
        None => {
            let db = match &args.db {
                Some(p) => p.clone(),
                None => {
                    temp = std::env::temp_dir()
                        .join(format!("sagani-loadtest-{}", std::process::id()));
                    std::fs::create_dir_all(&temp).map_err(|e| e.to_string())?;
                    temp.join("load.db")
                }
            };
            if db.exists() {
                return Err(format!("{} exists: give a new database file", db.display()));
            }
            let (server, url) = start_server(&db)?;
            (Some(server), url, Some(db))
        }
    };
    let cfg = LoadConfig {
        url,
        games: args.games as usize,
        rate: args.rate,
        duration: Duration::from_secs(args.seconds),
        seed: args.seed,
    };
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    let report = runtime.block_on(run(cfg.clone()))?;
    print(&report, &cfg);
    if let (Some(server), Some(db)) = (server, db) {
        // Kill the server outright: what it acknowledged must already be on disk.
        drop(server);
        let games: Vec<String> = report.acknowledged_by_game.keys().cloned().collect();
        let stored = runtime.block_on(sagani_server::store::move_counts(
            &db.display().to_string(),
            &games,
        ))?;
        let lost: u64 = report
            .acknowledged_by_game
            .iter()
            .map(|(game, &acked)| acked.saturating_sub(stored.get(game).copied().unwrap_or(0)))
            .sum();
        println!(
            "durability: {} moves acknowledged, {} stored after kill -9, {lost} acknowledged moves missing",
            report.acknowledged,
            stored.values().sum::<u64>(),
        );
        if args.db.is_none() {
            let _ = std::fs::remove_dir_all(db.parent().expect("temp dir"));
        }
        if lost > 0 {
            return Err("acknowledged moves are missing from the database".into());
        }
    }
    Ok(())
}

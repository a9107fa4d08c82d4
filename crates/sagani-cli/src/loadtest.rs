//! `sagani loadtest`: many concurrent games against one or more servers (by default fresh
//! `sagani serve` processes on 127.0.0.1 and a new database), then the accepted moves per
//! second, the latencies, and a check that every acknowledged move is in the database.

use crate::error::CliError;
use crate::out::say;
use crate::seats::exit;
use sagani_load::{run, LoadConfig, LoadReport, Percentiles};
use sagani_server::store::is_postgres;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::Duration;

/// Load-test the game server: GAMES concurrent 2-player games over HTTP, every seat a random
/// player, together RATE moves per second, measured for SECONDS.
///
/// Without --url it starts INSTANCES `sagani serve` on free ports of 127.0.0.1 on one
/// database (a new SQLite file in a temporary folder unless --db says otherwise), with the move
/// and open-games limits off (all the load comes from one address), sends every request to one
/// of them at random, then kills them all with SIGKILL and checks that every acknowledged move
/// was stored.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sagani loadtest --games 500 --rate 1000 --seconds 30\n  sagani loadtest --instances 3 --db postgres://sagani@127.0.0.1/sagani_load\n  sagani loadtest --url http://127.0.0.1:8080,http://127.0.0.1:8081 --games 20 --rate 20"
)]
pub struct Args {
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..=5000))]
    games: u64,
    /// Target moves per second over all games.
    #[arg(long, default_value_t = 1000.0)]
    rate: f64,
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    seconds: u64,
    /// Seeds the players' choices of server and of move.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Running servers to test instead, sharing one database (their limits apply; nothing is
    /// killed or checked). Repeat the flag or separate the URLs with commas.
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["db", "instances"])]
    url: Vec<String>,
    /// The started servers' database: a new SQLite file, or a postgres:// URL (games already
    /// in it are left alone: only the games this run creates are checked).
    #[arg(long)]
    db: Option<String>,
    /// How many servers to start on the database; more than one needs PostgreSQL.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=16))]
    instances: u64,
}

pub fn run_cmd(args: Args) -> ExitCode {
    exit(run_inner(args))
}

/// A `sagani serve` child, killed (SIGKILL) when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_server(db: &str) -> Result<Server, CliError> {
    let exe = std::env::current_exe().map_err(CliError::io("cannot find this program"))?;
    let mut child = Command::new(exe)
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .args([
            "--moves-per-token",
            "0",
            "--moves-per-ip",
            "0",
            "--claims-per-ip",
            "0",
            "--open-games-per-ip",
            "0",
        ])
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(CliError::io("cannot start the server"))?;
    let stdout = child.stdout.take().expect("piped");
    let mut server = Server {
        child,
        url: String::new(),
    };
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .map_err(CliError::io("cannot read the server's first line"))?;
    server.url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .ok_or_else(|| CliError::Found(format!("the server did not start: {line:?}")))?
        .to_string();
    Ok(server)
}

/// A temporary folder, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn row(name: &str, p: &Percentiles) -> String {
    format!(
        "{name:<14} {:>8} {:>8.2} {:>8.2} {:>8.2} {:>8.2}",
        p.count, p.p50, p.p90, p.p99, p.max
    )
}

fn print(report: &LoadReport, cfg: &LoadConfig) {
    let secs = report.elapsed.as_secs_f64();
    say!(
        "{} games at once, target {} moves/s, {:.0} s measured",
        cfg.games,
        cfg.rate,
        secs
    );
    say!(
        "accepted moves: {} ({:.0}/s); games started {}, finished {}; errors {}; rate-limited {}",
        report.moves,
        report.moves as f64 / secs,
        report.games_started,
        report.games_finished,
        report.errors,
        report.rate_limited
    );
    let spread: Vec<String> = cfg
        .urls
        .iter()
        .zip(&report.requests)
        .map(|(url, n)| format!("{url} {n}"))
        .collect();
    say!("requests per server: {}", spread.join(", "));
    say!(
        "latency (ms)   {:>8} {:>8} {:>8} {:>8} {:>8}",
        "count",
        "p50",
        "p90",
        "p99",
        "max"
    );
    say!("{}", row("POST move", &report.move_ms));
    say!("{}", row("GET state", &report.state_ms));
    if let Some(e) = &report.first_error {
        say!("first error: {e}");
    }
}

fn run_inner(args: Args) -> Result<(), CliError> {
    if !args.rate.is_finite() || args.rate <= 0.0 {
        return Err(CliError::Usage("--rate must be a number above 0".into()));
    }
    let config = |urls: Vec<String>| LoadConfig {
        urls,
        games: args.games as usize,
        rate: args.rate,
        duration: Duration::from_secs(args.seconds),
        seed: args.seed,
    };
    let runtime =
        tokio::runtime::Runtime::new().map_err(CliError::io("cannot start the runtime"))?;
    if !args.url.is_empty() {
        let cfg = config(args.url.clone());
        let report = runtime.block_on(run(cfg.clone()))?;
        print(&report, &cfg);
        return Ok(());
    }

    let postgres = args.db.as_deref().is_some_and(is_postgres);
    if args.instances > 1 && !postgres {
        return Err(CliError::Usage(format!(
            "--instances {} needs a PostgreSQL database (--db postgres://…): a SQLite file is served by one process only",
            args.instances
        )));
    }
    // Declared before the servers, so dropped after them.
    let mut _scratch = None;
    let db = match &args.db {
        Some(db) => db.clone(),
        None => {
            let dir = std::env::temp_dir().join(format!("sagani-loadtest-{}", std::process::id()));
            std::fs::create_dir_all(&dir)
                .map_err(CliError::io(format!("cannot create {}", dir.display())))?;
            let file = dir.join("load.db");
            _scratch = Some(Scratch(dir));
            file.to_str()
                .ok_or_else(|| {
                    CliError::Usage("the temporary folder's path is not UTF-8: give --db".into())
                })?
                .to_string()
        }
    };
    if !postgres && Path::new(&db).exists() {
        return Err(CliError::Usage(format!(
            "{db} exists: give a new database file"
        )));
    }
    let servers = (0..args.instances)
        .map(|_| start_server(&db))
        .collect::<Result<Vec<_>, _>>()?;
    let cfg = config(servers.iter().map(|s| s.url.clone()).collect());
    let report = runtime.block_on(run(cfg.clone()))?;
    print(&report, &cfg);
    // Kill every server outright: what they acknowledged must already be stored.
    drop(servers);
    let games: Vec<String> = report.acknowledged_by_game.keys().cloned().collect();
    let stored = runtime.block_on(sagani_server::store::move_counts(&db, &games))?;
    // Only this run's games: a PostgreSQL database may hold others.
    let mut kept = 0;
    let mut lost = 0;
    for (game, &acked) in &report.acknowledged_by_game {
        let n = stored.get(game).copied().unwrap_or(0);
        kept += n;
        lost += acked.saturating_sub(n);
    }
    say!(
        "durability: {} moves acknowledged, {kept} stored after kill -9, {lost} acknowledged moves missing",
        report.acknowledged,
    );
    if lost > 0 {
        return Err(CliError::Found(
            "acknowledged moves are missing from the database".into(),
        ));
    }
    Ok(())
}

//! `sagani serve`: the game server, on a SQLite file or a PostgreSQL database.

use crate::error::CliError;
use crate::out::say;
use crate::seats::exit;
use sagani_server::{Config, HttpLimits, Limits};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

/// Run the game server: HTTP JSON API and WebSockets (docs/server-api.md), games stored in a
/// SQLite file (one server) or a PostgreSQL database (any number of servers), read from it as
/// they are asked for.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  sagani serve\n  sagani serve --addr 127.0.0.1:9000 --db /var/lib/sagani/games.db\n  sagani serve --addr 127.0.0.1:9001 --db postgres://sagani@127.0.0.1/sagani\n\nThe API is described at /api/openapi.json; running several servers, backups and metrics in docs/operations.md. Logs go to standard error (RUST_LOG=debug for more)."
)]
pub struct Args {
    /// Address to listen on (port 0: any free port; the chosen one is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Where games are stored: a SQLite file (created if missing; served by this process
    /// alone), or a postgres:// URL (shared by any number of servers).
    #[arg(long, default_value = "sagani.db", value_name = "FILE|URL")]
    db: String,
    /// Longest time a bot may think about one decision, in milliseconds.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=60_000))]
    bot_think_ms: u64,
    /// mcts searches at the same time (default: the number of cores); random and greedy have a
    /// worker of their own.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    bot_threads: Option<u64>,
    /// Largest request body in bytes (0: no limit).
    #[arg(long, default_value_t = Limits::default().body_bytes)]
    max_body: usize,
    /// Moves per second one seat token may send (0: no limit).
    #[arg(long, default_value_t = Limits::default().moves_per_token)]
    moves_per_token: u32,
    /// Moves per second one client address may send (0: no limit).
    #[arg(long, default_value_t = Limits::default().moves_per_ip)]
    moves_per_ip: u32,
    /// Games one address may have open (created and not over; 0: no limit).
    #[arg(long, default_value_t = Limits::default().open_games_per_ip)]
    open_games_per_ip: usize,
    /// The site's public address, as players type it (e.g. https://sagani.example). With
    /// https, log-in cookies are sent over HTTPS only.
    #[arg(long, value_name = "URL", value_parser = public_url)]
    public_url: Option<String>,
    /// The mail server mails go through: smtp://HOST:PORT (plain), smtp://USER:PASS@HOST:PORT
    /// (STARTTLS), smtps://USER:PASS@HOST:PORT (TLS); ?tls=required or ?tls=opportunistic
    /// choose STARTTLS. Without it no mail is sent (docs/operations.md, "Mail").
    #[arg(long, value_name = "URL")]
    smtp: Option<String>,
    /// The sender of the mails, e.g. "Sagani <sagani@sagani.example>".
    #[arg(
        long,
        value_name = "ADDRESS",
        default_value = "Sagani <sagani@localhost>"
    )]
    mail_from: String,
    /// Seat claims per second one client address may send (0: no limit).
    #[arg(long, default_value_t = Limits::default().claims_per_ip)]
    claims_per_ip: u32,
    /// The bot that plays a seat whose player ran out of time or resigned: greedy, random,
    /// mcts or mcts:LEVEL (1-8).
    #[arg(long, default_value = "greedy", value_name = "BOT", value_parser = sagani_server::parse_bot)]
    timeout_bot: (String, u8),
    /// A game nobody has moved in for this many days is ended as abandoned.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3650))]
    abandon_after_days: u64,
    /// A game whose seats are not all claimed this many days after its creation is closed.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u64).range(1..=3650))]
    expire_unstarted_days: u64,
    /// Chat lines per minute one seat may write (bursts of 5; 0: no limit).
    #[arg(long, default_value_t = Limits::default().chat_per_minute)]
    chat_per_minute: u32,
    /// Analyses ("what would the engine do?") per minute one client address may ask for
    /// (bursts of up to 10; 0: no limit).
    #[arg(long, default_value_t = Limits::default().analyses_per_minute)]
    analyses_per_minute: u32,
    /// Longest time one analysis may search, in milliseconds (it waits its turn among the
    /// searching bots).
    #[arg(long, default_value_t = Config::default().analysis_ms, value_parser = clap::value_parser!(u64).range(1..=60_000))]
    analysis_ms: u64,
    /// Most search iterations of one analysis (0: only --analysis-ms bounds it).
    #[arg(long, default_value_t = Config::default().analysis_iterations.unwrap_or(0))]
    analysis_iterations: u64,
    /// With several servers: how long past a bot's think time its turn stays with the server
    /// that took it, before another server takes it over (that one died).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(100..=600_000))]
    bot_lease_grace_ms: u64,
    /// With several servers: how often each asks the database for bot turns nobody holds.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(10..=60_000))]
    bot_sweep_ms: u64,
    /// Games kept in memory at most (the rest are read from the database when asked for).
    #[arg(long, default_value_t = 10_000, value_parser = crate::seats::at_least_one)]
    cache_games: u64,
    /// Deal every deck from this seed (game k gets seed S+k), so games can be repeated: for
    /// tests and demonstrations only, since whoever knows S knows every draw pile. Refused with
    /// PostgreSQL.
    #[arg(long, value_name = "S")]
    deck_seed: Option<u64>,
    /// A reverse proxy (CIDR, e.g. 10.0.0.0/8 or 127.0.0.1/32) whose X-Forwarded-For is
    /// believed for per-address limits; repeat for several. Without it the header is ignored.
    #[arg(long = "trusted-proxy", value_name = "CIDR", value_parser = cidr)]
    trusted_proxies: Vec<ipnet::IpNet>,
    /// TCP connections open at once, WebSockets included; beyond it new ones are closed
    /// unanswered (0: no cap).
    #[arg(long, default_value_t = HttpLimits::default().max_connections)]
    max_connections: usize,
    /// Time a client has to send a request's head (0: no limit).
    #[arg(long, default_value_t = millis(HttpLimits::default().header_timeout))]
    header_timeout_ms: u64,
    /// Time a keep-alive connection may stay quiet between requests (0: no limit).
    #[arg(long, default_value_t = millis(HttpLimits::default().idle_timeout))]
    idle_timeout_ms: u64,
    /// Time a request has to be answered, 503 after it (0: no limit; WebSockets are exempt
    /// once open).
    #[arg(long, default_value_t = millis(HttpLimits::default().request_timeout))]
    request_timeout_ms: u64,
    /// On SIGTERM or Ctrl-C: time requests in flight and WebSockets have to finish before
    /// their connections are dropped.
    #[arg(long, default_value_t = millis(HttpLimits::default().drain_deadline))]
    drain_ms: u64,
    /// WebSockets one client address may have open (0: no limit).
    #[arg(long, default_value_t = HttpLimits::default().max_sockets_per_ip)]
    max_sockets_per_ip: usize,
    /// TCP connections one client address may have open, WebSockets included; beyond it a new
    /// one is answered 429 and closed. Behind --trusted-proxy: requests in progress per
    /// forwarded address (0: no limit).
    #[arg(long, default_value_t = HttpLimits::default().max_connections_per_ip)]
    max_connections_per_ip: usize,
}

fn millis(d: Duration) -> u64 {
    d.as_millis() as u64
}

/// A network in CIDR notation; a bare address is the network of that address alone.
fn cidr(s: &str) -> Result<ipnet::IpNet, String> {
    s.parse::<ipnet::IpNet>()
        .or_else(|_| s.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map_err(|_| format!("{s:?} is not a network like 10.0.0.0/8 or an address like 127.0.0.1"))
}

pub fn run(args: Args) -> ExitCode {
    exit(run_inner(args))
}

/// An http:// or https:// address.
fn public_url(s: &str) -> Result<String, String> {
    let rest = s
        .strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"))
        .ok_or("the public address starts with https:// or http://")?;
    if rest.is_empty() || rest.starts_with('/') {
        return Err("the public address names a host, as in https://sagani.example".into());
    }
    Ok(s.trim_end_matches('/').to_string())
}

fn run_inner(args: Args) -> Result<(), CliError> {
    crate::logging::init();
    let mut config = Config {
        limits: Limits {
            body_bytes: args.max_body,
            moves_per_token: args.moves_per_token,
            moves_per_ip: args.moves_per_ip,
            open_games_per_ip: args.open_games_per_ip,
            claims_per_ip: args.claims_per_ip,
            chat_per_minute: args.chat_per_minute,
            analyses_per_minute: args.analyses_per_minute,
        },
        analysis_ms: args.analysis_ms,
        analysis_iterations: (args.analysis_iterations > 0).then_some(args.analysis_iterations),
        timeout_bot: args.timeout_bot.clone(),
        abandon_after: Duration::from_secs(args.abandon_after_days * 86_400),
        expire_unstarted: Duration::from_secs(args.expire_unstarted_days * 86_400),
        bot_think_ms: args.bot_think_ms,
        cache_games: args.cache_games,
        bot_lease_grace: std::time::Duration::from_millis(args.bot_lease_grace_ms),
        bot_sweep: std::time::Duration::from_millis(args.bot_sweep_ms),
        deck_seed: args.deck_seed,
        http: HttpLimits {
            header_timeout: Duration::from_millis(args.header_timeout_ms),
            idle_timeout: Duration::from_millis(args.idle_timeout_ms),
            request_timeout: Duration::from_millis(args.request_timeout_ms),
            max_connections: args.max_connections,
            drain_deadline: Duration::from_millis(args.drain_ms),
            max_sockets_per_ip: args.max_sockets_per_ip,
            max_connections_per_ip: args.max_connections_per_ip,
            trusted_proxies: args.trusted_proxies,
        },
        secure_cookies: args
            .public_url
            .as_deref()
            .is_some_and(|u| u.starts_with("https://")),
        smtp: args.smtp.clone(),
        mail_from: args.mail_from.clone(),
        public_url: args.public_url.clone(),
        ..Config::default()
    };
    if let Some(n) = args.bot_threads {
        config.bot_threads = n as usize;
    }
    let runtime =
        tokio::runtime::Runtime::new().map_err(CliError::io("cannot start the runtime"))?;
    runtime.block_on(async {
        if args.deck_seed.is_some() {
            // Never the seed itself: logs are read by more people than should know the piles.
            tracing::warn!("decks are dealt from a fixed seed: the draw piles are not secret");
        }
        let new_file = new_sqlite_file(&args.db);
        let app = sagani_server::open(&args.db, config).await?;
        let games = app.store.counts().await?.games;
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(CliError::io(format!("cannot listen on {}", args.addr)))?;
        let addr = listener
            .local_addr()
            .map_err(CliError::io("cannot read the address listened on"))?;
        // Tests and scripts read this line to find the port, and may stop reading after it:
        // whatever a newcomer needs is said in it.
        let db = sagani_server::store::shown(&args.db);
        if new_file {
            say!(
                "sagani server on http://{addr} (database {db}, new); open http://{addr} in a browser to play"
            );
        } else {
            say!("sagani server on http://{addr} (database {db}, {games} games)");
        }
        use std::io::Write;
        let _ = std::io::stdout().flush();
        sagani_server::serve(app, listener, shutdown())
            .await
            .map_err(CliError::io("the server stopped"))
    })
}

/// Whether `db` names a SQLite file not made yet: this start makes it, and says so.
fn new_sqlite_file(db: &str) -> bool {
    use sagani_server::store::{location, Location};
    matches!(location(db), Ok(Location::Sqlite(path)) if !path.exists())
}

/// Ctrl-C or SIGTERM. Every acknowledged move is already committed, so stopping loses nothing.
async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("stopping");
}

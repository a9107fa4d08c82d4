//! Log lines for the commands that run a server.

/// Log lines to standard error; RUST_LOG sets the level (default: info, with the schema's
/// migrations, one line each, only at RUST_LOG=debug: a new database is said in one line).
pub fn init() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,refinery_core=warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}

//! What idle WebSockets cost a running `sagani serve`: creates one game, opens N spectator
//! sockets on it (each reads its first state, then stays quiet), and prints the server's
//! resident memory (Linux `/proc/PID/status`) before and with them open. Loopback only.
//!
//!     sagani serve --addr 127.0.0.1:8080 --db /tmp/mem.db --max-sockets-per-ip 0 &
//!     cargo run --release -p sagani-server --example idle_sockets -- http://127.0.0.1:8080 $! 2000
//!
//! docs/operations.md has the figures it gave.

use futures_util::{stream, StreamExt};
use std::time::Duration;

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the server runs");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, url, pid, n] = &args[..] else {
        eprintln!("usage: idle_sockets URL SERVER_PID N");
        std::process::exit(2);
    };
    let host = url.trim_start_matches("http://");
    assert!(
        host.starts_with("127.0.0.1:") || host.starts_with("localhost:"),
        "loopback servers only"
    );
    let pid: u32 = pid.parse().expect("a pid");
    let n: usize = n.parse().expect("a number of sockets");
    assert!((1..=10_000).contains(&n), "1 to 10000 sockets");

    let created: serde_json::Value = reqwest::Client::new()
        .post(format!("{url}/api/games"))
        .json(&serde_json::json!({"seats": [{"kind": "human"}, {"kind": "human"}]}))
        .send()
        .await
        .expect("the server answers")
        .json()
        .await
        .expect("JSON");
    let game = created["game"].as_str().expect("a game id").to_string();
    let ws = format!("ws://{host}/api/games/{game}/ws");
    tokio::time::sleep(Duration::from_secs(1)).await;
    let before = rss_kib(pid);

    // A few dozen handshakes at a time, within the listen backlog.
    let mut first_bytes = 0;
    let sockets: Vec<_> = stream::iter(0..n)
        .map(|_| {
            let ws = ws.clone();
            async move {
                let (mut socket, _) = tokio_tungstenite::connect_async(&ws)
                    .await
                    .expect("the socket opens");
                let first = socket.next().await.expect("a state").expect("a state");
                (socket, first.len())
            }
        })
        .buffer_unordered(32)
        .map(|(socket, len)| {
            first_bytes = len;
            socket
        })
        .collect()
        .await;
    // Let the server settle: every socket is now idle.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let with = rss_kib(pid);
    println!(
        "{n} idle sockets (first state {first_bytes} bytes): server RSS {before} KiB before, {with} KiB with them open: {:.1} KiB a socket",
        (with.saturating_sub(before)) as f64 / n as f64
    );
    drop(sockets);
}

//! The HTTP layer: timeouts, the connection cap, shutdown, forwarded addresses, compression,
//! metrics and the panic catcher, against real servers on 127.0.0.1. Timeouts are configured
//! short and waited for with generous deadlines; nothing here asserts how fast anything is.

mod common;

use axum::routing::get;
use axum::Router;
use common::{start, start_stoppable, Stoppable};
use futures_util::StreamExt;
use sagani_server::{Config, HttpLimits, Limits};
use serde_json::{json, Value};
use std::io::Read;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite;

/// How long a test waits for something that should happen well before.
const PATIENCE: Duration = Duration::from_secs(30);
const SHORT: Duration = Duration::from_millis(200);
const LONG: Duration = Duration::from_secs(3600);

fn config(http: HttpLimits) -> Config {
    Config {
        http,
        ..common::open_limits()
    }
}

fn addr(url: &str) -> String {
    url.trim_start_matches("http://").to_string()
}

/// Reads until the server closes the connection (EOF or reset); gives what it sent before.
async fn read_until_closed(stream: &mut TcpStream) -> Vec<u8> {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(PATIENCE, stream.read(&mut buf)).await {
            Err(_) => panic!("the server kept the connection open for {PATIENCE:?}"),
            Ok(Ok(0)) | Ok(Err(_)) => return got,
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
}

/// Sends a GET on a raw connection and reads its whole answer: the status and body.
async fn round_trip(stream: &mut TcpStream, path: &str) -> (u16, String) {
    let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let read = async {
        loop {
            let n = stream.read(&mut buf).await.expect("read");
            assert!(
                n > 0,
                "closed mid-answer: {}",
                String::from_utf8_lossy(&got)
            );
            got.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&got).to_string();
            let Some((head, body)) = text.split_once("\r\n\r\n") else {
                continue;
            };
            let length: usize = head
                .lines()
                .find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    k.eq_ignore_ascii_case("content-length")
                        .then(|| v.trim().parse().ok())?
                })
                .expect("a content-length");
            if body.len() >= length {
                let status = head.split(' ').nth(1).unwrap().parse().unwrap();
                return (status, body.to_string());
            }
        }
    };
    tokio::time::timeout(PATIENCE, read)
        .await
        .expect("an answer in time")
}

/// A value of the app's metrics, as `/metrics` shows it (read in-process: no connection).
fn metric(server: &Stoppable, line_start: &str) -> Option<f64> {
    server
        .app
        .metrics
        .render()
        .lines()
        .find_map(|l| l.strip_prefix(line_start)?.trim().parse().ok())
}

/// Waits until `check` holds.
async fn until(what: &str, mut check: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while !check() {
        assert!(tokio::time::Instant::now() < deadline, "never: {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_half_sent_request_is_closed_after_the_header_timeout() {
    let server = start(config(HttpLimits {
        header_timeout: SHORT,
        idle_timeout: LONG,
        ..HttpLimits::default()
    }))
    .await;
    let mut stream = TcpStream::connect(addr(&server.url)).await.unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let answer = read_until_closed(&mut stream).await;
    assert!(
        answer.is_empty(),
        "closed unanswered: {}",
        String::from_utf8_lossy(&answer)
    );
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed_after_the_idle_timeout() {
    let server = start(config(HttpLimits {
        header_timeout: LONG,
        idle_timeout: SHORT,
        ..HttpLimits::default()
    }))
    .await;
    let mut stream = TcpStream::connect(addr(&server.url)).await.unwrap();
    let (status, _) = round_trip(&mut stream, "/healthz").await;
    assert_eq!(status, 200);
    assert!(read_until_closed(&mut stream).await.is_empty());
}

#[tokio::test]
async fn a_connection_beyond_the_cap_is_closed_unanswered() {
    let server = start(config(HttpLimits {
        max_connections: 2,
        ..HttpLimits::default()
    }))
    .await;
    let at = addr(&server.url);
    // Two connections, each answered once: both are open on the server.
    let mut first = TcpStream::connect(&at).await.unwrap();
    assert_eq!(round_trip(&mut first, "/healthz").await.0, 200);
    let mut second = TcpStream::connect(&at).await.unwrap();
    assert_eq!(round_trip(&mut second, "/healthz").await.0, 200);
    // The third is accepted by the kernel, then closed by the server without a byte, even
    // though it asks for something.
    let mut third = TcpStream::connect(&at).await.unwrap();
    let _ = third
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await;
    assert!(read_until_closed(&mut third).await.is_empty());
    // The open ones still serve.
    assert_eq!(round_trip(&mut first, "/healthz").await.0, 200);
    // Once one closes, a new connection gets in (as soon as the server has seen the close).
    drop(second);
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let metrics = loop {
        assert!(tokio::time::Instant::now() < deadline, "no room again");
        let mut again = TcpStream::connect(&at).await.unwrap();
        let request = b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";
        if again.write_all(request).await.is_ok() {
            let answer = read_until_closed_or_answered(&mut again).await;
            if !answer.is_empty() {
                break answer;
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(metrics.starts_with("HTTP/1.1 200"), "{metrics}");
    assert!(
        metrics.contains("sagani_http_connections_refused_total "),
        "{metrics}"
    );
    assert!(
        !metrics.contains("sagani_http_connections_refused_total 0"),
        "{metrics}"
    );
}

/// Reads a whole answer (to the end of its body) or nothing if the server closes first.
async fn read_until_closed_or_answered(stream: &mut TcpStream) -> String {
    let mut got = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        match tokio::time::timeout(PATIENCE, stream.read(&mut buf)).await {
            Err(_) => panic!("neither answered nor closed"),
            Ok(Ok(0)) | Ok(Err(_)) => return String::from_utf8_lossy(&got).to_string(),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
        let text = String::from_utf8_lossy(&got).to_string();
        // /metrics ends with this line.
        if text.ends_with("# EOF\n") {
            return text;
        }
    }
}

#[tokio::test]
async fn shutdown_drops_a_half_sent_request_once_the_drain_deadline_passes() {
    let mut server = start_stoppable(
        config(HttpLimits {
            header_timeout: LONG,
            idle_timeout: LONG,
            drain_deadline: SHORT,
            ..HttpLimits::default()
        }),
        Router::new(),
    )
    .await;
    let mut stream = TcpStream::connect(addr(&server.url)).await.unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    until("the server holds the connection", || {
        metric(&server, "sagani_http_connections_open ") == Some(1.0)
    })
    .await;
    server.stop();
    let served = tokio::time::timeout(PATIENCE, &mut server.served)
        .await
        .expect("serve returns once the drain deadline passes");
    served.expect("no panic").expect("no error");
    assert!(read_until_closed(&mut stream).await.is_empty());
}

#[tokio::test]
async fn shutdown_finishes_requests_in_flight_and_closes_websockets() {
    // The slow route tells when it has begun, and answers when told to.
    let (begun_tx, mut begun) = tokio::sync::mpsc::channel::<()>(1);
    let release = Arc::new(tokio::sync::Notify::new());
    let go = release.clone();
    let slow = Router::new().route(
        "/slow",
        get(move || {
            let (begun_tx, go) = (begun_tx.clone(), go.clone());
            async move {
                let _ = begun_tx.send(()).await;
                go.notified().await;
                "done"
            }
        }),
    );
    // A drain deadline nobody waits for: serve must end because everything finished.
    let mut server = start_stoppable(
        config(HttpLimits {
            drain_deadline: LONG,
            ..HttpLimits::default()
        }),
        slow,
    )
    .await;
    let client = reqwest::Client::new();
    let created: Value = client
        .post(format!("{}/api/games", server.url))
        .json(&json!({ "seats": [{"kind": "human"}, {"kind": "human"}] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let game = created["game"].as_str().unwrap();
    let ws_url = format!("{}/api/games/{game}/ws", server.url.replace("http", "ws"));
    let (mut socket, _) = tokio_tungstenite::connect_async(&ws_url).await.unwrap();
    let first = socket.next().await.unwrap().unwrap();
    assert!(first.is_text(), "{first:?}");

    let in_flight = tokio::spawn({
        let url = format!("{}/slow", server.url);
        async move {
            let r = reqwest::get(url).await.expect("answered");
            (r.status().as_u16(), r.text().await.unwrap())
        }
    });
    tokio::time::timeout(PATIENCE, begun.recv())
        .await
        .expect("the slow request begins");
    server.stop();

    // The WebSocket is told the server is going away.
    let close = tokio::time::timeout(PATIENCE, async {
        while let Some(m) = socket.next().await {
            if let Ok(tungstenite::Message::Close(frame)) = m {
                return frame;
            }
        }
        None
    })
    .await
    .expect("the WebSocket closes");
    let frame = close.expect("a close frame");
    assert_eq!(
        frame.code,
        tungstenite::protocol::frame::coding::CloseCode::Away
    );
    // The server has stopped listening...
    assert!(TcpStream::connect(addr(&server.url)).await.is_err());
    // ...but the request in flight still gets its answer.
    release.notify_one();
    let (status, body) = tokio::time::timeout(PATIENCE, in_flight)
        .await
        .expect("answered in time")
        .unwrap();
    assert_eq!((status, body.as_str()), (200, "done"));
    drop(socket);
    tokio::time::timeout(PATIENCE, &mut server.served)
        .await
        .expect("serve returns once everything closed")
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn a_slow_handler_is_answered_503_after_the_request_timeout() {
    let stall = Router::new().route("/stall", get(std::future::pending::<()>));
    let server = start_stoppable(
        config(HttpLimits {
            request_timeout: SHORT,
            ..HttpLimits::default()
        }),
        stall,
    )
    .await;
    let r = tokio::time::timeout(PATIENCE, reqwest::get(format!("{}/stall", server.url)))
        .await
        .expect("an answer in time")
        .unwrap();
    assert_eq!(r.status().as_u16(), 503);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"], "timeout", "{body}");
}

/// Creates a game as a client behind `forwarded_for`; gives the status.
async fn create_from(client: &reqwest::Client, url: &str, forwarded_for: &str) -> u16 {
    client
        .post(format!("{url}/api/games"))
        .header("x-forwarded-for", forwarded_for)
        .json(&json!({ "seats": [{"kind": "human"}, {"kind": "human"}] }))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

#[tokio::test]
async fn a_forwarded_address_counts_only_from_a_trusted_proxy() {
    let one_game = |trusted_proxies: Vec<ipnet::IpNet>| Config {
        limits: Limits {
            open_games_per_ip: 1,
            ..Limits::default()
        },
        http: HttpLimits {
            trusted_proxies,
            ..HttpLimits::default()
        },
        ..Config::default()
    };
    // Behind a proxy on 127.0.0.1: each forwarded address has its own open game.
    let proxied = start(one_game(vec!["127.0.0.1/32".parse().unwrap()])).await;
    let c = &proxied.client;
    assert_eq!(create_from(c, &proxied.url, "203.0.113.1").await, 201);
    assert_eq!(create_from(c, &proxied.url, "203.0.113.1").await, 429);
    assert_eq!(create_from(c, &proxied.url, "203.0.113.2").await, 201);
    // A client can prepend anything; the proxy's own entry is what counts.
    assert_eq!(
        create_from(c, &proxied.url, "203.0.113.3, 203.0.113.1").await,
        429
    );

    // Without trusted proxies the header is the client's say-so: all count as 127.0.0.1.
    let direct = start(one_game(Vec::new())).await;
    let c = &direct.client;
    assert_eq!(create_from(c, &direct.url, "203.0.113.1").await, 201);
    assert_eq!(create_from(c, &direct.url, "203.0.113.2").await, 429);
}

#[tokio::test]
async fn websockets_per_address_are_capped() {
    let server = start_stoppable(
        config(HttpLimits {
            max_sockets_per_ip: 2,
            ..HttpLimits::default()
        }),
        Router::new(),
    )
    .await;
    let created: Value = reqwest::Client::new()
        .post(format!("{}/api/games", server.url))
        .json(&json!({ "seats": [{"kind": "human"}, {"kind": "human"}] }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let game = created["game"].as_str().unwrap();
    let ws_url = format!("{}/api/games/{game}/ws", server.url.replace("http", "ws"));
    let (a, _) = tokio_tungstenite::connect_async(&ws_url).await.unwrap();
    let (_b, _) = tokio_tungstenite::connect_async(&ws_url).await.unwrap();
    until("two WebSockets counted", || {
        metric(&server, "sagani_websockets_open ") == Some(2.0)
    })
    .await;
    match tokio_tungstenite::connect_async(&ws_url).await {
        Err(tungstenite::Error::Http(response)) => {
            assert_eq!(response.status().as_u16(), 429);
            let body: Value = serde_json::from_slice(response.body().as_deref().unwrap()).unwrap();
            assert_eq!(body["error"], "rate_limited", "{body}");
        }
        other => panic!("a third WebSocket: {other:?}"),
    }
    // Closing one makes room (once the server has seen it close).
    drop(a);
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while tokio_tungstenite::connect_async(&ws_url).await.is_err() {
        assert!(tokio::time::Instant::now() < deadline, "no room again");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn answers_are_compressed_when_asked_and_small_ones_are_not() {
    let server = start(common::open_limits()).await;
    let get = |path: &str, encoding: Option<&str>| {
        let mut r = server.client.get(format!("{}{path}", server.url));
        if let Some(e) = encoding {
            r = r.header("accept-encoding", e);
        }
        r.send()
    };
    let plain = get("/api/tiles", None).await.unwrap();
    assert!(plain.headers().get("content-encoding").is_none());
    let plain: Value = plain.json().await.unwrap();

    let gz = get("/api/tiles", Some("gzip")).await.unwrap();
    assert_eq!(gz.headers()["content-encoding"], "gzip");
    let bytes = gz.bytes().await.unwrap();
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), plain);

    let br = get("/api/tiles", Some("br")).await.unwrap();
    assert_eq!(br.headers()["content-encoding"], "br");
    let bytes = br.bytes().await.unwrap();
    let mut text = String::new();
    brotli::Decompressor::new(&bytes[..], 4096)
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), plain);

    // A tiny answer goes as it is.
    let small = get("/healthz", Some("gzip, br")).await.unwrap();
    assert!(small.headers().get("content-encoding").is_none());
    let _: Value = small.json().await.unwrap();

    // So does a WebSocket's upgrade.
    let (id, _) = server
        .create(json!([{"kind": "human"}, {"kind": "human"}]))
        .await;
    let mut request =
        tungstenite::client::IntoClientRequest::into_client_request(server.ws_url(&id, None))
            .unwrap();
    request
        .headers_mut()
        .insert("accept-encoding", "gzip, br".parse().unwrap());
    let (mut socket, response) = tokio_tungstenite::connect_async(request).await.unwrap();
    assert_eq!(response.status().as_u16(), 101);
    assert!(response.headers().get("content-encoding").is_none());
    let first = socket.next().await.unwrap().unwrap();
    let update: Value = serde_json::from_str(first.to_text().unwrap()).unwrap();
    assert_eq!(update["type"], "state");
}

#[tokio::test]
async fn metrics_count_a_request_just_made() {
    let server = start(common::open_limits()).await;
    let tiles = server.client.get(format!("{}/api/tiles", server.url));
    assert_eq!(tiles.send().await.unwrap().status().as_u16(), 200);
    let lost = server.client.get(format!("{}/no/such/page", server.url));
    assert_eq!(lost.send().await.unwrap().status().as_u16(), 404);
    let page = server
        .client
        .get(format!("{}/metrics", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status().as_u16(), 200);
    let kind = page.headers()["content-type"].to_str().unwrap().to_string();
    assert!(kind.starts_with("application/openmetrics-text"), "{kind}");
    let text = page.text().await.unwrap();
    for line in [
        r#"sagani_http_requests_total{route="/api/tiles",method="GET",status="200"} 1"#,
        r#"sagani_http_request_duration_seconds_count{route="/api/tiles"} 1"#,
        r#"sagani_http_requests_total{route="unmatched",method="GET",status="404"} 1"#,
        "sagani_moves_played_total 0",
        "sagani_websockets_open 0",
    ] {
        assert!(text.lines().any(|l| l == line), "no {line:?} in\n{text}");
    }
    // The unknown path itself is nowhere.
    assert!(!text.contains("/no/such/page"));
}

#[tokio::test]
async fn a_panicking_handler_answers_500_and_the_server_goes_on() {
    let boom = Router::new().route(
        "/boom",
        get(|| async {
            if true {
                panic!("a bug in a handler");
            }
        }),
    );
    let server = start_stoppable(config(HttpLimits::default()), boom).await;
    let client = reqwest::Client::new();
    let r = client
        .get(format!("{}/boom", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 500);
    let body: Value = r.json().await.unwrap();
    assert_eq!(
        body,
        json!({"error": "internal", "message": "the server failed on this request"})
    );
    let r = client
        .get(format!("{}/healthz", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert!(
        metric(
            &server,
            r#"sagani_http_requests_total{route="/boom",method="GET",status="500"} "#
        ) == Some(1.0)
    );
}

/// A connection to `at` from the local address `from` (any of 127.0.0.0/8 reaches 127.0.0.1).
async fn connect_from(from: &str, at: &str) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(at.parse().unwrap()).await.unwrap()
}

#[tokio::test]
async fn connections_per_address_are_capped_and_other_addresses_are_still_served() {
    let server = start(config(HttpLimits {
        max_connections_per_ip: 3,
        header_timeout: LONG,
        ..HttpLimits::default()
    }))
    .await;
    let at = addr(&server.url);
    // Three half-sent requests from one address hold its three connections.
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut c = connect_from("127.0.0.1", &at).await;
        c.write_all(b"GET /healthz HTTP/1.1\r\nHo").await.unwrap();
        held.push(c);
    }
    // A fourth from it is told why and closed, without the server reading its request.
    let mut fourth = connect_from("127.0.0.1", &at).await;
    let answer = String::from_utf8(read_until_closed(&mut fourth).await).unwrap();
    assert!(answer.starts_with("HTTP/1.1 429 "), "{answer}");
    assert!(
        answer.contains("\"error\":\"too_many_connections\""),
        "{answer}"
    );
    assert!(answer.contains("retry-after: 10"), "{answer}");
    // Another address is served as ever.
    let mut other = connect_from("127.0.0.2", &at).await;
    assert_eq!(round_trip(&mut other, "/healthz").await.0, 200);
    // Once one of the three closes, the address gets a connection again (as soon as the server
    // has seen the close).
    drop(held.pop());
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        assert!(tokio::time::Instant::now() < deadline, "no room again");
        let mut again = connect_from("127.0.0.1", &at).await;
        let request = b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
        if again.write_all(request).await.is_ok() {
            let answer = String::from_utf8(read_until_closed(&mut again).await).unwrap();
            if answer.starts_with("HTTP/1.1 200") {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn behind_a_proxy_requests_in_progress_are_capped_per_forwarded_address() {
    // A handler that stays in progress until the test lets it go, and says when it began.
    let (began_tx, mut began) = tokio::sync::mpsc::unbounded_channel::<()>();
    let gate = Arc::new(tokio::sync::Notify::new());
    let slow = {
        let gate = gate.clone();
        Router::new().route(
            "/slow",
            get(move || {
                let (gate, began_tx) = (gate.clone(), began_tx.clone());
                async move {
                    let _ = began_tx.send(());
                    gate.notified().await;
                    "done"
                }
            }),
        )
    };
    let server = start_stoppable(
        config(HttpLimits {
            max_connections_per_ip: 1,
            trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()],
            ..HttpLimits::default()
        }),
        slow,
    )
    .await;
    let client = reqwest::Client::new();
    let get_as = |path: &str, forwarded_for: &str| {
        client
            .get(format!("{}{path}", server.url))
            .header("x-forwarded-for", forwarded_for)
            .send()
    };
    let first = tokio::spawn(get_as("/slow", "203.0.113.1"));
    began.recv().await.expect("the slow request began");
    // The same client, through the proxy's other connections: refused while its first is in
    // progress.
    let second = get_as("/healthz", "203.0.113.1").await.unwrap();
    assert_eq!(second.status().as_u16(), 429);
    let body: Value = second.json().await.unwrap();
    assert_eq!(body["error"], "too_many_connections", "{body}");
    // Another client behind the same proxy is served: the proxy's connections are not capped.
    let other = get_as("/healthz", "203.0.113.2").await.unwrap();
    assert_eq!(other.status().as_u16(), 200);
    gate.notify_one();
    let first = first.await.unwrap().unwrap();
    assert_eq!(first.status().as_u16(), 200);
    assert_eq!(
        get_as("/healthz", "203.0.113.1").await.unwrap().status(),
        200
    );
}

#[tokio::test]
async fn every_answer_says_nosniff() {
    let server = start(config(HttpLimits::default())).await;
    for path in ["/healthz", "/api/games/0000", "/", "/no/such/page"] {
        let r = reqwest::get(format!("{}{path}", server.url)).await.unwrap();
        assert_eq!(
            r.headers()
                .get("x-content-type-options")
                .map(|v| v.to_str().unwrap()),
            Some("nosniff"),
            "{path}"
        );
    }
}

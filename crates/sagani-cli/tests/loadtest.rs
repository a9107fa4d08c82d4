//! `sagani loadtest` as a process: a short run on servers it starts, a run spread over several
//! URLs of a running server, and the refusal of several servers on one SQLite file.

mod common;

use common::{failed, ok, sagani, temp_dir};

/// The number after `label` in `text`.
fn number_after(text: &str, label: &str) -> u64 {
    let at = text
        .find(label)
        .unwrap_or_else(|| panic!("no {label:?} in {text}"))
        + label.len();
    text[at..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after {label:?} in {text}"))
}

#[test]
fn a_short_run_on_a_started_server_loses_no_acknowledged_move() {
    let out = sagani()
        .args(["loadtest", "--games", "4", "--rate", "40", "--seconds", "1"])
        .output()
        .unwrap();
    let text = ok(&out);
    assert!(number_after(&text, "accepted moves: ") > 0, "{text}");
    assert_eq!(number_after(&text, "errors "), 0, "{text}");
    assert!(
        text.contains("requests per server: http://127.0.0.1:"),
        "{text}"
    );
    assert!(text.contains("POST move"), "{text}");
    assert!(number_after(&text, "durability: ") > 0, "{text}");
    assert!(text.contains(" 0 acknowledged moves missing"), "{text}");
}

#[test]
fn several_servers_on_one_sqlite_file_are_refused() {
    let dir = temp_dir("loadtest-refused");
    let db = dir.join("load.db");
    for extra in [vec![], vec!["--db", db.to_str().unwrap()]] {
        let out = sagani()
            .args(["loadtest", "--instances", "2", "--seconds", "1"])
            .args(&extra)
            .output()
            .unwrap();
        let err = failed(&out);
        assert!(
            err.contains("--instances 2 needs a PostgreSQL database")
                && err.contains("served by one process"),
            "{err}"
        );
    }
    assert!(!db.exists(), "nothing is started, nothing is created");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn requests_are_spread_over_every_url_given() {
    let dir = temp_dir("loadtest-urls");
    let mut serve = sagani();
    serve
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.join("load.db"))
        .args(["--moves-per-token", "0", "--moves-per-ip", "0"])
        .args(["--open-games-per-ip", "0"])
        .env("RUST_LOG", "warn");
    // Its move limits off.
    let server = common::started(serve);
    // The same server three times, given both ways: three "instances" to the load generator.
    let out = sagani()
        .args(["loadtest", "--games", "4", "--rate", "40", "--seconds", "1"])
        .args([
            "--url",
            &format!("{0},{0}", server.url),
            "--url",
            &server.url,
        ])
        .output()
        .unwrap();
    drop(server);
    let text = ok(&out);
    let line = text
        .lines()
        .find(|l| l.starts_with("requests per server: "))
        .unwrap_or_else(|| panic!("no requests line in {text}"));
    let counts: Vec<u64> = line
        .trim_start_matches("requests per server: ")
        .split(", ")
        .map(|entry| entry.rsplit(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(counts.len(), 3, "{line}");
    assert!(counts.iter().all(|&n| n > 0), "{line}");
    assert_eq!(number_after(&text, "errors "), 0, "{text}");
    assert!(
        !text.contains("durability"),
        "nothing to check on a running server: {text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

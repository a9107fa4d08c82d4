//! `sagani db`: a site built with `sagani serve` copied with `sagani db copy`, which prints
//! every table's rows on both sides; a second copy into the same database refused; what
//! `--db` takes (a SQLite file or sqlite:// URL, a PostgreSQL URL, nothing else); PostgreSQL's
//! own words on a connection error, with the URL's port and without its password; and
//! `db backup` pointing to pg_dump for PostgreSQL.

mod common;

use common::{failed, ok, sagani, Server};
use reqwest::blocking::Client;
use reqwest::header::{COOKIE, ORIGIN, SET_COOKIE};
use sagani_server::testing::TestDatabase;
use serde_json::{json, Value};
use std::path::Path;

fn serve(db: &Path) -> Server {
    let mut serve = sagani();
    serve
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .args(["--moves-per-token", "0", "--moves-per-ip", "0"])
        .args(["--claims-per-ip", "0", "--open-games-per-ip", "0"])
        .env("RUST_LOG", "warn");
    common::started(serve)
}

/// A browser on the site: its session cookie, and `Origin` as a page of the site sends.
struct Browser<'a> {
    url: &'a str,
    client: Client,
    cookie: Option<String>,
}

impl Browser<'_> {
    fn send(&mut self, method: &str, path: &str, token: Option<&str>, body: Value) -> Value {
        let mut r = self
            .client
            .request(method.parse().unwrap(), format!("{}{path}", self.url))
            .header(ORIGIN, self.url);
        if method != "GET" {
            r = r.json(&body);
        }
        if let Some(c) = &self.cookie {
            r = r.header(COOKIE, c);
        }
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        let a = r.send().unwrap();
        if let Some(set) = a.headers().get(SET_COOKIE) {
            self.cookie = Some(set.to_str().unwrap().split(';').next().unwrap().into());
        }
        let status = a.status();
        let body: Value = a.json().unwrap();
        assert!(status.is_success(), "{method} {path}: {status} {body}");
        body
    }

    fn play_out(&mut self, game: &str, tokens: &[&str]) {
        loop {
            let mut acted = false;
            for t in tokens {
                let s = self.send("GET", &format!("/api/games/{game}"), Some(t), json!({}));
                if s["status"] == "over" {
                    return;
                }
                let Some(mv) = s["legal"].get(0).cloned() else {
                    continue;
                };
                let body = json!({ "version": s["version"], "move": mv });
                self.send("POST", &format!("/api/games/{game}/moves"), Some(t), body);
                acted = true;
            }
            assert!(acted, "somebody can act until the game is over");
        }
    }
}

/// A site on the SQLite file `db`, built with `sagani serve`: Ada and Bea sign up, play a
/// rated game to its end and chat at its table; Ada plays today's solo challenge.
fn build_site(db: &Path) {
    let server = serve(db);
    let browser = |url| Browser {
        url,
        client: Client::new(),
        cookie: None,
    };
    let (mut ada, mut bea) = (browser(&server.url), browser(&server.url));
    for (b, name) in [(&mut ada, "Ada"), (&mut bea, "Bea")] {
        let secret = format!("{name}'s secret");
        b.send(
            "POST",
            "/api/players",
            None,
            json!({ "name": name, "password": secret }),
        );
    }
    let seats =
        json!({ "seats": [{"kind": "human"}, {"kind": "human"}], "rated": true, "public": true });
    let made = ada.send("POST", "/api/games", None, seats);
    let game = made["game"].as_str().unwrap().to_string();
    let join = format!("/api/games/{game}/join");
    let invite = json!({ "invite": made["invites"][0]["code"] });
    let t0 = ada.send("POST", &join, None, invite)["token"].clone();
    let t1 = bea.send("POST", &join, None, json!({ "seat": 1 }))["token"].clone();
    let (t0, t1) = (t0.as_str().unwrap(), t1.as_str().unwrap());
    let chat = format!("/api/games/{game}/chat");
    ada.send("POST", &chat, Some(t0), json!({ "text": "good luck" }));
    bea.send("POST", &chat, Some(t1), json!({ "phrase": "good_game" }));
    ada.play_out(&game, &[t0, t1]);
    let daily = ada.send("POST", "/api/daily/solo/start", None, json!({}));
    let token = daily["token"].as_str().unwrap().to_string();
    ada.play_out(daily["game"].as_str().unwrap(), &[&token]);
}

/// The rows `db copy` printed for `table`: (from, to).
fn counts(out: &str, table: &str) -> (u64, u64) {
    let line = out
        .lines()
        .find(|l| l.split_whitespace().next() == Some(table))
        .unwrap_or_else(|| panic!("no line for {table} in {out}"));
    let n: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .map(|n| n.parse().unwrap())
        .collect();
    (n[0], n[1])
}

/// Copies `site` into `to` with the real command, and checks what it prints.
fn copy_prints_every_table(site: &Path, to: &str) -> String {
    let out = ok(&sagani()
        .args(["db", "copy", "--from"])
        .arg(site)
        .args(["--to", to])
        .output()
        .unwrap());
    // Shown for the record of a run (`--nocapture`).
    println!("{out}");
    for (table, rows) in [("players", 2), ("sessions", 2), ("ratings", 2), ("chat", 2)] {
        assert_eq!(counts(&out, table), (rows, rows), "{table}");
    }
    for table in [
        "server_secrets",
        "games",
        "seats",
        "moves",
        "rating_history",
        "daily_games",
    ] {
        let (from, to) = counts(&out, table);
        assert!(from > 0 && from == to, "{table}: {out}");
    }
    assert!(out.contains("not copied: login_attempts"), "{out}");
    assert!(out.contains("SHA-256"), "{out}");
    out
}

#[test]
fn a_site_is_copied_whole_and_its_counts_printed() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site.db");
    build_site(&site);
    let to = dir.path().join("copy.db");
    copy_prints_every_table(&site, to.to_str().unwrap());
    // Not twice into the same database.
    let refused = failed(
        &sagani()
            .args(["db", "copy", "--from"])
            .arg(&site)
            .arg("--to")
            .arg(&to)
            .output()
            .unwrap(),
    );
    assert!(refused.contains("the target is not empty"), "{refused}");
    assert!(refused.contains("nothing was written"), "{refused}");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let Some(db) = runtime.block_on(TestDatabase::create("a_site_is_copied_whole")) else {
        return;
    };
    copy_prints_every_table(&site, &db.url);
}

#[test]
fn only_a_sqlite_file_or_a_postgresql_url_is_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join("to.db");
    for from in [
        "mysql://root:pw@127.0.0.1/site",
        "postgresx://127.0.0.1/site",
    ] {
        let said = failed(
            &sagani()
                .args(["db", "copy", "--from", from, "--to"])
                .arg(&to)
                .output()
                .unwrap(),
        );
        for accepted in ["sqlite://", "postgres://", "postgresql://", "SQLite file"] {
            assert!(said.contains(accepted), "{said}");
        }
        assert!(!said.contains("pw@"), "{said}");
        assert!(!said.contains("does not exist"), "{said}");
    }
    assert!(!to.exists(), "nothing is written");
    let said = failed(
        &sagani()
            .args(["db", "migrate", "--db", "mysql://x"])
            .output()
            .unwrap(),
    );
    assert!(said.contains("mysql://… is not a database"), "{said}");
}

#[test]
fn a_postgresql_error_says_what_postgresql_said() {
    // Nothing listens on port 1.
    let said = failed(
        &sagani()
            .args([
                "db",
                "migrate",
                "--db",
                "postgres://sagani:hunter2@127.0.0.1:1/site",
            ])
            .output()
            .unwrap(),
    );
    assert!(
        said.contains("postgres://sagani:***@127.0.0.1:1/site"),
        "{said}"
    );
    assert!(said.to_lowercase().contains("connection refused"), "{said}");
    assert!(!said.contains("hunter2"), "{said}");
}

#[test]
fn a_postgresql_backup_is_pg_dumps_work() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("site.dump");
    let said = failed(
        &sagani()
            .args(["db", "backup"])
            .arg(&file)
            .args(["--db", "postgres://sagani:hunter2@127.0.0.1:5432/site"])
            .output()
            .unwrap(),
    );
    assert!(
        said.contains(&format!(
            "pg_dump --format=custom --file {} 'postgres://sagani:***@127.0.0.1:5432/site'",
            file.display()
        )),
        "{said}"
    );
    assert!(said.contains("pg_restore"), "{said}");
    assert!(!said.contains("hunter2"), "{said}");
    assert!(!file.exists());
}

//! `sagani play` and `sagani view` as a user runs them: in a real pseudo-terminal (through
//! util-linux `script`), and refusing clearly without one.

mod common;

use common::*;
use sagani_core::record::replay_json;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

const ROWS: u16 = 30;
const COLS: u16 = 100;
/// How long the screen may take to show what a test waits for (a loaded machine is slow).
const PATIENCE: Duration = Duration::from_secs(30);

/// `sagani ARGS` in a 100×30 pseudo-terminal (util-linux `script`), read as a terminal shows
/// it (vt100): a test types a key only once the screen shows that the key is expected.
struct Terminal {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Everything the program wrote; a thread keeps reading so the pipe never fills.
    out: Arc<Output>,
}

/// The program's output so far, and a signal each time more arrives (what a test waits on).
#[derive(Default)]
struct Output {
    bytes: Mutex<Vec<u8>>,
    grew: Condvar,
}

/// The screen `bytes` draw, as a terminal shows it.
fn screen_of(bytes: &[u8]) -> String {
    let size = |n| std::num::NonZeroU16::new(n).expect("a terminal has a size");
    let mut parser = vt100::Parser::new(size(ROWS), size(COLS), 0);
    parser.process(bytes);
    parser.screen().contents()
}

impl Terminal {
    fn start(dir: &Path, args: &str) -> Terminal {
        Terminal::run(dir, &format!("{} {args}", env!("CARGO_BIN_EXE_sagani")))
    }

    /// Any command line, in the same terminal.
    fn run(dir: &Path, command: &str) -> Terminal {
        let mut child = Command::new("script")
            .args([
                "-qfec",
                &format!("stty rows {ROWS} cols {COLS}; exec {command}"),
                "/dev/null",
            ])
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("util-linux script runs the command in a pseudo-terminal");
        let mut stdout = child.stdout.take().unwrap();
        let out = Arc::new(Output::default());
        let sink = out.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.bytes.lock().unwrap().extend_from_slice(&buf[..n]);
                sink.grew.notify_all();
            }
        });
        Terminal {
            stdin: child.stdin.take(),
            child,
            out,
        }
    }

    /// The screen as the terminal shows it now.
    fn screen(&self) -> String {
        screen_of(&self.out.bytes.lock().unwrap())
    }

    /// Waits until the screen is `done`, woken by each piece of output; `what` names it for
    /// the failure.
    fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        let mut bytes = self.out.bytes.lock().unwrap();
        loop {
            let screen = screen_of(&bytes);
            if done(&screen) {
                return screen;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(!left.is_zero(), "waited for {what}; the screen:\n{screen}");
            bytes = self.out.grew.wait_timeout(bytes, left).unwrap().0;
        }
    }

    /// Waits until the screen shows `what`.
    fn wait_for(&self, what: &str) -> String {
        self.wait_for_any(&[what])
    }

    /// Waits until the screen shows one of `whats`.
    fn wait_for_any(&self, whats: &[&str]) -> String {
        self.wait_until(&format!("{whats:?}"), |screen| {
            whats.iter().any(|w| screen.contains(w))
        })
    }

    /// Waits until a person is to take a tile: the panel asks for it (while a bot plays, the
    /// panel says it is thinking).
    fn wait_for_a_person(&self) -> String {
        self.wait_for_any(&[
            "Choose a tile of the offer display",
            "Take the last offer tile",
        ])
    }

    /// Waits until the screen no longer shows `what`.
    fn wait_gone(&self, what: &str) {
        self.wait_until(&format!("{what:?} to go"), |screen| !screen.contains(what));
    }

    fn send(&mut self, keys: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(keys.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// Places the first offer tile on the cell the cursor starts on, once a person is to take
    /// a tile.
    fn place_first_tile(&mut self) {
        let screen = self.wait_for_a_person();
        self.send(first_offer_key(&screen));
        self.wait_for("Enter place");
        self.send("\r");
        self.wait_gone("Enter place");
    }

    /// Waits for the program to end; whether it succeeded, and all it wrote as text (the lines
    /// printed after the screen closed are plain).
    fn finish(mut self) -> (bool, String) {
        drop(self.stdin.take());
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > PATIENCE {
                let _ = self.child.kill();
                panic!("sagani did not quit; the screen:\n{}", self.screen());
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        // The reader thread sees the end of the output shortly after.
        std::thread::sleep(Duration::from_millis(100));
        let text = String::from_utf8_lossy(&self.out.bytes.lock().unwrap()).into_owned();
        (status.success(), text)
    }
}

/// Plays the terminal's seat by keys (the first tile the prompt offers, where the cursor
/// starts; a pass in every intermezzo) until the screen says the game is over.
fn play_to_the_end(t: &mut Terminal) {
    let mut decisions = 0;
    loop {
        let screen = t.wait_for_any(&[
            "Choose a tile of the offer display",
            "Take the last offer tile",
            "Intermezzo: take a stored tile",
            "The game is over",
        ]);
        if screen.contains("The game is over") {
            break;
        }
        if screen.contains("Intermezzo: take a stored tile") {
            t.send("p");
            t.wait_gone("Intermezzo: take a stored tile");
        } else {
            t.send(first_offer_key(&screen));
            t.wait_for("Enter place");
            t.send("\r");
            t.wait_gone("Enter place");
        }
        decisions += 1;
        assert!(decisions < 100, "the game ends");
    }
}

/// The key of the first tile the prompt offers ("Choose a tile of the offer display: 2 to 5.",
/// "…: 1, 3 or 5.", "Take the last offer tile (4)…"): a taken tile leaves its slot empty.
fn first_offer_key(screen: &str) -> &'static str {
    let prompt = screen
        .lines()
        .find(|l| {
            l.contains("Choose a tile of the offer display")
                || l.contains("Take the last offer tile")
        })
        .expect("a person is asked for a tile");
    let after = prompt.split_once([':', '(']).map_or(prompt, |(_, a)| a);
    let digit = after
        .chars()
        .find(char::is_ascii_digit)
        .expect("a slot's number");
    ["1", "2", "3", "4", "5", "6", "7", "8", "9"][digit as usize - '1' as usize]
}

/// A test that fails midway leaves no program running behind it.
impl Drop for Terminal {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// `sagani ARGS` in a terminal: the first offer tile placed by keys, then q.
fn place_one_and_quit(dir: &Path, args: &str) -> String {
    let mut t = Terminal::start(dir, args);
    t.place_first_tile();
    t.send("q");
    let (ok, text) = t.finish();
    assert!(ok, "{text}");
    text
}

#[test]
fn without_a_terminal_play_and_view_say_so_and_save_nothing() {
    let dir = temp_dir("no-tty");
    let out = sagani()
        .args(["play", "--seed", "3"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = failed(&out);
    assert!(
        err.contains("needs an interactive terminal") && err.contains("not a terminal"),
        "{err}"
    );
    assert!(err.contains("sagani arena"), "{err}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "nothing saved");
    let record = root().join("examples/two-player-game.json");
    let out = sagani()
        .arg("view")
        .arg(&record)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = failed(&out);
    assert!(err.contains("needs an interactive terminal"), "{err}");
}

#[test]
fn bad_arguments_are_one_clear_line() {
    let dir = temp_dir("bad-args");
    let cases: [(&[&str], &str); 11] = [
        (
            &["play", "--bots", "alphazero"],
            "unknown bot \"alphazero\"",
        ),
        (
            &["play", "--players", "4", "--bots", "mcts"],
            "--bots names 1 seat, but a 4-player game has 3 after yours",
        ),
        (
            &["play", "--solo", "--players", "3"],
            "a solo game has 1 player, not 3",
        ),
        (
            &["play", "--load", "missing.json"],
            "cannot read missing.json",
        ),
        (&["view", "missing.json"], "cannot read missing.json"),
        (&["play", "--players", "5"], "5 is not in 1..=4"),
        (
            &["play", "--join", "http://h/games/x"],
            "is not an invite link",
        ),
        (
            &["play", "--server", "https://h"],
            "this build of sagani speaks plain http only",
        ),
        (
            &["play", "--server", "http://127.0.0.1:1", "--clock", "5x5"],
            "--clock \"5x5\": give none, M+S",
        ),
        (
            &["play", "--server", "http://127.0.0.1:1", "--bots", "unruly"],
            "\"unruly\" cannot play at a server's table",
        ),
        (
            &["play", "--server", "http://127.0.0.1:1"],
            "the game was not made: the server cannot be reached",
        ),
    ];
    for (args, want) in cases {
        let out = sagani().args(args).current_dir(&dir).output().unwrap();
        let err = failed(&out);
        assert!(err.contains(want), "{args:?}: {err}");
    }
    std::fs::write(
        dir.join("bad.json"),
        r#"{"players": 2, "deck": [1], "moves": []}"#,
    )
    .unwrap();
    let out = sagani()
        .args(["view", "bad.json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        failed(&out).contains("bad.json: record: "),
        "the file and the fault"
    );
}

#[test]
fn a_game_in_a_real_terminal_is_saved_by_q_resumed_by_load_and_viewed() {
    let dir = temp_dir("tty");
    let mut t = Terminal::start(&dir, "play --seed 5 --bots greedy --bot-pace-ms 0");
    let screen = t.wait_for_a_person();
    assert!(screen.contains("▶ You: take a tile"), "{screen}");
    assert!(
        screen.contains("Offer") && screen.contains("Draw pile"),
        "{screen}"
    );
    assert!(
        !screen.contains("seed"),
        "the seed tells the pile\n{screen}"
    );
    for _ in 0..6 {
        t.place_first_tile();
    }
    // The help, then q.
    t.wait_for_a_person();
    t.send("?");
    t.wait_for("Keys and signs");
    t.send("x");
    t.wait_gone("Keys and signs");
    t.send("q");
    let (ok, text) = t.finish();
    assert!(ok, "{text}");
    assert!(
        text.contains("Saved the game to sagani-game.json"),
        "{text}"
    );
    let path = dir.join("sagani-game.json");
    let json = std::fs::read_to_string(&path).unwrap();
    let (record, game) = replay_json(&json).unwrap();
    let mine = record.moves.iter().filter(|m| m.player == 0).count();
    assert_eq!(mine, 6, "the human placed six tiles by keys\n{json}");
    assert!(!game.is_over());
    assert!(json.contains(r#""seats": ["human","greedy"]"#), "{json}");
    // Resume: the same game, one more placement, saved back to the same file.
    let text = place_one_and_quit(&dir, "play --load sagani-game.json --bot-pace-ms 0");
    assert!(
        text.contains("Go on with: sagani play --load sagani-game.json"),
        "{text}"
    );
    let (again, _) = replay_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(again.moves[..record.moves.len()], record.moves[..]);
    assert_eq!(
        again.moves.iter().filter(|m| m.player == 0).count(),
        mine + 1
    );
    // The viewer opens it at the start, End goes to the last move, q quits.
    let moves = again.moves.len();
    let mut v = Terminal::start(&dir, "view sagani-game.json");
    v.wait_for(&format!("move 0/{moves}"));
    v.send("\x1b[F");
    v.wait_for("The end of the record (the game was not over).");
    v.wait_for(&format!("Move {moves} of {moves}"));
    v.send("q");
    let (ok, text) = v.finish();
    assert!(ok, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn another_records_file_is_left_as_it_is_and_a_failed_save_can_still_quit() {
    let dir = temp_dir("foreign");
    // A record from elsewhere, with fields of its own: --load plays on from it, q saves the
    // game to a new file in the current folder and the record itself does not change.
    let example = root().join("examples/two-player-game.json");
    let text = std::fs::read_to_string(example).unwrap();
    let (full, _) = replay_json(&text).unwrap();
    let mut record: serde_json::Value = serde_json::from_str(&text).unwrap();
    let moves = record["moves"].as_array_mut().unwrap();
    moves.truncate(10);
    record["names"] = serde_json::json!(["Ann", "Bob"]);
    let original = serde_json::to_string_pretty(&record).unwrap();
    std::fs::write(dir.join("theirs.json"), &original).unwrap();
    let screen = place_one_and_quit(&dir, "play --load theirs.json");
    assert!(
        screen.contains("Saved the game to sagani-game.json"),
        "{screen}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("theirs.json")).unwrap(),
        original
    );
    let (saved, _) =
        replay_json(&std::fs::read_to_string(dir.join("sagani-game.json")).unwrap()).unwrap();
    assert_eq!(saved.moves[..10], full.moves[..10]);
    assert_eq!(
        saved.moves.len(),
        11,
        "people in both seats: one more placement by keys"
    );
    // A save that cannot be written (its folder is a file): the first q says so, the second
    // leaves without saving.
    std::fs::write(dir.join("plain-file"), "").unwrap();
    let mut t = Terminal::start(&dir, "play --seed 2 --bots human --save plain-file/g.json");
    t.wait_for_a_person();
    t.send("q");
    let screen = t.wait_for("q again: quit without saving");
    assert!(
        screen.contains("cannot save the game to plain-file/g.json"),
        "{screen}"
    );
    t.send("q");
    let (ok, text) = t.finish();
    assert!(ok, "{text}");
    assert!(text.contains("Quit without saving."), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bot_that_panics_on_its_own_thread_leaves_the_screen_whole() {
    // examples/failing_bot.rs: a bot whose search thread panics (cargo test builds it).
    let example = std::env::current_exe()
        .unwrap()
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .join("examples/failing_bot");
    // cargo test builds it, unless only some test targets are asked for. (Its age says nothing:
    // cargo builds it and sagani side by side, and either may finish first.)
    assert!(
        example.exists(),
        "{} is missing: cargo build -p sagani-cli --example failing_bot",
        example.display()
    );
    let dir = temp_dir("failing-bot");
    let mut t = Terminal::run(&dir, &example.display().to_string());
    t.place_first_tile();
    // The panic is caught and told on the table, in the alternate screen, and play goes on.
    let screen = t.wait_for("P2 failing failed (search threads do not panic");
    assert!(
        screen.contains("a random bot plays its moves now"),
        "{screen}"
    );
    t.wait_for_a_person();
    t.send("q");
    let (ok, text) = t.finish();
    assert!(ok, "{text}");
    assert!(
        !text.contains("panicked at"),
        "no panic report over the screen\n{text}"
    );
    // The screen was left once, at the end.
    assert_eq!(text.matches("\x1b[?1049l").count(), 1, "{text:?}");
    let (record, _) =
        replay_json(&std::fs::read_to_string(dir.join("sagani-game.json")).unwrap()).unwrap();
    assert_eq!(record.moves.len(), 2, "mine, and a random one for the bot");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `sagani serve` on a fresh database in `dir`, on any free port.
fn game_server(dir: &Path) -> common::Server {
    let mut serve = Command::new(env!("CARGO_BIN_EXE_sagani"));
    serve
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--moves-per-token",
            "0",
            "--db",
        ])
        .arg(dir.join("games.db"))
        .stderr(Stdio::null());
    common::started(serve)
}

/// A person in a browser, as the page plays: a seat claimed with its invite under a name, the
/// game live on a WebSocket, a move (the first legal one) whenever the seat is to act.
fn browser_player(
    server: &str,
    game: &str,
    invite: &str,
    name: &str,
) -> std::thread::JoinHandle<Value> {
    browser_joins(server, game, json!({ "invite": invite, "name": name }))
}

/// `browser_player`, taking its seat with `join` (an invite, or a public game's free seat).
fn browser_joins(server: &str, game: &str, join: Value) -> std::thread::JoinHandle<Value> {
    let http = reqwest::blocking::Client::new();
    let joined: Value = http
        .post(format!("{server}/api/games/{game}/join"))
        .json(&join)
        .send()
        .unwrap()
        .json()
        .unwrap();
    let token = joined["token"].as_str().expect("a seat").to_string();
    let ws = format!("{}/api/games/{game}/ws", server.replace("http://", "ws://"));
    let (game, server) = (game.to_string(), server.to_string());
    std::thread::spawn(move || {
        let (mut socket, _) = tungstenite::connect(ws).expect("the socket opens");
        socket
            .send(tungstenite::Message::text(
                json!({ "type": "auth", "token": token }).to_string(),
            ))
            .unwrap();
        loop {
            let msg = socket.read().expect("the game goes on");
            // Pings (every 30 s) and pongs carry no state.
            if !msg.is_text() {
                continue;
            }
            let Ok(text) = msg.to_text() else { continue };
            let update: Value = serde_json::from_str(text).unwrap();
            let state = &update["state"];
            if state["status"] == "over" {
                return state.clone();
            }
            if let Some(mv) = state["legal"].get(0) {
                // A move against a state already old (the terminal moved meanwhile) is refused
                // with stale_version; the next state comes all the same.
                let _ = http
                    .post(format!("{server}/api/games/{game}/moves"))
                    .bearer_auth(&token)
                    .json(&json!({ "version": state["version"], "move": mv }))
                    .send();
            }
        }
    })
}

#[test]
fn a_terminal_player_and_a_browser_player_at_one_server_table() {
    let dir = temp_dir("online");
    let server = game_server(&dir);
    let made: Value = reqwest::blocking::Client::new()
        .post(format!("{}/api/games", server.url))
        .json(&json!({
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "clock": {"kind": "realtime", "initial_s": 300, "increment_s": 5},
        }))
        .send()
        .unwrap()
        .json()
        .unwrap();
    let game = made["game"].as_str().unwrap().to_string();
    let invite = |i: usize| made["invites"][i]["code"].as_str().unwrap().to_string();
    let link = format!("{}/games/{game}/join/{}", server.url, invite(0));
    let mut t = Terminal::start(
        &dir,
        &format!("play --join {link} --name Tess --bot-pace-ms 0"),
    );
    let screen = t.wait_for("waiting for players");
    assert!(screen.contains("online · 5+5"), "{screen}");
    let bea = browser_player(&server.url, &game, &invite(1), "Bea");
    // Bea's name comes to the table, and the clocks start: the seat to act counts down.
    let screen = t.wait_for("Bea");
    assert!(screen.contains("time"), "{screen}");
    let screen = t.wait_for_a_person();
    assert!(screen.contains("▶ You: take a tile"), "{screen}");
    t.wait_for_any(&["4:59 ", "4:58 ", "4:57 "]);
    play_to_the_end(&mut t);
    let end = bea.join().expect("Bea's client played to the end");
    // The result the terminal shows is the server's.
    let screen = t.wait_for("The game is over");
    let scores = &end["outcome"]["scores"];
    for (seat, who) in [(0, "You"), (1, "Bea")] {
        let line = format!("{who:<14} {:>3} points", scores[seat]);
        assert!(screen.contains(&line), "{line:?}\n{screen}");
    }
    assert_eq!(
        end["seats"][0]["name"], "Tess",
        "the browser sees the terminal's name"
    );
    t.send("q");
    let (ok, text) = t.finish();
    assert!(ok, "{text}");
    assert!(
        text.contains("The game is over. Look back at it in a browser"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_game_made_on_a_server_from_the_terminal_is_left_and_taken_again_by_its_link() {
    let dir = temp_dir("online-made");
    let server = game_server(&dir);
    let args = format!(
        "play --server {} --bots human --clock 3+2 --name Tess",
        server.url
    );
    let mut t = Terminal::start(&dir, &args);
    let screen = t.wait_for("Seat 2 invite:");
    assert!(
        screen.contains("online · 3+2 · waiting for players"),
        "{screen}"
    );
    t.send("q");
    let (ok, text) = t.finish();
    assert!(ok, "{text}");
    // What was printed: the way back to the seat, and the invite for the other one.
    let after = |label: &str| {
        let at = text
            .find(label)
            .unwrap_or_else(|| panic!("{label:?} in {text}"))
            + label.len();
        text[at..].split_whitespace().next().unwrap().to_string()
    };
    let back = after("Come back with: sagani play --join ");
    let theirs = sagani_tui_link(&after("Seat 2 invite: "));
    let bea = browser_player(&server.url, &theirs.0, &theirs.1, "Bea");
    let mut t = Terminal::start(&dir, &format!("play --join {back} --bot-pace-ms 0"));
    let screen = t.wait_for("Bea");
    assert!(screen.contains("You"), "{screen}");
    t.place_first_tile();
    // Move 1 or 2: whoever the deal made start player.
    t.wait_for("You placed");
    t.send("q");
    let (ok, text) = t.finish();
    assert!(ok, "{text}");
    assert!(text.contains("You left the table"), "{text}");
    drop(server);
    let _ = bea.join();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The game and invite code of an invite link.
fn sagani_tui_link(link: &str) -> (String, String) {
    let parts: Vec<&str> = link.trim_end_matches('/').rsplit('/').collect();
    assert_eq!(parts.get(1), Some(&"join"), "{link}");
    (parts[2].to_string(), parts[0].to_string())
}

#[test]
fn a_public_game_made_from_the_terminal_without_colour_is_joined_from_the_lobby_and_played_out() {
    let dir = temp_dir("online-public");
    let server = game_server(&dir);
    let command = format!(
        "env NO_COLOR=1 {} play --server {} --bots human --public --name Tess --bot-pace-ms 0",
        env!("CARGO_BIN_EXE_sagani"),
        server.url
    );
    let mut t = Terminal::run(&dir, &command);
    // A public game has a clock (10+10 unless told otherwise), and waits in the lobby.
    let screen = t.wait_for("waiting for players");
    assert!(screen.contains("online · 10+10"), "{screen}");
    let lobby: Value = reqwest::blocking::get(format!("{}/api/games", server.url))
        .unwrap()
        .json()
        .unwrap();
    let listed = &lobby["games"][0];
    assert_eq!(listed["host"], "Tess", "{lobby}");
    let game = listed["game"].as_str().unwrap();
    let bea = browser_joins(&server.url, game, json!({ "seat": 1, "name": "Bea" }));
    t.wait_for("Bea");
    // Every arrow of the offer's tiles has its element's letter beside it.
    let screen = t.wait_for_a_person();
    let strip: Vec<Vec<char>> = screen
        .lines()
        .skip(2)
        .take(3)
        .map(|l| l.chars().collect())
        .collect();
    let mut arrows = 0;
    for row in &strip {
        for (i, c) in row.iter().enumerate() {
            if "↑↗→↘↓↙←↖".contains(*c) {
                arrows += 1;
                let near = [i.checked_sub(1), Some(i + 1)];
                assert!(
                    near.iter()
                        .flatten()
                        .any(|&j| row.get(j).is_some_and(|n| "fwea".contains(*n))),
                    "an arrow without its letter:\n{screen}"
                );
            }
        }
    }
    assert!(arrows > 5, "{screen}");
    play_to_the_end(&mut t);
    let end = bea.join().expect("Bea's client played to the end");
    assert_eq!(end["status"], "over");
    // Without colour: not one colour was sent in the whole game.
    let raw = String::from_utf8_lossy(&t.out.bytes.lock().unwrap()).into_owned();
    for colour in ["\x1b[38;", "\x1b[48;", "\x1b[31m", "\x1b[91m", "\x1b[33m"] {
        assert!(!raw.contains(colour), "a colour ({colour:?}) was sent");
    }
    t.send("q");
    let (ok, text) = t.finish();
    assert!(ok, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sagani_daily_without_a_server_says_where_to_play_it() {
    let out = sagani().arg("daily").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("sagani daily --server http://HOST:PORT"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

/// The number in "Draw pile 71 tiles" on the screen.
fn pile(screen: &str) -> Option<u32> {
    let at = screen.find("Draw pile ")? + "Draw pile ".len();
    screen[at..].split_whitespace().next()?.parse().ok()
}

#[test]
fn the_daily_challenge_played_in_the_terminal_as_a_guest_is_practice_on_a_deck_of_its_own() {
    let dir = temp_dir("daily");
    let server = game_server(&dir);
    // Someone played today's deck in a browser first, with an account (ranked).
    let http = reqwest::blocking::Client::new();
    let signed: reqwest::blocking::Response = http
        .post(format!("{}/api/players", server.url))
        .json(&json!({ "name": "Ada", "password": "Ada's secret" }))
        .send()
        .unwrap();
    let cookie = signed.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let ada: Value = http
        .post(format!("{}/api/daily/solo/start", server.url))
        .header("cookie", &cookie)
        .header("origin", &server.url)
        .json(&json!({}))
        .send()
        .unwrap()
        .json()
        .unwrap();
    let (game, token) = (
        ada["game"].as_str().unwrap(),
        ada["token"].as_str().unwrap(),
    );
    loop {
        let s: Value = http
            .get(format!("{}/api/games/{game}", server.url))
            .bearer_auth(token)
            .send()
            .unwrap()
            .json()
            .unwrap();
        if s["status"] == "over" {
            break;
        }
        let body = json!({ "version": s["version"], "move": s["legal"][0] });
        http.post(format!("{}/api/games/{game}/moves", server.url))
            .bearer_auth(token)
            .json(&body)
            .send()
            .unwrap();
    }
    let mut t = Terminal::start(&dir, &format!("daily --server {} --name Tess", server.url));
    let screen = t.wait_for("Enter place");
    assert!(
        screen.contains("Sagani · solo · daily challenge 20"),
        "{screen}"
    );
    // Every tile where the cursor starts.
    loop {
        let screen = t.wait_for_any(&["Enter place", "The game is over"]);
        if screen.contains("The game is over") {
            break;
        }
        let before = pile(&screen);
        t.send("\r");
        t.wait_until("the tile placed", |s| {
            pile(s) != before || s.contains("The game is over")
        });
    }
    t.send("q");
    let (ok, text) = t.finish();
    assert!(ok, "{text}");
    // Ada's ranked game on the day's deck has par by now; the terminal's, a guest's on a deck
    // of its own, has no line to share, no par and no place.
    assert!(
        text.contains("Practice as a guest on a deck of its own ("),
        "{text}"
    );
    assert!(
        !text.contains("Par (") && !text.contains("Sagani daily "),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

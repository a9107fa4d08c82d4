//! `sagani play` and `sagani view` as a user runs them: in a real pseudo-terminal (through
//! util-linux `script`), and refusing clearly without one.

mod common;

use common::*;
use sagani_core::record::replay_json;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
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
    out: Arc<Mutex<Vec<u8>>>,
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
        let out = Arc::new(Mutex::new(Vec::new()));
        let sink = out.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
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
        let size = |n| std::num::NonZeroU16::new(n).expect("a terminal has a size");
        let mut parser = vt100::Parser::new(size(ROWS), size(COLS), 0);
        parser.process(&self.out.lock().unwrap());
        parser.screen().contents()
    }

    /// Waits until the screen shows `what`.
    fn wait_for(&self, what: &str) -> String {
        self.wait_for_any(&[what])
    }

    /// Waits until the screen shows one of `whats`.
    fn wait_for_any(&self, whats: &[&str]) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if whats.iter().any(|w| screen.contains(w)) {
                return screen;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "waited for {whats:?}; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
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
        let start = Instant::now();
        while self.screen().contains(what) {
            assert!(
                start.elapsed() < PATIENCE,
                "{what:?} stays:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn send(&mut self, keys: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(keys.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// Places the first offer tile on the cell the cursor starts on, once a person is to take
    /// a tile.
    fn place_first_tile(&mut self) {
        self.wait_for_a_person();
        self.send("1");
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
        let text = String::from_utf8_lossy(&self.out.lock().unwrap()).into_owned();
        (status.success(), text)
    }
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
    let cases: [(&[&str], &str); 6] = [
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

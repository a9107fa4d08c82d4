//! `sagani play` and `sagani view` as a user runs them: in a real pseudo-terminal (through
//! util-linux `script`), and refusing clearly without one.

mod common;

use common::*;
use sagani_core::record::replay_json;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `sagani ARGS` in a 100×30 pseudo-terminal in `dir`, typing each key after its pause.
fn in_terminal(dir: &Path, args: &str, keys: &[(u64, &str)]) -> (bool, String) {
    let bin = env!("CARGO_BIN_EXE_sagani");
    let mut child = Command::new("script")
        .args([
            "-qfec",
            &format!("stty rows 30 cols 100; exec {bin} {args}"),
            "/dev/null",
        ])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("util-linux script runs the command in a pseudo-terminal");
    let mut stdin = child.stdin.take().unwrap();
    for (pause, key) in keys {
        std::thread::sleep(Duration::from_millis(*pause));
        stdin.write_all(key.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("sagani {args} did not quit");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.success(), text)
}

/// `sagani ARGS` in a terminal: the first offer tile placed by keys, then q.
fn place_one_and_quit(dir: &Path, args: &str) -> String {
    let (ok, screen) = in_terminal(dir, args, &[(1200, "1"), (300, "\r"), (600, "q")]);
    assert!(ok, "{screen}");
    screen
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
    // Whoever starts, the keys work: greedy answers at once with no pace, so each "1", Enter
    // finds the human to act.
    let keys: Vec<(u64, &str)> = std::iter::once((1200, "1"))
        .chain((0..5).flat_map(|_| [(300, "\r"), (500, "1")]))
        .chain([(300, "\r"), (500, "q")])
        .collect();
    let (ok, screen) = in_terminal(&dir, "play --seed 5 --bots greedy --bot-pace-ms 0", &keys);
    assert!(ok, "{screen}");
    assert!(
        screen.contains("Saved the game to sagani-game-5.json"),
        "{screen}"
    );
    assert!(screen.contains("Offer"), "the table was drawn");
    let path = dir.join("sagani-game-5.json");
    let json = std::fs::read_to_string(&path).unwrap();
    let (record, game) = replay_json(&json).unwrap();
    let mine = record.moves.iter().filter(|m| m.player == 0).count();
    assert!(mine >= 5, "the human placed tiles by keys: {mine}\n{json}");
    assert!(!game.is_over());
    assert!(json.contains(r#""seats": ["human","greedy"]"#), "{json}");
    // Resume: the same game, one more placement, saved back to the same file.
    let screen = place_one_and_quit(&dir, "play --load sagani-game-5.json --bot-pace-ms 0");
    assert!(
        screen.contains("Go on with: sagani play --load sagani-game-5.json"),
        "{screen}"
    );
    let (again, _) = replay_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(again.moves[..record.moves.len()], record.moves[..]);
    assert!(again.moves.iter().filter(|m| m.player == 0).count() == mine + 1);
    // The viewer opens it, goes to the end and quits.
    let (ok, screen) = in_terminal(
        &dir,
        "view sagani-game-5.json",
        &[(1000, "\x1b[F"), (300, "q")],
    );
    assert!(ok, "{screen}");
    assert!(screen.contains("Sagani replay"), "{screen}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn another_records_file_is_left_as_it_is_and_a_failed_save_can_still_quit() {
    let dir = temp_dir("foreign");
    // A record from elsewhere, with fields of its own: --load plays on from it, q saves the
    // game beside it and the file itself does not change.
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
    // A save that cannot be written: the first q says so, the second leaves without saving.
    let (ok, screen) = in_terminal(
        &dir,
        "play --seed 2 --bots human --save /nonexistent-dir/g.json",
        &[(1200, "q"), (600, "q")],
    );
    assert!(ok, "{screen}");
    assert!(screen.contains("q again quits without saving"), "{screen}");
    assert!(screen.contains("Quit without saving."), "{screen}");
    let _ = std::fs::remove_dir_all(&dir);
}

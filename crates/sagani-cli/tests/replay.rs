//! `sagani replay` and `sagani bench` as a user runs them: legal, partial, illegal and
//! malformed records, files and standard input.

use sagani_core::record::{Record, RecordedGame, Summary};
use sagani_core::{Game, Move, Setup};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn sagani() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sagani"))
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

fn replay_text(text: &str) -> Output {
    let mut child = sagani()
        .args(["replay", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn ok_json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Exit status 1, nothing on stdout, exactly one line on stderr; returns that line.
fn error_line(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        out.stdout.is_empty(),
        "stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "one line: {err:?}");
    assert!(err.ends_with('\n'));
    err.trim_end().to_string()
}

/// A seeded game played with the first legal move until `stop` says so.
fn record_until(players: u8, seed: u64, stop: impl Fn(&Game) -> bool) -> Record {
    let mut g = RecordedGame::new(&Setup::seeded(players, seed)).unwrap();
    while !g.game().is_over() && !stop(g.game()) {
        let moves = g.game().legal_moves();
        // Prefer the intermezzo choice and passes, so those states come up.
        let m = moves
            .iter()
            .copied()
            .find(|m| !matches!(m, Move::Place { .. }))
            .unwrap_or(moves[0]);
        g.play(m).unwrap();
    }
    g.record().clone()
}

fn with_moves(record: &Record, moves: Value) -> String {
    let mut v: Value = serde_json::from_str(&record.to_json()).unwrap();
    v["moves"] = moves;
    v.to_string()
}

#[test]
fn replays_the_example_game_to_its_end() {
    let path = examples().join("two-player-game.json");
    let out = sagani().arg("replay").arg(&path).output().unwrap();
    let v = ok_json(&out);
    assert_eq!(v["over"], true);
    assert_eq!(v["next"], Value::Null);
    // The CLI prints exactly the library's summary of the replayed game.
    let text = std::fs::read_to_string(&path).unwrap();
    let game = Record::from_json(&text).unwrap().replay().unwrap();
    assert_eq!(v, serde_json::to_value(Summary::of(&game)).unwrap());
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    for p in players {
        let tiles = p["tiles"].as_u64().unwrap() as usize;
        let flipped = p["flipped"].as_array().unwrap();
        let incomplete = p["incomplete"].as_array().unwrap();
        assert_eq!(tiles, flipped.len() + incomplete.len());
        let sorted = |a: &Vec<Value>| a.windows(2).all(|w| w[0].as_u64() < w[1].as_u64());
        assert!(sorted(flipped) && sorted(incomplete));
        assert!(p.get("final_score").is_none());
    }
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    let mut expect = vec![
        "over",
        "players",
        "ranking",
        "intermezzo",
        "offer",
        "draw_pile",
        "next",
    ];
    expect.sort();
    let mut keys = keys;
    keys.sort();
    assert_eq!(keys, expect);
}

#[test]
fn every_example_replays() {
    for entry in std::fs::read_dir(examples()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let v = ok_json(&sagani().arg("replay").arg(&path).output().unwrap());
            assert_eq!(v["over"], true, "{}", path.display());
        }
    }
}

#[test]
fn reads_standard_input() {
    let text = std::fs::read_to_string(examples().join("two-player-game.json")).unwrap();
    let from_stdin = ok_json(&replay_text(&text));
    let from_file = ok_json(
        &sagani()
            .arg("replay")
            .arg(examples().join("two-player-game.json"))
            .output()
            .unwrap(),
    );
    assert_eq!(from_stdin, from_file);
}

#[test]
fn partial_record_prints_the_state_reached_and_who_acts() {
    let r = record_until(2, 5, |_| false);
    let mut partial = r.clone();
    partial.moves.truncate(3);
    let v = ok_json(&replay_text(&partial.to_json()));
    assert_eq!(v["over"], false);
    let first = r.start_player as u64;
    assert_eq!(v["next"]["player"], 1 - first);
    assert_eq!(v["next"]["expects"], "turn");
    assert_eq!(v["offer"].as_array().unwrap().len(), 2);
    assert_eq!(v["draw_pile"], 67);
    assert_eq!(v["intermezzo"], serde_json::json!([]));
}

#[test]
fn partial_record_after_an_intermezzo_choice_expects_the_drawn_tile() {
    let r = record_until(3, 8, |g| g.revealed().is_some());
    let v = ok_json(&replay_text(&r.to_json()));
    assert_eq!(v["next"]["expects"], "place-drawn");
    // 67 after setup, minus the revealed tile (not counted while it waits).
    assert_eq!(v["draw_pile"], 66);
    assert_eq!(v["intermezzo"].as_array().unwrap().len(), 1);
    assert_eq!(v["offer"], serde_json::json!([]));
}

#[test]
fn partial_record_in_an_intermezzo_expects_a_pick() {
    let r = record_until(2, 9, |g| {
        g.expects() == Some(sagani_core::Expect::IntermezzoPick)
    });
    let v = ok_json(&replay_text(&r.to_json()));
    assert_eq!(v["next"]["expects"], "intermezzo-pick");
    assert_eq!(v["intermezzo"].as_array().unwrap().len(), 4);
}

#[test]
fn solo_records_expect_the_revealed_tile_and_solo_all_has_final_scores() {
    let r = record_until(1, 4, |g| g.display(0).len() == 5);
    let v = ok_json(&replay_text(&r.to_json()));
    assert_eq!(v["next"]["expects"], "place-revealed");
    assert_eq!(v["draw_pile"], 66);
    assert_eq!(v["ranking"], serde_json::json!([0]));

    let mut rg = RecordedGame::new(&Setup {
        players: 1,
        variant: Some(sagani_core::Variant::SoloAll),
        deck: sagani_core::DeckOrder::Seed(4),
        start_player: None,
    })
    .unwrap();
    while !rg.game().is_over() {
        let m = rg.game().legal_moves()[0];
        rg.play(m).unwrap();
    }
    let v = ok_json(&replay_text(&rg.record().to_json()));
    assert_eq!(v["over"], true);
    let p = &v["players"][0];
    assert_eq!(p["tiles"], 72);
    assert_eq!(
        p["final_score"].as_i64().unwrap(),
        rg.game().final_score(0) as i64
    );
    assert!(p["final_score"].as_i64() < p["score"].as_i64());
}

#[test]
fn an_illegal_move_names_the_move_and_the_reason() {
    let r = record_until(2, 5, |_| false);
    let mut v: Value = serde_json::from_str(&r.to_json()).unwrap();
    // Move 2: a second tile of the same player put far away from its display.
    let second = v["moves"][2].clone();
    v["moves"][2]["x"] = 5.into();
    v["moves"][2]["y"] = (-7).into();
    let line = error_line(&replay_text(&v.to_string()));
    let player = second["player"].as_u64().unwrap();
    assert_eq!(
        line,
        format!("move 2: cell (5,-7) is not next to a tile of player {player}")
    );

    // A tile that is not in the offer.
    let mut v: Value = serde_json::from_str(&r.to_json()).unwrap();
    let offer_tile = v["moves"][0]["tile"].as_u64().unwrap();
    v["moves"][1]["tile"] = offer_tile.into();
    let line = error_line(&replay_text(&v.to_string()));
    assert_eq!(
        line,
        format!("move 1: tile {offer_tile} is not in the offer display")
    );
}

#[test]
fn the_wrong_player_and_moves_after_the_end_are_refused() {
    let r = record_until(2, 5, |_| false);
    let mut v: Value = serde_json::from_str(&r.to_json()).unwrap();
    let p = v["moves"][0]["player"].as_u64().unwrap();
    v["moves"][0]["player"] = (1 - p).into();
    let line = error_line(&replay_text(&v.to_string()));
    assert_eq!(
        line,
        format!(
            "move 0: player {} moved, but player {p} must act (turn)",
            1 - p
        )
    );

    let mut v: Value = serde_json::from_str(&r.to_json()).unwrap();
    let n = v["moves"].as_array().unwrap().len();
    let extra = v["moves"][0].clone();
    v["moves"].as_array_mut().unwrap().push(extra);
    let line = error_line(&replay_text(&v.to_string()));
    assert_eq!(line, format!("move {n}: the game is over"));
}

#[test]
fn malformed_records_get_a_clear_error_and_never_a_panic() {
    let r = record_until(2, 5, |_| false);
    let good = r.to_json();
    let cases: Vec<(String, &str)> = vec![
        ("".into(), "record: not valid JSON"),
        ("{".into(), "record: not valid JSON"),
        (
            "[1,2]".into(),
            "record: must be a JSON object, not an array",
        ),
        ("null".into(), "record: must be a JSON object, not null"),
        (
            good.replace("\"players\": 2", "\"players\": \"two\""),
            "record: players must be a number, not a string",
        ),
        (
            good.replace("\"players\": 2", "\"players\": 7"),
            "record: players must be 1 to 4, not 7",
        ),
        (
            good.replace("\"players\": 2", "\"players\": 99999999999999999999"),
            "record: players 1e+20 is out of range",
        ),
        (
            good.replace("\"players\": 2", "\"players\": 1e400"),
            "record: not valid JSON",
        ),
        (
            good.replace("\"variant\": \"standard\"", "\"variant\": \"chess\""),
            "record: unknown variant \"chess\"",
        ),
        (
            good.replace("\"variant\": \"standard\"", "\"variant\": \"solo\""),
            "record: variant solo is for 1 player, not 2",
        ),
        (
            good.replace("\"format\": \"sagani-record/1\"", "\"format\": \"other/2\""),
            "record: format is \"other/2\"",
        ),
        (
            good.replace("\"start_player\": ", "\"start_player\": 9, \"x\": "),
            "record: start_player 9 does not exist",
        ),
        (
            good.replace("\"deck\": [", "\"deck\": [1,"),
            "record: the deck must hold each of the 72 tiles once; it has 73",
        ),
        (
            good.replace("\"moves\": [", "\"moves\": 5, \"m\": ["),
            "record: moves must be an array, not a number",
        ),
        (
            good.replace("\"moves\"", "\"moevs\""),
            "record: moves is missing",
        ),
        (
            good.replace("\"deck\"", "\"dekc\""),
            "record: deck is missing",
        ),
        (
            with_moves(&r, serde_json::json!([5])),
            "move 0: must be a JSON object, not a number",
        ),
        (
            with_moves(&r, serde_json::json!([{"player": 0}])),
            "move 0: action is missing",
        ),
        (
            with_moves(&r, serde_json::json!([{"action": "place"}])),
            "move 0: player is missing",
        ),
        (
            with_moves(&r, serde_json::json!([{"player": 0, "action": "jump"}])),
            "move 0: unknown action \"jump\" (expected place, intermezzo or pass)",
        ),
        (
            with_moves(&r, serde_json::json!([{"player": 0, "action": 3}])),
            "move 0: action must be a string, not a number",
        ),
        (
            with_moves(
                &r,
                serde_json::json!([{"player": 0, "action": "place", "tile": 3, "x": 0, "y": 0}]),
            ),
            "move 0: rot is missing",
        ),
        (
            with_moves(
                &r,
                serde_json::json!([{"player": 0, "action": "place", "tile": 3, "x": "0", "y": 0, "rot": 0}]),
            ),
            "move 0: x must be a number, not a string",
        ),
        (
            with_moves(
                &r,
                serde_json::json!([{"player": 0, "action": "place", "tile": 3, "x": 0.5, "y": 0, "rot": 0}]),
            ),
            "move 0: x must be a whole number, not 0.5",
        ),
        (
            with_moves(
                &r,
                serde_json::json!([{"player": 0, "action": "place", "tile": 3, "x": 1e300, "y": 0, "rot": 0}]),
            ),
            "move 0: x 1e+300 is out of range",
        ),
        (
            with_moves(
                &r,
                serde_json::json!([{"player": 0, "action": "place", "tile": 3, "x": 4294967296u64, "y": 0, "rot": 0}]),
            ),
            "move 0: x 4294967296 is out of range",
        ),
        (
            with_moves(
                &r,
                serde_json::json!([{"player": 0, "action": "place", "tile": 300, "x": 0, "y": 0, "rot": 0}]),
            ),
            "move 0: tile 300 does not exist (tiles are 1 to 72)",
        ),
        (
            with_moves(
                &r,
                serde_json::json!([{"player": 0, "action": "place", "tile": 3, "x": 0, "y": 0, "rot": 4}]),
            ),
            "move 0: rotation 4 is not 0 to 3",
        ),
        (
            with_moves(&r, serde_json::json!([{"player": 5, "action": "pass"}])),
            "move 0: player 5 does not exist in a 2-player game",
        ),
        (
            with_moves(&r, serde_json::json!([{"player": -1, "action": "pass"}])),
            "move 0: player -1 does not exist in a 2-player game",
        ),
    ];
    for (text, expect) in cases {
        let line = error_line(&replay_text(&text));
        assert!(
            line.starts_with(expect),
            "{line:?} should start with {expect:?}"
        );
    }
    // Deck faults.
    let mut v: Value = serde_json::from_str(&good).unwrap();
    v["deck"][3] = v["deck"][4].clone();
    let dup = v["deck"][4].as_u64().unwrap();
    let line = error_line(&replay_text(&v.to_string()));
    assert_eq!(
        line,
        format!("record: tile {dup} appears twice in the deck")
    );
    v["deck"][3] = 0.into();
    let line = error_line(&replay_text(&v.to_string()));
    assert_eq!(
        line,
        "record: deck position 3 holds tile 0, which does not exist (tiles are 1 to 72)"
    );
}

#[test]
fn whole_numbers_written_with_a_fraction_part_are_whole_numbers() {
    let r = record_until(2, 5, |g| g.placements() == 4);
    let expected = ok_json(&replay_text(&r.to_json()));
    let mut v: Value = serde_json::from_str(&r.to_json()).unwrap();
    let tile = v["moves"][0]["tile"].as_u64().unwrap();
    v["moves"][0]["tile"] = serde_json::json!(tile as f64);
    v["players"] = serde_json::json!(2.0);
    assert!(v.to_string().contains(".0"));
    assert_eq!(ok_json(&replay_text(&v.to_string())), expected);
}

#[test]
fn extra_fields_are_ignored_and_defaults_apply() {
    let r = record_until(2, 5, |g| g.placements() == 6);
    let mut v: Value = serde_json::from_str(&r.to_json()).unwrap();
    let expected = ok_json(&replay_text(&v.to_string()));
    // The server's records name the seats (RECORD.md), a seat without a name as null.
    let named = r.to_json_with(&[("names", serde_json::json!(["Ada", null]))]);
    assert!(named.contains("\"names\": [\"Ada\",null]"), "{named}");
    assert_eq!(ok_json(&replay_text(&named)), expected);
    v["names"] = serde_json::json!(["Ada", "Bo"]);
    v["moves"][0]["clock"] = 12.into();
    assert_eq!(ok_json(&replay_text(&v.to_string())), expected);
    // Without variant and format, a 2-player record is standard.
    v.as_object_mut().unwrap().remove("variant");
    v.as_object_mut().unwrap().remove("format");
    assert_eq!(ok_json(&replay_text(&v.to_string())), expected);
    // Without start_player, player 0 starts.
    if r.start_player == 0 {
        v.as_object_mut().unwrap().remove("start_player");
        assert_eq!(ok_json(&replay_text(&v.to_string())), expected);
    }
}

#[test]
fn a_missing_file_is_a_record_error() {
    let out = sagani()
        .args(["replay", "/nonexistent/record.json"])
        .output()
        .unwrap();
    let line = error_line(&out);
    assert!(
        line.starts_with("record: cannot read /nonexistent/record.json"),
        "{line}"
    );
}

#[test]
fn help_texts_have_examples() {
    for args in [
        vec!["--help"],
        vec!["replay", "--help"],
        vec!["bench", "--help"],
    ] {
        let out = sagani().args(&args).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("Example"), "{args:?}: {text}");
    }
    let out = sagani().args(["replay"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "usage errors exit with 2");
}

#[test]
fn bench_prints_games_and_placements_per_second() {
    let out = sagani()
        .args(["bench", "--players", "3", "--games", "200", "--seed", "4"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let line = String::from_utf8(out.stdout).unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[0..2], ["random", "playouts:"]);
    assert_eq!(words[3], "games/s,");
    assert_eq!(words[5], "placements/s");
    let games: f64 = words[2].parse().unwrap();
    let placements: f64 = words[4].parse().unwrap();
    // Each 3-player game has at least 60 placements.
    assert!(games > 0.0 && placements > 60.0 * games * 0.99);
    let bad = sagani().args(["bench", "--players", "5"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

//! `sagani arena`, `sagani solo`, `sagani hint` and `sagani bench --mcts` as a user runs them.

use sagani_core::record::{replay_json, Record};
use sagani_core::Outcome;
use serde_json::Value;
mod common;

use common::*;
use std::path::PathBuf;

/// The table row of `bot`: games, wins, mean score, mean Cacophony.
fn row(table: &str, bot: &str) -> (u64, u64, f64, f64) {
    let line = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(bot))
        .unwrap_or_else(|| panic!("no row for {bot} in\n{table}"));
    let f: Vec<&str> = line.split_whitespace().collect();
    // bot games wins rate% [lo%, hi%] mean cacophony elo
    (
        f[1].parse().unwrap(),
        f[2].parse().unwrap(),
        f[6].parse().unwrap(),
        f[7].parse().unwrap(),
    )
}

#[test]
fn arena_records_replay_to_the_scores_the_table_reports() {
    let dir = temp_dir("arena");
    let svg = dir.join("scores.svg");
    let out = sagani()
        .args([
            "arena",
            "--bots",
            "greedy,random",
            "--players",
            "2",
            "--games",
            "5",
            "--seed",
            "3",
        ])
        .arg("--records")
        .arg(&dir)
        .arg("--svg")
        .arg(&svg)
        .output()
        .unwrap();
    let table = ok(&out);
    assert!(table.contains("6 games of 2 players"), "{table}");
    // Replay every record; seat s of game i holds bot (s + i) mod 2.
    let mut totals = [(0u64, 0u64, 0.0f64, 0.0f64); 2];
    for i in 0..6u64 {
        let text = std::fs::read_to_string(dir.join(format!("{i}.json"))).unwrap();
        let replayed = sagani()
            .args(["replay"])
            .arg(dir.join(format!("{i}.json")))
            .output()
            .unwrap();
        let summary: Value = serde_json::from_str(&ok(&replayed)).unwrap();
        assert_eq!(summary["over"], true);
        let (record, game) = replay_json(&text).unwrap();
        assert_eq!(record.deck, Record::from_json(&text).unwrap().deck);
        let Some(Outcome::Ranking { ranking, scores }) = game.outcome() else {
            panic!()
        };
        for s in 0..2usize {
            let b = (s + i as usize) % 2;
            totals[b].0 += 1;
            totals[b].1 += (ranking[0] as usize == s) as u64;
            totals[b].2 += scores[s] as f64;
            totals[b].3 += game.cacophony(s as u8) as f64;
            assert_eq!(summary["players"][s]["score"], scores[s]);
        }
        // Games 2k and 2k+1 share one deck, seats swapped.
        if i % 2 == 1 {
            let prev = Record::from_json(
                &std::fs::read_to_string(dir.join(format!("{}.json", i - 1))).unwrap(),
            )
            .unwrap();
            assert_eq!(prev.deck, record.deck);
            assert_eq!(prev.start_player, record.start_player);
        }
    }
    for (b, name) in ["greedy", "random"].iter().enumerate() {
        let (games, wins, mean, caco) = row(&table, name);
        assert_eq!((games, wins), (totals[b].0, totals[b].1), "{name}");
        assert!(
            (mean - totals[b].2 / games as f64).abs() < 0.051,
            "{name}: {mean}"
        );
        assert!(
            (caco - totals[b].3 / games as f64).abs() < 0.0051,
            "{name}: {caco}"
        );
    }
    let svg_text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        svg_text.contains("<svg") && svg_text.contains("greedy") && svg_text.contains("random")
    );
}

#[test]
fn arena_refuses_unknown_bots_and_malformed_engines_clearly() {
    let err = failed(
        &sagani()
            .args(["arena", "--bots", "greedy,alphazero"])
            .output()
            .unwrap(),
    );
    assert!(err.contains("unknown bot \"alphazero\""), "{err}");
    let err = failed(
        &sagani()
            .args(["arena", "--bots", "greedy,x", "--engine", "x"])
            .output()
            .unwrap(),
    );
    assert!(err.contains("must be NAME=COMMAND"), "{err}");
    let err = failed(
        &sagani()
            .args(["arena", "--bots", "greedy", "--engine", "mcts=python3 x.py"])
            .output()
            .unwrap(),
    );
    assert!(err.contains("built-in bot"), "{err}");
    let err = failed(
        &sagani()
            .args(["arena", "--bots", "greedy", "--players", "1"])
            .output()
            .unwrap(),
    );
    assert!(err.contains("1"), "{err}");
    let err = failed(
        &sagani()
            .args([
                "arena",
                "--bots",
                "greedy,random",
                "--records",
                "/proc/nope/dir",
            ])
            .output()
            .unwrap(),
    );
    assert!(err.contains("cannot create records directory"), "{err}");
}

#[test]
fn arena_seats_an_engine_beside_built_in_bots() {
    let engine = format!("py=python3 {}", root().join("examples/engine.py").display());
    let out = sagani()
        .args([
            "arena",
            "--bots",
            "py,random",
            "--games",
            "2",
            "--budget-ms",
            "2000",
            "--engine",
            &engine,
        ])
        .output()
        .unwrap();
    let table = ok(&out);
    assert_eq!(row(&table, "py").0, 2);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("random legal move was played"));
}

#[test]
fn solo_reports_tiles_per_game_median_mean_and_symphony_rate() {
    let dir = temp_dir("solo");
    let out = sagani()
        .args([
            "solo",
            "--bot",
            "greedy",
            "--games",
            "4",
            "--seed",
            "2",
            "--records",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = ok(&out);
    let mut tiles = Vec::new();
    for i in 0..4 {
        let (_, game) =
            replay_json(&std::fs::read_to_string(dir.join(format!("{i}.json"))).unwrap()).unwrap();
        let Some(Outcome::Solo {
            tiles_used,
            reached: true,
            ..
        }) = game.outcome()
        else {
            panic!()
        };
        tiles.push(tiles_used);
        assert!(
            stdout.contains(&format!("game {i} (deck {}): {tiles_used} tiles", 2 + i)),
            "{stdout}"
        );
    }
    tiles.sort();
    let median = (tiles[1] + tiles[2]) as f64 / 2.0;
    assert!(stdout.contains(&format!("median {median:.1}")), "{stdout}");
    assert!(stdout.contains("4 games: 75 reached in 4"), "{stdout}");
    let all = ok(&sagani()
        .args([
            "solo",
            "--bot",
            "greedy",
            "--games",
            "1",
            "--variant",
            "solo-all",
        ])
        .output()
        .unwrap());
    assert!(all.contains("final score median"), "{all}");
    let err = failed(
        &sagani()
            .args(["solo", "--variant", "standard"])
            .output()
            .unwrap(),
    );
    assert!(err.contains("standard"), "{err}");
}

/// A record of the example 2-player game cut after `n` moves.
fn partial(n: usize) -> PathBuf {
    let text = std::fs::read_to_string(root().join("examples/two-player-game.json")).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v["moves"].as_array_mut().unwrap().truncate(n);
    let path = std::env::temp_dir().join(format!("sagani-hint-{n}-{}.json", std::process::id()));
    std::fs::write(&path, v.to_string()).unwrap();
    path
}

#[test]
fn hint_lists_the_best_moves_of_whoever_must_act() {
    let path = partial(12);
    let out = sagani()
        .arg("hint")
        .arg(&path)
        .args(["--iterations", "3000", "--top", "3"])
        .output()
        .unwrap();
    let text = ok(&out);
    assert!(text.starts_with("player "), "{text}");
    assert_eq!(
        text.lines()
            .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
            .count(),
        3,
        "{text}"
    );
    let out = sagani()
        .arg("hint")
        .arg(&path)
        .args(["--iterations", "3000", "--json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_str(&ok(&out)).unwrap();
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 5);
    let visits: Vec<u64> = moves
        .iter()
        .map(|m| m["visits"].as_u64().unwrap())
        .collect();
    assert!(visits.windows(2).all(|w| w[0] >= w[1]), "{visits:?}");
    // Every hinted move is legal where the record stops.
    let (_, game) = replay_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(v["player"], game.to_act().unwrap());
    for m in moves {
        let mv: sagani_core::Move = serde_json::from_value(m["move"].clone()).unwrap();
        assert!(game.legal_moves().contains(&mv));
    }
    let greedy = ok(&sagani()
        .arg("hint")
        .arg(&path)
        .args(["--bot", "greedy"])
        .output()
        .unwrap());
    assert!(greedy.contains("best by greedy"), "{greedy}");
}

#[test]
fn hint_refuses_finished_and_broken_records() {
    let err = failed(
        &sagani()
            .arg("hint")
            .arg(root().join("examples/two-player-game.json"))
            .output()
            .unwrap(),
    );
    assert!(err.contains("the game is over"), "{err}");
    let err = failed(
        &sagani()
            .args(["hint", "/nonexistent.json"])
            .output()
            .unwrap(),
    );
    assert!(err.contains("cannot read"), "{err}");
    let bad = std::env::temp_dir().join(format!("sagani-hint-bad-{}.json", std::process::id()));
    std::fs::write(&bad, "{\"players\": 2, \"deck\": 5, \"moves\": []}").unwrap();
    let err = failed(&sagani().arg("hint").arg(&bad).output().unwrap());
    assert!(err.starts_with("record: "), "{err}");
}

#[test]
fn bench_mcts_prints_iterations_per_second() {
    let out = sagani()
        .args([
            "bench",
            "--mcts",
            "--threads",
            "2",
            "--positions",
            "2",
            "--budget-ms",
            "50",
        ])
        .output()
        .unwrap();
    let text = ok(&out);
    let rate: f64 = text.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(rate > 0.0, "{text}");
    assert!(text.contains("2 threads"), "{text}");
}

#[test]
fn an_arena_run_with_an_iteration_budget_repeats_exactly() {
    let run = |name: &str| {
        let dir = temp_dir(name);
        let out = sagani()
            .args([
                "arena",
                "--bots",
                "mcts,greedy",
                "--players",
                "3",
                "--games",
                "2",
                "--seed",
                "5",
            ])
            .args(["--iterations", "40", "--records"])
            .arg(&dir)
            .output()
            .unwrap();
        let table = ok(&out);
        let records: Vec<String> = (0..2)
            .map(|i| std::fs::read_to_string(dir.join(format!("{i}.json"))).unwrap())
            .collect();
        (table, records)
    };
    let (a, b) = (run("repeat-a"), run("repeat-b"));
    assert_eq!(a, b);
    assert!(a.0.contains("2 games of 3 players"), "{}", a.0);
}

#[test]
fn train_writes_a_policy_the_arena_reads_and_refuses_bad_input() {
    let dir = temp_dir("train");
    let out = dir.join("p.json");
    let text = ok(&sagani()
        .args([
            "train",
            "--games",
            "5",
            "--players",
            "2",
            "--iterations",
            "20",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap());
    assert!(text.contains("decisions from 5 games"), "{text}");
    assert!(
        text.contains("held out, the search's move is the policy's best"),
        "{text}"
    );
    let policy = sagani_ai::policy::Policy::load(out.to_str().unwrap()).unwrap();
    assert!(policy.intermezzo.is_some());
    // The file, by a path with slashes, is a setting of an mcts bot.
    let table = ok(&sagani()
        .args([
            "arena",
            "--games",
            "2",
            "--budget-ms",
            "5",
            "--threads",
            "1",
        ])
        .arg("--bots")
        .arg(format!("mcts/policy={},greedy", out.display()))
        .output()
        .unwrap());
    assert!(table.contains("2 games of 2 players"), "{table}");
    let err = failed(
        &sagani()
            .args(["train", "--players", "5", "--out"])
            .arg(&out)
            .output()
            .unwrap(),
    );
    assert!(err.contains("--players: 5 is not 1 to 4"), "{err}");
    let err = failed(
        &sagani()
            .args(["train", "--games", "5", "--out", "/no/such/dir/p.json"])
            .output()
            .unwrap(),
    );
    assert!(err.contains("--out /no/such/dir/p.json"), "{err}");
    // The policy written before is still there.
    assert!(sagani_ai::policy::Policy::load(out.to_str().unwrap()).is_ok());
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{}").unwrap();
    let err = failed(
        &sagani()
            .arg("arena")
            .arg("--bots")
            .arg(format!("mcts/policy={},greedy", bad.display()))
            .output()
            .unwrap(),
    );
    assert!(err.contains("not a policy file"), "{err}");
}

#[test]
fn train_solo_writes_a_solo_policy_that_solo_reads() {
    let dir = temp_dir("train-solo");
    let out = dir.join("s.json");
    let text = ok(&sagani()
        .args([
            "train", "--solo", "--games", "10", "--steps", "2", "--seed", "9",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap());
    assert!(
        text.contains("start (solo-trained), held out: mean return"),
        "{text}"
    );
    assert!(text.contains("generation 1: mean return"), "{text}");
    assert!(text.contains("tuned, held out: mean return"), "{text}");
    let policy = sagani_ai::policy::Policy::load(out.to_str().unwrap()).unwrap();
    assert_ne!(&policy, sagani_ai::policy::Policy::solo_trained());
    let played = ok(&sagani()
        .args(["solo", "--games", "1", "--budget-ms", "5", "--threads", "1"])
        .arg("--bot")
        .arg(format!("mcts/solo_policy={}", out.display()))
        .output()
        .unwrap());
    assert!(played.contains("1 games:"), "{played}");
    let err = failed(
        &sagani()
            .args(["train", "--solo", "--value", "--out"])
            .arg(dir.join("x.json"))
            .output()
            .unwrap(),
    );
    assert!(err.contains("--value") && err.contains("--solo"), "{err}");
}

#[test]
fn train_td_writes_a_solo_value_that_solo_reads() {
    let dir = temp_dir("train-td");
    let out = dir.join("td.json");
    let text = ok(&sagani()
        .args([
            "train",
            "--td",
            "--games",
            "5",
            "--warm",
            "20",
            "--held-out",
            "2",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap());
    assert!(
        text.contains("held out (2 decks from 5000001): the value alone reached 75 on"),
        "{text}"
    );
    assert!(
        text.contains("the playout policy alone reached 75 on"),
        "{text}"
    );
    let td = sagani_ai::td::Td::load(out.to_str().unwrap()).unwrap();
    assert!(td.w.iter().any(|w| *w != 0.0), "nothing was learned");
    let played = ok(&sagani()
        .args([
            "solo",
            "--games",
            "1",
            "--iterations",
            "50",
            "--threads",
            "1",
        ])
        .arg("--bot")
        .arg(format!("mcts/solo_td={}", out.display()))
        .output()
        .unwrap());
    assert!(played.contains("1 games:"), "{played}");
    let err = failed(
        &sagani()
            .args(["solo", "--games", "1", "--bot"])
            .arg(format!("mcts/solo_td={}", dir.join("none.json").display()))
            .output()
            .unwrap(),
    );
    assert!(err.contains("none.json"), "{err}");
    let err = failed(
        &sagani()
            .args(["train", "--warm", "5", "--out"])
            .arg(dir.join("x.json"))
            .output()
            .unwrap(),
    );
    assert!(err.contains("--td"), "{err}");
}

#[test]
fn train_value_writes_an_evaluation_the_arena_reads_and_refuses_bad_input() {
    let dir = temp_dir("train-value");
    let out = dir.join("v.json");
    let text = ok(&sagani()
        .args(["train", "--value", "--games", "60", "--threads", "1"])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap());
    assert!(text.contains("from 60 games; held out"), "{text}");
    for players in ["1", "2", "3", "4"] {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{players} "))),
            "no row for {players} players: {text}"
        );
    }
    // A column of weights for each player count.
    let header = text.lines().find(|l| l.starts_with("feature")).unwrap();
    assert_eq!(
        header.split_whitespace().collect::<Vec<_>>(),
        ["feature", "1", "2", "3", "4"]
    );
    let value = sagani_ai::value::Value::load(out.to_str().unwrap()).unwrap();
    assert!(value.weights.iter().all(|w| w.iter().any(|x| *x != 0.0)));
    // Player counts not played keep the shipped weights (zeros would value their cut
    // playouts at one half).
    let two = dir.join("two.json");
    let text = ok(&sagani()
        .args(["train", "--value", "--games", "10", "--players", "2"])
        .args(["--threads", "1", "--out"])
        .arg(&two)
        .output()
        .unwrap());
    assert!(
        text.contains("games of 1,3,4 players were not played"),
        "{text}"
    );
    let fitted = sagani_ai::value::Value::load(two.to_str().unwrap()).unwrap();
    let shipped = sagani_ai::value::Value::trained();
    for n in [0, 2, 3] {
        assert_eq!(fitted.weights[n], shipped.weights[n], "players {}", n + 1);
    }
    assert_ne!(fitted.weights[1], shipped.weights[1]);
    // The file is a setting of an mcts bot whose playouts it ends.
    let table = ok(&sagani()
        .args([
            "arena",
            "--games",
            "2",
            "--budget-ms",
            "5",
            "--threads",
            "1",
        ])
        .arg("--bots")
        .arg(format!(
            "mcts/playout_depth=4/value={},greedy",
            out.display()
        ))
        .output()
        .unwrap());
    assert!(table.contains("2 games of 2 players"), "{table}");
    let err = failed(
        &sagani()
            .args(["train", "--value", "--players", "2,5", "--out"])
            .arg(&out)
            .output()
            .unwrap(),
    );
    assert!(err.contains("--players: 5 is not 1 to 4"), "{err}");
    // The evaluation written before is still there.
    assert!(sagani_ai::value::Value::load(out.to_str().unwrap()).is_ok());
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"players": {"2": {}}}"#).unwrap();
    let err = failed(
        &sagani()
            .arg("arena")
            .arg("--bots")
            .arg(format!("mcts/value={},greedy", bad.display()))
            .output()
            .unwrap(),
    );
    assert!(err.contains("is missing"), "{err}");
}

#[test]
fn train_value_solo_parts_writes_a_two_part_solo_evaluation_solo_games_read() {
    let dir = temp_dir("train-value-parts");
    let out = dir.join("parts.json");
    let text = ok(&sagani()
        .args(["train", "--value", "--solo-parts", "--games", "40"])
        .args(["--players", "1", "--threads", "1", "--out"])
        .arg(&out)
        .output()
        .unwrap());
    assert!(text.contains("(solo in one curve)"), "{text}");
    assert!(text.contains("the symphony's chance:"), "{text}");
    let value = sagani_ai::value::Value::load(out.to_str().unwrap()).unwrap();
    let sym = value.symphony.as_ref().expect("solo in two parts");
    assert!(sym.iter().any(|w| *w != 0.0));
    let file = std::fs::read_to_string(&out).unwrap();
    assert!(
        file.contains("--solo-parts"),
        "the command is noted: {file}"
    );
    let played = ok(&sagani()
        .args([
            "solo",
            "--games",
            "1",
            "--iterations",
            "50",
            "--threads",
            "1",
        ])
        .arg("--bot")
        .arg(format!("mcts/value={}", out.display()))
        .output()
        .unwrap());
    assert!(played.contains("1 games:"), "{played}");
    // Parts are for the evaluation only.
    let err = failed(
        &sagani()
            .args(["train", "--solo-parts", "--out"])
            .arg(dir.join("x.json"))
            .output()
            .unwrap(),
    );
    assert!(err.contains("--value"), "{err}");
    // Parts are for solo: without solo games they would do nothing.
    let err = failed(
        &sagani()
            .args(["train", "--value", "--solo-parts", "--players", "2,3"])
            .arg("--out")
            .arg(dir.join("y.json"))
            .output()
            .unwrap(),
    );
    assert!(
        err.contains("--solo-parts: --players 2,3 has no solo games"),
        "{err}"
    );
    assert!(!dir.join("y.json").exists());
}

#[test]
fn ladder_prints_a_row_per_level_repeats_for_a_seed_and_refuses_one_level() {
    let run = || {
        let out = sagani()
            .args(["ladder", "--from", "1", "--to", "3", "--games", "4"])
            .args(["--seed", "5", "--threads", "2"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let table = run();
    assert!(table.starts_with("10 games of 2 players"), "{table}");
    for row in ["| 1 | newcomer | 0 |", "| 2 | beginner |", "| 3 | casual |"] {
        assert!(table.contains(row), "no {row:?} in\n{table}");
    }
    for pairing in [
        "| 2 against 1 | 4 |",
        "| 3 against 2 | 4 |",
        "| 3 against 1 | 2 |",
    ] {
        assert!(table.contains(pairing), "no {pairing:?} in\n{table}");
    }
    assert_eq!(run(), table, "the same seed gives the same table");

    let out = sagani()
        .args(["ladder", "--from", "4", "--to", "4"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--from 4 must be below --to 4"), "{err}");
}

/// `--help` of play, arena and hint names the levels; the mcts settings are in `--help` only.
#[test]
fn help_lists_the_levels_and_keeps_the_mcts_settings_for_the_long_form() {
    for cmd in ["play", "arena", "hint"] {
        let long = ok(&sagani().args([cmd, "--help"]).output().unwrap());
        let short = ok(&sagani().args([cmd, "-h"]).output().unwrap());
        for text in [&long, &short] {
            assert!(
                text.contains("mcts:LEVEL")
                    && text.contains("1 newcomer, 2 beginner")
                    && text.contains("8 master")
                    && text.contains(&format!(
                        "a newcomer starts at mcts:{}",
                        sagani_ai::levels::DEFAULT_LEVEL
                    )),
                "{cmd}: {text}"
            );
        }
        assert!(long.contains("--mcts-config"), "{cmd}: {long}");
        assert!(!short.contains("--mcts-config"), "{cmd}: {short}");
    }
}

/// The page's seat menu starts where `sagani play` and a server's `mcts` seat start.
#[test]
fn the_page_s_seat_menu_starts_at_the_default_level() {
    let home = std::fs::read_to_string(root().join("web/home.js")).unwrap();
    let start = format!(
        "seatSelects[i].value = 'bot:mcts:{}';",
        sagani_ai::levels::DEFAULT_LEVEL
    );
    assert!(home.contains(&start), "web/home.js lacks {start}");
}

/// One bot against three copies of another, and two bots at a 4-player table: a bot's games
/// and wins count whole games, never more than were played.
#[test]
fn arena_counts_whole_games_per_bot_at_a_table_of_four() {
    for bots in ["greedy,random,random,random", "greedy,random"] {
        let out = sagani()
            .args(["arena", "--bots", bots, "--players", "4", "--games", "4"])
            .output()
            .unwrap();
        let table = ok(&out);
        assert!(table.contains("4 games of 4 players"), "{table}");
        assert!(table.contains("count whole games"), "{table}");
        let (g, r) = (row(&table, "greedy"), row(&table, "random"));
        assert_eq!((g.0, r.0), (4, 4), "{bots}: {table}");
        assert_eq!(g.1 + r.1, 4, "{bots}: one winner a game: {table}");
    }
    for (bots, why) in [
        ("greedy,greedy", "at least two of them different"),
        ("greedy,random,random", "name 4 bots for --players 4"),
    ] {
        let err = failed(
            &sagani()
                .args(["arena", "--bots", bots, "--players", "4"])
                .output()
                .unwrap(),
        );
        assert!(err.contains(why), "{bots}: {err}");
    }
}

/// An engine whose answers are illegal: each is replaced by a random move, logged on standard
/// error and counted in the table's faults column.
#[test]
fn arena_counts_an_engine_s_faults_in_its_row() {
    let dir = temp_dir("faults");
    let script = dir.join("pass.py");
    std::fs::write(
        &script,
        "import json, sys\nfor line in sys.stdin:\n    r = json.loads(line)\n    print(json.dumps({\"id\": r[\"id\"], \"move\": {\"action\": \"pass\"}}), flush=True)\n",
    )
    .unwrap();
    let out = sagani()
        .args(["arena", "--bots", "passer,greedy", "--games", "2"])
        .arg("--engine")
        .arg(format!("passer=python3 {}", script.display()))
        .output()
        .unwrap();
    let table = ok(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    let logged = err.lines().filter(|l| l.contains("(passer)")).count() as u64;
    let faults = |bot: &str| -> u64 {
        let line = table
            .lines()
            .find(|l| l.split_whitespace().next() == Some(bot))
            .unwrap();
        line.split_whitespace().nth(8).unwrap().parse().unwrap()
    };
    assert!(logged > 0, "{err}");
    assert_eq!(faults("passer"), logged, "{table}\n{err}");
    assert_eq!(faults("greedy"), 0, "{table}");
}

#[test]
fn counts_of_zero_and_solo_bots_at_a_table_are_refused_in_words() {
    for (flag, value) in [
        ("--budget-ms", "0"),
        ("--iterations", "0"),
        ("--games", "0"),
    ] {
        let err = failed(
            &sagani()
                .args(["arena", "--bots", "greedy,random", flag, value])
                .output()
                .unwrap(),
        );
        assert!(err.contains("at least 1"), "{flag}: {err}");
        assert!(!err.contains("18446744073709551615"), "{flag}: {err}");
    }
    let err = failed(
        &sagani()
            .args(["arena", "--bots", "clairvoyant,greedy"])
            .output()
            .unwrap(),
    );
    assert!(
        err.contains("solo only") && err.contains("sagani solo --bot clairvoyant"),
        "{err}"
    );
}

#[test]
fn sprt_speaks_from_the_first_bot_s_side_and_refuses_in_the_right_words() {
    let err = failed(
        &sagani()
            .args([
                "arena",
                "--bots",
                "greedy,random",
                "--players",
                "3",
                "--sprt",
                "0,20",
            ])
            .output()
            .unwrap(),
    );
    assert!(
        err.contains("2-player games") && !err.contains("name two"),
        "{err}"
    );
    let out = ok(&sagani()
        .args([
            "arena",
            "--bots",
            "greedy,random",
            "--sprt",
            "0,400",
            "--games",
            "8",
        ])
        .output()
        .unwrap());
    assert!(out.contains("pairs greedy won 0 of 2: "), "{out}");
    assert!(out.contains("Elo of greedy over random: "), "{out}");
    assert!(!out.contains("2400"), "{out}");
}

#[test]
fn hint_at_a_level_and_by_iterations_says_what_it_rated() {
    let path = partial(12);
    let one = ok(&sagani()
        .arg("hint")
        .arg(&path)
        .args(["--bot", "mcts:2"])
        .output()
        .unwrap());
    assert!(
        one.contains("picks a move without rating the others"),
        "{one}"
    );
    assert!(!one.contains("visits") && !one.contains("value -"), "{one}");
    let searched = ok(&sagani()
        .arg("hint")
        .arg(&path)
        .args(["--bot", "mcts:5", "--top", "3"])
        .output()
        .unwrap());
    assert!(
        searched.contains("best by mcts:5 at its level"),
        "{searched}"
    );
    assert!(!searched.contains("visits      0"), "{searched}");
    // An intermezzo pick whose search rates two turns of one stored tile alike.
    let all = ok(&sagani()
        .arg("hint")
        .arg(root().join("examples/two-player-game.json"))
        .args([
            "--after",
            "34",
            "--iterations",
            "2000",
            "--top",
            "1000",
            "--json",
        ])
        .output()
        .unwrap());
    let v: Value = serde_json::from_str(&all).unwrap();
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(v["expects"], "intermezzo-pick");
    assert!(moves.iter().any(|m| m["also_turned"].is_array()), "{all}");
    // A pass listed below a placement of a stored tile is no verdict on the stored tiles.
    for pass in moves.iter().filter(|m| m["move"]["action"] == "pass") {
        let reason = pass["reason"].as_str().unwrap();
        assert!(
            reason.starts_with("passes: takes no stored tile"),
            "{reason}"
        );
    }
    // No two listed placements are one tile on one cell doing the same at once: the other
    // turns are named beside the first.
    let key = |m: &Value| {
        let p = &m["preview"];
        let mut covered: Vec<u64> = p["covered"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["tile"].as_u64().unwrap())
            .collect();
        covered.sort_unstable();
        let mv = &m["move"];
        (
            [mv["tile"].clone(), mv["x"].clone(), mv["y"].clone()],
            covered,
            [
                p["completed"].clone(),
                p["points"].clone(),
                p["cacophony"].clone(),
                p["supply_after"].clone(),
            ],
        )
    };
    let keys: Vec<_> = moves
        .iter()
        .filter(|m| m["move"]["action"] == "place")
        .map(key)
        .collect();
    for (i, k) in keys.iter().enumerate() {
        assert!(!keys[..i].contains(k), "{k:?} twice");
    }
    let text = ok(&sagani()
        .arg("hint")
        .arg(&path)
        .args(["--iterations", "300", "--top", "1000"])
        .output()
        .unwrap());
    assert!(text.contains("after 300 iterations ("), "{text}");
    assert!(
        text.contains(" of the ") && text.contains("legal moves"),
        "{text}"
    );
}

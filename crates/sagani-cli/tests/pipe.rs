//! Every command that prints ends quietly when its reader goes away (`sagani hint … | head`):
//! no panic, no error, status 0. A command whose product is a file still writes it.

mod common;

use common::*;
use std::process::Stdio;

/// Runs `sagani ARGS` with its reader gone before it writes a word; it must still succeed.
fn run_unread(args: &[&str]) {
    let mut child = sagani()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && !err.contains("panicked"),
        "{args:?}: {:?}\n{err}",
        out.status
    );
}

#[test]
fn printing_commands_end_quietly_on_a_closed_pipe() {
    let record = root().join("examples/two-player-game.json");
    let record = record.to_str().unwrap();
    let cases: [&[&str]; 6] = [
        &["hint", record, "--after", "20", "--bot", "greedy", "--json"],
        &["hint", record, "--after", "20", "--bot", "greedy"],
        &["replay", record],
        &["arena", "--bots", "greedy,random", "--games", "2"],
        &["solo", "--bot", "greedy", "--games", "2"],
        &["bench", "--games", "50"],
    ];
    for args in cases {
        run_unread(args);
    }
}

#[test]
fn commands_that_write_files_still_write_them_on_a_closed_pipe() {
    let dir = temp_dir("pipe-files");
    let at = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (solo, td, svg, records) = (
        at("solo.json"),
        at("td.json"),
        at("scores.svg"),
        at("records"),
    );
    // Each command, and the file it must have written to its end. `train --solo` prints a
    // line every generation, `arena` its table before the plot, `solo` a line every game.
    let cases: [(&[&str], String); 4] = [
        (
            &[
                "train",
                "--solo",
                "--games",
                "5",
                "--steps",
                "2",
                "--threads",
                "1",
                "--out",
                &solo,
            ],
            solo.clone(),
        ),
        (
            &[
                "train",
                "--td",
                "--games",
                "30",
                "--warm",
                "10",
                "--held-out",
                "4",
                "--out",
                &td,
            ],
            td.clone(),
        ),
        (
            &[
                "arena",
                "--bots",
                "greedy,random",
                "--games",
                "2",
                "--svg",
                &svg,
            ],
            svg.clone(),
        ),
        (
            &[
                "solo",
                "--bot",
                "greedy",
                "--games",
                "3",
                "--records",
                &records,
            ],
            format!("{records}/2.json"),
        ),
    ];
    for (args, file) in &cases {
        run_unread(args);
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let end = text.trim_end();
        assert!(
            end.ends_with('}') || end.ends_with("</svg>"),
            "{args:?} left {file} unfinished: {:?}",
            text.chars().take(80).collect::<String>()
        );
    }
}

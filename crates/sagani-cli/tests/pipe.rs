//! Every command that prints ends quietly when its reader goes away (`sagani hint … | head`):
//! no panic, no error, status 0.

mod common;

use common::*;
use std::process::Stdio;

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
        let mut child = sagani()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader is gone before the command writes a word.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && !err.contains("panicked"),
            "{args:?}: {:?}\n{err}",
            out.status
        );
    }
}

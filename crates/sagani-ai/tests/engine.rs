//! The engine protocol: a round trip with the example engine, and engines that misbehave.

use sagani_ai::arena::play_game;
use sagani_ai::engine::{EngineBot, Request};
use sagani_ai::{Bot, BotSpec, Budget};
use sagani_core::{Game, Setup};
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn example_engine() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/engine.py");
    format!("python3 {}", path.display())
}

/// A throw-away engine script.
fn script(name: &str, body: &str) -> String {
    let dir = std::env::temp_dir().join(format!("sagani-engine-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    format!("python3 {}", path.display())
}

/// Plays a 2-player game: the engine in seat 0, greedy in seat 1; returns the logged faults.
fn match_with(command: &str, ms: u64) -> (Vec<String>, Game) {
    let mut bots: Vec<Box<dyn Bot>> = vec![
        Box::new(EngineBot::new("e", command, 1, Duration::from_millis(ms))),
        "greedy".parse::<BotSpec>().unwrap().bot(2),
    ];
    let mut log = Vec::new();
    let rg = play_game(
        &Setup::seeded(2, 5),
        &mut bots,
        Budget::millis(ms),
        7,
        &mut |l| log.push(l),
    )
    .unwrap();
    assert!(rg.game().is_over());
    assert_eq!(rg.record().replay().unwrap(), *rg.game());
    (log, rg.game().clone())
}

#[test]
fn the_example_engine_plays_whole_games_without_a_fault() {
    let (log, _) = match_with(&example_engine(), 2000);
    assert!(log.is_empty(), "{log:?}");
    // And in solo, where it only places the revealed tile.
    let mut bots: Vec<Box<dyn Bot>> = vec![Box::new(EngineBot::new(
        "e",
        &example_engine(),
        1,
        Duration::from_secs(2),
    ))];
    let mut faults = Vec::new();
    play_game(
        &Setup::seeded(1, 3),
        &mut bots,
        Budget::default(),
        1,
        &mut |l| faults.push(l),
    )
    .unwrap();
    assert!(faults.is_empty(), "{faults:?}");
}

#[test]
fn requests_round_trip_and_answers_come_back_as_chosen() {
    // An engine that echoes each request's first legal move, and the request itself into a
    // file, shows what goes over the pipe.
    let dump = std::env::temp_dir().join(format!("sagani-request-{}.json", std::process::id()));
    let cmd = script(
        "echo.py",
        &format!(
            "import json,sys\nfor line in sys.stdin:\n    r=json.loads(line)\n    open({:?},'w').write(line)\n    print(json.dumps({{'id':r['id'],'move':r['legal'][-1],'comment':'last'}}),flush=True)\n",
            dump.display().to_string()
        ),
    );
    let game = Game::seeded(2, 9).unwrap();
    let seat = game.to_act().unwrap();
    let view = game.view(Some(seat));
    let legal = game.legal_moves();
    let mut bot = EngineBot::new("echo", &cmd, 1, Duration::from_secs(5));
    let d = bot.choose(&view, &legal, Budget::millis(3000));
    assert_eq!(d.fault, None);
    assert_eq!(d.mv, *legal.last().unwrap());
    assert_eq!(d.comment.as_deref(), Some("last"));
    let req: Request = serde_json::from_str(&std::fs::read_to_string(&dump).unwrap()).unwrap();
    assert_eq!(req.protocol, "sagani-engine/1");
    assert_eq!((req.id, req.seat, req.budget_ms), (1, seat, 3000));
    assert_eq!(req.view, view);
    assert_eq!(req.legal, legal);
    // The pile's order is not in the request: only the sorted list of its tiles.
    let raw = std::fs::read_to_string(&dump).unwrap();
    assert!(raw.contains("\"tiles\":["));
    let mut sorted = req.view.draw_pile.tiles.clone();
    sorted.sort();
    assert_eq!(req.view.draw_pile.tiles, sorted);
    // A second decision is request 2 of the same process.
    bot.choose(&view, &legal, Budget::millis(3000));
    let req: Request = serde_json::from_str(&std::fs::read_to_string(&dump).unwrap()).unwrap();
    assert_eq!(req.id, 2);
}

#[test]
fn garbage_answers_are_logged_and_replaced_by_legal_moves() {
    let cmd = script("garbage.py", "import sys\nfor line in sys.stdin:\n    print('{\"move\": \"the best one\"} or so', flush=True)\n");
    let (log, _) = match_with(&cmd, 1000);
    assert!(!log.is_empty());
    assert!(
        log.iter()
            .all(|l| l.contains("which is not a move") && l.contains("random legal move")),
        "{log:?}"
    );
}

#[test]
fn illegal_moves_are_logged_and_replaced_by_legal_moves() {
    let cmd = script(
        "illegal.py",
        "import sys,json\nfor line in sys.stdin:\n    print(json.dumps({'move':{'action':'place','tile':1,'x':40,'y':40,'rot':0}}), flush=True)\n",
    );
    let (log, _) = match_with(&cmd, 1000);
    assert!(!log.is_empty());
    assert!(log.iter().all(|l| l.contains("illegal move")), "{log:?}");
}

#[test]
fn a_silent_engine_times_out_each_decision_without_hanging_the_game() {
    let cmd = script(
        "silent.py",
        "import sys,time\nfor line in sys.stdin:\n    time.sleep(30)\n",
    );
    let start = Instant::now();
    let game = Game::seeded(2, 1).unwrap();
    let seat = game.to_act().unwrap();
    let mut bot = EngineBot::new("silent", &cmd, 1, Duration::from_millis(100));
    for _ in 0..2 {
        let d = bot.choose(
            &game.view(Some(seat)),
            &game.legal_moves(),
            Budget::millis(100),
        );
        assert!(
            d.fault
                .as_deref()
                .unwrap()
                .contains("no answer within 600 ms"),
            "{:?}",
            d.fault
        );
        assert!(game.legal_moves().contains(&d.mv));
    }
    drop(bot); // killed, not waited for
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn a_crashing_engine_is_reported_once_and_the_game_goes_on() {
    let cmd = script(
        "crash.py",
        "import sys\nsys.stdin.readline()\nsys.exit(3)\n",
    );
    let (log, _) = match_with(&cmd, 1000);
    assert_eq!(log.len(), 1, "{log:?}");
    assert!(log[0].contains("out of this game"), "{log:?}");
    // An engine that cannot even start is reported the same way.
    let (log, _) = match_with("/nonexistent/engine --flag", 1000);
    assert_eq!(log.len(), 1, "{log:?}");
    assert!(log[0].contains("cannot start engine"), "{log:?}");
}

#[test]
fn late_answers_are_not_taken_for_the_next_decision() {
    // Answers the first request after 1.5 s (too late), then at once: the late line must not
    // be read as the answer to request 2.
    let cmd = script(
        "late.py",
        "import sys,json,time\nn=0\nfor line in sys.stdin:\n    r=json.loads(line); n+=1\n    if n==1: time.sleep(1.5)\n    print(json.dumps({'id':r['id'],'move':r['legal'][-1 if n==1 else 0]}), flush=True)\n",
    );
    let game = Game::seeded(2, 2).unwrap();
    let seat = game.to_act().unwrap();
    let legal = game.legal_moves();
    let mut bot = EngineBot::new("late", &cmd, 1, Duration::from_millis(100));
    let first = bot.choose(&game.view(Some(seat)), &legal, Budget::millis(100));
    assert!(first.fault.is_some());
    std::thread::sleep(Duration::from_millis(1500));
    let second = bot.choose(&game.view(Some(seat)), &legal, Budget::millis(2000));
    assert_eq!(second.fault, None);
    assert_eq!(second.mv, legal[0]);
}

#[test]
fn an_engine_that_never_reads_its_input_cannot_block_the_caller() {
    // Requests pile up in a full pipe; the caller must still time out each decision.
    let cmd = script("deaf.py", "import time\ntime.sleep(30)\n");
    let mut game = Game::seeded(4, 3).unwrap();
    let mut greedy = "greedy".parse::<BotSpec>().unwrap().bot(1);
    for _ in 0..40 {
        let seat = game.to_act().unwrap();
        let legal = game.legal_moves();
        let mv = greedy
            .choose(&game.view(Some(seat)), &legal, Budget::default())
            .mv;
        game.play(mv).unwrap();
    }
    let seat = game.to_act().unwrap();
    let view = game.view(Some(seat));
    let legal = game.legal_moves();
    let size =
        serde_json::to_string(&view).unwrap().len() + serde_json::to_string(&legal).unwrap().len();
    let mut bot = EngineBot::new("deaf", &cmd, 1, Duration::from_millis(1));
    let start = Instant::now();
    let rounds = 2 + 150_000 / size; // more than a 64 KiB pipe holds
    for _ in 0..rounds {
        let d = bot.choose(&view, &legal, Budget::millis(1));
        assert!(d.fault.unwrap().contains("no answer"));
    }
    drop(bot);
    assert!(
        start.elapsed() < Duration::from_secs(rounds as u64 + 5),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn an_engine_that_floods_its_output_still_times_out_on_time() {
    // Endless lines the caller skips (blank, or answers to another request): the decision
    // must still end at its deadline.
    let cmd = script(
        "flood.py",
        "import sys\nsys.stdin.readline()\nwhile True:\n    sys.stdout.write('\\n{\"id\": 999, \"move\": {\"action\": \"pass\"}}\\n')\n",
    );
    let game = Game::seeded(2, 4).unwrap();
    let seat = game.to_act().unwrap();
    let mut bot = EngineBot::new("flood", &cmd, 1, Duration::from_millis(100));
    let start = Instant::now();
    let d = bot.choose(
        &game.view(Some(seat)),
        &game.legal_moves(),
        Budget::millis(100),
    );
    assert!(d.fault.unwrap().contains("no answer within 600 ms"));
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
}

#[cfg(unix)]
#[test]
fn stopping_an_engine_also_stops_what_it_started() {
    let pid_file = std::env::temp_dir().join(format!("sagani-grandchild-{}", std::process::id()));
    let cmd = script(
        "spawner.py",
        &format!(
            "import subprocess,sys,time\np=subprocess.Popen(['sleep','60'])\nopen({:?},'w').write(str(p.pid))\nsys.stdin.readline()\ntime.sleep(60)\n",
            pid_file.display().to_string()
        ),
    );
    let game = Game::seeded(2, 4).unwrap();
    let seat = game.to_act().unwrap();
    let mut bot = EngineBot::new("spawner", &cmd, 1, Duration::from_millis(300));
    bot.choose(
        &game.view(Some(seat)),
        &game.legal_moves(),
        Budget::millis(300),
    );
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    drop(bot);
    std::thread::sleep(Duration::from_millis(300));
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat
        .rsplit(')')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .next()
        .unwrap_or("gone");
    assert!(
        state == "gone" || state == "Z",
        "grandchild {pid} still {state}"
    );
}

#[test]
fn an_engines_standard_error_can_go_to_a_log_file() {
    // A full-screen client sends it there, so that it does not write over the screen.
    let cmd = script(
        "chatty.py",
        "import json,sys\nprint('thinking aloud', file=sys.stderr, flush=True)\nfor line in sys.stdin:\n    r=json.loads(line)\n    print(json.dumps({'id':r['id'],'move':r['legal'][0]}),flush=True)\n",
    );
    let log = std::env::temp_dir().join(format!("sagani-engine-log-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let game = Game::seeded(2, 9).unwrap();
    let view = game.view(game.to_act());
    let legal = game.legal_moves();
    let mut bot =
        EngineBot::new("chatty", &cmd, 1, Duration::from_secs(5)).with_stderr_log(log.clone());
    let d = bot.choose(&view, &legal, Budget::millis(3000));
    assert_eq!((d.fault, d.mv), (None, legal[0]));
    drop(bot);
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "thinking aloud\n");
    let _ = std::fs::remove_file(&log);
}

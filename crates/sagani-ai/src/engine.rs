//! Engines in any language (`docs/engine-protocol.md`): a subprocess that reads one JSON line
//! per decision on stdin and answers one JSON line on stdout.
//!
//! An engine that answers garbage or an illegal move, stays silent past its time, or dies gets
//! a random legal move played for it, and the reason is reported as the decision's `fault`.
//! Nothing an engine does can crash or hang the caller.

use crate::{Bot, Budget, Decision};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sagani_core::view::View;
use sagani_core::Move;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

pub const PROTOCOL: &str = "sagani-engine/1";
/// Extra time an engine gets beyond its budget for start-up and pipes.
pub const GRACE: Duration = Duration::from_millis(500);
/// Longest answer line read; anything longer is garbage.
const MAX_LINE: usize = 1 << 20;
/// Lines read ahead of the caller.
const LINE_QUEUE: usize = 16;

/// One decision, as written to the engine.
#[derive(Serialize, Deserialize, Debug)]
pub struct Request {
    pub protocol: String,
    /// Counts decisions from 1; an answer may echo it.
    pub id: u64,
    pub seat: u8,
    pub view: View,
    pub legal: Vec<Move>,
    pub budget_ms: u64,
}

/// The engine's answer.
#[derive(Serialize, Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    #[serde(rename = "move")]
    pub mv: Move,
    #[serde(default)]
    pub id: Option<u64>,
    #[serde(default)]
    pub comment: Option<String>,
}

pub struct EngineBot {
    name: String,
    command: String,
    rng: ChaCha8Rng,
    time: Duration,
    process: Option<Running>,
    /// Set once the engine is gone; later decisions are random without another report.
    dead: bool,
    next_id: u64,
    /// Where the engine's standard error goes (appended); by default it is ours.
    stderr_log: Option<std::path::PathBuf>,
}

/// Why an engine's answer cannot be used (the decision's `fault`).
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("{0}; it is out of this game")]
    Start(StartError),
    #[error("the engine {0} and is out of this game")]
    Gone(Gone),
    #[error("gave no answer within {0} ms")]
    Timeout(u128),
    #[error("answered {text:?}, which is not a move ({source})")]
    NotAMove {
        text: String,
        source: serde_json::Error,
    },
    #[error("answered an illegal move: {0}")]
    Illegal(Move),
}

/// Why an engine did not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("the engine command is empty")]
    Empty,
    #[error("cannot open {} for the engine's log: {source}", path.display())]
    Log {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("cannot start engine {command:?}: {source}")]
    Spawn {
        command: String,
        source: std::io::Error,
    },
}

/// What an engine did that ends its game.
#[derive(Debug, thiserror::Error)]
pub enum Gone {
    #[error("sent {0}")]
    Sent(OutputError),
    #[error("stopped reading its input")]
    StoppedReading,
    #[error("closed its output")]
    ClosedOutput,
    #[error("exited ({0})")]
    Exited(std::process::ExitStatus),
}

/// What is wrong with an engine's output.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("an answer longer than {MAX_LINE} bytes")]
    TooLong,
    #[error("an answer that is not UTF-8")]
    NotUtf8,
    #[error("reading its output failed: {0}")]
    Read(std::io::Error),
}

struct Running {
    child: Child,
    /// Request lines for the writer thread; dropping it closes the engine's stdin.
    requests: Sender<String>,
    lines: Receiver<Result<String, OutputError>>,
}

impl EngineBot {
    /// An engine started from `command` (split on whitespace) at its first decision. `time` is
    /// its budget per decision when the caller's budget names none.
    pub fn new(name: &str, command: &str, seed: u64, time: Duration) -> EngineBot {
        EngineBot {
            name: name.into(),
            command: command.into(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            time,
            process: None,
            dead: false,
            next_id: 0,
            stderr_log: None,
        }
    }

    /// Sends the engine's standard error to the end of a file instead of ours (a full-screen
    /// client must not have its screen written over).
    pub fn with_stderr_log(mut self, path: std::path::PathBuf) -> EngineBot {
        self.stderr_log = Some(path);
        self
    }

    fn start(&mut self) -> Result<(), StartError> {
        let mut parts = self.command.split_whitespace();
        let program = parts.next().ok_or(StartError::Empty)?;
        let mut command = Command::new(program);
        let stderr = match &self.stderr_log {
            None => Stdio::inherit(),
            Some(path) => std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map(Stdio::from)
                .map_err(|source| StartError::Log {
                    path: path.clone(),
                    source,
                })?,
        };
        command
            .args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr);
        // Its own process group, so that stopping it also stops whatever it started.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|source| StartError::Spawn {
            command: self.command.clone(),
            source,
        })?;
        let mut stdin: ChildStdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        // A reader thread, so that waiting for an answer can time out. Its queue is short: an
        // engine that floods its output waits for us instead of filling our memory.
        let (tx, rx) = mpsc::sync_channel(LINE_QUEUE);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                let read = (&mut reader)
                    .take(MAX_LINE as u64 + 1)
                    .read_until(b'\n', &mut buf);
                let msg = match read {
                    Ok(0) => break,
                    Ok(_) if buf.len() > MAX_LINE => Err(OutputError::TooLong),
                    Ok(_) => String::from_utf8(buf).map_err(|_| OutputError::NotUtf8),
                    Err(e) => Err(OutputError::Read(e)),
                };
                let stop = msg.is_err();
                if tx.send(msg).is_err() || stop {
                    break;
                }
            }
        });
        // A writer thread, so that an engine that stops reading cannot block us on a full pipe.
        let (requests, pending) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in pending {
                if stdin
                    .write_all(line.as_bytes())
                    .and_then(|_| stdin.flush())
                    .is_err()
                {
                    break;
                }
            }
        });
        self.process = Some(Running {
            child,
            requests,
            lines: rx,
        });
        Ok(())
    }

    /// Asks the engine; `Err` says why its answer cannot be used.
    fn ask(
        &mut self,
        view: &View,
        legal: &[Move],
        budget: Budget,
    ) -> Result<(Move, Option<String>), EngineError> {
        if self.process.is_none() {
            if let Err(e) = self.start() {
                self.dead = true;
                return Err(EngineError::Start(e));
            }
        }
        let time = budget.time.unwrap_or(self.time);
        self.next_id += 1;
        let id = self.next_id;
        let request = Request {
            protocol: PROTOCOL.into(),
            id,
            seat: view.seat.unwrap_or(0),
            view: view.clone(),
            legal: legal.to_vec(),
            budget_ms: time.as_millis() as u64,
        };
        let mut line = serde_json::to_string(&request).expect("requests serialise");
        line.push('\n');
        let p = self.process.as_mut().expect("started above");
        // Answers that came too late for earlier decisions are dropped (but not the news that
        // the output broke).
        while let Ok(late) = p.lines.try_recv() {
            if let Err(why) = late {
                return Err(self.gone(Gone::Sent(why)));
            }
        }
        if p.requests.send(line).is_err() {
            return Err(self.gone(Gone::StoppedReading));
        }
        let deadline = Instant::now() + time + GRACE;
        let timeout = || EngineError::Timeout((time + GRACE).as_millis());
        loop {
            // Checked before every line, so that a flood of skipped lines cannot keep us here.
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(timeout());
            }
            let p = self.process.as_mut().expect("started above");
            match p.lines.recv_timeout(left) {
                Ok(Ok(text)) => {
                    let text = text.trim();
                    if text.is_empty() {
                        continue;
                    }
                    let answer: Answer =
                        serde_json::from_str(text).map_err(|source| EngineError::NotAMove {
                            text: clip(text),
                            source,
                        })?;
                    if answer.id.is_some_and(|a| a != id) {
                        continue; // a late answer to an earlier decision
                    }
                    if !legal.contains(&answer.mv) {
                        return Err(EngineError::Illegal(answer.mv));
                    }
                    return Ok((answer.mv, answer.comment));
                }
                Ok(Err(why)) => return Err(self.gone(Gone::Sent(why))),
                Err(RecvTimeoutError::Timeout) => return Err(timeout()),
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self
                        .process
                        .as_mut()
                        .and_then(|p| p.child.try_wait().ok().flatten())
                        .map_or(Gone::ClosedOutput, Gone::Exited);
                    return Err(self.gone(status));
                }
            }
        }
    }

    /// Marks the engine dead and stops it.
    fn gone(&mut self, why: Gone) -> EngineError {
        self.dead = true;
        self.stop();
        EngineError::Gone(why)
    }

    fn stop(&mut self) {
        if let Some(mut p) = self.process.take() {
            drop(p.requests);
            // Closing stdin asks it to finish; a short wait, then it is killed.
            let until = Instant::now() + Duration::from_millis(200);
            while Instant::now() < until {
                if let Ok(Some(_)) = p.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            #[cfg(unix)]
            // SAFETY: kill(2) on our child's process group; no memory is involved.
            unsafe {
                libc::kill(-(p.child.id() as libc::pid_t), libc::SIGKILL);
            }
            let _ = p.child.kill();
            let _ = p.child.wait();
        }
    }
}

fn clip(s: &str) -> String {
    s.chars().take(80).collect()
}

impl Drop for EngineBot {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Bot for EngineBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, view: &View, legal: &[Move], budget: Budget) -> Decision {
        if !self.dead {
            match self.ask(view, legal, budget) {
                Ok((mv, comment)) => {
                    return Decision {
                        mv,
                        comment,
                        fault: None,
                        reason: None,
                    }
                }
                Err(why) => {
                    return Decision {
                        mv: legal[self.rng.random_range(0..legal.len())],
                        comment: None,
                        fault: Some(why.to_string()),
                        reason: None,
                    }
                }
            }
        }
        legal[self.rng.random_range(0..legal.len())].into()
    }
}

//! A seat at a table on a game server (`sagani serve`): the seat's state as the server sends it
//! over its WebSocket, and moves sent over HTTP (docs/server-api.md). The server is the truth;
//! the terminal keeps a copy of the game rebuilt from the seat's view, only to show it and to
//! ask the engine for legal cells and previews (the draw pile's order is never known here).

use sagani_ai::sampler::PileSampler;
use sagani_core::{Game, Move};
use serde_json::{json, Value};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;

/// An invite link as the page copies it: `http://HOST:PORT/games/GAME/join/CODE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invite {
    /// The server, `http://HOST:PORT`.
    pub server: String,
    pub game: String,
    pub code: String,
}

impl Invite {
    pub fn parse(link: &str) -> Result<Invite, OnlineError> {
        let bad = |why: &str| OnlineError::NotAnInvite {
            link: link.to_string(),
            why: why.to_string(),
        };
        let link = link.trim();
        let server_end = link
            .find("/games/")
            .ok_or_else(|| bad("no /games/ in it"))?;
        let server = server(&link[..server_end]).map_err(|e| bad(&e.to_string()))?;
        let rest: Vec<&str> = link[server_end + "/games/".len()..]
            .trim_end_matches('/')
            .split('/')
            .collect();
        match rest.as_slice() {
            [game, "join", code] if id_like(game) && id_like(code) => Ok(Invite {
                server,
                game: game.to_string(),
                code: code.to_string(),
            }),
            _ => Err(bad("it does not end in /games/GAME/join/CODE")),
        }
    }
}

fn id_like(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric())
}

/// A server's address as typed (`http://127.0.0.1:8080`, with or without a final `/`).
pub fn server(url: &str) -> Result<String, OnlineError> {
    let url = url.trim().trim_end_matches('/');
    match url.split_once("://") {
        Some(("http", host)) if !host.is_empty() && !host.contains('/') => Ok(url.to_string()),
        Some(("https", _)) => Err(OnlineError::HttpsOnly(url.to_string())),
        _ => Err(OnlineError::NotAServer(url.to_string())),
    }
}

pub use crate::online_error::{OnlineError, Refusal};
use sagani_protocol::{
    Card, CreateGame, Created, DailyStarted, EndReason, GameStatus, Joined, LeaveReason, SeatKind,
    ServerMessage, StartDaily, TimeControl,
};
/// The shapes the server sends (the protocol crate declares them once, for the server too).
pub use sagani_protocol::{
    ClockState as Clocks, DailyMark, GameState as State, PlayedMove as Played, Replaced,
    SeatInfo as Seat,
};

/// The game a state describes, with a draw pile order that fits what the seat sees.
pub fn game_of(state: &State) -> Result<Game, OnlineError> {
    PileSampler::new(&state.view)
        .any_game(&state.view)
        .map_err(|e| OnlineError::NotAGame {
            game: state.game.clone(),
            why: e.to_string(),
        })
}

/// What the connection heard.
pub enum Event {
    /// The game now, with the moves played since the socket's previous state (in order).
    State(Box<State>, Vec<Played>),
    /// The answer to a move: the game after it, or why it was refused.
    Answer(Result<Box<State>, Refusal>),
    /// The live connection to the server was lost (and is being tried again), with why.
    Offline(String),
}

/// A seat at a game on a server: its token, the live socket on a thread of its own, moves
/// sent on threads of their own. Dropping it closes the socket.
pub struct Connection {
    pub server: String,
    pub game: String,
    pub seat: u8,
    /// The invite that claimed the seat: the way back to it (it claims the seat again).
    pub invite: String,
    token: String,
    http: reqwest::blocking::Client,
    tx: Sender<Event>,
    rx: Receiver<Event>,
    stop: Arc<AtomicBool>,
}

/// How long a request may take before it counts as lost.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(15);

fn client() -> Result<reqwest::blocking::Client, OnlineError> {
    reqwest::blocking::Client::builder()
        .timeout(REQUEST_TIMEOUT)
        .build()
        .map_err(OnlineError::Client)
}

/// A request's JSON answer, or the server's refusal (or why there was no answer).
fn answer(sent: reqwest::Result<reqwest::blocking::Response>) -> Result<Value, Refusal> {
    let r = sent.map_err(|e| Refusal {
        code: "network".into(),
        message: format!("the server cannot be reached: {e}"),
    })?;
    let status = r.status();
    let body: Value = r.json().unwrap_or(Value::Null);
    if status.is_success() {
        return Ok(body);
    }
    Err(Refusal {
        code: body["error"].as_str().unwrap_or("http").to_string(),
        message: body["message"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| format!("the server answered {status}")),
    })
}

fn state_of(v: Value) -> Result<Box<State>, Refusal> {
    serde_json::from_value(v)
        .map(Box::new)
        .map_err(|e| Refusal {
            code: "bad_answer".into(),
            message: format!("the server's answer is not a game state: {e}"),
        })
}

impl Connection {
    /// Claims the seat an invite is for, under `name` (a guest's display name).
    pub fn join(invite: &Invite, name: Option<&str>) -> Result<Connection, OnlineError> {
        let http = client()?;
        let mut body = json!({ "invite": invite.code });
        if let Some(n) = name {
            body["name"] = json!(n);
        }
        let url = format!("{}/api/games/{}/join", invite.server, invite.game);
        let joined = answer(http.post(&url).json(&body).send()).map_err(|refusal| {
            OnlineError::InviteRefused {
                link: link(&invite.server, &invite.game, &invite.code),
                refusal,
            }
        })?;
        let joined: Joined =
            serde_json::from_value(joined.clone()).map_err(|_| OnlineError::NoSeat {
                url,
                answer: joined,
            })?;
        Ok(Connection::seated(
            http,
            &invite.server,
            &invite.game,
            joined.seat,
            &joined.token,
            &invite.code,
        ))
    }

    /// The seat `token` holds, live: its socket starts listening.
    fn seated(
        http: reqwest::blocking::Client,
        server: &str,
        game: &str,
        seat: u8,
        token: &str,
        invite: &str,
    ) -> Connection {
        let (tx, rx) = channel();
        let c = Connection {
            server: server.to_string(),
            game: game.to_string(),
            seat,
            invite: invite.to_string(),
            token: token.to_string(),
            http,
            tx,
            rx,
            stop: Arc::new(AtomicBool::new(false)),
        };
        c.listen();
        c
    }

    /// Starts today's daily challenge of `server` in `variant` (`solo` or `solo-all`) as a
    /// guest named `name` (unranked): its seat, and the start's answer (the day, the game).
    pub fn daily(
        server: &str,
        variant: &str,
        name: Option<&str>,
    ) -> Result<(Connection, DailyStarted), OnlineError> {
        let http = client()?;
        let url = format!("{server}/api/daily/{variant}/start");
        let body = StartDaily {
            name: name.map(str::to_string),
        };
        let answered = answer(http.post(&url).json(&body).send()).map_err(|refusal| {
            OnlineError::DailyRefused {
                server: server.to_string(),
                refusal,
            }
        })?;
        // A guest's start always has the invite that takes the seat again.
        let started = serde_json::from_value::<DailyStarted>(answered.clone())
            .ok()
            .filter(|s| s.invite.is_some());
        let Some(started) = started else {
            return Err(OnlineError::NoSeat {
                url,
                answer: answered,
            });
        };
        let invite = started.invite.as_deref().unwrap_or_default();
        let c = Connection::seated(
            http.clone(),
            server,
            &started.game,
            0,
            &started.token,
            invite,
        );
        Ok((c, started))
    }

    /// A daily game's standing (`GET /api/games/{id}/daily`): its result, its place, par.
    pub fn daily_card(&self) -> Result<Card, Refusal> {
        let url = format!("{}/api/games/{}/daily", self.server, self.game);
        let card = answer(self.http.get(&url).bearer_auth(&self.token).send())?;
        serde_json::from_value(card).map_err(|e| Refusal {
            code: "bad_answer".into(),
            message: format!("the server's answer is not a daily game's standing: {e}"),
        })
    }

    /// Makes a game on `server` and claims its first seat; the invites of the other human
    /// seats, to hand to their players.
    pub fn create(
        server: &str,
        body: &CreateGame,
        name: Option<&str>,
    ) -> Result<(Connection, Vec<(u8, String)>), OnlineError> {
        let http = client()?;
        let url = format!("{server}/api/games");
        let made =
            answer(http.post(&url).json(body).send()).map_err(|refusal| OnlineError::NotMade {
                server: server.to_string(),
                refusal,
            })?;
        let no_invite = |answer: Value| OnlineError::NoInvite {
            url: url.clone(),
            answer,
        };
        let created: Created =
            serde_json::from_value(made.clone()).map_err(|_| no_invite(made.clone()))?;
        let game = created.game;
        let invites: Vec<(u8, String)> = created
            .invites
            .into_iter()
            .map(|i| (i.seat, i.code))
            .collect();
        let Some((0, mine)) = invites.first().cloned() else {
            return Err(no_invite(made));
        };
        let c = Connection::join(
            &Invite {
                server: server.to_string(),
                game: game.clone(),
                code: mine,
            },
            name,
        )?;
        let others = invites
            .into_iter()
            .filter(|(s, _)| *s != 0)
            .map(|(s, code)| (s, link(server, &game, &code)))
            .collect();
        Ok((c, others))
    }

    /// The invite link of this seat: it takes the seat again (here or in a browser).
    pub fn link(&self) -> String {
        link(&self.server, &self.game, &self.invite)
    }

    /// The game's page, to watch it in a browser.
    pub fn page(&self) -> String {
        format!("{}/games/{}", self.server, self.game)
    }

    /// The game as it is now (the socket sends it too; this is for a start or after a refusal).
    pub fn fetch(&self) -> Result<Box<State>, Refusal> {
        let url = format!("{}/api/games/{}", self.server, self.game);
        answer(self.http.get(&url).bearer_auth(&self.token).send()).and_then(state_of)
    }

    /// Every move played so far, with what each did.
    pub fn moves(&self) -> Result<Vec<Played>, Refusal> {
        let url = format!("{}/api/games/{}/moves", self.server, self.game);
        // With the token: a daily game's moves are its player's alone during the day.
        let v = answer(self.http.get(&url).bearer_auth(&self.token).send())?;
        serde_json::from_value(v["moves"].clone()).map_err(|e| Refusal {
            code: "bad_answer".into(),
            message: format!("the server's moves are not moves: {e}"),
        })
    }

    /// Sends a move made against `version`; its answer comes as `Event::Answer`.
    pub fn send(&self, version: u64, mv: Move) {
        let (http, tx, token) = (self.http.clone(), self.tx.clone(), self.token.clone());
        let url = format!("{}/api/games/{}/moves", self.server, self.game);
        std::thread::spawn(move || {
            let body = json!({ "version": version, "move": mv });
            let r = answer(http.post(&url).bearer_auth(token).json(&body).send())
                .and_then(|v| state_of(v["state"].clone()));
            let _ = tx.send(Event::Answer(r));
        });
    }

    /// What was heard since the last call.
    pub fn poll(&self) -> Vec<Event> {
        self.rx.try_iter().collect()
    }

    /// Waits up to `limit` for the next event (tests and scripts; the screen polls).
    pub fn wait(&self, limit: Duration) -> Option<Event> {
        self.rx.recv_timeout(limit).ok()
    }

    /// The live socket on its own thread: every state the server sends, until the connection
    /// is dropped; a lost socket is opened again, a little later each time.
    fn listen(&self) {
        let ws = format!(
            "ws://{}/api/games/{}/ws",
            self.server.trim_start_matches("http://"),
            self.game
        );
        let (tx, token, stop) = (self.tx.clone(), self.token.clone(), self.stop.clone());
        std::thread::spawn(move || {
            let mut wait = Duration::from_millis(500);
            while !stop.load(Ordering::Relaxed) {
                let opened = Instant::now();
                let why = match socket(&ws, &token, &tx, &stop) {
                    Ok(()) => return,
                    Err(why) => why,
                };
                if stop.load(Ordering::Relaxed) || tx.send(Event::Offline(why)).is_err() {
                    return;
                }
                // A socket that stayed up a while starts the waits over.
                if opened.elapsed() > Duration::from_secs(30) {
                    wait = Duration::from_millis(500);
                }
                std::thread::sleep(wait);
                wait = (wait * 2).min(Duration::from_secs(8));
            }
        });
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// A seat at a server's table as the terminal shows it: the latest state, the game rebuilt
/// from it, the clocks counting from when it came.
pub struct Table {
    pub conn: Connection,
    pub state: Box<State>,
    pub game: Game,
    /// When `state` came: the running clock counts down from then.
    pub arrived: Instant,
    /// A move is on its way; its answer has not come yet.
    pub sending: bool,
    /// The live connection is lost (why); it is being opened again.
    pub offline: Option<String>,
    /// The invite links of the other human seats (a game this terminal made).
    pub invites: Vec<(u8, String)>,
}

impl Table {
    pub fn new(
        conn: Connection,
        state: Box<State>,
        game: Game,
        invites: Vec<(u8, String)>,
        arrived: Instant,
    ) -> Table {
        Table {
            conn,
            state,
            game,
            arrived,
            sending: false,
            offline: None,
            invites,
        }
    }

    /// What a new state says that its moves do not: seats a bot took over, an early end.
    pub fn changes(&self, new: &State) -> Vec<String> {
        let names = labels(new);
        let mut notes = Vec::new();
        for (i, seat) in new.seats.iter().enumerate() {
            let was = self.state.seats.get(i).and_then(|s| s.replaced.as_ref());
            if let (None, Some(r)) = (was, &seat.replaced) {
                let why = leave_text(r.reason);
                notes.push(format!(
                    "{} {why}; the {} bot plays the seat now.",
                    names[i], r.bot
                ));
            }
        }
        if let (None, Some(e)) = (&self.state.ended, &new.ended) {
            notes.push(format!("The game ended: {}.", ended_text(*e)));
        }
        notes
    }

    /// Each seat's time left at `now` (`None` without a clock, or for a seat a bot plays), and
    /// whether it is running.
    pub fn clocks(&self, now: Instant) -> Option<Vec<Option<(i64, bool)>>> {
        let c = self.state.clock.as_ref()?;
        let gone = now.saturating_duration_since(self.arrived).as_millis() as i64;
        Some(
            c.left_ms
                .iter()
                .enumerate()
                .map(|(i, left)| {
                    let running =
                        c.running == Some(i as u8) && self.state.status == GameStatus::Playing;
                    left.map(|ms| ((if running { ms - gone } else { ms }).max(0), running))
                })
                .collect(),
        )
    }

    /// The time control in a few characters: `5+5`, `1 day a move`.
    pub fn control(&self) -> Option<String> {
        match self.state.clock.as_ref()?.control {
            TimeControl::Realtime {
                initial_s: i,
                increment_s: inc,
            } => Some(if i % 60 == 0 {
                format!("{}+{inc}", i / 60)
            } else {
                format!("{i}s+{inc}")
            }),
            TimeControl::Turn { days: d } => {
                Some(format!("{d} day{} a move", if d == 1 { "" } else { "s" }))
            }
            TimeControl::None => None,
        }
    }
}

/// Why a person's seat went to a bot, in words.
pub fn leave_text(why: LeaveReason) -> &'static str {
    match why {
        LeaveReason::Timeout => "ran out of time",
        LeaveReason::Resigned => "resigned",
    }
}

/// Why a game ended early, in words.
pub fn ended_text(why: EndReason) -> &'static str {
    match why {
        EndReason::Resigned => "the player resigned",
        EndReason::Timeout => "the player ran out of time",
        EndReason::Abandoned => "nobody moved in it for too long",
        EndReason::Closed => "its seats were not all taken in time",
        EndReason::Cancelled => "its creator cancelled it",
    }
}

/// Time left as a clock shows it: `4:07`, `1:02:07`, `2d 3h`.
pub fn clock_text(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    let (d, h, m, sec) = (s / 86_400, s / 3600 % 24, s / 60 % 60, s % 60);
    if d > 0 {
        format!("{d}d {h}h")
    } else if h > 0 {
        format!("{h}:{m:02}:{sec:02}")
    } else {
        format!("{m}:{sec:02}")
    }
}

/// A label per seat: `You`, a person's name (`Player N` without one), a bot by kind and level.
/// A bot plays `seat`: a bot's seat, or a person's a bot took over.
pub fn bot_plays(s: &State, seat: u8) -> bool {
    s.seats
        .get(seat as usize)
        .is_some_and(|s| s.kind == SeatKind::Bot || s.replaced.is_some())
}

pub fn labels(s: &State) -> Vec<String> {
    s.seats
        .iter()
        .enumerate()
        .map(|(i, seat)| {
            if s.you == Some(i as u8) {
                "You".to_string()
            } else if seat.kind == SeatKind::Bot {
                let bot = seat.bot.as_deref().unwrap_or("bot");
                match seat.level {
                    Some(l) => format!("P{} {bot} {l}", i + 1),
                    None => format!("P{} {bot}", i + 1),
                }
            } else {
                let name = seat
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("Player {}", i + 1));
                // A person whose seat a bot took over (timed out, resigned).
                match &seat.replaced {
                    Some(_) => format!("{name} (bot)"),
                    None => name,
                }
            }
        })
        .collect()
}

fn link(server: &str, game: &str, code: &str) -> String {
    format!("{server}/games/{game}/join/{code}")
}

/// One socket's life: the seat's states until it closes (`Err` with why) or the connection is
/// dropped (`Ok`).
fn socket(url: &str, token: &str, tx: &Sender<Event>, stop: &AtomicBool) -> Result<(), String> {
    let (mut ws, _) = tungstenite::connect(url).map_err(|e| format!("{url}: {e}"))?;
    // Reads wake up now and then, so a dropped connection ends the thread.
    if let MaybeTlsStream::Plain(s) = ws.get_ref() {
        let _ = TcpStream::set_read_timeout(s, Some(Duration::from_millis(500)));
    }
    let auth = json!({ "type": "auth", "token": token }).to_string();
    ws.send(tungstenite::Message::text(auth))
        .map_err(|e| format!("{url}: {e}"))?;
    loop {
        if stop.load(Ordering::Relaxed) {
            let _ = ws.close(None);
            return Ok(());
        }
        let msg = match ws.read() {
            Ok(m) => m,
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                continue
            }
            Err(e) => return Err(format!("the live connection closed: {e}")),
        };
        let tungstenite::Message::Text(text) = msg else {
            continue;
        };
        let update = match serde_json::from_str::<ServerMessage>(&text) {
            Ok(ServerMessage::State(update)) => update,
            Ok(ServerMessage::Error(e)) => return Err(e.message),
            // A message this build does not know: the next state brings the game anyway.
            Err(_) => continue,
        };
        if tx
            .send(Event::State(Box::new(update.state), update.moves))
            .is_err()
        {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invite_links_as_the_page_copies_them() {
        let i = Invite::parse("http://127.0.0.1:8080/games/ab12/join/cd34").unwrap();
        assert_eq!(
            i,
            Invite {
                server: "http://127.0.0.1:8080".into(),
                game: "ab12".into(),
                code: "cd34".into()
            }
        );
        assert_eq!(
            Invite::parse(" http://h/games/ab12/join/cd34/ ")
                .unwrap()
                .server,
            "http://h"
        );
        for (bad, why) in [
            ("http://h/games/ab12", "does not end in"),
            ("http://h/join/cd34", "no /games/"),
            ("ftp://h/games/a/join/b", "not a server's address"),
            ("https://h/games/a/join/b", "plain http only"),
            ("http://h/games/a b/join/c", "does not end in"),
        ] {
            let e = Invite::parse(bad).unwrap_err();
            assert!(matches!(e, OnlineError::NotAnInvite { .. }), "{bad}: {e}");
            assert!(e.to_string().contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn clocks_read_as_minutes_hours_or_days() {
        assert_eq!(clock_text(0), "0:00");
        assert_eq!(clock_text(-5), "0:00");
        assert_eq!(clock_text(29_999), "0:29");
        assert_eq!(clock_text(247_000), "4:07");
        assert_eq!(clock_text(3_727_000), "1:02:07");
        assert_eq!(clock_text(2 * 86_400_000 + 3 * 3_600_000 + 5), "2d 3h");
    }

    #[test]
    fn a_server_address_is_http_host_and_port() {
        assert_eq!(server("http://127.0.0.1:9/").unwrap(), "http://127.0.0.1:9");
        let e = server("127.0.0.1:9").unwrap_err();
        assert!(matches!(e, OnlineError::NotAServer(_)), "{e}");
        assert!(e.to_string().contains("http://HOST:PORT"));
        assert!(server("http://h/x").is_err());
    }
}

//! Game records (`RECORD.md`): the deck and every decision, as JSON; replay and its summary.

use crate::game::{DeckOrder, Game, Setup, Variant};
use crate::moves::{IllegalMove, Move};
use crate::tiles::{TileId, TILE_COUNT};
use crate::view::Next;
use serde::Serialize;
use serde_json::Value;
use std::fmt;

pub const FORMAT: &str = "sagani-record/1";

/// A complete, deterministic description of a game: the tile order and every decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Record {
    pub format: String,
    pub players: u8,
    pub variant: Variant,
    pub start_player: u8,
    /// All 72 tile ids, top of the draw pile first.
    pub deck: Vec<TileId>,
    pub moves: Vec<RecordMove>,
}

/// A move with the player who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RecordMove {
    pub player: u8,
    #[serde(flatten)]
    pub mv: Move,
}

/// Why a record cannot be read or replayed: a fault in the header, or in move `index`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    Header(String),
    Move { index: usize, reason: String },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Header(r) => write!(f, "record: {r}"),
            RecordError::Move { index, reason } => write!(f, "move {index}: {reason}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// Compact JSON of one part of a record.
fn compact<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("record parts always serialise")
}

fn header<T>(reason: impl Into<String>) -> Result<T, RecordError> {
    Err(RecordError::Header(reason.into()))
}

impl Record {
    /// Reads a record from JSON text; every move is checked for shape, none for legality.
    pub fn from_json(text: &str) -> Result<Record, RecordError> {
        let (mut record, _, moves) = parse_header(text)?;
        for (i, m) in moves.iter().enumerate() {
            record.moves.push(parse_move(i, m, record.players)?);
        }
        Ok(record)
    }

    /// The record of `game` before any move: its setup, as the game resolved it.
    fn start(game: &Game) -> Record {
        Record {
            format: FORMAT.to_string(),
            players: game.players(),
            variant: game.variant(),
            start_player: game.start_player(),
            deck: game.deck().to_vec(),
            moves: Vec::new(),
        }
    }

    /// The record as JSON, one move per line so that records read and diff well.
    pub fn to_json(&self) -> String {
        self.to_json_with(&[])
    }

    /// The record as JSON with extra top-level fields (RECORD.md: readers ignore them), such
    /// as the players' `names`, after `start_player`.
    pub fn to_json_with(&self, extra: &[(&str, Value)]) -> String {
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|m| format!("    {}", compact(m)))
            .collect();
        let extra: String = extra
            .iter()
            .map(|(k, v)| format!("  {}: {},\n", compact(k), compact(v)))
            .collect();
        format!(
            "{{\n  \"format\": {},\n  \"players\": {},\n  \"variant\": {},\n  \"start_player\": {},\n{}  \"deck\": {},\n  \"moves\": [{}{}{}]\n}}\n",
            compact(&self.format),
            self.players,
            compact(&self.variant),
            self.start_player,
            extra,
            compact(&self.deck),
            if moves.is_empty() { "" } else { "\n" },
            moves.join(",\n"),
            if moves.is_empty() { "" } else { "\n  " },
        )
    }

    pub fn setup(&self) -> Setup {
        Setup {
            players: self.players,
            variant: Some(self.variant),
            deck: DeckOrder::Explicit(self.deck.iter().map(|&t| t as i64).collect()),
            start_player: Some(self.start_player),
        }
    }

    /// Replays every move; the first illegal one is the error.
    pub fn replay(&self) -> Result<Game, RecordError> {
        let mut game = Game::new(&self.setup()).or_else(|e| header(e.to_string()))?;
        for (i, m) in self.moves.iter().enumerate() {
            apply(&mut game, i, *m)?;
        }
        Ok(game)
    }
}

/// Reads and replays a record, reporting the first fault in move order (a malformed move after
/// an illegal one is not reached).
pub fn replay_json(text: &str) -> Result<(Record, Game), RecordError> {
    let (mut record, mut game, moves) = parse_header(text)?;
    for (i, m) in moves.iter().enumerate() {
        let m = parse_move(i, m, record.players)?;
        apply(&mut game, i, m)?;
        record.moves.push(m);
    }
    Ok((record, game))
}

fn apply(game: &mut Game, index: usize, m: RecordMove) -> Result<(), RecordError> {
    let fault = |reason: String| Err(RecordError::Move { index, reason });
    let Some(actor) = game.to_act() else {
        return fault(IllegalMove::GameOver.to_string());
    };
    if m.player != actor {
        let expects = game.expects().map(|e| e.name()).unwrap_or("nothing");
        return fault(format!(
            "player {} moved, but player {actor} must act ({expects})",
            m.player
        ));
    }
    game.play(m.mv).or_else(|e| fault(e.to_string()))
}

/// Reads the header and starts the game it sets up; the moves are left as JSON values.
fn parse_header(text: &str) -> Result<(Record, Game, Vec<Value>), RecordError> {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return header(format!("not valid JSON: {e}")),
    };
    let Value::Object(mut obj) = value else {
        return header(format!("must be a JSON object, not {}", kind(&value)));
    };
    match obj.get("format") {
        None => {}
        Some(Value::String(s)) if s == FORMAT => {}
        Some(other) => return header(format!("format is {other}, expected \"{FORMAT}\"")),
    }
    let players = match obj.get("players") {
        None => return header("players is missing"),
        Some(v) => match int(v, "players") {
            Ok(n @ 1..=4) => n as u8,
            Ok(n) => return header(format!("players must be 1 to 4, not {n}")),
            Err(e) => return header(e),
        },
    };
    let variant = match obj.get("variant") {
        None | Some(Value::Null) => {
            if players == 1 {
                Variant::Solo
            } else {
                Variant::Standard
            }
        }
        Some(Value::String(s)) => match Variant::parse(s) {
            Some(v) => v,
            None => {
                return header(format!(
                    "unknown variant \"{s}\" (expected standard, solo or solo-all)"
                ))
            }
        },
        Some(v) => return header(format!("variant must be a string, not {}", kind(v))),
    };
    let start_player = match obj.get("start_player") {
        None | Some(Value::Null) => 0,
        Some(v) => match int(v, "start_player") {
            Ok(n) if (0..players as i64).contains(&n) => n as u8,
            Ok(n) => {
                return header(format!(
                    "start_player {n} does not exist in a {players}-player game"
                ))
            }
            Err(e) => return header(e),
        },
    };
    let deck = match obj.get("deck") {
        None => return header("deck is missing"),
        Some(Value::Array(a)) => {
            let mut ids = Vec::with_capacity(TILE_COUNT);
            for (i, v) in a.iter().enumerate() {
                ids.push(int(v, &format!("deck position {i}")).or_else(header)?);
            }
            ids
        }
        Some(v) => return header(format!("deck must be an array, not {}", kind(v))),
    };
    let moves = match obj.remove("moves") {
        None => return header("moves is missing"),
        Some(Value::Array(a)) => a,
        Some(v) => return header(format!("moves must be an array, not {}", kind(&v))),
    };
    // The game's own setup check: variant for the player count, the deck a permutation.
    let game = Game::new(&Setup {
        players,
        variant: Some(variant),
        deck: DeckOrder::Explicit(deck),
        start_player: Some(start_player),
    })
    .or_else(|e| header(e.to_string()))?;
    Ok((Record::start(&game), game, moves))
}

fn parse_move(index: usize, v: &Value, players: u8) -> Result<RecordMove, RecordError> {
    let fault = |reason: String| RecordError::Move { index, reason };
    let Value::Object(obj) = v else {
        return Err(fault(format!("must be a JSON object, not {}", kind(v))));
    };
    let field = |name: &str| -> Result<i64, RecordError> {
        match obj.get(name) {
            None => Err(fault(format!("{name} is missing"))),
            Some(v) => int(v, name).map_err(fault),
        }
    };
    let player = field("player")?;
    if !(0..players as i64).contains(&player) {
        return Err(fault(format!(
            "player {player} does not exist in a {players}-player game"
        )));
    }
    let tile = || -> Result<TileId, RecordError> {
        let t = field("tile")?;
        if (1..=TILE_COUNT as i64).contains(&t) {
            Ok(t as TileId)
        } else {
            Err(fault(format!(
                "tile {t} does not exist (tiles are 1 to 72)"
            )))
        }
    };
    let mv = match obj.get("action") {
        None => return Err(fault("action is missing".into())),
        Some(Value::String(a)) => match a.as_str() {
            "place" => {
                let tile = tile()?;
                let coord = |name: &str| -> Result<i32, RecordError> {
                    let n = field(name)?;
                    i32::try_from(n).map_err(|_| fault(format!("{name} {n} is out of range")))
                };
                let x = coord("x")?;
                let y = coord("y")?;
                let rot = field("rot")?;
                if !(0..=3).contains(&rot) {
                    return Err(fault(format!("rotation {rot} is not 0 to 3")));
                }
                Move::Place {
                    tile,
                    x,
                    y,
                    rot: rot as u8,
                }
            }
            "intermezzo" => Move::Intermezzo { tile: tile()? },
            "pass" => Move::Pass,
            other => {
                return Err(fault(format!(
                    "unknown action \"{other}\" (expected place, intermezzo or pass)"
                )))
            }
        },
        Some(v) => return Err(fault(format!("action must be a string, not {}", kind(v)))),
    };
    Ok(RecordMove {
        player: player as u8,
        mv,
    })
}

/// A whole number that fits an i64, or why not. `1.0` is the number one.
fn int(v: &Value, name: &str) -> Result<i64, String> {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                return Ok(i);
            }
            match n.as_f64() {
                Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(f as i64),
                Some(f) if f.fract() == 0.0 => Err(format!("{name} {n} is out of range")),
                _ if n.is_u64() => Err(format!("{name} {n} is out of range")),
                _ => Err(format!("{name} must be a whole number, not {n}")),
            }
        }
        other => Err(format!("{name} must be a number, not {}", kind(other))),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A game with the record of how it was played so far.
#[derive(Clone, Debug)]
pub struct RecordedGame {
    game: Game,
    record: Record,
}

impl RecordedGame {
    pub fn new(setup: &Setup) -> Result<RecordedGame, crate::SetupError> {
        let game = Game::new(setup)?;
        let record = Record::start(&game);
        Ok(RecordedGame { game, record })
    }

    pub fn from_record(record: Record) -> Result<RecordedGame, RecordError> {
        let game = record.replay()?;
        Ok(RecordedGame { game, record })
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The record so far. It holds the deck order: give it out only once the game is over.
    pub fn record(&self) -> &Record {
        &self.record
    }

    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let player = self.game.to_act().ok_or(IllegalMove::GameOver)?;
        self.game.play(mv)?;
        self.record.moves.push(RecordMove { player, mv });
        Ok(())
    }
}

/// The state printed by `sagani replay` (RECORD.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub over: bool,
    pub players: Vec<PlayerSummary>,
    pub ranking: Vec<u8>,
    pub intermezzo: Vec<TileId>,
    pub offer: Vec<TileId>,
    pub draw_pile: usize,
    pub next: Option<Next>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerSummary {
    pub score: i16,
    pub cacophony: u16,
    pub supply: u16,
    pub tiles: usize,
    pub flipped: Vec<TileId>,
    pub incomplete: Vec<TileId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_score: Option<i16>,
}

impl Summary {
    pub fn of(game: &Game) -> Summary {
        let sorted = |mut v: Vec<TileId>| {
            v.sort_unstable();
            v
        };
        Summary {
            over: game.is_over(),
            players: (0..game.players())
                .map(|s| {
                    let d = game.display(s);
                    PlayerSummary {
                        score: game.score(s),
                        cacophony: game.cacophony(s),
                        supply: game.supply(s),
                        tiles: d.len(),
                        flipped: sorted(d.tiles().filter(|t| t.flipped).map(|t| t.tile).collect()),
                        incomplete: sorted(
                            d.tiles().filter(|t| !t.flipped).map(|t| t.tile).collect(),
                        ),
                        final_score: (game.variant() == Variant::SoloAll)
                            .then(|| game.final_score(s)),
                    }
                })
                .collect(),
            ranking: game.ranking(),
            intermezzo: sorted(game.intermezzo_storage().to_vec()),
            offer: sorted(game.offer().to_vec()),
            draw_pile: game.draw_pile_len(),
            next: game
                .to_act()
                .zip(game.expects())
                .map(|(player, expects)| Next { player, expects }),
        }
    }
}

//! Saved games: a record (RECORD.md) with two extra top-level fields the replay ignores,
//! `seats` (who plays each seat: `human` or a bot's name) and `seed` (the bots' seeds).

use sagani_core::record::{Record, RecordError, RecordedGame};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A saved game read back.
pub struct Loaded {
    pub game: RecordedGame,
    /// Saved by `sagani play` (marked so): its file may be written again.
    pub ours: bool,
    /// Who played each seat, when the file says.
    pub seats: Option<Vec<String>>,
    pub seed: Option<u64>,
}

/// What marks a file `sagani play` wrote, and may write again.
const SAVED_BY: &str = "sagani play";

/// The record as JSON with the mark, the seats and the seed before the format line.
pub fn to_json(record: &Record, seats: &[String], seed: u64) -> String {
    let json = record.to_json();
    let seats = serde_json::to_string(seats).expect("names serialise");
    // `to_json` starts with "{\n": the extra fields go right after it.
    format!(
        "{{\n  \"saved_by\": \"{SAVED_BY}\",\n  \"seats\": {seats},\n  \"seed\": {seed},\n{}",
        &json[2..]
    )
}

/// Why a game was not saved.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error("cannot save the game to {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot save the game in {}: {source}", folder(dir))]
    Folder {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot save the game in {}: too many saved games", folder(dir))]
    TooMany { dir: PathBuf },
}

/// Why a saved game (or a record) could not be read back.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {source}", path.display())]
    Record { path: PathBuf, source: RecordError },
    #[error("{}: {source}", path.display())]
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
    /// A move the rules refuse; people count moves from 1, as the viewer does (`sagani
    /// replay` keeps RECORD.md's 0).
    #[error("{}: move {}: {reason}", path.display(), index + 1)]
    Move {
        path: PathBuf,
        index: usize,
        reason: String,
    },
}

/// Writes the file whole or not at all: a temporary file beside it, then a rename.
pub fn save(path: &Path, json: &str) -> Result<(), SaveError> {
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, json)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|source| {
            let _ = std::fs::remove_file(&tmp);
            SaveError::Write {
                path: path.to_path_buf(),
                source,
            }
        })
}

/// Saves to a new file in `dir`: `sagani-game.json`, else `sagani-game-2.json`, … The name is
/// taken by creating the file (never opening one that exists), so two games saved in one
/// folder at once cannot overwrite each other.
pub fn save_new(dir: &Path, json: &str) -> Result<PathBuf, SaveError> {
    for k in 1..10_000 {
        let name = if k == 1 {
            "sagani-game.json".to_string()
        } else {
            format!("sagani-game-{k}.json")
        };
        let path = dir.join(name);
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(_) => return save(&path, json).map(|_| path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(source) => {
                return Err(SaveError::Folder {
                    dir: dir.to_path_buf(),
                    source,
                })
            }
        }
    }
    Err(SaveError::TooMany {
        dir: dir.to_path_buf(),
    })
}

fn folder(dir: &Path) -> String {
    if dir.as_os_str().is_empty() {
        "the current folder".to_string()
    } else {
        dir.display().to_string()
    }
}

/// Reads and replays a saved game or any record.
pub fn load(path: &Path) -> Result<Loaded, LoadError> {
    let at = || path.to_path_buf();
    let text =
        std::fs::read_to_string(path).map_err(|source| LoadError::Read { path: at(), source })?;
    let record =
        Record::from_json(&text).map_err(|source| LoadError::Record { path: at(), source })?;
    let players = record.players as usize;
    let value: Value =
        serde_json::from_str(&text).map_err(|source| LoadError::Json { path: at(), source })?;
    // Extra fields are ours only in their own shape; any other shape is someone else's field,
    // which the replay ignores, and so do we.
    let seats = value.get("seats").and_then(Value::as_array).and_then(|a| {
        let names: Option<Vec<String>> = a.iter().map(|v| v.as_str().map(str::to_string)).collect();
        names.filter(|n| n.len() == players)
    });
    let seed = value.get("seed").and_then(Value::as_u64);
    let ours = value.get("saved_by").and_then(Value::as_str) == Some(SAVED_BY);
    let game = RecordedGame::from_record(record).map_err(|e| match e {
        RecordError::Move { index, reason } => LoadError::Move {
            path: at(),
            index,
            reason,
        },
        source => LoadError::Record { path: at(), source },
    })?;
    Ok(Loaded {
        game,
        ours,
        seats,
        seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sagani_core::record::replay_json;
    use sagani_core::Setup;

    #[test]
    fn a_saved_game_is_a_record_with_seats_and_seed() {
        let mut rg = RecordedGame::new(&Setup::seeded(2, 5)).unwrap();
        for _ in 0..3 {
            let mv = rg.game().legal_moves()[0];
            rg.play(mv).unwrap();
        }
        let json = to_json(rg.record(), &["human".into(), "greedy".into()], 77);
        // Still a record the replay accepts as it is.
        let (record, game) = replay_json(&json).unwrap();
        assert_eq!(&record, rg.record());
        assert_eq!(game.placements(), rg.game().placements());
        let dir = std::env::temp_dir().join(format!("sagani-tui-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.json");
        save(&path, &json).unwrap();
        let back = load(&path).unwrap();
        assert_eq!(back.seats, Some(vec!["human".into(), "greedy".into()]));
        assert_eq!(back.seed, Some(77));
        assert!(back.ours);
        assert_eq!(back.game.record(), rg.record());
        // Fields of another shape are someone else's: ignored, like the replay ignores them.
        let other = json
            .replace("[\"human\",\"greedy\"]", "{\"north\": \"Ann\"}")
            .replace("\"seed\": 77", "\"seed\": \"abc\"");
        std::fs::write(&path, other).unwrap();
        let back = load(&path).unwrap();
        assert_eq!((back.seats, back.seed), (None, None));
        assert!(back.ours, "the mark is still there");
        assert_eq!(back.game.record(), rg.record());
        // A record that does not replay is refused with the file's name and the move, counted
        // from 1.
        std::fs::write(
            &path,
            json.replace(
                "\"moves\": [",
                "\"moves\": [{\"player\": 0, \"action\": \"pass\"},",
            ),
        )
        .unwrap();
        let e = load(&path).err().unwrap().to_string();
        assert!(
            e.starts_with(&format!("{}: move 1: ", path.display())),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[cfg(test)]
mod names {
    use super::*;

    #[test]
    fn new_saves_never_overwrite_a_file() {
        let dir = std::env::temp_dir().join(format!("sagani-tui-names-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("sagani-game.json"), "someone else's").unwrap();
        let a = save_new(&dir, "a").unwrap();
        let b = save_new(&dir, "b").unwrap();
        assert_eq!(a, dir.join("sagani-game-2.json"));
        assert_eq!(b, dir.join("sagani-game-3.json"));
        assert_eq!(
            std::fs::read_to_string(dir.join("sagani-game.json")).unwrap(),
            "someone else's"
        );
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "a");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

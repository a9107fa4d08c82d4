//! `sagani db copy`: a whole site from one store into another, an empty one. Every table the
//! copy knows to keep (`tables::COPIED`) is copied row by row, every column as it is; the rest
//! (`tables::SKIPPED`) is left behind on purpose, and a table in neither list stops the copy
//! before anything is written. Afterwards each copied table is compared on both sides (its
//! number of rows and a digest of every row's every column), and every game is read back and
//! replayed to the same state as the original.

use super::replay::{replay, ReplayError};
use super::tables::{self, Copied, COPIED};
use super::{Store, StoreError, Value};
use sha2::{Digest, Sha256};

/// Rows read and written at a time (fewer for wide tables: a page is one statement, and each
/// database takes a bounded number of parameters).
const PAGE_ROWS: usize = 500;
const PAGE_VALUES: usize = 30_000;

/// A copied table's rows on both sides, once the copy is done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableCount {
    pub table: &'static str,
    pub from: u64,
    pub to: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CopyReport {
    /// Every copied table, in the order copied, with its rows on both sides.
    pub tables: Vec<TableCount>,
    /// Games read back from the target that replay to the same state as in the source.
    pub games: u64,
    /// Games that do not replay in the source either, with why: copied as they are.
    pub damaged: Vec<(String, String)>,
}

/// Why a copy stopped.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error("reading the {side}'s schema: {source}")]
    Schema {
        side: &'static str,
        source: StoreError,
    },
    #[error(
        "the {side} has a table {table} that this sagani neither copies nor skips on purpose; \
         nothing was copied (a newer sagani may know it)"
    )]
    Unknown { side: &'static str, table: String },
    #[error("the {side} has no table {table}: bring both databases up to date with this sagani (sagani db migrate)")]
    Missing { side: &'static str, table: String },
    #[error(
        "table {table} has other columns in the target ({to}) than in the source ({from}): \
         bring both up to date with this sagani (sagani db migrate); nothing was copied"
    )]
    Columns {
        table: &'static str,
        from: String,
        to: String,
    },
    #[error(
        "the target is not empty, it holds rows ({}): copy into a new, empty database; nothing \
         was written",
        held.iter().map(|(t, n)| format!("{t}: {n}")).collect::<Vec<_>>().join(", ")
    )]
    NotEmpty { held: Vec<(&'static str, u64)> },
    #[error("reading table {table} of the {side}: {source}")]
    Read {
        table: &'static str,
        side: &'static str,
        source: StoreError,
    },
    #[error("writing table {table}: {source}")]
    Write {
        table: &'static str,
        source: StoreError,
    },
    #[error(
        "table {table} differs after copying: {from} rows in the source, {to} in the target{}",
        if from == to { ", and their content differs" } else { "" }
    )]
    Differs {
        table: &'static str,
        from: u64,
        to: u64,
    },
    #[error("reading game {game} of the {side}: {source}")]
    Game {
        game: String,
        side: &'static str,
        source: StoreError,
    },
    #[error("game {game} does not replay in the target: {source}")]
    Replay { game: String, source: ReplayError },
    #[error("game {game} reads back otherwise than it was, or replays to another state")]
    Changed { game: String },
}

/// Copies every table `tables::COPIED` lists from `from` into `to`, which must hold none of
/// their rows, then checks the copy (see the module's comment). `each` hears how many rows
/// were just copied.
pub async fn copy(
    from: &dyn Store,
    to: &dyn Store,
    mut each: impl FnMut(u64),
) -> Result<CopyReport, CopyError> {
    known(from, "source").await?;
    known(to, "target").await?;
    let mut held = Vec::new();
    for t in COPIED {
        let n = to
            .row_count(t.name)
            .await
            .map_err(|source| CopyError::Read {
                table: t.name,
                side: "target",
                source,
            })?;
        if n > 0 {
            held.push((t.name, n));
        }
    }
    if !held.is_empty() {
        return Err(CopyError::NotEmpty { held });
    }
    let mut plans = Vec::new();
    for t in COPIED {
        plans.push((t, columns(from, to, t).await?));
    }
    for (t, columns) in &plans {
        copy_table(from, to, t, columns, &mut each).await?;
    }
    let mut report = CopyReport::default();
    for (t, columns) in &plans {
        let (a, b) = (
            digest(from, t, columns, "source").await?,
            digest(to, t, columns, "target").await?,
        );
        if a != b {
            return Err(CopyError::Differs {
                table: t.name,
                from: a.rows,
                to: b.rows,
            });
        }
        report.tables.push(TableCount {
            table: t.name,
            from: a.rows,
            to: b.rows,
        });
    }
    replay_games(from, to, &mut report).await?;
    Ok(report)
}

/// Every table of `store`'s schema is one the copy knows; every table it copies is there.
async fn known(store: &dyn Store, side: &'static str) -> Result<(), CopyError> {
    let names = store
        .tables()
        .await
        .map_err(|source| CopyError::Schema { side, source })?;
    if let Some(table) = names.iter().find(|t| !tables::known(t)) {
        return Err(CopyError::Unknown {
            side,
            table: table.clone(),
        });
    }
    if let Some(t) = COPIED.iter().find(|t| !names.iter().any(|n| n == t.name)) {
        return Err(CopyError::Missing {
            side,
            table: t.name.into(),
        });
    }
    Ok(())
}

/// The columns of `t`, the same on both sides (in the source's order).
async fn columns(from: &dyn Store, to: &dyn Store, t: &Copied) -> Result<Vec<String>, CopyError> {
    let read = |side| {
        move |source| CopyError::Read {
            table: t.name,
            side,
            source,
        }
    };
    let a = from.columns(t.name).await.map_err(read("source"))?;
    let b = to.columns(t.name).await.map_err(read("target"))?;
    let (mut sa, mut sb) = (a.clone(), b.clone());
    sa.sort();
    sb.sort();
    if sa != sb {
        return Err(CopyError::Columns {
            table: t.name,
            from: a.join(", "),
            to: b.join(", "),
        });
    }
    Ok(a)
}

/// The key of `row` (the values of `t.key`'s columns).
fn key_of(t: &Copied, columns: &[String], row: &[Value]) -> Vec<Value> {
    t.key
        .iter()
        .filter_map(|k| columns.iter().position(|c| c == k))
        .map(|i| row[i].clone())
        .collect()
}

fn page_rows(columns: &[String]) -> usize {
    (PAGE_VALUES / columns.len().max(1)).clamp(1, PAGE_ROWS)
}

async fn copy_table(
    from: &dyn Store,
    to: &dyn Store,
    t: &Copied,
    columns: &[String],
    each: &mut impl FnMut(u64),
) -> Result<(), CopyError> {
    let limit = page_rows(columns);
    let mut after: Option<Vec<Value>> = None;
    loop {
        let rows = from
            .rows(t.name, columns, t.key, after.as_deref(), limit as u32)
            .await
            .map_err(|source| CopyError::Read {
                table: t.name,
                side: "source",
                source,
            })?;
        let Some(last) = rows.last() else {
            return Ok(());
        };
        after = Some(key_of(t, columns, last));
        to.put_rows(t.name, columns, &rows)
            .await
            .map_err(|source| CopyError::Write {
                table: t.name,
                source,
            })?;
        each(rows.len() as u64);
        if rows.len() < limit {
            return Ok(());
        }
    }
}

/// A table's rows in brief: how many, and the sum of each row's SHA-256 (so the order the two
/// databases read them in does not matter; the key makes every row distinct).
#[derive(Debug, PartialEq, Eq)]
struct Digested {
    rows: u64,
    sum: u128,
}

/// A row's SHA-256, over its columns by name. A boolean counts as the 0 or 1 SQLite keeps it
/// as; everything else must be the same value of the same kind.
fn row_digest(columns: &[String], row: &[Value]) -> u128 {
    let mut cells: Vec<(&String, &Value)> = columns.iter().zip(row).collect();
    cells.sort_by(|a, b| a.0.cmp(b.0));
    let mut h = Sha256::new();
    for (name, v) in cells {
        h.update((name.len() as u64).to_le_bytes());
        h.update(name.as_bytes());
        match v {
            Value::Null => h.update([0]),
            Value::Int(i) => {
                h.update([1]);
                h.update(i.to_le_bytes());
            }
            Value::Bool(b) => {
                h.update([1]);
                h.update(i64::from(*b).to_le_bytes());
            }
            Value::Real(r) => {
                h.update([2]);
                h.update(r.to_bits().to_le_bytes());
            }
            Value::Text(s) => {
                h.update([3]);
                h.update((s.len() as u64).to_le_bytes());
                h.update(s.as_bytes());
            }
            Value::List(l) => {
                h.update([4]);
                for s in l {
                    h.update((s.len() as u64).to_le_bytes());
                    h.update(s.as_bytes());
                }
            }
        }
    }
    let d = h.finalize();
    let mut first = [0u8; 16];
    first.copy_from_slice(&d[..16]);
    u128::from_le_bytes(first)
}

async fn digest(
    store: &dyn Store,
    t: &Copied,
    columns: &[String],
    side: &'static str,
) -> Result<Digested, CopyError> {
    let limit = page_rows(columns);
    let mut out = Digested { rows: 0, sum: 0 };
    let mut after: Option<Vec<Value>> = None;
    loop {
        let rows = store
            .rows(t.name, columns, t.key, after.as_deref(), limit as u32)
            .await
            .map_err(|source| CopyError::Read {
                table: t.name,
                side,
                source,
            })?;
        for r in &rows {
            out.rows += 1;
            out.sum = out.sum.wrapping_add(row_digest(columns, r));
        }
        match rows.last() {
            Some(last) if rows.len() == limit => after = Some(key_of(t, columns, last)),
            _ => return Ok(out),
        }
    }
}

/// Every game read back from the target as the store reads it is the source's, and replays to
/// the same state; a game that does not replay in the source either is reported.
async fn replay_games(
    from: &dyn Store,
    to: &dyn Store,
    report: &mut CopyReport,
) -> Result<(), CopyError> {
    let mut after: Option<String> = None;
    loop {
        let ids = from
            .game_ids(after.as_deref(), 500)
            .await
            .map_err(|source| CopyError::Read {
                table: "games",
                side: "source",
                source,
            })?;
        let Some(last) = ids.last() else {
            return Ok(());
        };
        after = Some(last.clone());
        for game in ids {
            let read = |side| {
                let game = game.clone();
                move |source| CopyError::Game { game, side, source }
            };
            let original = match from.game(&game).await {
                Ok(g) => g,
                Err(e @ StoreError::Damaged { .. }) => {
                    report.damaged.push((game.clone(), e.to_string()));
                    continue;
                }
                Err(e) => return Err(read("source")(e)),
            };
            let copied = to.game(&game).await.map_err(read("target"))?;
            if copied != original {
                return Err(CopyError::Changed { game });
            }
            let was = match replay(&original) {
                Ok(r) => r,
                Err(e) => {
                    report.damaged.push((game.clone(), e.to_string()));
                    continue;
                }
            };
            let is = replay(&copied).map_err(|source| CopyError::Replay {
                game: game.clone(),
                source,
            })?;
            if is.record() != was.record() {
                return Err(CopyError::Changed { game });
            }
            report.games += 1;
        }
    }
}

//! Whole tables as rows of values, for `db copy`: the schema's tables and columns, a table's
//! rows a page at a time, and rows written back as they were read. The statements name tables
//! and columns the schema has, so they are made here from those names.

use super::super::db::{Conn, FromValue, Sql, Value, ValueError};
use super::super::StoreError;
use std::collections::BTreeSet;
use std::sync::Mutex;

use Sql::{Both, Each};

/// A column's value as it is.
impl FromValue for Value {
    fn from_value(v: &Value) -> Result<Value, ValueError> {
        Ok(v.clone())
    }
}

/// `text` kept for the rest of the process: a statement is `'static` (the databases' statement
/// caches keep it as long). A copy makes a few per table (the first page's read, the next
/// pages' read, a full page's write, the last page's shorter write), so a process keeps a few
/// dozen.
fn kept(text: String) -> &'static str {
    static KEPT: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut kept = KEPT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(k) = kept.get(text.as_str()) {
        return k;
    }
    let k: &'static str = Box::leak(text.into_boxed_str());
    kept.insert(k);
    k
}

/// A table's or a column's name, checked to be a plain one before it goes into a statement.
fn name(n: &str) -> Result<&str, StoreError> {
    let plain = n.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && n.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if plain {
        Ok(n)
    } else {
        Err(StoreError::unusable(format!(
            "{n:?} is not a table or column name the copy reads"
        )))
    }
}

fn names(ns: &[impl AsRef<str>]) -> Result<String, StoreError> {
    Ok(ns
        .iter()
        .map(|n| name(n.as_ref()))
        .collect::<Result<Vec<_>, _>>()?
        .join(", "))
}

/// The tables of the schema, by name.
pub(super) async fn tables(c: &mut dyn Conn) -> Result<Vec<String>, StoreError> {
    Ok(c.column(
        Each {
            sqlite: "SELECT name FROM sqlite_master
                     WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                     ORDER BY name",
            postgres: "SELECT table_name::text AS name FROM information_schema.tables
                       WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
                       ORDER BY table_name",
        },
        &[],
    )
    .await?)
}

/// The columns of `table`, in the schema's order.
pub(super) async fn columns(c: &mut dyn Conn, table: &str) -> Result<Vec<String>, StoreError> {
    Ok(c.column(
        Each {
            sqlite: "SELECT name FROM pragma_table_info($1) ORDER BY cid",
            postgres: "SELECT column_name::text AS name FROM information_schema.columns
                       WHERE table_schema = current_schema() AND table_name = $1
                       ORDER BY ordinal_position",
        },
        &[Value::from(table)],
    )
    .await?)
}

pub(super) async fn count(c: &mut dyn Conn, table: &str) -> Result<u64, StoreError> {
    let sql = kept(format!("SELECT COUNT(*) AS n FROM {}", name(table)?));
    Ok(c.value(Both(sql), &[]).await?.unwrap_or(0))
}

/// Up to `limit` rows of `table`, `columns` in that order, in the order of `key`, after the row
/// whose key is `after`.
pub(super) async fn page(
    c: &mut dyn Conn,
    table: &str,
    columns: &[String],
    key: &[&str],
    after: Option<&[Value]>,
    limit: u32,
) -> Result<Vec<Vec<Value>>, StoreError> {
    let order = names(key)?;
    let mut args: Vec<Value> = Vec::new();
    let from = match after {
        None => String::new(),
        Some(after) => {
            args.extend(after.iter().cloned());
            let params: Vec<String> = (1..=after.len()).map(|i| format!("${i}")).collect();
            format!("WHERE ({order}) > ({})", params.join(", "))
        }
    };
    args.push(Value::from(limit));
    let sql = kept(format!(
        "SELECT {} FROM {} {from} ORDER BY {order} LIMIT ${}",
        names(columns)?,
        name(table)?,
        args.len()
    ));
    let rows = c.query(Both(sql), &args).await?;
    rows.iter()
        .map(|r| {
            columns
                .iter()
                .map(|col| r.get::<Value>(col).map_err(StoreError::from))
                .collect()
        })
        .collect()
}

/// Writes `rows` (of `columns`, in that order) into `table`, in one statement.
pub(super) async fn put(
    c: &mut dyn Conn,
    table: &str,
    columns: &[String],
    rows: &[Vec<Value>],
) -> Result<(), StoreError> {
    if rows.is_empty() {
        return Ok(());
    }
    let width = columns.len();
    let mut values = Vec::with_capacity(rows.len());
    for r in 0..rows.len() {
        let params: Vec<String> = (1..=width).map(|i| format!("${}", r * width + i)).collect();
        values.push(format!("({})", params.join(", ")));
    }
    let sql = kept(format!(
        "INSERT INTO {} ({}) VALUES {}",
        name(table)?,
        names(columns)?,
        values.join(", ")
    ));
    let mut args = Vec::with_capacity(rows.len() * width);
    for row in rows {
        if row.len() != width {
            return Err(StoreError::unusable(format!(
                "a row of {table} has {} values for {width} columns",
                row.len()
            )));
        }
        args.extend(row.iter().cloned());
    }
    c.execute(Both(sql), &args).await?;
    Ok(())
}

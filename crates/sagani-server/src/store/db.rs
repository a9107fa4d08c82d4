//! The small database interface the store's logic is written against: statements (one text for
//! both databases, or one each where they differ), values, rows read by column name, and the
//! connection a piece of work runs on. `sqlite.rs` and `postgres.rs` implement it.

use super::error::Cause;
use super::{Change, StoreError};
use async_trait::async_trait;
use futures_util::future::BoxFuture;
use std::sync::Arc;
use tokio::sync::broadcast;

/// Which database a connection talks to, for the few steps that differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// A statement. Parameters are written `$1`, `$2`, … (SQLite gets them as `?1`, `?2`, …).
#[derive(Clone, Copy, Debug)]
pub enum Sql {
    /// The same text for both databases.
    Both(&'static str),
    /// Where the two differ.
    Each {
        sqlite: &'static str,
        postgres: &'static str,
    },
}

impl Sql {
    pub fn text(self, dialect: Dialect) -> &'static str {
        match (self, dialect) {
            (Sql::Both(s), _) => s,
            (Sql::Each { sqlite, .. }, Dialect::Sqlite) => sqlite,
            (Sql::Each { postgres, .. }, Dialect::Postgres) => postgres,
        }
    }
}

/// A parameter or a column's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Bool(bool),
    Text(String),
    /// A list of texts, as a parameter only: an array for PostgreSQL (`= ANY($1)`), a JSON array
    /// for SQLite (`IN (SELECT value FROM json_each($1))`).
    List(Vec<String>),
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl From<u64> for Value {
    fn from(v: u64) -> Value {
        Value::Int(v as i64)
    }
}

impl From<u32> for Value {
    fn from(v: u32) -> Value {
        Value::Int(i64::from(v))
    }
}

impl From<u8> for Value {
    fn from(v: u8) -> Value {
        Value::Int(i64::from(v))
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Bool(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_string())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}

impl From<&String> for Value {
    fn from(v: &String) -> Value {
        Value::Text(v.clone())
    }
}

impl From<&Option<String>> for Value {
    fn from(v: &Option<String>) -> Value {
        v.as_deref().into()
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

/// Parameters for a statement: `args![a, b, c]`.
macro_rules! args {
    ($($v:expr),* $(,)?) => {
        &[$($crate::store::db::Value::from($v)),*]
    };
}
pub(crate) use args;

/// Why a statement failed.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// A unique key (or another constraint) refused the row.
    #[error("a constraint refused the row: {0}")]
    Constraint(#[source] Cause),
    /// A column could not be read as the type asked for.
    #[error("column {column}: {reason}")]
    Column {
        column: String,
        #[source]
        reason: ValueError,
    },
    /// Anything else the database or the connection said.
    #[error(transparent)]
    Failed(Cause),
}

impl DbError {
    pub fn failed(e: impl std::error::Error + Send + Sync + 'static) -> DbError {
        DbError::Failed(Arc::new(e))
    }
}

impl From<DbError> for StoreError {
    fn from(e: DbError) -> StoreError {
        match e {
            DbError::Constraint(_) => StoreError::Conflict(super::Conflict::Exists),
            e => StoreError::Unavailable(Arc::new(e)),
        }
    }
}

/// Why a column's value cannot be read as asked.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ValueError {
    #[error("{0:?} is not {1}")]
    Type(Value, &'static str),
    #[error("{0} is out of range")]
    Range(i64),
    #[error("no such column in the result")]
    Missing,
    #[error("{0} cannot be read")]
    Unsupported(&'static str),
}

/// A value a column can be read as.
pub trait FromValue: Sized {
    fn from_value(v: &Value) -> Result<Self, ValueError>;
}

impl FromValue for i64 {
    fn from_value(v: &Value) -> Result<i64, ValueError> {
        match v {
            Value::Int(i) => Ok(*i),
            Value::Bool(b) => Ok(i64::from(*b)),
            other => Err(ValueError::Type(other.clone(), "an integer")),
        }
    }
}

macro_rules! narrow_int {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(v: &Value) -> Result<$t, ValueError> {
                let i = i64::from_value(v)?;
                <$t>::try_from(i).map_err(|_| ValueError::Range(i))
            }
        }
    )*};
}
narrow_int!(u8, u32, u64);

impl FromValue for f64 {
    fn from_value(v: &Value) -> Result<f64, ValueError> {
        match v {
            Value::Real(r) => Ok(*r),
            Value::Int(i) => Ok(*i as f64),
            other => Err(ValueError::Type(other.clone(), "a number")),
        }
    }
}

impl FromValue for bool {
    fn from_value(v: &Value) -> Result<bool, ValueError> {
        match v {
            Value::Bool(b) => Ok(*b),
            // SQLite keeps booleans as integers.
            Value::Int(i) => Ok(*i != 0),
            other => Err(ValueError::Type(other.clone(), "a boolean")),
        }
    }
}

impl FromValue for String {
    fn from_value(v: &Value) -> Result<String, ValueError> {
        match v {
            Value::Text(s) => Ok(s.clone()),
            other => Err(ValueError::Type(other.clone(), "text")),
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(v: &Value) -> Result<Option<T>, ValueError> {
        match v {
            Value::Null => Ok(None),
            v => T::from_value(v).map(Some),
        }
    }
}

/// A row of a result, its columns read by name.
#[derive(Clone, Debug)]
pub struct Row {
    names: Arc<[String]>,
    values: Vec<Value>,
}

impl Row {
    pub fn new(names: Arc<[String]>, values: Vec<Value>) -> Row {
        Row { names, values }
    }

    pub fn get<T: FromValue>(&self, column: &str) -> Result<T, DbError> {
        let at = self
            .names
            .iter()
            .position(|n| n == column)
            .ok_or_else(|| DbError::Column {
                column: column.to_string(),
                reason: ValueError::Missing,
            })?;
        T::from_value(&self.values[at]).map_err(|reason| DbError::Column {
            column: column.to_string(),
            reason,
        })
    }
}

/// A struct read from a row, each field from the column of its name.
pub trait FromRow: Sized {
    fn from_row(row: &Row) -> Result<Self, DbError>;
}

/// Declares a struct whose fields are read from a row's columns of the same names.
macro_rules! from_row {
    ($(#[$meta:meta])* $vis:vis struct $name:ident {
        $($(#[$fmeta:meta])* $fvis:vis $field:ident: $ty:ty),* $(,)?
    }) => {
        $(#[$meta])*
        $vis struct $name { $($(#[$fmeta])* $fvis $field: $ty),* }

        impl $crate::store::db::FromRow for $name {
            fn from_row(row: &$crate::store::db::Row) -> Result<Self, $crate::store::db::DbError> {
                Ok($name { $($field: row.get(stringify!($field))?),* })
            }
        }
    };
}
pub(crate) use from_row;

/// A single value is a row of one column.
impl<T: FromValue> FromRow for (T,) {
    fn from_row(row: &Row) -> Result<Self, DbError> {
        let v = row.values.first().ok_or_else(|| DbError::Column {
            column: "the first".into(),
            reason: ValueError::Missing,
        })?;
        T::from_value(v)
            .map(|v| (v,))
            .map_err(|reason| DbError::Column {
                column: row.names.first().cloned().unwrap_or_default(),
                reason,
            })
    }
}

/// A connection a piece of work runs on: inside a transaction for a write, or not for a read.
#[async_trait]
pub trait Conn: Send {
    fn dialect(&self) -> Dialect;

    /// Every row the statement returns.
    async fn query(&mut self, sql: Sql, args: &[Value]) -> Result<Vec<Row>, DbError>;

    /// The number of rows the statement changed.
    async fn execute(&mut self, sql: Sql, args: &[Value]) -> Result<u64, DbError>;

    /// Tells every server sharing the database that `game` is now at `rev` (PostgreSQL's
    /// `NOTIFY`; nothing for SQLite, which one server serves).
    async fn changed(&mut self, game: &str, rev: u64) -> Result<(), StoreError>;
}

impl dyn Conn + '_ {
    /// Every row, each read as a `T`.
    pub async fn rows<T: FromRow>(&mut self, sql: Sql, args: &[Value]) -> Result<Vec<T>, DbError> {
        self.query(sql, args)
            .await?
            .iter()
            .map(T::from_row)
            .collect()
    }

    /// The first row, if there is one, read as a `T`.
    pub async fn row<T: FromRow>(
        &mut self,
        sql: Sql,
        args: &[Value],
    ) -> Result<Option<T>, DbError> {
        self.query(sql, args)
            .await?
            .first()
            .map(T::from_row)
            .transpose()
    }

    /// The first column of every row.
    pub async fn column<T: FromValue>(
        &mut self,
        sql: Sql,
        args: &[Value],
    ) -> Result<Vec<T>, DbError> {
        Ok(self
            .rows::<(T,)>(sql, args)
            .await?
            .into_iter()
            .map(|(v,)| v)
            .collect())
    }

    /// The first column of the first row, if there is one.
    pub async fn value<T: FromValue>(
        &mut self,
        sql: Sql,
        args: &[Value],
    ) -> Result<Option<T>, DbError> {
        Ok(self.row::<(T,)>(sql, args).await?.map(|(v,)| v))
    }
}

/// Work on a connection; it borrows the connection for as long as it runs.
pub type Work<T> =
    Box<dyn for<'c> FnOnce(&'c mut dyn Conn) -> BoxFuture<'c, Result<T, StoreError>> + Send>;

/// How a write is committed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Commit {
    /// All of it or none of it, in one transaction.
    Atomic,
    /// One statement that is atomic by itself (and what follows only reads, or tells others
    /// of the change): PostgreSQL runs it without a transaction around it, one round trip
    /// fewer; changes are announced once it is committed. SQLite commits it as any write.
    Single,
}

/// A database the store runs on.
#[async_trait]
pub trait Database: Send + Sync + 'static {
    /// Runs `work` to read (no transaction: each statement sees what is committed when it
    /// runs).
    async fn read<T: Send + 'static>(&self, work: Work<T>) -> Result<T, StoreError>;

    /// Runs `work` to write, committed as `commit` says; an error changes nothing.
    async fn write<T: Send + 'static>(
        &self,
        commit: Commit,
        work: Work<T>,
    ) -> Result<T, StoreError>;

    /// Changes made by any server (see `Store::changes`).
    fn changes(&self) -> Option<broadcast::Receiver<Change>>;

    /// True when this server is the database's only writer.
    fn exclusive(&self) -> bool;
}

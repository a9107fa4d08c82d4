//! PostgreSQL under the store, for several servers on one database: a connection pool, each
//! write one transaction whose conditions the database checks under its row locks, and
//! `LISTEN/NOTIFY` so every server hears every committed change.

use super::db::{Commit, Conn, Database, DbError, Dialect, Row, Sql, Value, Work};
use super::{Change, SqlStore, StoreError};
use async_trait::async_trait;
use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Pool, RecyclingMethod};
use futures_util::StreamExt;
use std::error::Error;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::{to_sql_checked, IsNull, ToSql, Type};
use tokio_postgres::{AsyncMessage, NoTls};

mod embedded {
    refinery::embed_migrations!("migrations/postgres");
}

/// The store on a PostgreSQL database.
pub type PostgresStore = SqlStore<Postgres>;

/// The channel every server listens on; a payload is `<game> <rev>`.
const CHANNEL: &str = "sagani_changes";

/// Any number that no other program takes as an advisory lock: held while migrating, so two
/// servers starting together do not both migrate.
const MIGRATION_LOCK: i64 = 0x5a6a_6e69_0001;

/// Connections in the pool.
const POOL_SIZE: usize = 16;

pub struct Postgres {
    pool: Pool,
    changes: broadcast::Sender<Change>,
    listener: tokio::task::JoinHandle<()>,
}

impl Drop for Postgres {
    fn drop(&mut self) {
        self.listener.abort();
    }
}

fn db_error(e: tokio_postgres::Error) -> DbError {
    if e.code() == Some(&SqlState::UNIQUE_VIOLATION) {
        DbError::Constraint(Arc::new(Said(e)))
    } else {
        DbError::failed(Said(e))
    }
}

/// A PostgreSQL error in words: tokio-postgres says only "db error" or "error connecting to
/// server", and keeps the server's own words (`database "x" does not exist`, `Connection
/// refused`) in its source. This says the whole chain (so it has no source of its own), each
/// cause once (the pool's error says its cause's words, then has it as its source).
#[derive(Debug)]
struct Said<E>(E);

impl<E: Error> std::fmt::Display for Said<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut said = self.0.to_string();
        let mut cause = self.0.source();
        while let Some(c) = cause {
            let words = c.to_string();
            if !said.ends_with(&words) {
                said = format!("{said}: {words}");
            }
            cause = c.source();
        }
        f.write_str(&said)
    }
}

impl<E: Error> Error for Said<E> {}

/// A URL with its password hidden, for messages: the rest (hosts, ports, user, database,
/// options) as given. By hand, as the URL crates do not read PostgreSQL's several hosts
/// (`h1:5432,h2:5433`).
pub(super) fn shown(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, tail) = rest.split_at(rest.find(['/', '?']).unwrap_or(rest.len()));
    let authority = match authority.rsplit_once('@') {
        Some((user, hosts)) => match user.split_once(':') {
            Some((user, _)) => format!("{user}:***@{hosts}"),
            None => format!("{user}@{hosts}"),
        },
        None => authority.to_string(),
    };
    // A password may be given as an option too.
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let options: Vec<String> = query
                .split('&')
                .map(|o| match o.split_once('=') {
                    Some((k, _)) if k == "password" => format!("{k}=***"),
                    _ => o.to_string(),
                })
                .collect();
            format!("{path}?{}", options.join("&"))
        }
        None => tail.to_string(),
    };
    format!("{scheme}://{authority}{tail}")
}

/// A parameter as the statement's parameter type wants it (PostgreSQL is strict: an `i64` is
/// no `smallint`).
impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        match (self, ty) {
            (Value::Null, _) => Ok(IsNull::Yes),
            (Value::Int(i), &Type::INT2) => i16::try_from(*i)?.to_sql(ty, out),
            (Value::Int(i), &Type::INT4) => i32::try_from(*i)?.to_sql(ty, out),
            (Value::Int(i), &Type::INT8) => i.to_sql(ty, out),
            (Value::Int(i), &Type::FLOAT8) => (*i as f64).to_sql(ty, out),
            (Value::Int(i), &Type::BOOL) => (*i != 0).to_sql(ty, out),
            (Value::Real(r), &Type::FLOAT8) => r.to_sql(ty, out),
            (Value::Real(r), &Type::FLOAT4) => (*r as f32).to_sql(ty, out),
            (Value::Bool(b), &Type::BOOL) => b.to_sql(ty, out),
            (Value::Bool(b), &Type::INT2 | &Type::INT4 | &Type::INT8) => {
                Value::Int(i64::from(*b)).to_sql(ty, out)
            }
            (Value::Text(s), _) if <&str as ToSql>::accepts(ty) => s.as_str().to_sql(ty, out),
            (Value::List(l), _) if <Vec<String> as ToSql>::accepts(ty) => l.to_sql(ty, out),
            (v, ty) => Err(format!("{v:?} given for a parameter of type {ty}").into()),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

fn column(row: &tokio_postgres::Row, i: usize) -> Result<Value, tokio_postgres::Error> {
    let ty = row.columns()[i].type_();
    Ok(match *ty {
        Type::INT2 => row.try_get::<_, Option<i16>>(i)?.map(i64::from).into(),
        Type::INT4 => row.try_get::<_, Option<i32>>(i)?.map(i64::from).into(),
        Type::INT8 => row.try_get::<_, Option<i64>>(i)?.into(),
        Type::BOOL => row.try_get::<_, Option<bool>>(i)?.into(),
        Type::FLOAT4 => row.try_get::<_, Option<f32>>(i)?.map(f64::from).into(),
        Type::FLOAT8 => row.try_get::<_, Option<f64>>(i)?.into(),
        Type::VOID => Value::Null,
        _ => row.try_get::<_, Option<String>>(i)?.into(),
    })
}

/// A connection (for reads and single statements) or a transaction, as the store's logic sees
/// it.
struct PgConn<'a, C: GenericClient> {
    client: &'a C,
    /// Changes to announce once the statement is committed (outside a transaction).
    after: Option<&'a mut Vec<(String, u64)>>,
}

#[async_trait]
impl<C: GenericClient + Send + Sync> Conn for PgConn<'_, C> {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    async fn query(&mut self, sql: Sql, args: &[Value]) -> Result<Vec<Row>, DbError> {
        // Prepared once per connection (deadpool's statement cache): one round trip per query
        // after that, instead of a parse and an execute.
        let statement = self
            .client
            .prepare_cached(sql.text(Dialect::Postgres))
            .await
            .map_err(db_error)?;
        let params: Vec<&(dyn ToSql + Sync)> = args.iter().map(|a| a as _).collect();
        let rows = self
            .client
            .query(&statement, &params)
            .await
            .map_err(db_error)?;
        let names: Arc<[String]> = statement
            .columns()
            .iter()
            .map(|c| c.name().to_string())
            .collect();
        rows.iter()
            .map(|r| {
                let values = (0..names.len())
                    .map(|i| column(r, i))
                    .collect::<Result<_, _>>()
                    .map_err(|e| DbError::failed(Said(e)))?;
                Ok(Row::new(names.clone(), values))
            })
            .collect()
    }

    async fn execute(&mut self, sql: Sql, args: &[Value]) -> Result<u64, DbError> {
        let statement = self
            .client
            .prepare_cached(sql.text(Dialect::Postgres))
            .await
            .map_err(db_error)?;
        let params: Vec<&(dyn ToSql + Sync)> = args.iter().map(|a| a as _).collect();
        self.client
            .execute(&statement, &params)
            .await
            .map_err(db_error)
    }

    async fn changed(&mut self, game: &str, rev: u64) -> Result<(), StoreError> {
        match &mut self.after {
            Some(after) => after.push((game.to_string(), rev)),
            None => notify(self.client, game, rev).await?,
        }
        Ok(())
    }
}

async fn notify(client: &impl GenericClient, game: &str, rev: u64) -> Result<(), DbError> {
    let statement = client
        .prepare_cached("SELECT pg_notify($1, $2)")
        .await
        .map_err(db_error)?;
    client
        .execute(&statement, &[&CHANNEL, &format!("{game} {rev}")])
        .await
        .map_err(db_error)?;
    Ok(())
}

impl SqlStore<Postgres> {
    /// Connects to `url`, brings the schema up to date and starts listening for changes.
    pub async fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let config: tokio_postgres::Config = url
            .parse()
            .map_err(|e| StoreError::unusable_by(shown(url), Said(e)))?;
        let (mut client, connection) = config.connect(NoTls).await.map_err(|e| {
            StoreError::unusable_by(format!("cannot connect to {}", shown(url)), Said(e))
        })?;
        let driver = tokio::spawn(connection);
        client
            .query_one("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
            .await
            .map_err(|e| StoreError::unusable_by(shown(url), Said(e)))?;
        let migrated = embedded::migrations::runner().run_async(&mut client).await;
        let _ = client
            .query_one("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])
            .await;
        drop(client);
        let _ = driver.await;
        migrated
            .map_err(|e| StoreError::unusable_by(format!("{}: migrating", shown(url)), Said(e)))?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .wait_timeout(Some(Duration::from_secs(10)))
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .build()
            .map_err(|e| StoreError::unusable_by(shown(url), Said(e)))?;
        let (changes, _) = broadcast::channel(4096);
        let (ready, listening) = tokio::sync::oneshot::channel();
        let listener = tokio::spawn(listen(config, changes.clone(), ready));
        // Opened only once it hears changes (or after a while without: it keeps trying and says
        // `Resync` when it does), so that nothing committed after `open` goes unheard.
        let _ = tokio::time::timeout(Duration::from_secs(10), listening).await;
        Ok(SqlStore {
            db: Postgres {
                pool,
                changes,
                listener,
            },
        })
    }
}

/// Forwards the channel's notifications, reconnecting when the connection drops. After any gap
/// it says `Resync`, since changes may have been missed. `ready` hears of the first `LISTEN`.
async fn listen(
    config: tokio_postgres::Config,
    changes: broadcast::Sender<Change>,
    ready: tokio::sync::oneshot::Sender<()>,
) {
    let mut ready = Some(ready);
    let mut wait = Duration::from_millis(100);
    loop {
        match config.connect(NoTls).await {
            Ok((client, mut connection)) => {
                let (heard, mut hearing) = tokio::sync::mpsc::unbounded_channel();
                let driver = tokio::spawn(async move {
                    let mut messages =
                        futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
                    while let Some(message) = messages.next().await {
                        match message {
                            Ok(AsyncMessage::Notification(n)) => {
                                let _ = heard.send(n.payload().to_string());
                            }
                            Ok(_) => {}
                            Err(e) => {
                                tracing::warn!("listening to PostgreSQL: {e}");
                                break;
                            }
                        }
                    }
                });
                if client
                    .batch_execute(&format!("LISTEN {CHANNEL}"))
                    .await
                    .is_ok()
                {
                    wait = Duration::from_millis(100);
                    let _ = changes.send(Change::Resync);
                    if let Some(ready) = ready.take() {
                        let _ = ready.send(());
                    }
                    while let Some(payload) = hearing.recv().await {
                        let mut parts = payload.split(' ');
                        if let (Some(game), Some(Ok(rev))) =
                            (parts.next(), parts.next().map(str::parse))
                        {
                            let _ = changes.send(Change::Game {
                                game: game.to_string(),
                                rev,
                            });
                        }
                    }
                }
                driver.abort();
            }
            Err(e) => tracing::warn!("cannot listen to PostgreSQL: {e}"),
        }
        let _ = changes.send(Change::Resync);
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(Duration::from_secs(5));
    }
}

#[async_trait]
impl Database for Postgres {
    async fn read<T: Send + 'static>(&self, work: Work<T>) -> Result<T, StoreError> {
        let client = self
            .pool
            .get()
            .await
            .map_err(|e| StoreError::unavailable(Said(e)))?;
        let mut c = PgConn {
            client: &client,
            after: None,
        };
        work(&mut c).await
    }

    async fn write<T: Send + 'static>(
        &self,
        commit: Commit,
        work: Work<T>,
    ) -> Result<T, StoreError> {
        let mut client = self
            .pool
            .get()
            .await
            .map_err(|e| StoreError::unavailable(Said(e)))?;
        match commit {
            Commit::Atomic => {
                let tx = client
                    .transaction()
                    .await
                    .map_err(|e| StoreError::unavailable(Said(e)))?;
                let mut c = PgConn {
                    client: &tx,
                    after: None,
                };
                let result = work(&mut c).await?;
                tx.commit()
                    .await
                    .map_err(|e| StoreError::unavailable(Said(e)))?;
                Ok(result)
            }
            Commit::Single => {
                // NOTIFY holds a database-wide lock from its commit's start to its end: inside
                // the statement's transaction it would make every move wait for the one before
                // to reach the disk. A notification lost now is made up for by the game's next
                // one (it names a later rev, and watchers then read every change since theirs).
                let mut after = Vec::new();
                let result = {
                    let mut c = PgConn {
                        client: &client,
                        after: Some(&mut after),
                    };
                    work(&mut c).await?
                };
                for (game, rev) in after {
                    if let Err(e) = notify(&client, &game, rev).await {
                        tracing::warn!(
                            "game {game}: the change is stored, its notification not: {e}"
                        );
                    }
                }
                Ok(result)
            }
        }
    }

    fn changes(&self) -> Option<broadcast::Receiver<Change>> {
        Some(self.changes.subscribe())
    }

    fn exclusive(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::{shown, Said};

    #[test]
    fn a_url_is_shown_whole_but_for_its_password() {
        for (url, seen) in [
            (
                "postgres://sagani:hunter2@db.example:5433/site",
                "postgres://sagani:***@db.example:5433/site",
            ),
            (
                "postgresql://sagani@h1:5432,h2:5433/site?sslmode=disable&password=hunter2",
                "postgresql://sagani@h1:5432,h2:5433/site?sslmode=disable&password=***",
            ),
            ("postgres://127.0.0.1/site", "postgres://127.0.0.1/site"),
            ("postgres://a:b:c@h:1", "postgres://a:***@h:1"),
        ] {
            assert_eq!(shown(url), seen);
        }
    }

    /// An error whose words repeat its source's, as the pool's do.
    #[derive(Debug)]
    struct Outer(std::io::Error);

    impl std::fmt::Display for Outer {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "creating a connection: {}", self.0)
        }
    }

    impl std::error::Error for Outer {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn an_error_says_each_cause_once() {
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        assert_eq!(
            Said(Outer(refused)).to_string(),
            "creating a connection: connection refused"
        );
    }
}

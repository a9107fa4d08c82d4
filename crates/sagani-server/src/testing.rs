//! Helpers for tests that need a PostgreSQL server: a new, empty database per test, dropped
//! afterwards. The server's URL comes from `SAGANI_TEST_POSTGRES`; without it these tests are
//! skipped (and say so).

use tokio_postgres::NoTls;

pub const ENV: &str = "SAGANI_TEST_POSTGRES";

/// A database made for one test; dropped (with its connections) when this is.
pub struct TestDatabase {
    pub url: String,
    admin: String,
    name: String,
}

/// The PostgreSQL server tests may use, or `None` after saying that `test` is skipped.
pub fn postgres_url(test: &str) -> Option<String> {
    match std::env::var(ENV) {
        Ok(url) if !url.trim().is_empty() => Some(url),
        _ => {
            eprintln!("skipped {test}: set {ENV} to a PostgreSQL URL (.ci/run does) to run it");
            None
        }
    }
}

impl TestDatabase {
    /// A new database on the server `SAGANI_TEST_POSTGRES` names, or `None` (skipped).
    pub async fn create(test: &str) -> Option<TestDatabase> {
        let admin = postgres_url(test)?;
        let name = format!("sagani_test_{}", crate::secret::random_hex(6));
        let (client, conn) = tokio_postgres::connect(&admin, NoTls)
            .await
            .unwrap_or_else(|e| panic!("{ENV}={admin}: {e}"));
        let driver = tokio::spawn(conn);
        client
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .await
            .expect("a test database is created");
        drop(client);
        let _ = driver.await;
        let mut config: tokio_postgres::Config = admin.parse().expect("a PostgreSQL URL");
        config.dbname(&name);
        Some(TestDatabase {
            url: url_of(&config),
            admin,
            name,
        })
    }
}

/// A URL for `config` (user, hosts, ports, database; no password: tests use trust).
fn url_of(config: &tokio_postgres::Config) -> String {
    let host = match config.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(h)) => h.clone(),
        _ => "127.0.0.1".into(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let user = config.get_user().unwrap_or("postgres");
    let password = config
        .get_password()
        .map(|p| format!(":{}", String::from_utf8_lossy(p)))
        .unwrap_or_default();
    format!(
        "postgres://{user}{password}@{host}:{port}/{}",
        config.get_dbname().unwrap_or("postgres")
    )
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let (admin, name) = (self.admin.clone(), self.name.clone());
        // Its own thread and runtime: a test's runtime may be gone by now.
        let _ = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async {
                if let Ok((client, conn)) = tokio_postgres::connect(&admin, NoTls).await {
                    tokio::spawn(conn);
                    let _ = client
                        .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                        .await;
                }
            });
        })
        .join();
    }
}

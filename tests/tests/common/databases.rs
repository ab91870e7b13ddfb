//! One test body, run on both databases the server supports.
// Each test binary uses the macro or not.
#![allow(unused_macros, unused_imports)]

/// Writes a test once for SQLite and PostgreSQL: a module `$name` holding `sqlite` and `postgres` (the
/// latter ignored unless asked for: `--include-ignored`, with PostgreSQL at `DATABASE_URL`, as `.ci/run`
/// does). `$body` is the test, an async fn (or closure) given the started [`TestServer`]; `$tweak`, when
/// given, adjusts the configuration of both servers alike.
///
/// `upgraded_from(VERSION, DATA)` in place of `$tweak` starts both on a database an older server left
/// instead: [`TestServer::sqlite_upgraded_from`], [`TestServer::postgres_upgraded_from`].
///
/// ```ignore
/// sqlite_and_postgres!(a_rematch_keeps_the_seats, rematch_after_a_finished_game);
/// sqlite_and_postgres!(your_record, counted, |c| c.away_grace_secs = 1);
/// sqlite_and_postgres!(old_games_count, old_games_counted, upgraded_from(6, &old_data()));
/// ```
macro_rules! sqlite_and_postgres {
    ($(#[$attr:meta])* $name:ident, $body:expr, upgraded_from($version:expr, $data:expr)) => {
        $(#[$attr])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[tokio::test]
            async fn sqlite() {
                let server =
                    $crate::common::TestServer::sqlite_upgraded_from($version, $data).await;
                ($body)(server).await;
            }

            #[tokio::test]
            #[ignore = "needs PostgreSQL at DATABASE_URL"]
            async fn postgres() {
                let server =
                    $crate::common::TestServer::postgres_upgraded_from($version, $data).await;
                ($body)(server).await;
            }
        }
    };
    ($(#[$attr:meta])* $name:ident, $body:expr) => {
        $crate::common::databases::sqlite_and_postgres!($(#[$attr])* $name, $body, |_| {});
    };
    ($(#[$attr:meta])* $name:ident, $body:expr, $tweak:expr) => {
        $(#[$attr])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[tokio::test]
            async fn sqlite() {
                ($body)($crate::common::TestServer::sqlite_with($tweak).await).await;
            }

            #[tokio::test]
            #[ignore = "needs PostgreSQL at DATABASE_URL"]
            async fn postgres() {
                ($body)($crate::common::TestServer::postgres_with($tweak).await).await;
            }
        }
    };
}

pub(crate) use sqlite_and_postgres;

use super::{PgSchema, TestServer, old_database};

impl TestServer {
    /// A server on a fresh SQLite file that an older server left: the migrations up to `version`, then
    /// `data` written (see [`old_database`]).
    pub async fn sqlite_upgraded_from(version: i64, data: &str) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("old.db").display());
        old_database::<sqlx::Sqlite>(&url, "../migrations/sqlite", version, data).await;
        let mut server = Self::start(url).await;
        server._dir = Some(dir);
        server
    }

    /// [`TestServer::sqlite_upgraded_from`] on a schema of its own of the test PostgreSQL database.
    pub async fn postgres_upgraded_from(version: i64, data: &str) -> Self {
        let schema = PgSchema::new().await;
        old_database::<sqlx::Postgres>(&schema.url, "../migrations/postgres", version, data).await;
        Self::postgres_on(schema).await
    }
}

//! Persistence: one [`Db`] handle over SQLite (default) or PostgreSQL.
//!
//! Why an enum over two concrete pools rather than `sqlx::Any`: `Any` cannot
//! carry backend options we rely on (SQLite WAL + `synchronous=FULL`, busy
//! timeout, foreign keys), has no JSON type, and erases the type checks that
//! `Json<T>` / BIGINT decoding give us per backend. The queries are written
//! once and run on either pool through the `on_pool!` macro, which expands
//! the same block for each variant (each arm is type-checked separately).
//! Placeholders are `$1, $2, …`, which both PostgreSQL and SQLite accept.
//!
//! Every write is awaited (and committed) before the method returns, so a
//! response acknowledging it is only sent once the row is durable.
//!
//! Game-log appends, the hot path (one per roll or move of every room), go
//! through a single writer task per [`Db`] (`log_writer`) that commits all
//! the appends queued while the previous commit was running in ONE
//! transaction (group commit: one fsync for many rooms), then answers each
//! caller after that commit. An idle server adds no delay: a lone append is
//! written as soon as it arrives.

mod accounts;
mod chat;
mod export;
mod game_log;
mod games;
mod idempotency;
mod log_writer;
mod players;
mod reports;
mod rooms;

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

use crate::error::AppError;

pub use accounts::{AccountRow, DeviceRow};
pub use chat::ChatRow;
pub use export::{ExportAccountRow, ExportMessageRow, ExportRatingRow, ExportReportRow};
pub use game_log::{LogAction, LogKind, LogRow, MovePayload, RollPayload};
pub use games::{
    FiguresRow, Finished, GameRow, LeaderRow, NewGame, RatingChangeRow, RatingRow, RecordRow,
    ResultRow, SeatRating,
};
pub use idempotency::{IdempotencyRow, Reservation};
pub use players::{PlayerRow, TokenHolder};
pub use reports::{ReportRow, Reported};
pub use rooms::{NewRoom, Occupant, PlayerRoomRow, RoomRow, SeatRow, StoredColour};

/// Migrations for each backend, embedded in the binary.
static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/postgres");

/// Runs `$body` with `$pool` bound to whichever concrete pool `$db` (a [`Db`]
/// or a [`Pool`]) holds.
macro_rules! on_pool {
    ($db:expr, $pool:ident => $body:expr) => {
        match $crate::db::Pool::of(&$db) {
            $crate::db::Pool::Sqlite($pool) => $body,
            $crate::db::Pool::Postgres($pool) => $body,
        }
    };
}
pub(crate) use on_pool;

/// Failures of the storage layer.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The URL names neither `sqlite:` nor `postgres://`.
    #[error("unsupported DATABASE_URL (expected sqlite:… or postgres://…): {0}")]
    UnsupportedUrl(String),
    /// A query or connection failed.
    #[error(transparent)]
    Sqlx(#[from] sqlx::Error),
    /// Applying migrations failed.
    #[error(transparent)]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A `sqlite:` URL without a file (`sqlite://`): every connection would get a database of its own.
    #[error(
        "DATABASE_URL `{0}` names no database file (sqlite://FILE, or sqlite::memory: for a database in memory)"
    )]
    NoSqliteFile(String),
    /// The SQLite file cannot be opened (no such folder, no permission, not a database).
    #[error("cannot open the SQLite database {file}: {source}{hint}")]
    SqliteOpen {
        file: String,
        source: sqlx::Error,
        /// What to check, when the cause is the file's place or permissions.
        hint: &'static str,
    },
    /// The SQLite file opened read-only: every write would fail.
    #[error("the SQLite database {file} cannot be written: {source}{hint}")]
    SqliteReadOnly {
        file: String,
        source: sqlx::Error,
        hint: &'static str,
    },
    /// No connection to PostgreSQL could be made (the address, never the password, is named).
    #[error("cannot connect to PostgreSQL at {address} (database {database}): {source}")]
    PostgresConnect {
        address: String,
        database: String,
        source: sqlx::Error,
    },
    /// A unique constraint was violated (e.g. a join code already taken).
    #[error("unique constraint violated")]
    UniqueViolation,
}

/// A storage failure that is the database out of reach for a while (down, restarting, its pool
/// exhausted, its file locked by another process), not a fault of the server: worth trying again in a
/// moment. See [`DbError::outage`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outage {
    /// The database was not reached, or refused the work before doing it: nothing was written.
    NothingStored,
    /// The connection broke while the database was being spoken to: a write may have been committed
    /// all the same (its answer lost), or not.
    MaybeStored,
}

impl DbError {
    /// Whether this failure is an outage of storage (and whether a write may have landed all the same),
    /// or `None` for any other failure: a constraint violated, a value that does not decode, a query the
    /// database refuses, which are the server's faults and no retry mends.
    pub fn outage(&self) -> Option<Outage> {
        match self {
            DbError::Sqlx(err)
            | DbError::SqliteOpen { source: err, .. }
            | DbError::PostgresConnect { source: err, .. } => sqlx_outage(err),
            DbError::UnsupportedUrl(_)
            | DbError::Migrate(_)
            | DbError::NoSqliteFile(_)
            | DbError::SqliteReadOnly { .. }
            | DbError::UniqueViolation => None,
        }
    }
}

/// An outage of storage is `storage_unavailable` (503, worth a retry); any other storage failure (a
/// constraint violated, a value that does not decode) is a fault of the server, `internal_error`. Written
/// here, with storage's errors, so that the API's errors do not depend on storage.
impl From<DbError> for AppError {
    fn from(err: DbError) -> Self {
        match err.outage() {
            Some(outage) => AppError::StorageUnavailable {
                maybe_stored: outage == Outage::MaybeStored,
                detail: err.to_string(),
            },
            None => AppError::Internal(err.to_string()),
        }
    }
}

/// [`DbError::outage`] of one sqlx error.
fn sqlx_outage(err: &sqlx::Error) -> Option<Outage> {
    match err {
        // No connection could be had: the statement was never sent.
        sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed => Some(Outage::NothingStored),
        // Refused connections only happen while connecting.
        sqlx::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused => {
            Some(Outage::NothingStored)
        }
        // Anything else (reset, closed, broken pipe, timed out) may have cut a commit whose answer was lost.
        sqlx::Error::Io(_) => Some(Outage::MaybeStored),
        sqlx::Error::Database(db) => {
            let code = db.code()?;
            if db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
                sqlite_outage(code.parse().ok()?)
            } else if db
                .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
                .is_some()
            {
                postgres_outage(&code)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// [`DbError::outage`] of a SQLite (extended) result code.
fn sqlite_outage(code: i32) -> Option<Outage> {
    // The primary result code is the low byte.
    match code & 0xff {
        // SQLITE_BUSY, SQLITE_LOCKED ("database is locked": another process holds it past the busy
        // timeout), SQLITE_FULL (the disk), SQLITE_CANTOPEN, SQLITE_PROTOCOL (a locking race): the
        // statement failed and was rolled back.
        5 | 6 | 13 | 14 | 15 => Some(Outage::NothingStored),
        // SQLITE_IOERR: the disk failed under a write, perhaps while committing it.
        10 => Some(Outage::MaybeStored),
        _ => None,
    }
}

/// [`DbError::outage`] of a PostgreSQL SQLSTATE.
fn postgres_outage(code: &str) -> Option<Outage> {
    match code {
        // Refused while connecting: sqlclient_unable_to_establish_sqlconnection,
        // sqlserver_rejected_establishment_of_sqlconnection, cannot_connect_now, too_many_connections.
        "08001" | "08004" | "57P03" | "53300" => Some(Outage::NothingStored),
        // The rest of class 08 (connection exception; 08007 is "transaction resolution unknown"), and
        // admin_shutdown, crash_shutdown: the connection was lost, perhaps with a commit in flight.
        "57P01" | "57P02" => Some(Outage::MaybeStored),
        _ if code.starts_with("08") => Some(Outage::MaybeStored),
        _ => None,
    }
}

/// Maps unique violations to [`DbError::UniqueViolation`], anything else to `Sqlx`.
pub(crate) fn classify(err: sqlx::Error) -> DbError {
    match &err {
        sqlx::Error::Database(db) if db.is_unique_violation() => DbError::UniqueViolation,
        _ => DbError::Sqlx(err),
    }
}

/// What a host should check when SQLite cannot open or write its file (`""` for other causes, such
/// as a file that is not a database).
fn sqlite_hint(err: &sqlx::Error) -> &'static str {
    let code = match err {
        sqlx::Error::Database(db) => db.code().and_then(|c| c.parse::<i32>().ok()),
        _ => None,
    };
    // The primary result code is the low byte: 14 SQLITE_CANTOPEN, 8 SQLITE_READONLY (and its
    // extended codes, such as a read-only folder where the -wal and -shm files go).
    match code.map(|c| c & 0xff) {
        Some(14 | 8) => {
            " (the folder must exist, and the server's user must be able to write the file and \
             the folder, where SQLite keeps its -wal and -shm files)"
        }
        _ => "",
    }
}

/// The connection pool of the configured backend.
#[derive(Debug, Clone)]
pub enum Pool {
    /// A SQLite file (WAL journal, synchronous=FULL).
    Sqlite(SqlitePool),
    /// A PostgreSQL server.
    Postgres(PgPool),
}

impl Pool {
    /// The pool itself (for [`on_pool!`], which accepts a `Db` or a `Pool`).
    pub(crate) fn of<T: AsRef<Pool> + ?Sized>(db: &T) -> &Pool {
        db.as_ref()
    }
}

impl AsRef<Pool> for Pool {
    fn as_ref(&self) -> &Pool {
        self
    }
}

impl AsRef<Pool> for Db {
    fn as_ref(&self) -> &Pool {
        &self.pool
    }
}

/// A cheap-to-clone handle on the connection pool of the configured backend,
/// plus the channel to its game-log writer task.
#[derive(Debug, Clone)]
pub struct Db {
    pool: Pool,
    log: log_writer::LogWriter,
    settings: PoolSettings,
}

/// The size of a PostgreSQL pool and how long a query waits for one of its connections
/// (`DB_POOL_SIZE`, `DB_ACQUIRE_TIMEOUT_MS`; SQLite keeps its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolSettings {
    /// Connections at most.
    pub max_connections: u32,
    /// How long a query waits for a free connection before `storage_unavailable`.
    pub acquire_timeout: Duration,
}

impl Default for PoolSettings {
    fn default() -> Self {
        PoolSettings {
            max_connections: 10,
            // Under the cluster's 3 s request timeout: a node answers "unavailable" before the asking
            // node gives up on it and asks again.
            acquire_timeout: Duration::from_secs(2),
        }
    }
}

impl PoolSettings {
    /// How many rooms may load (claim, read, replay their log) at once: half the pool, so that a burst
    /// of starts (a dead node's rooms taken over) leaves connections to the rooms already running.
    pub fn room_starts(&self) -> usize {
        (self.max_connections as usize / 2).max(1)
    }
}

/// Current time as Unix milliseconds, the format of every timestamp column.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

impl Db {
    /// Opens a pool for `url` (a SQLite file is created if missing) and starts
    /// its game-log writer task (it ends when the last clone of the `Db` is dropped).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn connect(url: &str) -> Result<Self, DbError> {
        Self::connect_with(url, PoolSettings::default()).await
    }

    /// [`Db::connect`] with a PostgreSQL pool of `settings`.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn connect_with(url: &str, settings: PoolSettings) -> Result<Self, DbError> {
        let pool = Self::open(url, settings).await?;
        let log = log_writer::LogWriter::spawn(pool.clone());
        Ok(Db {
            pool,
            log,
            settings,
        })
    }

    /// The pool's settings.
    pub fn pool_settings(&self) -> PoolSettings {
        self.settings
    }

    /// Opens the pool for `url`.
    #[tracing::instrument(level = "debug", skip_all)]
    async fn open(url: &str, settings: PoolSettings) -> Result<Pool, DbError> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let options = PgConnectOptions::from_str(url)?;
            let unreachable = |source| DbError::PostgresConnect {
                address: format!("{}:{}", options.get_host(), options.get_port()),
                database: options.get_database().unwrap_or("(default)").to_owned(),
                source,
            };
            // One connection first, for its error: the pool would only say that it timed out.
            let first = tokio::time::timeout(
                Duration::from_secs(5),
                <sqlx::PgConnection as sqlx::Connection>::connect_with(&options),
            )
            .await
            .map_err(|_| {
                unreachable(sqlx::Error::Io(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "no answer within 5 s",
                )))
            })?
            .map_err(unreachable)?;
            sqlx::Connection::close(first).await.ok();
            let pool = PgPoolOptions::new()
                .max_connections(settings.max_connections)
                .acquire_timeout(settings.acquire_timeout)
                .connect_with(options.clone())
                .await
                .map_err(unreachable)?;
            Ok(Pool::Postgres(pool))
        } else if url.starts_with("sqlite:") {
            // synchronous=FULL fsyncs the WAL on every commit: acknowledged writes
            // survive kill -9 *and* power loss (NORMAL would survive kill -9 only).
            let options = SqliteConnectOptions::from_str(url)?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Full)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(5));
            let file = options.get_filename().display().to_string();
            if file.is_empty() {
                return Err(DbError::NoSqliteFile(url.to_owned()));
            }
            let pool = SqlitePoolOptions::new()
                .max_connections(4)
                .acquire_timeout(Duration::from_secs(5))
                .connect_with(options)
                .await
                .map_err(|source| DbError::SqliteOpen {
                    file: file.clone(),
                    hint: sqlite_hint(&source),
                    source,
                })?;
            // A file this user may read but not write (another owner, mode 0444) opens read-only,
            // and the server would fail every write: find out now, writing nothing.
            let probe = async {
                let mut tx = pool.begin().await?;
                sqlx::query("CREATE TABLE parchis_write_check (x INTEGER)")
                    .execute(&mut *tx)
                    .await?;
                tx.rollback().await
            };
            if let Err(source) = probe.await {
                pool.close().await;
                return Err(DbError::SqliteReadOnly {
                    file,
                    hint: sqlite_hint(&source),
                    source,
                });
            }
            Ok(Pool::Sqlite(pool))
        } else {
            Err(DbError::UnsupportedUrl(url.to_owned()))
        }
    }

    /// Applies the embedded migrations of this backend.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn migrate(&self) -> Result<(), DbError> {
        match &self.pool {
            Pool::Sqlite(pool) => SQLITE_MIGRATIONS.run(pool).await?,
            Pool::Postgres(pool) => POSTGRES_MIGRATIONS.run(pool).await?,
        }
        Ok(())
    }

    /// `SELECT 1`, for readiness checks.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn ping(&self) -> Result<(), DbError> {
        on_pool!(self, pool => {
            sqlx::query("SELECT 1").execute(pool).await?;
        });
        Ok(())
    }

    /// Waits for connections to be returned and closes the pool.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn close(&self) {
        on_pool!(self, pool => pool.close().await)
    }

    /// `"sqlite"` or `"postgres"`, for logs.
    pub fn backend(&self) -> &'static str {
        match &self.pool {
            Pool::Sqlite(_) => "sqlite",
            Pool::Postgres(_) => "postgres",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn postgres_connection_errors_are_outages_and_the_others_are_not() {
        for code in ["08001", "08004", "57P03", "53300"] {
            assert_eq!(postgres_outage(code), Some(Outage::NothingStored), "{code}");
        }
        for code in [
            "08000", "08003", "08006", "08007", "08P01", "57P01", "57P02",
        ] {
            assert_eq!(postgres_outage(code), Some(Outage::MaybeStored), "{code}");
        }
        // Constraints (unique, foreign key, check, not null), syntax, an undefined table, a division by
        // zero, a query cancelled: the server's own faults.
        for code in [
            "23505", "23503", "23514", "23502", "42601", "42P01", "22012", "57014",
        ] {
            assert_eq!(postgres_outage(code), None, "{code}");
        }
    }

    #[test]
    fn sqlite_busy_locked_and_io_errors_are_outages_and_constraints_are_not() {
        // SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, SQLITE_LOCKED, SQLITE_FULL, SQLITE_CANTOPEN.
        for code in [5, 517, 6, 13, 14] {
            assert_eq!(sqlite_outage(code), Some(Outage::NothingStored), "{code}");
        }
        // SQLITE_IOERR, SQLITE_IOERR_FSYNC.
        for code in [10, 1034] {
            assert_eq!(sqlite_outage(code), Some(Outage::MaybeStored), "{code}");
        }
        // SQLITE_CONSTRAINT_UNIQUE, _CHECK, _TRIGGER, SQLITE_ERROR, SQLITE_MISMATCH.
        for code in [2067, 275, 1811, 1, 20] {
            assert_eq!(sqlite_outage(code), None, "{code}");
        }
    }
}

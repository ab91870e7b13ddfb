//! `parchis-server backup FILE`: a consistent copy of the SQLite database, taken while the server may be
//! running (`VACUUM INTO` reads one snapshot of the database and writes it compacted to a new file), then
//! opened and checked. A PostgreSQL database is backed up with its own tools (`pg_dump`).

use std::path::{Path, PathBuf};
use std::str::FromStr;

use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};

/// What a finished backup holds, to print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupReport {
    /// The copy.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// Players, rooms and games in it (what a host checks at a glance).
    pub players: i64,
    pub rooms: i64,
    pub games: i64,
}

/// Why a backup was not made; nothing is left behind at the target then.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error(
        "backups of PostgreSQL databases are made with PostgreSQL's own tools (pg_dump); this command copies a SQLite database"
    )]
    Postgres,
    #[error("`{0}` is not a SQLite database URL (sqlite://FILE)")]
    NotSqlite(String),
    #[error("{0} already exists: choose a new file, so that no backup is overwritten")]
    TargetExists(PathBuf),
    #[error("{0} cannot be written to: its folder does not exist")]
    NoFolder(PathBuf),
    #[error("there is no database at {0}")]
    NoDatabase(PathBuf),
    #[error("cannot read the database: {0}")]
    Source(sqlx::Error),
    #[error("cannot write the copy: {0}")]
    Copy(sqlx::Error),
    #[error("the copy failed its integrity check: {0}")]
    Damaged(String),
}

/// Copies the SQLite database at `database_url` to `to` (which must not exist) and checks the copy.
pub async fn backup(database_url: &str, to: &Path) -> Result<BackupReport, BackupError> {
    if database_url.starts_with("postgres://") || database_url.starts_with("postgresql://") {
        return Err(BackupError::Postgres);
    }
    if !database_url.starts_with("sqlite:") {
        return Err(BackupError::NotSqlite(database_url.to_owned()));
    }
    if to.exists() {
        return Err(BackupError::TargetExists(to.to_owned()));
    }
    if let Some(folder) = to.parent().filter(|f| !f.as_os_str().is_empty())
        && !folder.is_dir()
    {
        return Err(BackupError::NoFolder(to.to_owned()));
    }
    // The database must exist already: a backup never creates an empty one (`mode=rwc` in the URL
    // is overridden). Reading a WAL database from another process is safe while the server writes.
    let source = SqliteConnectOptions::from_str(database_url)
        .map_err(BackupError::Source)?
        .create_if_missing(false)
        .busy_timeout(std::time::Duration::from_secs(5));
    if !source.get_filename().is_file() {
        return Err(BackupError::NoDatabase(source.get_filename().to_owned()));
    }
    let mut conn = source.connect().await.map_err(BackupError::Source)?;
    let target = to.to_string_lossy().into_owned();
    let copied = sqlx::query("VACUUM INTO ?")
        .bind(&target)
        .execute(&mut conn)
        .await;
    conn.close().await.ok();
    copied.map_err(BackupError::Copy)?;
    match check(to).await {
        Ok(report) => Ok(report),
        Err(err) => {
            // A copy that fails its check is not a backup: leave nothing that looks like one.
            let _ = std::fs::remove_file(to);
            Err(err)
        }
    }
}

/// Opens the copy read-only, checks its integrity and counts what it holds.
async fn check(path: &Path) -> Result<BackupReport, BackupError> {
    let mut conn = SqliteConnectOptions::new()
        .filename(path)
        .read_only(true)
        .connect()
        .await
        .map_err(BackupError::Copy)?;
    let verdict: String = sqlx::query_scalar("PRAGMA integrity_check")
        .fetch_one(&mut conn)
        .await
        .map_err(BackupError::Copy)?;
    if verdict != "ok" {
        return Err(BackupError::Damaged(verdict));
    }
    let count = |table: &'static str| {
        sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}")))
    };
    let players = count("players")
        .fetch_one(&mut conn)
        .await
        .map_err(BackupError::Copy)?;
    let rooms = count("rooms")
        .fetch_one(&mut conn)
        .await
        .map_err(BackupError::Copy)?;
    let games = count("games")
        .fetch_one(&mut conn)
        .await
        .map_err(BackupError::Copy)?;
    conn.close().await.ok();
    let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    Ok(BackupReport {
        path: path.to_owned(),
        bytes,
        players,
        rooms,
        games,
    })
}

//! Group commit of game-log appends: one writer task per [`Db`](super::Db).
//!
//! Rooms send their append (with a oneshot for the answer) through a bounded
//! channel and await the answer before broadcasting or acknowledging, so the
//! "stored before broadcast or ack" guarantee of PROTOCOL.md is unchanged. The
//! task takes everything queued (up to [`MAX_BATCH`]) and writes it with one
//! multi-row `INSERT` (one statement, one round trip, one transaction): with
//! SQLite `synchronous=FULL` that is one fsync for the whole batch instead of
//! one per action. While a commit runs, new appends queue up
//! and form the next batch; a lone append on an idle server is written at once.
//! A room awaits its append before sending the next one, so per-game order is
//! kept. If a batch fails (e.g. one duplicate `seq`), its appends are retried
//! one by one so each caller gets its own answer.

use serde_json::value::RawValue;
use sqlx::types::Json;
use tokio::sync::{mpsc, oneshot};

use super::{DbError, Pool, on_pool};

/// Appends queued before senders wait (back-pressure on rooms).
const QUEUE: usize = 4096;
/// Most appends written in one statement (5 parameters each: 5,120 parameters,
/// within SQLite's 32,766 and PostgreSQL's 65,535).
const MAX_BATCH: usize = 1024;

/// One log row to append and where to send the outcome.
#[derive(Debug)]
pub(super) struct Append {
    pub game_id: String,
    pub seq: i64,
    pub kind: super::game_log::LogKind,
    /// The payload's JSON text, serialised once by the room.
    pub payload: Box<RawValue>,
    pub at: i64,
    pub done: oneshot::Sender<Result<(), DbError>>,
}

/// The sending side of the writer task's queue.
#[derive(Debug, Clone)]
pub(super) struct LogWriter {
    tx: mpsc::Sender<Append>,
}

impl LogWriter {
    /// Starts the writer task over `pool`; it ends once every `LogWriter` clone is dropped.
    pub fn spawn(pool: Pool) -> Self {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(run(pool, rx));
        LogWriter { tx }
    }

    /// Queues `append` and waits for its commit.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn append(
        &self,
        append: Append,
        done: oneshot::Receiver<Result<(), DbError>>,
    ) -> Result<(), DbError> {
        if self.tx.send(append).await.is_err() {
            return Err(DbError::Sqlx(sqlx::Error::PoolClosed));
        }
        done.await
            .unwrap_or(Err(DbError::Sqlx(sqlx::Error::PoolClosed)))
    }
}

/// The writer task: batch, commit, answer.
async fn run(pool: Pool, mut rx: mpsc::Receiver<Append>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        metrics::histogram!("parchis_log_batch_size").record(batch.len() as f64);
        match write_batch(&pool, &batch).await {
            Ok(()) => {
                for append in batch.drain(..) {
                    let _ = append.done.send(Ok(()));
                }
            }
            Err(err) if batch.len() == 1 => {
                if let Some(append) = batch.pop() {
                    let _ = append.done.send(Err(err));
                }
            }
            Err(err) => {
                tracing::debug!(%err, n = batch.len(), "log batch failed; retrying one by one");
                for append in batch.drain(..) {
                    let result = write_batch(&pool, std::slice::from_ref(&append)).await;
                    let _ = append.done.send(result);
                }
            }
        }
    }
}

/// Inserts `batch` with one multi-row `INSERT` (one statement, so one round trip to
/// the database whatever the batch size; a single statement is its own transaction).
async fn write_batch(pool: &Pool, batch: &[Append]) -> Result<(), DbError> {
    on_pool!(pool, pool => {
        let mut insert =
            sqlx::QueryBuilder::new("INSERT INTO game_log (game_id, seq, kind, payload, at) ");
        insert.push_values(batch, |mut row, a| {
            row.push_bind(&a.game_id)
                .push_bind(a.seq)
                .push_bind(a.kind)
                .push_bind(Json(&a.payload))
                .push_bind(a.at);
        });
        // Batch sizes vary: keep only the small ones in the prepared-statement
        // cache rather than filling it with one statement per size.
        insert
            .build()
            .persistent(batch.len() <= 16)
            .execute(pool)
            .await?;
    });
    Ok(())
}

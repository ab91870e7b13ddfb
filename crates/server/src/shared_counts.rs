//! Counts of rare events that every node of a cluster must see (issue 32): room lookups that found
//! nothing (how join codes would be guessed, [`crate::rate_limit::LookupLimit`]) and wrong passwords
//! ([`crate::sign_in_guard`]). Counted in one node's memory, an address behind a load balancer over N
//! nodes would get N times the budget; counted here, in PostgreSQL (which cluster mode requires), it gets
//! one. A single node (SQLite or PostgreSQL without `NATS_URL`) keeps counting in memory.
//!
//! One row per event (`limit_events`, migration 0019), so that a window slides exactly as the in-memory
//! counts do and the wait to announce is when the oldest event leaves it. The events are rare (misses,
//! failures: a lookup that finds its room or a right password costs nothing), so a few round trips each
//! are cheap. Checking and counting happen under a transaction-level advisory lock on the key, so that
//! a burst of concurrent attempts on several nodes cannot all pass the check before any is counted (a
//! transaction lock, unlike a session lock, cannot outlive its transaction on a pooled connection).
//! Rows older than the longest window are deleted by the upkeep ([`SharedCounts::forget_old`]). This
//! module knows nothing of the limits themselves (they pass their windows and maxima), so that they
//! can use it without a cycle of modules.

use std::time::Duration;

use sqlx::PgPool;

/// What is counted: each kind has its own keys.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// Room lookups that found nothing, by client address.
    LookupMiss,
    /// Attempts at a password, by username (and address, or device).
    Password,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::LookupMiss => "lookup_miss",
            Kind::Password => "password",
        }
    }
}

/// Event counts in PostgreSQL, shared by every node of a cluster (a handle: cheap to clone).
#[derive(Debug, Clone)]
pub struct SharedCounts {
    pg: PgPool,
}

/// The database's clock in Unix milliseconds: every node counts with the same clock, whatever their
/// machines' clocks say.
macro_rules! now_ms {
    () => {
        "(extract(epoch FROM clock_timestamp()) * 1000)::BIGINT"
    };
}

impl SharedCounts {
    pub fn new(pg: PgPool) -> Self {
        Self { pg }
    }

    /// Counts an event of `key` unless `max` of them already happened within `window`: `Ok(Ok(n))`,
    /// counted, with `n` the events before it in the window; `Ok(Err(wait))`, refused and not counted,
    /// until the oldest leaves the window.
    pub async fn attempt(
        &self,
        kind: Kind,
        key: &str,
        max: usize,
        window: Duration,
    ) -> Result<Result<usize, Duration>, sqlx::Error> {
        let window_ms = i64::try_from(window.as_millis()).unwrap_or(i64::MAX);
        let mut tx = self.pg.begin().await?;
        // Attempts at one key, on any node, check and count one at a time (a collision of the 64-bit
        // hashes only makes two keys wait for each other).
        sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1 || '/' || $2, 0))")
            .bind(kind.name())
            .bind(key)
            .execute(&mut *tx)
            .await?;
        let (count, wait_ms): (i64, Option<i64>) = sqlx::query_as(concat!(
            "SELECT count(*), min(at_ms) + $3 - ",
            now_ms!(),
            " FROM limit_events WHERE kind = $1 AND key = $2 AND at_ms > ",
            now_ms!(),
            " - $3"
        ))
        .bind(kind.name())
        .bind(key)
        .bind(window_ms)
        .fetch_one(&mut *tx)
        .await?;
        let count = usize::try_from(count).unwrap_or(usize::MAX);
        if count >= max {
            tx.commit().await?;
            let wait = u64::try_from(wait_ms.unwrap_or(0)).unwrap_or(0);
            return Ok(Err(Duration::from_millis(wait)));
        }
        sqlx::query(concat!(
            "INSERT INTO limit_events (kind, key, at_ms) VALUES ($1, $2, ",
            now_ms!(),
            ")"
        ))
        .bind(kind.name())
        .bind(key)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Ok(count))
    }

    /// Forgets every event of `key` (the right password: its count starts again).
    pub async fn forget(&self, kind: Kind, key: &str) -> Result<(), sqlx::Error> {
        sqlx::query("DELETE FROM limit_events WHERE kind = $1 AND key = $2")
            .bind(kind.name())
            .bind(key)
            .execute(&self.pg)
            .await?;
        Ok(())
    }

    /// Forgets every event of `key` and of the keys that start with `prefix`.
    pub async fn forget_with_prefix(
        &self,
        kind: Kind,
        key: &str,
        prefix: &str,
    ) -> Result<(), sqlx::Error> {
        // `left(…) =`, not LIKE: a username may hold `_`, a LIKE wildcard.
        sqlx::query(
            "DELETE FROM limit_events WHERE kind = $1 \
             AND (key = $2 OR left(key, char_length($3)) = $3)",
        )
        .bind(kind.name())
        .bind(key)
        .bind(prefix)
        .execute(&self.pg)
        .await?;
        Ok(())
    }

    /// Deletes the events older than `longest_window`, the longest window they are counted in (by any
    /// node: deleting twice does no harm).
    pub async fn forget_old(&self, longest_window: Duration) -> Result<(), sqlx::Error> {
        let window_ms = i64::try_from(longest_window.as_millis()).unwrap_or(i64::MAX);
        sqlx::query(concat!(
            "DELETE FROM limit_events WHERE at_ms <= ",
            now_ms!(),
            " - $1"
        ))
        .bind(window_ms)
        .execute(&self.pg)
        .await?;
        Ok(())
    }
}

/// Logs a failure of the shared counts: the caller then counts in this node's memory (module docs of
/// [`crate::sign_in_guard`] and [`crate::rate_limit`] say why neither open nor closed).
pub fn counted_locally(err: &sqlx::Error) {
    metrics::counter!("parchis_shared_limit_errors_total").increment(1);
    tracing::warn!(%err, "shared limits unreachable: counting on this node alone for now");
}

/// Shared counts whose database cannot be reached: a pool on a local port nobody listens on, giving up
/// on each connection after 50 ms (the tests of the fallback in `rate_limit` and `sign_in_guard`).
#[cfg(test)]
pub(crate) fn unreachable() -> SharedCounts {
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free local port")
        .port();
    let pg = sqlx::postgres::PgPoolOptions::new()
        .acquire_timeout(Duration::from_millis(50))
        .connect_lazy(&format!("postgres://nobody@127.0.0.1:{closed}/nothing"))
        .expect("a well-formed URL");
    SharedCounts::new(pg)
}

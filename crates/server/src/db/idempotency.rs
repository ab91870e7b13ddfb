//! Queries on `idempotency_keys`: the first answer to each request sent with an `Idempotency-Key`
//! (see [`crate::idempotency`]).

use super::{Db, DbError, on_pool};

/// A key's record as found.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct IdempotencyRow {
    /// SHA-256 hex of the method, path and body of the request that first used the key.
    pub fingerprint: String,
    /// Its answer's status, `None` while it is being answered.
    pub status: Option<i32>,
    /// Its answer's body, sealed.
    pub response: Option<Vec<u8>>,
    /// When it arrived, Unix ms.
    pub created_at: i64,
}

/// What reserving a key found.
#[derive(Debug)]
pub enum Reservation {
    /// The key is this request's now: answer it, then [`Db::complete_idempotency_key`] or
    /// [`Db::release_idempotency_key`].
    Reserved,
    /// An earlier request holds the key.
    Taken(IdempotencyRow),
}

impl Db {
    /// Reserves key `id` for a request with `fingerprint` at `now`, unless an earlier request holds it
    /// (a record from before `forgotten_before` is forgotten first: the key may be used again).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn reserve_idempotency_key(
        &self,
        id: &str,
        fingerprint: &str,
        now: i64,
        forgotten_before: i64,
    ) -> Result<Reservation, DbError> {
        // Twice at most: the record found may be forgotten (or released) between the two statements.
        for _ in 0..2 {
            let inserted = on_pool!(self, pool => {
                sqlx::query(
                    "INSERT INTO idempotency_keys (id, fingerprint, created_at) VALUES ($1, $2, $3) \
                     ON CONFLICT (id) DO NOTHING",
                )
                .bind(id)
                .bind(fingerprint)
                .bind(now)
                .execute(pool)
                .await?
                .rows_affected()
            });
            if inserted == 1 {
                return Ok(Reservation::Reserved);
            }
            let found: Option<IdempotencyRow> = on_pool!(self, pool => {
                sqlx::query_as(
                    "SELECT fingerprint, status, response, created_at FROM idempotency_keys WHERE id = $1",
                )
                .bind(id)
                .fetch_optional(pool)
                .await?
            });
            match found {
                Some(row) if row.created_at >= forgotten_before => {
                    return Ok(Reservation::Taken(row));
                }
                Some(_expired) => {
                    on_pool!(self, pool => {
                        sqlx::query("DELETE FROM idempotency_keys WHERE id = $1 AND created_at < $2")
                            .bind(id)
                            .bind(forgotten_before)
                            .execute(pool)
                            .await?;
                    });
                }
                None => {}
            }
        }
        Err(DbError::UniqueViolation)
    }

    /// Takes over key `id` from a request still unanswered since before `abandoned_before` (its server
    /// stopped while answering it): `true` if it is this request's now.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn take_over_idempotency_key(
        &self,
        id: &str,
        now: i64,
        abandoned_before: i64,
    ) -> Result<bool, DbError> {
        let taken = on_pool!(self, pool => {
            sqlx::query(
                "UPDATE idempotency_keys SET created_at = $2 \
                 WHERE id = $1 AND status IS NULL AND created_at < $3",
            )
            .bind(id)
            .bind(now)
            .bind(abandoned_before)
            .execute(pool)
            .await?
            .rows_affected()
        });
        Ok(taken == 1)
    }

    /// Records the answer to the request that reserved key `id`.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn complete_idempotency_key(
        &self,
        id: &str,
        status: u16,
        response: &[u8],
    ) -> Result<(), DbError> {
        on_pool!(self, pool => {
            sqlx::query("UPDATE idempotency_keys SET status = $2, response = $3 WHERE id = $1")
                .bind(id)
                .bind(i32::from(status))
                .bind(response)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Frees key `id`, reserved by a request that was refused (and so changed nothing): a retry with it
    /// is answered afresh.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn release_idempotency_key(&self, id: &str) -> Result<(), DbError> {
        on_pool!(self, pool => {
            sqlx::query("DELETE FROM idempotency_keys WHERE id = $1 AND status IS NULL")
                .bind(id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Forgets the keys first used before `before` (Unix ms); how many.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn forget_idempotency_keys(&self, before: i64) -> Result<u64, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query("DELETE FROM idempotency_keys WHERE created_at < $1")
                .bind(before)
                .execute(pool)
                .await?
                .rows_affected()
        }))
    }
}

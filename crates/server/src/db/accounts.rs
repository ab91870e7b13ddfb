//! Queries on `accounts` (usernames and password hashes) and `sessions` (the tokens of signed-in
//! devices).

use super::{Db, DbError, classify, on_pool};
use crate::auth::REVOKED_PREFIX;

/// In the transaction `$tx`, ends every token of `$player_id` but `$keep` (a token hash): deletes the
/// other sessions and replaces the first token, unless kept or already revoked, by `$unusable`.
/// Evaluates to how many tokens it ended. Shared by a new password and signing the other devices out,
/// on either backend.
macro_rules! sign_out_others {
    ($tx:ident, $player_id:expr, $keep:expr, $unusable:expr) => {{
        let sessions =
            sqlx::query("DELETE FROM sessions WHERE player_id = $1 AND token_hash <> $2")
                .bind($player_id)
                .bind($keep)
                .execute(&mut *$tx)
                .await?
                .rows_affected();
        let first = sqlx::query(
            "UPDATE players SET token_hash = $1 \
             WHERE id = $2 AND token_hash <> $3 AND token_hash NOT LIKE $4",
        )
        .bind($unusable)
        .bind($player_id)
        .bind($keep)
        .bind(format!("{REVOKED_PREFIX}%"))
        .execute(&mut *$tx)
        .await
        .map_err(classify)?
        .rows_affected();
        sessions + first
    }};
}

/// An account as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AccountRow {
    /// The player the account signs in as.
    pub player_id: String,
    /// The username as its owner typed it.
    pub username: String,
    /// Argon2id PHC string of the password.
    pub password_hash: String,
}

/// A token of a player that still works: a signed-in device's, or the first one (`POST /api/players`).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DeviceRow {
    /// SHA-256 hex of the token.
    pub token_hash: String,
    /// The `User-Agent` it was handed out to, if known.
    pub user_agent: Option<String>,
    /// When it was handed out, Unix ms.
    pub signed_in_at: i64,
    /// When it last authenticated a request as recorded (at most once an hour), Unix ms.
    pub last_used_at: i64,
}

impl Db {
    /// Stores an account for `player_id`; [`DbError::UniqueViolation`] when the username (folded to
    /// lower case in `username_key`) or the player already has one.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn create_account(
        &self,
        account: &AccountRow,
        username_key: &str,
        created_at: i64,
    ) -> Result<(), DbError> {
        on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO accounts (player_id, username, username_key, password_hash, created_at) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&account.player_id)
            .bind(&account.username)
            .bind(username_key)
            .bind(&account.password_hash)
            .bind(created_at)
            .execute(pool)
            .await
            .map_err(classify)?;
        });
        Ok(())
    }

    /// The account of a player, if they made one.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn account_of_player(&self, player_id: &str) -> Result<Option<AccountRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, AccountRow>(
                "SELECT player_id, username, password_hash FROM accounts WHERE player_id = $1",
            )
            .bind(player_id)
            .fetch_optional(pool)
            .await?
        }))
    }

    /// The account whose username folds to `username_key`, if any.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn account_by_username(
        &self,
        username_key: &str,
    ) -> Result<Option<AccountRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, AccountRow>(
                "SELECT player_id, username, password_hash FROM accounts WHERE username_key = $1",
            )
            .bind(username_key)
            .fetch_optional(pool)
            .await?
        }))
    }

    /// Stores the hash of a token handed out by signing in, with the `User-Agent` it was handed out to
    /// (last used as it is created).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn create_session(
        &self,
        token_hash: &str,
        player_id: &str,
        created_at: i64,
        user_agent: Option<&str>,
    ) -> Result<(), DbError> {
        on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO sessions (token_hash, player_id, created_at, user_agent, last_used_at) \
                 VALUES ($1, $2, $3, $4, $3)",
            )
            .bind(token_hash)
            .bind(player_id)
            .bind(created_at)
            .bind(user_agent)
            .execute(pool)
            .await
            .map_err(classify)?;
        });
        Ok(())
    }

    /// The tokens of `player_id` that still work, in no particular order: the first one unless revoked,
    /// and every signed-in device's; only those last used at or after `used_since` (Unix ms: an
    /// account's device unused for longer than the host allows is signed out, `i64::MIN` for none).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn devices(
        &self,
        player_id: &str,
        used_since: i64,
    ) -> Result<Vec<DeviceRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, DeviceRow>(
                "SELECT token_hash, token_user_agent AS user_agent, created_at AS signed_in_at, \
                 token_last_used_at AS last_used_at FROM players \
                 WHERE id = $1 AND token_hash NOT LIKE $2 AND token_last_used_at >= $3 \
                 UNION ALL \
                 SELECT token_hash, user_agent, created_at, last_used_at FROM sessions \
                 WHERE player_id = $1 AND last_used_at >= $3",
            )
            .bind(player_id)
            .bind(format!("{REVOKED_PREFIX}%"))
            .bind(used_since)
            .fetch_all(pool)
            .await?
        }))
    }

    /// A new password for the account of `player_id`, and every other device of the player signed out
    /// (as [`Db::sign_out_others`]): only the device that changed it stays signed in. One transaction:
    /// a failure changes nothing.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn change_password(
        &self,
        player_id: &str,
        password_hash: &str,
        keep_token_hash: &str,
        unusable_hash: &str,
    ) -> Result<(), DbError> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query("UPDATE accounts SET password_hash = $1 WHERE player_id = $2")
                .bind(password_hash)
                .bind(player_id)
                .execute(&mut *tx)
                .await?;
            let _ = sign_out_others!(tx, player_id, keep_token_hash, unusable_hash);
            tx.commit().await?;
        });
        Ok(())
    }

    /// Signs every device of `player_id` but the one holding `keep_token_hash` out: their sessions are
    /// deleted and the first token, unless it is the one kept or already revoked, is replaced by
    /// `unusable_hash` (an [`unusable_token_hash`](crate::auth::unusable_token_hash)). How many tokens
    /// stopped working. One transaction.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn sign_out_others(
        &self,
        player_id: &str,
        keep_token_hash: &str,
        unusable_hash: &str,
    ) -> Result<u64, DbError> {
        Ok(on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let ended = sign_out_others!(tx, player_id, keep_token_hash, unusable_hash);
            tx.commit().await?;
            ended
        }))
    }

    /// Unix ms from which an account's devices' idle time counts (migration 0016: when the database got
    /// a limit on it).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn session_expiry_counted_from(&self) -> Result<i64, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_scalar::<_, i64>("SELECT counted_from FROM session_expiry")
                .fetch_one(pool)
                .await?
        }))
    }

    /// Signs out every device of an account last used before `cutoff` (Unix ms): sessions are deleted,
    /// a first token is made unusable (`revoked:idle:<player id>`, unique as player ids are). Guests'
    /// tokens stay. Returns how many devices were signed out.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn sign_out_idle(&self, cutoff: i64) -> Result<u64, DbError> {
        Ok(on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            let sessions = sqlx::query("DELETE FROM sessions WHERE last_used_at < $1")
                .bind(cutoff)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            let first = sqlx::query(
                "UPDATE players SET token_hash = $1 || id \
                 WHERE token_last_used_at < $2 AND token_hash NOT LIKE $3 \
                 AND id IN (SELECT player_id FROM accounts)",
            )
            .bind(format!("{REVOKED_PREFIX}idle:"))
            .bind(cutoff)
            .bind(format!("{REVOKED_PREFIX}%"))
            .execute(&mut *tx)
            .await
            .map_err(classify)?
            .rows_affected();
            tx.commit().await?;
            sessions + first
        }))
    }

    /// Makes a token useless: a signed-in device's session is deleted; a player's first token (kept in
    /// `players`) is replaced by `unusable_hash` (an [`unusable_token_hash`](crate::auth::unusable_token_hash):
    /// no token hashes to it).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn revoke_token(&self, token_hash: &str, unusable_hash: &str) -> Result<(), DbError> {
        on_pool!(self, pool => {
            let deleted = sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                .bind(token_hash)
                .execute(pool)
                .await?
                .rows_affected();
            if deleted == 0 {
                sqlx::query("UPDATE players SET token_hash = $1 WHERE token_hash = $2")
                    .bind(unusable_hash)
                    .bind(token_hash)
                    .execute(pool)
                    .await
                    .map_err(classify)?;
            }
        });
        Ok(())
    }
}

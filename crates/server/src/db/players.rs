//! Queries on `players`.

use super::{Db, DbError, classify, on_pool};

/// A player as stored (without the token hash, which only lookups use).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PlayerRow {
    /// Player id (UUID text).
    pub id: String,
    /// Name shown to other players.
    pub display_name: String,
    /// Creation time, Unix ms.
    pub created_at: i64,
}

/// The player a token belongs to, and when that token was last recorded as used (Unix ms).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TokenHolder {
    /// The player.
    #[sqlx(flatten)]
    pub player: PlayerRow,
    /// When the token last authenticated a request, as recorded (at most once an hour).
    pub last_used_at: i64,
    /// Whether the player has an account, so can sign in again: only such a token expires when unused.
    pub has_account: bool,
}

impl Db {
    /// Stores a new player with the hash of their token and the `User-Agent` it is handed out to (the
    /// player's first device, last used as it is created).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn create_player(
        &self,
        player: &PlayerRow,
        token_hash: &str,
        user_agent: Option<&str>,
    ) -> Result<(), DbError> {
        on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO players \
                 (id, display_name, token_hash, created_at, token_user_agent, token_last_used_at) \
                 VALUES ($1, $2, $3, $4, $5, $4)",
            )
            .bind(&player.id)
            .bind(&player.display_name)
            .bind(token_hash)
            .bind(player.created_at)
            .bind(user_agent)
            .execute(pool)
            .await
            .map_err(classify)?;
        });
        Ok(())
    }

    /// A player by id.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn player(&self, id: &str) -> Result<Option<PlayerRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, PlayerRow>(
                "SELECT id, display_name, created_at FROM players WHERE id = $1",
            )
            .bind(id)
            .fetch_optional(pool)
            .await?
        }))
    }

    /// Gives the player another display name; false when no such player exists.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn rename_player(&self, id: &str, display_name: &str) -> Result<bool, DbError> {
        let changed = on_pool!(self, pool => {
            sqlx::query("UPDATE players SET display_name = $1 WHERE id = $2")
                .bind(display_name)
                .bind(id)
                .execute(pool)
                .await
                .map_err(classify)?
                .rows_affected()
        });
        Ok(changed == 1)
    }

    /// Erases a player for good, in one transaction: their name becomes `display_name` (in their seats
    /// and their chat messages, whose text is emptied: shown to nobody, their numbers kept), every token
    /// stops working (the first replaced by `unusable_hash` and its User-Agent forgotten, sessions
    /// deleted), their reports of others' messages go, their ratings go and the account goes, so its
    /// username is free. The games they played stay whole (results and rating changes included).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn erase_player(
        &self,
        id: &str,
        display_name: &str,
        unusable_hash: &str,
    ) -> Result<(), DbError> {
        on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // The first token's User-Agent goes with it: what device they used is theirs too.
            sqlx::query(
                "UPDATE players SET display_name = $1, token_hash = $2, token_user_agent = NULL \
                 WHERE id = $3",
            )
                .bind(display_name)
                .bind(unusable_hash)
                .bind(id)
                .execute(&mut *tx)
                .await
                .map_err(classify)?;
            sqlx::query("UPDATE chat_messages SET display_name = $1, text = '' WHERE player_id = $2")
                .bind(display_name)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            // The names they gave the people who played at their device are theirs too.
            sqlx::query("UPDATE room_seats SET local_name = $1 WHERE local_of = $2")
                .bind(display_name)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            // What they wrote in reports of others' messages is theirs too.
            sqlx::query("DELETE FROM chat_reports WHERE reporter_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM sessions WHERE player_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM ratings WHERE player_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM accounts WHERE player_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// The player whose token hashes to `token_hash`, if any: the token the player was created with, or
    /// one handed out by signing in (`sessions`); with when that token was last recorded as used, and
    /// whether the player has an account.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn player_by_token_hash(
        &self,
        token_hash: &str,
    ) -> Result<Option<TokenHolder>, DbError> {
        let row = on_pool!(self, pool => {
            sqlx::query_as::<_, TokenHolder>(
                "SELECT id, display_name, created_at, token_last_used_at AS last_used_at, \
                 EXISTS (SELECT 1 FROM accounts a WHERE a.player_id = players.id) AS has_account \
                 FROM players WHERE token_hash = $1 \
                 UNION ALL \
                 SELECT p.id, p.display_name, p.created_at, s.last_used_at, TRUE FROM sessions s \
                 JOIN players p ON p.id = s.player_id WHERE s.token_hash = $1",
            )
            .bind(token_hash)
            .fetch_optional(pool)
            .await?
        });
        Ok(row)
    }

    /// Records that the token hashing to `token_hash` was used at `now` (Unix ms), a signed-in device's
    /// or a player's first.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn token_used(&self, token_hash: &str, now: i64) -> Result<(), DbError> {
        on_pool!(self, pool => {
            let updated = sqlx::query("UPDATE sessions SET last_used_at = $1 WHERE token_hash = $2")
                .bind(now)
                .bind(token_hash)
                .execute(pool)
                .await?
                .rows_affected();
            if updated == 0 {
                sqlx::query("UPDATE players SET token_last_used_at = $1 WHERE token_hash = $2")
                    .bind(now)
                    .bind(token_hash)
                    .execute(pool)
                    .await?;
            }
        });
        Ok(())
    }
}

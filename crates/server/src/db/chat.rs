//! Queries on `chat_messages`: a room's chat, written before it is shown.

use serde::Serialize;

use super::{Db, DbError, classify, on_pool};

/// One chat message as stored, and as clients see it (nothing in it is secret).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct ChatRow {
    /// Position in the room's chat, from 1: clients drop a message they already have by it.
    pub seq: i64,
    /// Seat of the writer, so clients can show the seat's colour.
    pub seat: i64,
    /// The writer, so a client can tell its own messages.
    pub player_id: String,
    /// The writer's name when writing (names can change later).
    #[serde(rename = "name")]
    pub display_name: String,
    /// What was written, already cleaned (one line, no control characters).
    pub text: String,
    /// When, Unix ms.
    #[serde(rename = "at_ms")]
    pub at: i64,
}

impl Db {
    /// Stores a message of `room_id`'s chat. [`DbError::UniqueViolation`] if its `seq` is taken.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn insert_chat(&self, room_id: &str, row: &ChatRow) -> Result<(), DbError> {
        on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO chat_messages (room_id, seq, seat, player_id, display_name, text, at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(room_id)
            .bind(row.seq)
            .bind(row.seat)
            .bind(&row.player_id)
            .bind(&row.display_name)
            .bind(&row.text)
            .bind(row.at)
            .execute(pool)
            .await
            .map_err(classify)?;
        });
        Ok(())
    }

    /// The last `limit` messages of `room_id`'s chat, oldest first.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn recent_chat(&self, room_id: &str, limit: i64) -> Result<Vec<ChatRow>, DbError> {
        let mut rows = on_pool!(self, pool => {
            sqlx::query_as::<_, ChatRow>(
                "SELECT seq, seat, player_id, display_name, text, at FROM chat_messages \
                 WHERE room_id = $1 ORDER BY seq DESC LIMIT $2",
            )
            .bind(room_id)
            .bind(limit)
            .fetch_all(pool)
            .await?
        });
        rows.reverse();
        Ok(rows)
    }
}

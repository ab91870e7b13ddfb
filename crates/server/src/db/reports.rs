//! Queries on `chat_reports`: players' reports of offensive chat messages, for the host to read.

use super::{Db, DbError, classify, on_pool};

/// One report of a message, with the message as it stands (a report row joined with its message).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReportRow {
    /// The room the message was written in.
    pub room_id: String,
    /// The message's place in the room's chat.
    pub seq: i64,
    /// What was written.
    pub text: String,
    /// Its writer, whom the host may erase.
    pub player_id: String,
    /// The writer's name when writing.
    pub display_name: String,
    /// Why the reader reported it (may be empty).
    pub reason: String,
    /// When it was reported, Unix ms.
    pub at: i64,
}

/// What reporting a message did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reported {
    /// A new report.
    New,
    /// This reader had reported it already: nothing changed.
    Already,
    /// No such message, or its writer was erased (its text is gone).
    NoMessage,
    /// The reader wrote it.
    OwnMessage,
}

impl Db {
    /// `reporter_id` reports message `seq` of `room_id`'s chat, once.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn report_chat(
        &self,
        room_id: &str,
        seq: i64,
        reporter_id: &str,
        reason: &str,
        at: i64,
    ) -> Result<Reported, DbError> {
        let writer: Option<(String, String)> = on_pool!(self, pool => {
            sqlx::query_as("SELECT player_id, text FROM chat_messages WHERE room_id = $1 AND seq = $2")
                .bind(room_id)
                .bind(seq)
                .fetch_optional(pool)
                .await?
        });
        match writer {
            None => return Ok(Reported::NoMessage),
            Some((_, text)) if text.is_empty() => return Ok(Reported::NoMessage),
            Some((writer, _)) if writer == reporter_id => return Ok(Reported::OwnMessage),
            Some(_) => {}
        }
        let inserted = on_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO chat_reports (room_id, seq, reporter_id, reason, at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
            )
            .bind(room_id)
            .bind(seq)
            .bind(reporter_id)
            .bind(reason)
            .bind(at)
            .execute(pool)
            .await
            .map_err(classify)?
            .rows_affected()
        });
        Ok(if inserted == 1 {
            Reported::New
        } else {
            Reported::Already
        })
    }

    /// Every report of a message still standing (its writer not erased), newest first.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn chat_reports(&self) -> Result<Vec<ReportRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, ReportRow>(
                "SELECT r.room_id, r.seq, m.text, m.player_id, m.display_name, r.reason, r.at \
                 FROM chat_reports r \
                 JOIN chat_messages m ON m.room_id = r.room_id AND m.seq = r.seq \
                 WHERE m.text <> '' ORDER BY r.at DESC, r.room_id, r.seq",
            )
            .fetch_all(pool)
            .await?
        }))
    }

    /// Drops the reports of message `seq` of `room_id`'s chat; whether there were any.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn dismiss_reports(&self, room_id: &str, seq: i64) -> Result<bool, DbError> {
        let gone = on_pool!(self, pool => {
            sqlx::query("DELETE FROM chat_reports WHERE room_id = $1 AND seq = $2")
                .bind(room_id)
                .bind(seq)
                .execute(pool)
                .await?
                .rows_affected()
        });
        Ok(gone > 0)
    }
}

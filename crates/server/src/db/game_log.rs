//! A game's log (`game_log`): what each entry records, typed, and how entries are appended and read.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::types::Json;

use super::{Db, DbError, on_pool};
use crate::model::Actor;

/// One entry of a game's log.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LogRow {
    /// Position in the log, from 0, without gaps.
    pub seq: i64,
    /// What the entry records.
    pub kind: LogKind,
    /// Kind-specific details, as stored (the game record shows them as they are).
    pub payload: Json<Value>,
    /// When it happened, Unix ms.
    pub at: i64,
}

impl LogRow {
    /// The entry, typed: `Err` for a payload that is not its kind's.
    pub fn action(&self) -> Result<LogAction, serde_json::Error> {
        let payload = &self.payload.0;
        Ok(match self.kind {
            LogKind::Roll => LogAction::Roll(RollPayload::deserialize(payload)?),
            LogKind::Move => LogAction::Move(MovePayload::deserialize(payload)?),
        })
    }
}

/// The kinds of log entry (`game_log.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogKind {
    /// A roll of the die.
    Roll,
    /// A move.
    Move,
}

impl LogKind {
    /// The stored spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            LogKind::Roll => "roll",
            LogKind::Move => "move",
        }
    }

    /// Parses the stored spelling; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "roll" => Some(LogKind::Roll),
            "move" => Some(LogKind::Move),
            _ => None,
        }
    }
}

crate::settings::sql_text!(LogKind);

/// One entry of a game's log, typed: its kind and its payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogAction {
    /// A roll.
    Roll(RollPayload),
    /// A move.
    Move(MovePayload),
}

impl LogAction {
    /// Its kind.
    pub fn kind(&self) -> LogKind {
        match self {
            LogAction::Roll(_) => LogKind::Roll,
            LogAction::Move(_) => LogKind::Move,
        }
    }

    /// Its payload's JSON, as stored (fields in the order `json!` used to write them).
    fn payload(&self) -> Result<Box<serde_json::value::RawValue>, serde_json::Error> {
        match self {
            LogAction::Roll(roll) => serde_json::value::to_raw_value(roll),
            LogAction::Move(mv) => serde_json::value::to_raw_value(mv),
        }
    }
}

/// Payload of a `roll` entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RollPayload {
    /// Who rolled.
    pub by: Actor,
    /// The die.
    pub die: u8,
    /// The roll's number in the game, from 0 (the dice proof's counter).
    pub roll: u64,
    /// The seat that rolled.
    pub seat: u8,
}

/// Payload of a `move` entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovePayload {
    /// Who moved.
    pub by: Actor,
    /// The move's text.
    #[serde(rename = "move")]
    pub text: String,
    /// The seat that moved.
    pub seat: u8,
}

impl Db {
    /// Appends one log entry; `(game_id, seq)` is the primary key, so a
    /// duplicate `seq` fails instead of silently forking the log. Returns once
    /// the entry is committed (by the group-commit writer task, together with
    /// whatever other rooms appended meanwhile).
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn append_log(
        &self,
        game_id: &str,
        seq: i64,
        action: &LogAction,
        at: i64,
    ) -> Result<(), DbError> {
        // Serialised here, once: the writer task binds the text as it is.
        let payload = action
            .payload()
            .map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
        let kind = action.kind();
        let (done, answer) = tokio::sync::oneshot::channel();
        let append = super::log_writer::Append {
            game_id: game_id.to_owned(),
            seq,
            kind,
            payload,
            at,
            done,
        };
        self.log.append(append, answer).await
    }

    /// How many entries the game's log holds.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn game_log_len(&self, game_id: &str) -> Result<i64, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM game_log WHERE game_id = $1")
                .bind(game_id)
                .fetch_one(pool)
                .await?
        }))
    }

    /// A game's log in order.
    #[tracing::instrument(level = "debug", skip_all)]
    pub async fn game_log(&self, game_id: &str) -> Result<Vec<LogRow>, DbError> {
        Ok(on_pool!(self, pool => {
            sqlx::query_as::<_, LogRow>(
                "SELECT seq, kind, payload, at FROM game_log WHERE game_id = $1 ORDER BY seq",
            )
            .bind(game_id)
            .fetch_all(pool)
            .await?
        }))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn row(kind: LogKind, payload: Value) -> LogRow {
        LogRow {
            seq: 0,
            kind,
            payload: Json(payload),
            at: 0,
        }
    }

    #[test]
    fn log_entries_read_as_written_and_a_wrong_payload_is_refused() {
        let roll = LogAction::Roll(RollPayload {
            by: Actor::Timer,
            die: 5,
            roll: 3,
            seat: 1,
        });
        let stored = roll.payload().unwrap();
        // The stored JSON keeps the spelling and order it always had.
        assert_eq!(stored.get(), r#"{"by":"timer","die":5,"roll":3,"seat":1}"#);
        let back = row(roll.kind(), serde_json::from_str(stored.get()).unwrap());
        assert_eq!(back.action().unwrap(), roll);
        let mv = row(
            LogKind::Move,
            json!({"by": "player", "move": "y1:5-12", "seat": 0}),
        );
        assert_eq!(
            mv.action().unwrap(),
            LogAction::Move(MovePayload {
                by: Actor::Player,
                text: "y1:5-12".into(),
                seat: 0
            })
        );
        assert!(
            row(
                LogKind::Roll,
                json!({"by": "player", "move": "y1:5-12", "seat": 0})
            )
            .action()
            .is_err()
        );
        assert!(
            row(
                LogKind::Move,
                json!({"by": "robot", "move": "y1:5-12", "seat": 0})
            )
            .action()
            .is_err()
        );
        assert_eq!(LogKind::parse("move"), Some(LogKind::Move));
        assert_eq!(LogKind::parse("pass"), None);
    }
}

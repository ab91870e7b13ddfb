//! The realtime protocol's vocabulary (PROTOCOL.md §2–3): parsing client commands, the error codes and
//! close codes, and what a connection's writer sends. The messages themselves are built in
//! [`super::messages`].

use axum::extract::ws::Utf8Bytes;
use serde_json::Value;

/// A command a client sent, with the `id` its reply echoes.
#[derive(Debug, Clone)]
pub struct ClientMessage {
    /// Echoed in the `ack`/`error` (`null` if the client gave none).
    pub id: Value,
    /// What the client asks for.
    pub command: ClientCommand,
}

/// The commands of PROTOCOL.md §3.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientCommand {
    /// Roll the die, decided at a room version if the client says (stale check; `None`: no check).
    Roll {
        /// Room version the client decided to roll at, if it gave one.
        version: Option<u64>,
    },
    /// Play a move given by its text, chosen at a room version.
    Move {
        /// The move's text form, e.g. `y1:5-12`.
        text: String,
        /// Room version the client chose it at (stale check).
        version: u64,
    },
    /// Pre-select (or clear, with `None`) a move for the seat's next turn.
    Preselect {
        /// The move's text form, or `None` to clear.
        text: Option<String>,
    },
    /// Ask for a fresh snapshot.
    Resync,
    /// Leave the room (seat to a bot while playing).
    Leave,
    /// Write to the room's chat (seated players).
    Chat {
        /// What the player typed (cleaned by the handler).
        text: String,
    },
}

/// Declares [`ErrorCode`] from one list, so that [`ErrorCode::ALL`] cannot miss a code.
macro_rules! error_codes {
    ($($(#[$doc:meta])* $variant:ident => $code:literal,)*) => {
        /// Every `code` an `error` message can carry. PROTOCOL.md §2 has a row for each (a test
        /// compares the two): a new code needs a line here and a row there.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum ErrorCode {
            $($(#[$doc])* $variant,)*
        }

        impl ErrorCode {
            /// All of them, in the order of the table.
            pub const ALL: &[ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The code as sent (`"illegal_move"`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $code,)*
                }
            }
        }
    };
}

error_codes! {
    /// Not JSON, not an object, a missing or ill-typed field, a binary frame, a move text too long.
    Malformed => "malformed",
    /// `type` is not a command.
    UnknownType => "unknown_type",
    /// A spectator sent a game command or a chat message.
    NotSeated => "not_seated",
    /// No game is running yet.
    NotStarted => "not_started",
    /// The game has finished.
    GameOver => "game_over",
    /// Another seat is to act.
    NotYourTurn => "not_your_turn",
    /// `move` while the seat has to roll.
    MustRoll => "must_roll",
    /// `roll` while the seat has to move.
    MustMove => "must_move",
    /// The move is not legal (`reason` says why).
    IllegalMove => "illegal_move",
    /// Decided at a version older than the latest roll or move (or newer than the room).
    StaleVersion => "stale_version",
    /// A chat message with nothing left once cleaned.
    ChatEmpty => "chat_empty",
    /// A chat message over the length limit.
    ChatTooLong => "chat_too_long",
    /// Too many chat messages from one seat.
    ChatTooFast => "chat_too_fast",
    /// The database is out of reach for a while: nothing was applied, or (`reason: maybe_stored`) the
    /// connection broke while the action was being stored.
    StorageUnavailable => "storage_unavailable",
    /// A fault of the server (storage failed otherwise); nothing was applied.
    Internal => "internal",
}

/// A refused command: nothing changed, the connection stays open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandError {
    /// Stable snake_case code (PROTOCOL.md §2 table).
    pub code: ErrorCode,
    /// The rules crate's reason code for `illegal_move`; `maybe_stored` for a `storage_unavailable` whose
    /// action may have been stored all the same.
    pub reason: Option<&'static str>,
    /// Human-readable explanation.
    pub message: String,
}

impl CommandError {
    /// An error without a reason.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        CommandError {
            code,
            reason: None,
            message: message.into(),
        }
    }

    /// `storage_unavailable`: the database is out of reach; `maybe_stored` when the connection broke
    /// while the action was being stored, so that it may have been stored all the same.
    pub fn storage_unavailable(maybe_stored: bool, message: impl Into<String>) -> Self {
        CommandError {
            code: ErrorCode::StorageUnavailable,
            reason: maybe_stored.then_some("maybe_stored"),
            message: message.into(),
        }
    }

    /// `illegal_move` with the rules crate's reason.
    pub fn illegal(reason: &'static str, message: impl Into<String>) -> Self {
        CommandError {
            code: ErrorCode::IllegalMove,
            reason: Some(reason),
            message: message.into(),
        }
    }
}

/// Declares [`Close`] from one list, so that [`Close::ALL`] cannot miss one.
macro_rules! close_reasons {
    ($($(#[$doc:meta])* $variant:ident => ($code:literal, $reason:literal),)*) => {
        /// Every close the server sends (code and reason). PROTOCOL.md §2 "Close codes" has a row for each
        /// (a test compares the two).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Close {
            $($(#[$doc])* $variant,)*
        }

        impl Close {
            /// All of them, in the order of the table.
            pub const ALL: &[Close] = &[$(Close::$variant,)*];

            /// The WebSocket close code.
            pub fn code(self) -> u16 {
                match self {
                    $(Close::$variant => $code,)*
                }
            }

            /// The close frame's reason.
            pub fn reason(self) -> &'static str {
                match self {
                    $(Close::$variant => $reason,)*
                }
            }
        }
    };
}

close_reasons! {
    /// After a successful `leave`.
    Left => (1000, "left"),
    /// More frames than the flood limit allows.
    RateLimited => (1008, "rate_limited"),
    /// The client did not read its messages fast enough.
    TooSlow => (1008, "too_slow"),
    /// A frame over the size limit.
    TooBig => (1009, "too_big"),
    /// Nothing heard (not even a pong) for three ping intervals.
    NoPong => (1001, "no_pong"),
    /// The room stopped (server shutting down).
    RoomClosed => (1011, "room_closed"),
    /// The token the socket was opened with was revoked.
    TokenRevoked => (4001, "token_revoked"),
    /// The server holds as many connections as it can (`MAX_CONNECTIONS`): opened only to say so.
    ServerFull => (1013, "server_full"),
}

/// What a connection's writer sends: a prepared text frame or a close.
#[derive(Debug, Clone)]
pub enum Outbound {
    /// A JSON text frame, serialised once and shared between connections.
    Text(Utf8Bytes),
    /// Close the socket with this code and reason.
    Close(Close),
}

/// Parses one text frame into a command, or the error to answer it with.
pub fn parse(text: &str) -> Result<ClientMessage, (Value, CommandError)> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        (
            Value::Null,
            CommandError::new(ErrorCode::Malformed, format!("not JSON: {e}")),
        )
    })?;
    let Value::Object(map) = value else {
        return Err((
            Value::Null,
            CommandError::new(ErrorCode::Malformed, "a message must be a JSON object"),
        ));
    };
    let id = match map.get("id") {
        Some(v @ (Value::String(_) | Value::Number(_))) => v.clone(),
        _ => Value::Null,
    };
    let fail = |msg: &str| Err((id.clone(), CommandError::new(ErrorCode::Malformed, msg)));
    let Some(kind) = map.get("type").and_then(Value::as_str) else {
        return fail("`type` (a string) is missing");
    };
    let command = match kind {
        "roll" => match map.get("version") {
            None | Some(Value::Null) => ClientCommand::Roll { version: None },
            Some(v) => match v.as_u64() {
                Some(version) => ClientCommand::Roll {
                    version: Some(version),
                },
                None => return fail("`version` must be the room version the roll was decided at"),
            },
        },
        "resync" => ClientCommand::Resync,
        "leave" => ClientCommand::Leave,
        "move" => {
            let Some(text) = map.get("move").and_then(Value::as_str) else {
                return fail("`move` needs `move`, the move's text (e.g. \"y1:5-12\")");
            };
            let Some(version) = map.get("version").and_then(Value::as_u64) else {
                return fail("`move` needs `version`, the version it was chosen at");
            };
            ClientCommand::Move {
                text: text.to_owned(),
                version,
            }
        }
        "chat" => {
            let Some(text) = map.get("text").and_then(Value::as_str) else {
                return fail("`chat` needs `text`, the message (a string)");
            };
            ClientCommand::Chat {
                text: text.to_owned(),
            }
        }
        "preselect" => match map.get("move") {
            Some(Value::String(s)) => ClientCommand::Preselect {
                text: Some(s.clone()),
            },
            Some(Value::Null) | None => ClientCommand::Preselect { text: None },
            Some(_) => return fail("`move` must be a move's text or null"),
        },
        other => {
            return Err((
                id,
                CommandError::new(
                    ErrorCode::UnknownType,
                    format!("unknown message type `{other}`"),
                ),
            ));
        }
    };
    Ok(ClientMessage { id, command })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn commands_parse_and_bad_ones_say_why() {
        let m = parse(r#"{"type":"move","id":3,"move":"y1:5-12","version":7}"#).unwrap();
        assert_eq!(m.id, json!(3));
        assert_eq!(
            m.command,
            ClientCommand::Move {
                text: "y1:5-12".into(),
                version: 7
            }
        );
        let m = parse(r#"{"type":"roll","id":"r","version":9}"#).unwrap();
        assert_eq!(m.command, ClientCommand::Roll { version: Some(9) });
        for old in [r#"{"type":"roll"}"#, r#"{"type":"roll","version":null}"#] {
            assert_eq!(
                parse(old).unwrap().command,
                ClientCommand::Roll { version: None },
                "{old}"
            );
        }
        for bad in [
            r#"{"type":"roll","version":"9"}"#,
            r#"{"type":"roll","version":-1}"#,
        ] {
            assert_eq!(
                parse(bad).unwrap_err().1.code,
                ErrorCode::Malformed,
                "{bad}"
            );
        }
        assert_eq!(parse("{").unwrap_err().1.code, ErrorCode::Malformed);
        assert_eq!(parse("[1]").unwrap_err().1.code, ErrorCode::Malformed);
        assert_eq!(
            parse(r#"{"type":"dance","id":"a"}"#).unwrap_err(),
            (
                json!("a"),
                CommandError::new(ErrorCode::UnknownType, "unknown message type `dance`")
            )
        );
        assert_eq!(
            parse(r#"{"type":"move","move":"y1"}"#).unwrap_err().1.code,
            ErrorCode::Malformed
        );
    }
}

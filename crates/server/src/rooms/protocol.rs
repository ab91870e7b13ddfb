//! Messages of the realtime protocol (PROTOCOL.md §2–3): parsing client
//! commands and rendering the small per-connection replies.

use axum::extract::ws::Utf8Bytes;
use serde_json::{Value, json};

use super::patch::{into_text, write_json};

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

/// A refused command: nothing changed, the connection stays open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandError {
    /// Stable snake_case code (PROTOCOL.md §2 table).
    pub code: &'static str,
    /// The rules crate's reason code for `illegal_move`; `maybe_stored` for a `storage_unavailable` whose
    /// action may have been stored all the same.
    pub reason: Option<&'static str>,
    /// Human-readable explanation.
    pub message: String,
}

impl CommandError {
    /// An error without a reason.
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
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
            code: "storage_unavailable",
            reason: maybe_stored.then_some("maybe_stored"),
            message: message.into(),
        }
    }

    /// `illegal_move` with the rules crate's reason.
    pub fn illegal(reason: &'static str, message: impl Into<String>) -> Self {
        CommandError {
            code: "illegal_move",
            reason: Some(reason),
            message: message.into(),
        }
    }
}

/// What a connection's writer sends: a prepared text frame or a close.
#[derive(Debug, Clone)]
pub enum Outbound {
    /// A JSON text frame, serialised once and shared between connections.
    Text(Utf8Bytes),
    /// Close the socket with this code and reason.
    Close(u16, &'static str),
}

/// Parses one text frame into a command, or the error to answer it with.
pub fn parse(text: &str) -> Result<ClientMessage, (Value, CommandError)> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        (
            Value::Null,
            CommandError::new("malformed", format!("not JSON: {e}")),
        )
    })?;
    let Value::Object(map) = value else {
        return Err((
            Value::Null,
            CommandError::new("malformed", "a message must be a JSON object"),
        ));
    };
    let id = match map.get("id") {
        Some(v @ (Value::String(_) | Value::Number(_))) => v.clone(),
        _ => Value::Null,
    };
    let fail = |msg: &str| Err((id.clone(), CommandError::new("malformed", msg)));
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
                CommandError::new("unknown_type", format!("unknown message type `{other}`")),
            ));
        }
    };
    Ok(ClientMessage { id, command })
}

/// Serialises a message once into a shareable text frame.
pub fn frame(value: &Value) -> Utf8Bytes {
    Utf8Bytes::from(value.to_string())
}

/// `{"type":"ack","id":…,"version":…}` (written directly: one per command).
pub fn ack(id: &Value, version: u64) -> Outbound {
    let mut buf = Vec::with_capacity(64);
    buf.extend_from_slice(b"{\"type\":\"ack\",\"id\":");
    write_json(&mut buf, id);
    buf.extend_from_slice(b",\"version\":");
    write_json(&mut buf, &version);
    buf.push(b'}');
    Outbound::Text(into_text(buf))
}

/// `{"type":"error","id":…,"code":…,"reason"?:…,"message":…}`.
pub fn error(id: &Value, err: &CommandError) -> Outbound {
    let mut body = json!({ "type": "error", "id": id, "code": err.code, "message": err.message });
    if let Some(reason) = err.reason {
        body["reason"] = json!(reason);
    }
    Outbound::Text(frame(&body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ack_is_json() {
        let Outbound::Text(text) = ack(&json!("a\"b"), 7) else {
            panic!("text")
        };
        let value: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value, json!({"type": "ack", "id": "a\"b", "version": 7}));
    }

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
            assert_eq!(parse(bad).unwrap_err().1.code, "malformed", "{bad}");
        }
        assert_eq!(parse("{").unwrap_err().1.code, "malformed");
        assert_eq!(parse("[1]").unwrap_err().1.code, "malformed");
        assert_eq!(
            parse(r#"{"type":"dance","id":"a"}"#).unwrap_err(),
            (
                json!("a"),
                CommandError::new("unknown_type", "unknown message type `dance`")
            )
        );
        assert_eq!(
            parse(r#"{"type":"move","move":"y1"}"#).unwrap_err().1.code,
            "malformed"
        );
    }
}

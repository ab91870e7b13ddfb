//! Every text message the server sends on a room's WebSocket (PROTOCOL.md §2–3), built here and only
//! here: one typed [`ServerMessage`] per `type`, serialised once into a frame that may be shared
//! between connections. The `update` alone is written by hand ([`update`]): its patch is written
//! straight into the message bytes on the publish hot path.

use std::collections::VecDeque;

use parchis_rules::Event;
use serde::Serialize;
use serde_json::Value;

use super::patch::{into_text, write_json};
use super::protocol::{CommandError, Outbound};
use super::public_state::StateRef;
use crate::db::ChatRow;
use crate::model::Acted;

/// Whether a connection acts for a seat (`hello.role`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// It acts for a seat of the room.
    Player,
    /// It only watches.
    Spectator,
}

/// The messages of PROTOCOL.md §2–3, by their `type`.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage<'a> {
    /// The whole public state at `version` of the room's life `epoch`.
    Snapshot {
        /// The state's version.
        version: u64,
        /// Names this life of the room.
        epoch: &'a str,
        /// The public state.
        state: StateRef<'a>,
    },
    /// A command was applied; the room is at `version` (after any update it caused).
    Ack {
        /// The command's `id`, echoed.
        id: &'a Value,
        /// The room's version.
        version: u64,
    },
    /// A command was refused; nothing changed.
    Error {
        /// The command's `id`, echoed (`null` when it had none or could not be read).
        id: &'a Value,
        /// Stable snake_case code (PROTOCOL.md §2 table).
        code: &'static str,
        /// The rules crate's reason for `illegal_move`, `maybe_stored` for some `storage_unavailable`.
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<&'static str>,
        /// Human-readable explanation.
        message: &'a str,
    },
    /// Who the server thinks this connection is.
    Hello {
        /// The authenticated player, `null` for an anonymous spectator.
        player_id: Option<&'a str>,
        /// The seat the player sits in, if any.
        seat: Option<usize>,
        /// `player` when seated.
        role: Role,
        /// Whether the owner removed this player from the room.
        removed: bool,
    },
    /// The die the seat about to roll will get (rooms with `preview_next_roll`, to that seat only).
    Preview {
        /// The roll it previews (`game.rolls` before it).
        roll: u64,
        /// The die.
        die: u8,
    },
    /// One new chat message.
    Chat {
        /// The message.
        message: &'a ChatRow,
    },
    /// The room's recent chat, oldest first.
    ChatHistory {
        /// The messages.
        messages: &'a VecDeque<ChatRow>,
    },
}

impl ServerMessage<'_> {
    /// The message as a text frame, serialised once.
    pub fn frame(&self) -> Outbound {
        let mut buf = Vec::with_capacity(256);
        write_json(&mut buf, self);
        Outbound::Text(into_text(buf))
    }
}

/// `ack` of the command `id`, the room at `version`.
pub fn ack(id: &Value, version: u64) -> Outbound {
    ServerMessage::Ack { id, version }.frame()
}

/// `error` refusing the command `id` (`null` for a frame that could not be read).
pub fn error(id: &Value, err: &CommandError) -> Outbound {
    ServerMessage::Error {
        id,
        code: err.code.as_str(),
        reason: err.reason,
        message: &err.message,
    }
    .frame()
}

/// `hello` of a connection of `player_id` (`None`: anonymous) seated at `seat`.
pub fn hello(player_id: Option<&str>, seat: Option<usize>, removed: bool) -> Outbound {
    ServerMessage::Hello {
        player_id,
        seat,
        role: if seat.is_some() {
            Role::Player
        } else {
            Role::Spectator
        },
        removed,
    }
    .frame()
}

/// `preview` of roll number `roll`, which will be `die`.
pub fn preview(roll: u64, die: u8) -> Outbound {
    ServerMessage::Preview { roll, die }.frame()
}

/// `chat`: one new message, for everyone in the room.
pub fn chat(message: &ChatRow) -> Outbound {
    ServerMessage::Chat { message }.frame()
}

/// `chat_history`: the last messages, oldest first.
pub fn chat_history(messages: &VecDeque<ChatRow>) -> Outbound {
    ServerMessage::ChatHistory { messages }.frame()
}

/// `snapshot` of `state` at `version` of the room's life `epoch`.
pub fn snapshot(version: u64, epoch: &str, state: StateRef<'_>) -> Outbound {
    let mut buf = Vec::with_capacity(4096);
    write_json(
        &mut buf,
        &ServerMessage::Snapshot {
            version,
            epoch,
            state,
        },
    );
    Outbound::Text(into_text(buf))
}

/// `{"type":"update","version":…,"acted":{…},"events":[…],"patch":[…]}`, `patch_ops` being the patch's
/// operations already written, comma separated ([`super::patch::PatchWriter::ops`]); `acted` only on the
/// update of a roll or move.
pub fn update(version: u64, acted: Option<Acted>, events: &[Event], patch_ops: &[u8]) -> Outbound {
    let mut buf = Vec::with_capacity(patch_ops.len() + 96 + 96 * events.len());
    buf.extend_from_slice(b"{\"type\":\"update\",\"version\":");
    write_json(&mut buf, &version);
    if let Some(acted) = acted {
        buf.extend_from_slice(b",\"acted\":");
        write_json(&mut buf, &acted);
    }
    buf.extend_from_slice(b",\"events\":");
    write_json(&mut buf, events);
    buf.extend_from_slice(b",\"patch\":[");
    buf.extend_from_slice(patch_ops);
    buf.extend_from_slice(b"]}");
    Outbound::Text(into_text(buf))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::rooms::protocol::ErrorCode;

    fn value(message: Outbound) -> Value {
        let Outbound::Text(text) = message else {
            panic!("a text frame")
        };
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn small_messages_are_as_protocol_md_shows_them() {
        assert_eq!(
            value(ack(&json!("a\"b"), 7)),
            json!({"type": "ack", "id": "a\"b", "version": 7})
        );
        let refused = CommandError::new(ErrorCode::NotYourTurn, "not yours");
        assert_eq!(
            value(error(&json!(3), &refused)),
            json!({"type": "error", "id": 3, "code": "not_your_turn", "message": "not yours"})
        );
        let illegal = CommandError::illegal("blocked", "illegal move: blocked");
        assert_eq!(value(error(&Value::Null, &illegal))["reason"], "blocked");
        assert_eq!(
            value(hello(Some("p1"), Some(2), false)),
            json!({"type": "hello", "player_id": "p1", "seat": 2, "role": "player", "removed": false})
        );
        assert_eq!(
            value(hello(None, None, false)),
            json!({"type": "hello", "player_id": null, "seat": null, "role": "spectator", "removed": false})
        );
        assert_eq!(
            value(preview(12, 4)),
            json!({"type": "preview", "roll": 12, "die": 4})
        );
        let row = ChatRow {
            seq: 3,
            seat: 1,
            player_id: "p".into(),
            display_name: "Bea".into(),
            text: "hola".into(),
            at: 5,
        };
        let shown = json!({"seq": 3, "seat": 1, "player_id": "p", "name": "Bea", "text": "hola", "at_ms": 5});
        assert_eq!(value(chat(&row)), json!({"type": "chat", "message": shown}));
        assert_eq!(
            value(chat_history(&VecDeque::from([row]))),
            json!({"type": "chat_history", "messages": [shown]})
        );
        assert_eq!(
            value(update(
                9,
                None,
                &[],
                br#"{"op":"replace","path":"/spectators","value":2}"#
            )),
            json!({"type": "update", "version": 9, "events": [],
                   "patch": [{"op": "replace", "path": "/spectators", "value": 2}]})
        );
        let timer = Acted {
            seat: 1,
            by: crate::model::Actor::Timer,
        };
        assert_eq!(
            value(update(10, Some(timer), &[], b"")),
            json!({"type": "update", "version": 10, "acted": {"seat": 1, "by": "timer"},
                   "events": [], "patch": []})
        );
    }
}

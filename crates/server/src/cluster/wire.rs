//! What cluster nodes say to each other over NATS: requests to a room's owner (JSON) and the frames
//! of a relayed connection (a kind byte, the sender node and the body: the text the socket sends is
//! relayed as it is, never parsed or escaped again).

use axum::extract::ws::Utf8Bytes;
use bytes::{BufMut, Bytes, BytesMut};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::AppError;
use crate::rooms::protocol::{ClientCommand, ClientMessage, Close, Outbound};
use crate::rooms::{ConnectRequest, RoomCommand, RoomSnapshot};

/// A request to the node that owns a room (subject `<prefix>.room.<id>`).
#[derive(Debug, Serialize, Deserialize)]
pub enum RoomRequest {
    /// A lobby command ([`crate::rooms::RoomRegistry::send`]).
    Command(RoomCommand),
    /// The room's state if it runs ([`crate::rooms::RoomRegistry::lookup_live`]).
    LookupLive,
    /// A socket on `gateway` joins the room's fan-out; its frames go to `session` there.
    Connect {
        /// The gateway node.
        gateway: String,
        /// The relayed connection's id on the gateway.
        session: String,
        /// Who it is and where it left off.
        request: WireConnect,
    },
}

/// The owner's answer.
#[derive(Debug, Serialize, Deserialize)]
pub enum RoomReply {
    /// The room's state (`None`: not live, for `LookupLive`).
    Snapshot(Option<Box<RoomSnapshot>>),
    /// The connection was added; its frames come from `owner`.
    Connected {
        /// The owner node.
        owner: String,
    },
    /// Refused, as the owner's registry answered.
    Error(WireError),
}

/// [`ConnectRequest`] as relayed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WireConnect {
    player_id: Option<String>,
    token_hash: Option<String>,
    resume: Option<(u64, String)>,
}

impl From<ConnectRequest> for WireConnect {
    fn from(r: ConnectRequest) -> Self {
        WireConnect {
            player_id: r.player_id,
            token_hash: r.token_hash,
            resume: r.resume,
        }
    }
}

impl From<WireConnect> for ConnectRequest {
    fn from(r: WireConnect) -> Self {
        ConnectRequest {
            player_id: r.player_id,
            token_hash: r.token_hash,
            resume: r.resume,
        }
    }
}

/// An [`AppError`] as relayed: its code and sentence.
#[derive(Debug, Serialize, Deserialize)]
pub struct WireError {
    code: String,
    message: String,
}

impl From<&AppError> for WireError {
    fn from(err: &AppError) -> Self {
        WireError {
            code: err.code().to_owned(),
            message: err.to_string(),
        }
    }
}

impl From<WireError> for AppError {
    /// The same error for every code a room's registry answers with; any other (none is expected)
    /// becomes an internal error carrying the owner's sentence.
    fn from(err: WireError) -> Self {
        match err.code.as_str() {
            "room_not_found" => AppError::RoomNotFound,
            "not_room_owner" => AppError::NotRoomOwner,
            "wrong_join_code" => AppError::WrongJoinCode,
            "room_full" => AppError::RoomFull,
            "seat_taken" => AppError::SeatTaken,
            "room_not_waiting" => AppError::RoomNotWaiting,
            "seat_has_person" => AppError::SeatHasPerson,
            "no_person_at_seat" => AppError::NoPersonAtSeat,
            "cannot_remove_self" => AppError::CannotRemoveSelf,
            "removed_from_room" => AppError::RemovedFromRoom,
            "colour_taken" => AppError::ColourTaken,
            "not_seated" => AppError::NotSeated,
            "room_busy" => AppError::RoomBusy,
            "seat_not_found" => AppError::SeatNotFound,
            "local_player_not_found" => AppError::LocalPlayerNotFound,
            "player_not_found" => AppError::PlayerNotFound,
            "unavailable" => AppError::Unavailable,
            "storage_unavailable" => AppError::StorageUnavailable {
                maybe_stored: err.message == crate::error::storage_unavailable_message(true),
                detail: "at the room's owner".to_owned(),
            },
            "invalid_display_name" => AppError::InvalidDisplayName(err.message),
            _ => AppError::Internal(format!("at the room's owner: {}", err.message)),
        }
    }
}

/// One frame of a relayed connection (subject `<prefix>.node.<node>.<session>`).
#[derive(Debug)]
pub enum Frame {
    /// Owner → gateway: a text frame for the socket.
    Text(Utf8Bytes),
    /// Owner → gateway: close the socket so.
    Close(Close),
    /// Owner → gateway: the room dropped the connection (too slow).
    End,
    /// Gateway → owner: a command the client sent.
    Client(ClientMessage),
    /// Gateway → owner: the socket closed.
    Gone,
}

const TEXT: u8 = b'T';
const CLOSE: u8 = b'C';
const END: u8 = b'E';
const CLIENT: u8 = b'M';
const GONE: u8 = b'G';

impl Frame {
    /// The frame of a room's outbound message.
    pub fn outbound(message: Outbound) -> Frame {
        match message {
            Outbound::Text(text) => Frame::Text(text),
            Outbound::Close(close) => Frame::Close(close),
        }
    }

    /// Encodes the frame, naming `from` (the sending node).
    pub fn encode(&self, from: &str) -> Bytes {
        let body: std::borrow::Cow<'_, [u8]> = match self {
            Frame::Text(text) => text.as_bytes().into(),
            Frame::Close(close) => close.reason().as_bytes().into(),
            Frame::End | Frame::Gone => (&[][..]).into(),
            Frame::Client(message) => client_text(message).into_bytes().into(),
        };
        let kind = match self {
            Frame::Text(_) => TEXT,
            Frame::Close(_) => CLOSE,
            Frame::End => END,
            Frame::Client(_) => CLIENT,
            Frame::Gone => GONE,
        };
        let mut buf = BytesMut::with_capacity(2 + from.len() + body.len());
        buf.put_u8(kind);
        buf.put_u8(u8::try_from(from.len()).unwrap_or(u8::MAX));
        buf.put_slice(from.as_bytes());
        buf.put_slice(&body);
        buf.freeze()
    }

    /// Decodes a frame and its sending node (`None`: not a frame).
    pub fn decode(payload: &Bytes) -> Option<(String, Frame)> {
        let (&kind, rest) = payload.split_first()?;
        let (&len, rest) = rest.split_first()?;
        let len = usize::from(len);
        let from = std::str::from_utf8(rest.get(..len)?).ok()?.to_owned();
        let body = payload.slice(2 + len..);
        let frame = match kind {
            TEXT => Frame::Text(Utf8Bytes::try_from(body).ok()?),
            CLOSE => {
                let reason = std::str::from_utf8(&body).ok()?;
                Frame::Close(*Close::ALL.iter().find(|c| c.reason() == reason)?)
            }
            END => Frame::End,
            GONE => Frame::Gone,
            CLIENT => {
                Frame::Client(crate::rooms::protocol::parse(std::str::from_utf8(&body).ok()?).ok()?)
            }
            _ => return None,
        };
        Some((from, frame))
    }
}

/// The text a client would have sent for `message` (PROTOCOL.md §3), parsed again by the owner.
fn client_text(message: &ClientMessage) -> String {
    let id = &message.id;
    let value: Value = match &message.command {
        ClientCommand::Roll { version } => json!({"type": "roll", "id": id, "version": version}),
        ClientCommand::Move { text, version } => {
            json!({"type": "move", "id": id, "move": text, "version": version})
        }
        ClientCommand::Preselect { text } => json!({"type": "preselect", "id": id, "move": text}),
        ClientCommand::Resync => json!({"type": "resync", "id": id}),
        ClientCommand::Leave => json!({"type": "leave", "id": id}),
        ClientCommand::Chat { text } => json!({"type": "chat", "id": id, "text": text}),
    };
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_client_command_survives_the_relay() {
        let commands = [
            ClientCommand::Roll { version: None },
            ClientCommand::Roll { version: Some(7) },
            ClientCommand::Move {
                text: "y1:5-12".into(),
                version: 9,
            },
            ClientCommand::Preselect { text: None },
            ClientCommand::Preselect {
                text: Some("r2:0-5".into()),
            },
            ClientCommand::Resync,
            ClientCommand::Leave,
            ClientCommand::Chat {
                text: "hola \"amigos\"".into(),
            },
        ];
        for command in commands {
            let message = ClientMessage {
                id: json!(42),
                command: command.clone(),
            };
            let bytes = Frame::Client(message).encode("node-1");
            let Some((from, Frame::Client(back))) = Frame::decode(&bytes) else {
                panic!("{command:?} did not come back")
            };
            assert_eq!(from, "node-1");
            assert_eq!(back.command, command);
            assert_eq!(back.id, json!(42));
        }
    }

    #[test]
    fn frames_and_closes_survive_the_relay() {
        let text = Utf8Bytes::from_static("{\"type\":\"update\"}");
        let Some((_, Frame::Text(back))) = Frame::decode(&Frame::Text(text.clone()).encode("n"))
        else {
            panic!("text")
        };
        assert_eq!(back, text);
        for &close in Close::ALL {
            let Some((_, Frame::Close(back))) = Frame::decode(&Frame::Close(close).encode("n"))
            else {
                panic!("close")
            };
            assert_eq!(back, close);
        }
    }
}

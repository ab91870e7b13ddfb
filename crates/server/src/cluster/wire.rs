//! What cluster nodes say to each other over NATS: requests to a room's owner (JSON), a room's
//! messages for sockets on other nodes ([`RoomFrame`]) and a relayed socket's commands ([`Frame`]): a
//! kind byte, a header and the body (the text a socket is sent is relayed as it is, never parsed or
//! escaped again).

use axum::extract::ws::Utf8Bytes;
use bytes::{BufMut, Bytes, BytesMut};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{AppError, ErrorParts};
use crate::rooms::protocol::{ClientCommand, ClientMessage, Close, Outbound};
use crate::rooms::{ConnectRequest, RoomCommand, RoomSnapshot};

/// What a node sends a room's owner (subject `<prefix>.room.<id>`): a request and its id.
#[derive(Debug, Serialize, Deserialize)]
pub struct Asked {
    /// Made once per request, not per try: the owner answers a repeat (its first answer came too
    /// late, or not at all) with the answer it gave, without applying it again
    /// (`cluster/answered.rs`).
    pub id: String,
    /// What is asked.
    pub request: RoomRequest,
}

/// A request to the node that owns a room.
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
    /// `gateway` gave up on its `Connect` of `session` (no answer in time, an error, or its socket
    /// went away meanwhile): the owner drops that connection, now or when it comes. Published
    /// without a reply subject; an owner of an older version cannot read it and ignores it, as it
    /// did before this request existed.
    Abandon {
        /// The gateway node.
        gateway: String,
        /// The relayed connection's id on the gateway.
        session: String,
    },
}

impl RoomRequest {
    /// Whether the owner keeps its answer for a repeat: a request that changes something (a read
    /// is simply answered again, with what is true now).
    pub fn changes_something(&self) -> bool {
        match self {
            RoomRequest::Command(command) => !matches!(command, RoomCommand::Snapshot),
            // Dropping a session twice drops it once.
            RoomRequest::LookupLive | RoomRequest::Abandon { .. } => false,
            RoomRequest::Connect { .. } => true,
        }
    }
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

/// An [`AppError`] as relayed: its code, its sentence and what the variant carries, so that the
/// gateway answers with the very error the owner gave (same code, status, sentence and wait).
#[derive(Debug, Serialize, Deserialize)]
pub struct WireError {
    code: String,
    message: String,
    /// The variant's text (the `{0}` of its sentence, an internal error's detail).
    #[serde(default)]
    text: Option<String>,
    /// The variant's number (seconds to wait, `maybe_stored` as 0 or 1).
    #[serde(default)]
    number: Option<u64>,
    /// `invalid_settings`: which check refused them.
    #[serde(default)]
    reason: Option<String>,
}

impl From<&AppError> for WireError {
    fn from(err: &AppError) -> Self {
        use AppError as E;
        let (text, number, reason) = match err {
            E::MalformedJson(s)
            | E::InvalidBody(s)
            | E::InvalidDisplayName(s)
            | E::InvalidQuery(s)
            | E::InvalidSubprotocol(s)
            | E::InvalidUsername(s)
            | E::WeakPassword(s)
            | E::InvalidIdempotencyKey(s)
            | E::InvalidReport(s)
            | E::NotAMove(s)
            | E::Internal(s) => (Some(s.clone()), None, None),
            E::RequestTimeout(secs) => (None, Some(*secs), None),
            E::SessionExpired(days) => (None, Some(u64::from(*days)), None),
            E::TooManyAttempts(wait) | E::RateLimited(wait) => (None, Some(wait.0), None),
            E::InvalidSettings { reason, message } => {
                (Some(message.clone()), None, Some((*reason).to_owned()))
            }
            E::StorageUnavailable {
                maybe_stored,
                detail,
            } => (Some(detail.clone()), Some(u64::from(*maybe_stored)), None),
            _ => (None, None, None),
        };
        WireError {
            code: err.code().to_owned(),
            message: err.to_string(),
            text,
            number,
            reason,
        }
    }
}

impl From<WireError> for AppError {
    /// The owner's error again, whatever its variant; a code this node does not know (a newer
    /// owner's) becomes an internal error carrying the owner's sentence.
    fn from(err: WireError) -> Self {
        let parts = ErrorParts {
            text: err.text.as_deref().unwrap_or(&err.message),
            number: err.number,
            reason: err.reason.as_deref(),
        };
        AppError::from_parts(&err.code, &parts)
            .unwrap_or_else(|| AppError::Internal(format!("at the room's owner: {}", err.message)))
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

/// Owner → gateway nodes: one of a room's messages for sockets on other nodes. A broadcast (no
/// `session`) goes once to `<prefix>.fan.<room>`, which every node with sockets in the room listens
/// to; a socket's own message to `<prefix>.gw.<node>.<room>` on its node.
#[derive(Debug)]
pub struct RoomFrame {
    /// The owner's life of the room (its relay's id): `seq` counts within it.
    pub stream: String,
    /// The socket's session, `None` for a broadcast.
    pub session: Option<String>,
    /// A broadcast's number in the stream; for a socket's message, the number of the last broadcast
    /// before it.
    pub seq: u64,
    /// [`Frame::Text`], [`Frame::Close`] or [`Frame::End`].
    pub frame: Frame,
}

const ROOM: u8 = b'R';

impl RoomFrame {
    /// Encodes the frame: kind, stream, session, sequence number, then the inner frame.
    pub fn encode(&self) -> Bytes {
        let session = self.session.as_deref().unwrap_or("");
        let inner = self.frame.encode("");
        let mut buf = BytesMut::with_capacity(11 + self.stream.len() + session.len() + inner.len());
        buf.put_u8(ROOM);
        for text in [self.stream.as_str(), session] {
            buf.put_u8(u8::try_from(text.len()).unwrap_or(u8::MAX));
            buf.put_slice(text.as_bytes());
        }
        buf.put_u64(self.seq);
        buf.put_slice(&inner);
        buf.freeze()
    }

    /// Decodes a frame (`None`: not one).
    pub fn decode(payload: &Bytes) -> Option<RoomFrame> {
        let (&kind, mut rest) = payload.split_first()?;
        if kind != ROOM {
            return None;
        }
        let mut texts = [String::new(), String::new()];
        for text in &mut texts {
            let (&len, after) = rest.split_first()?;
            let len = usize::from(len);
            *text = std::str::from_utf8(after.get(..len)?).ok()?.to_owned();
            rest = &after[len..];
        }
        let seq = u64::from_be_bytes(rest.get(..8)?.try_into().ok()?);
        let start = payload.len() - rest.len() + 8;
        let (_, frame) = Frame::decode(&payload.slice(start..))?;
        let [stream, session] = texts;
        Some(RoomFrame {
            stream,
            session: (!session.is_empty()).then_some(session),
            seq,
            frame,
        })
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

    /// One error of each variant, as the owner may give it.
    fn every_error() -> Vec<AppError> {
        use crate::error::Wait;
        AppError::codes()
            .map(|code| {
                let mut err = AppError::from(WireError {
                    code: code.to_owned(),
                    message: format!("{code} at the owner"),
                    text: Some(format!("{code}: why")),
                    number: Some(7),
                    reason: Some("turn_time".into()),
                });
                assert_eq!(err.code(), code, "the gateway knows {code}");
                if let AppError::StorageUnavailable { maybe_stored, .. } = &mut err {
                    *maybe_stored = true;
                }
                if let AppError::TooManyAttempts(wait) | AppError::RateLimited(wait) = &mut err {
                    *wait = Wait(9);
                }
                err
            })
            .collect()
    }

    #[test]
    fn every_error_crosses_the_wire_as_the_same_error() {
        let errors = every_error();
        assert_eq!(errors.len(), AppError::STATUSES.len());
        for err in errors {
            let wire = WireError::from(&err);
            let bytes = serde_json::to_vec(&wire).unwrap();
            let back = AppError::from(serde_json::from_slice::<WireError>(&bytes).unwrap());
            // The same code, status and sentence (wait included) for the client as on the owner.
            assert_eq!(back.code(), err.code(), "{err:?}");
            assert_eq!(back.status(), err.status(), "{err:?}");
            assert_eq!(back.to_string(), err.to_string(), "{err:?}");
            assert_eq!(format!("{back:?}"), format!("{err:?}"));
        }
    }

    #[test]
    fn room_frames_survive_the_relay() {
        let text = Utf8Bytes::from_static("{\"type\":\"update\"}");
        for session in [None, Some("s-1".to_owned())] {
            let frame = RoomFrame {
                stream: "stream-1".into(),
                session: session.clone(),
                seq: 1 << 40,
                frame: Frame::Text(text.clone()),
            };
            let back = RoomFrame::decode(&frame.encode()).expect("a room frame");
            assert_eq!(
                (back.stream.as_str(), back.session, back.seq),
                ("stream-1", session, 1 << 40)
            );
            let Frame::Text(back) = back.frame else {
                panic!("text")
            };
            assert_eq!(back, text);
        }
        let end = RoomFrame {
            stream: "s".into(),
            session: Some("x".into()),
            seq: 0,
            frame: Frame::End,
        };
        assert!(matches!(
            RoomFrame::decode(&end.encode()).unwrap().frame,
            Frame::End
        ));
        assert!(RoomFrame::decode(&Frame::Gone.encode("n")).is_none());
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

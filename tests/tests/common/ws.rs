//! A WebSocket client that speaks PROTOCOL.md: it keeps the room state by
//! applying every patch to its first snapshot, and checks versions as it goes.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::TestServer;

/// How long to wait for any one message before failing the test.
const PATIENCE: Duration = Duration::from_secs(20);

/// One realtime connection and what it has seen.
pub struct WsClient {
    /// The socket.
    stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The first snapshot's state, as received.
    pub first_snapshot: Value,
    /// The first snapshot's state with every patch since applied.
    pub state: Value,
    /// Version of `state`.
    pub version: u64,
    /// Epoch of the snapshot.
    pub epoch: String,
    /// Every version received in an update, in order (to spot gaps and repeats).
    pub versions: Vec<u64>,
    /// Private messages (`hello`, `preview`, `chat_history`) received.
    pub private: Vec<Value>,
    /// Our seat, from `hello`.
    pub seat: Option<u64>,
    /// Every chat message received live (`chat`), in order.
    pub chat: Vec<Value>,
    /// Next command id.
    next_id: u64,
}

/// The WebSocket URL of a room.
pub fn ws_url(server: &TestServer, room: &str, query: &str) -> String {
    if query.is_empty() {
        format!("ws://{}/api/rooms/{room}/ws", server.addr)
    } else {
        format!("ws://{}/api/rooms/{room}/ws?{query}", server.addr)
    }
}

impl WsClient {
    /// Connects as `token` (or as an anonymous spectator) and reads up to `hello`.
    pub async fn connect(server: &TestServer, room: &str, token: Option<&str>) -> WsClient {
        let query = token.map(|t| format!("token={t}")).unwrap_or_default();
        Self::connect_url(&ws_url(server, room, &query)).await
    }

    /// Connects to `url` and reads up to `hello`.
    pub async fn connect_url(url: &str) -> WsClient {
        let (stream, _) = tokio_tungstenite::connect_async(url)
            .await
            .unwrap_or_else(|e| panic!("connect {url}: {e}"));
        Self::after_hello(stream).await
    }

    /// A client on an opened `stream`, once it has read up to `hello`.
    async fn after_hello(stream: WebSocketStream<MaybeTlsStream<TcpStream>>) -> WsClient {
        let mut client = WsClient {
            stream,
            first_snapshot: Value::Null,
            state: Value::Null,
            version: 0,
            epoch: String::new(),
            versions: Vec::new(),
            private: Vec::new(),
            seat: None,
            chat: Vec::new(),
            next_id: 1,
        };
        client.until(|m| m["type"] == "hello").await;
        client
    }

    /// Connects to `url` offering `protocols` as the `Sec-WebSocket-Protocol` header (as a browser's
    /// `new WebSocket(url, [...])` does) and reads up to `hello`: the client and the subprotocol the
    /// server answered with; or, when the server refuses the upgrade, its status and JSON body.
    pub async fn connect_offering(
        url: &str,
        protocols: &[u8],
    ) -> Result<(WsClient, Option<String>), (u16, Value)> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        use tokio_tungstenite::tungstenite::http::HeaderValue;
        let mut request = url.into_client_request().expect("a WebSocket URL");
        request.headers_mut().insert(
            "sec-websocket-protocol",
            HeaderValue::from_bytes(protocols).expect("a header value"),
        );
        match tokio_tungstenite::connect_async(request).await {
            Ok((stream, response)) => {
                let protocol = response
                    .headers()
                    .get("sec-websocket-protocol")
                    .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
                Ok((Self::after_hello(stream).await, protocol))
            }
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                let body = response
                    .body()
                    .as_deref()
                    .and_then(|b| serde_json::from_slice(b).ok())
                    .unwrap_or(Value::Null);
                Err((response.status().as_u16(), body))
            }
            Err(other) => panic!("connect {url}: {other}"),
        }
    }

    /// Connects to `url` over a socket with a tiny receive buffer (a client on a bad link, or one that
    /// stopped reading), and reads up to `hello`.
    pub async fn connect_small_buffer(url: &str) -> WsClient {
        let host = url
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .expect("host");
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket.set_recv_buffer_size(4096).expect("SO_RCVBUF");
        let tcp = socket
            .connect(host.parse().expect("an address"))
            .await
            .expect("connect");
        let (stream, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(tcp))
            .await
            .unwrap_or_else(|e| panic!("connect {url}: {e}"));
        let mut client = WsClient {
            stream,
            first_snapshot: Value::Null,
            state: Value::Null,
            version: 0,
            epoch: String::new(),
            versions: Vec::new(),
            private: Vec::new(),
            seat: None,
            chat: Vec::new(),
            next_id: 1,
        };
        client.until(|m| m["type"] == "hello").await;
        client
    }

    /// Reconnects with `since`/`epoch`, keeping the state seen so far.
    pub async fn reconnect(
        server: &TestServer,
        room: &str,
        token: &str,
        old: WsClient,
    ) -> WsClient {
        let url = ws_url(
            server,
            room,
            &format!("token={token}&since={}&epoch={}", old.version, old.epoch),
        );
        let (stream, _) = tokio_tungstenite::connect_async(&url)
            .await
            .expect("reconnect");
        let mut client = WsClient { stream, ..old };
        client.until(|m| m["type"] == "hello").await;
        client
    }

    /// The next message (snapshots and updates are applied to `state`).
    pub async fn next(&mut self) -> Value {
        match self.next_or_close().await {
            Ok(message) => message,
            Err(frame) => panic!("closed by the server: {frame:?}"),
        }
    }

    /// The next message (applied as [`WsClient::next`] does), or the close frame if the server closed
    /// the connection (`Err(None)`: it ended without one). Panics on a timeout or a message not JSON.
    pub async fn next_or_close(&mut self) -> Result<Value, Option<CloseFrame>> {
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.stream.next())
                .await
                .expect("timed out waiting for a message");
            let text = match frame {
                Some(Ok(Message::Text(text))) => text,
                Some(Ok(Message::Close(frame))) => return Err(frame),
                None | Some(Err(_)) => return Err(None),
                Some(Ok(_)) => continue,
            };
            let message: Value = serde_json::from_str(&text).expect("server sent JSON");
            self.absorb(&message);
            return Ok(message);
        }
    }

    /// Applies a snapshot or update to `state`; remembers private messages.
    fn absorb(&mut self, message: &Value) {
        match message["type"].as_str() {
            Some("snapshot") => {
                self.state = message["state"].clone();
                if self.first_snapshot.is_null() {
                    self.first_snapshot = self.state.clone();
                }
                self.version = message["version"].as_u64().unwrap();
                self.epoch = message["epoch"].as_str().unwrap().to_owned();
            }
            Some("update") => {
                let version = message["version"].as_u64().unwrap();
                assert_eq!(
                    version,
                    self.version + 1,
                    "updates arrive in order, no gaps"
                );
                let patch: json_patch::Patch =
                    serde_json::from_value(message["patch"].clone()).expect("a JSON Patch");
                json_patch::patch(&mut self.state, &patch).expect("the patch applies");
                self.version = version;
                self.versions.push(version);
            }
            Some("hello") => {
                self.seat = message["seat"].as_u64();
                self.private.push(message.clone());
            }
            Some("preview" | "chat_history") => self.private.push(message.clone()),
            Some("chat") => self.chat.push(message["message"].clone()),
            _ => {}
        }
    }

    /// Reads until a message matches.
    pub async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self.next().await;
            if pred(&m) {
                return m;
            }
        }
    }

    /// Reads until `state` satisfies `pred` (checked before reading, too).
    pub async fn until_state(&mut self, pred: impl Fn(&Value) -> bool) {
        while !pred(&self.state) {
            self.next().await;
        }
    }

    /// `(seq, name, text)` of each message of the last `chat_history` received.
    pub fn chat_history(&self) -> Vec<(Value, Value, Value)> {
        let last = self
            .private
            .iter()
            .rev()
            .find(|m| m["type"] == "chat_history")
            .expect("a chat_history on connecting");
        last["messages"]
            .as_array()
            .expect("messages")
            .iter()
            .map(|m| (m["seq"].clone(), m["name"].clone(), m["text"].clone()))
            .collect()
    }

    /// Reads until `n` chat messages have arrived; returns the `n`th.
    pub async fn until_chat(&mut self, n: usize) -> Value {
        while self.chat.len() < n {
            self.next().await;
        }
        self.chat[n - 1].clone()
    }

    /// Sends raw text.
    pub async fn send_text(&mut self, text: &str) {
        self.stream
            .send(Message::Text(text.into()))
            .await
            .expect("send");
    }

    /// Sends a binary frame; false if the connection is gone.
    pub async fn try_send_binary(&mut self, bytes: &[u8]) -> bool {
        self.stream
            .send(Message::Binary(bytes.to_vec().into()))
            .await
            .is_ok()
    }

    /// Sends raw text; false if the connection is gone.
    pub async fn try_send_text(&mut self, text: &str) -> bool {
        self.stream.send(Message::Text(text.into())).await.is_ok()
    }

    /// Sends a command with a fresh id and returns its `ack` or `error`.
    pub async fn request(&mut self, mut command: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        command["id"] = json!(id);
        self.send_text(&command.to_string()).await;
        self.until(|m| (m["type"] == "ack" || m["type"] == "error") && m["id"] == json!(id))
            .await
    }

    /// Asks for a fresh snapshot and returns its state (our patched state is replaced).
    pub async fn resync(&mut self) -> Value {
        let before = self.state.clone();
        self.send_text(r#"{"type":"resync"}"#).await;
        let snapshot = self.until(|m| m["type"] == "snapshot").await;
        let _ = before;
        snapshot["state"].clone()
    }

    /// Waits for the server to close; returns the close frame.
    pub async fn closed(&mut self) -> Option<CloseFrame> {
        loop {
            match tokio::time::timeout(PATIENCE, self.stream.next()).await {
                Err(_) => panic!("the server did not close the connection"),
                Ok(None) | Ok(Some(Err(_))) => return None,
                Ok(Some(Ok(Message::Close(frame)))) => return frame,
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    /// Closes the socket but keeps what was seen (to reconnect with it).
    pub async fn close_socket(&mut self) {
        let _ = self.stream.close(None).await;
        while let Ok(Some(Ok(_))) =
            tokio::time::timeout(Duration::from_secs(2), self.stream.next()).await
        {}
    }

    /// Closes our side.
    pub async fn close(mut self) {
        let _ = self.stream.close(None).await;
    }

    /// The game part of the state.
    pub fn game(&self) -> &Value {
        &self.state["game"]
    }

    /// Waits for the close of a socket whose token was revoked: 4001 `token_revoked`.
    pub async fn assert_revoked(&mut self) {
        let frame = self.closed().await.expect("a close frame");
        assert_eq!(u16::from(frame.code), 4001);
        assert_eq!(frame.reason.as_str(), "token_revoked");
    }

    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.game()["view"]["turn"]["phase"] == "over"
    }

    /// Whether it is our seat's decision.
    pub fn my_turn(&self) -> bool {
        !self.game().is_null()
            && !self.over()
            && self.seat.is_some()
            && self.game()["view"]["turn"]["seat"].as_u64() == self.seat
    }

    /// Makes our seat's one decision (roll, or the first legal move) and checks it was accepted.
    pub async fn act(&mut self) {
        let turn = &self.game()["view"]["turn"];
        let reply = if turn["phase"] == "roll" {
            self.request(json!({ "type": "roll" })).await
        } else {
            let text = self.game()["view"]["legal_moves"][0]["text"]
                .as_str()
                .expect("a legal move")
                .to_owned();
            let version = self.version;
            self.request(json!({ "type": "move", "move": text, "version": version }))
                .await
        };
        assert_eq!(reply["type"], "ack", "{reply}");
    }

    /// Plays our seat (bots play the others) until our seat has a move to choose (rolled, not yet moved).
    pub async fn play_until_my_move(&mut self) {
        loop {
            assert!(!self.over(), "the game ended before our seat had a move");
            if self.my_turn() {
                if self.game()["view"]["turn"]["phase"] == "move" {
                    return;
                }
                self.act().await;
            } else {
                self.next().await;
            }
        }
    }

    /// Plays our seat (bots play the others) until the game is over.
    pub async fn play_to_the_end(&mut self) {
        while !self.over() {
            if self.my_turn() {
                self.act().await;
            } else {
                self.next().await;
            }
        }
    }
}

//! A bare broadcaster: the least a server can do for the same traffic.
//!
//! Clients connect to `/g/{group}/{seat}`. Each gets a small `snapshot` and a
//! `hello`; every text frame a client sends (a command) bumps the group's
//! version and broadcasts one `update` of about `message_bytes` bytes to every
//! member of the group (serialised once, shared), then `ack`s the sender —
//! the same message flow as `parchis-server`, with no game, no storage and no
//! JSON diffing. The turn passes to the next seat after each command, so the
//! session's players (which act for the seat the state names) drive it unchanged.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

/// Seats per group.
pub const GROUP: u64 = 4;
/// Messages queued per connection before it is dropped as too slow (as in parchis-server).
const QUEUE: usize = 256;

/// Baseline settings.
#[derive(Debug, Clone, Copy)]
pub struct BaselineConfig {
    /// Approximate size of each broadcast `update`, bytes.
    pub message_bytes: usize,
}

#[derive(Default)]
struct Group {
    version: u64,
    turn: u64,
    members: Vec<mpsc::Sender<Message>>,
}

type Groups = Arc<Mutex<HashMap<u64, Arc<Mutex<Group>>>>>;

/// Serves until the listener fails (or the task is dropped).
pub async fn serve(listener: TcpListener, config: BaselineConfig) -> std::io::Result<()> {
    let groups: Groups = Arc::default();
    let padding: Arc<str> = "x".repeat(config.message_bytes.saturating_sub(200)).into();
    loop {
        let (stream, _) = listener.accept().await?;
        let _ = stream.set_nodelay(true);
        tokio::spawn(connection(stream, groups.clone(), padding.clone()));
    }
}

/// Binds `addr` and serves.
pub async fn bind_and_serve(addr: SocketAddr, config: BaselineConfig) -> std::io::Result<()> {
    serve(TcpListener::bind(addr).await?, config).await
}

fn parse_path(path: &str) -> Option<(u64, u64)> {
    let mut parts = path.trim_start_matches('/').split('/');
    if parts.next()? != "g" {
        return None;
    }
    let group = parts.next()?.parse().ok()?;
    let seat = parts.next()?.parse().ok()?;
    (seat < GROUP).then_some((group, seat))
}

/// The `snapshot` state: just the seat to act, in the shape the session reads.
fn state(turn: u64, padding: &str) -> serde_json::Value {
    serde_json::json!({
        "room": {"status": "playing"},
        "game": {"view": {"turn": {"seat": turn, "phase": "roll"}, "legal_moves": []}},
        "pad": padding,
    })
}

#[derive(Deserialize)]
struct Command {
    #[serde(default)]
    id: serde_json::Value,
}

// tungstenite fixes the handshake callback's error type (an HTTP response).
#[allow(clippy::result_large_err)]
async fn connection(stream: TcpStream, groups: Groups, padding: Arc<str>) {
    let mut path = String::new();
    let callback = |req: &Request, resp: Response| {
        path = req.uri().path().to_owned();
        Ok(resp)
    };
    let config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0)
        .max_message_size(Some(4096))
        .max_frame_size(Some(4096));
    let Ok(ws) =
        tokio_tungstenite::accept_hdr_async_with_config(stream, callback, Some(config)).await
    else {
        return;
    };
    let Some((group_id, seat)) = parse_path(&path) else {
        return;
    };
    let group = {
        let mut all = groups.lock().unwrap_or_else(|e| e.into_inner());
        all.entry(group_id).or_default().clone()
    };
    let (tx, mut rx) = mpsc::channel::<Message>(QUEUE);
    {
        let mut g = group.lock().unwrap_or_else(|e| e.into_inner());
        let snapshot = serde_json::json!({
            "type": "snapshot", "version": g.version, "epoch": "baseline",
            "state": state(g.turn, &padding),
        });
        let _ = tx.try_send(Message::text(snapshot.to_string()));
        let hello =
            serde_json::json!({"type": "hello", "player_id": null, "seat": seat, "role": "player"});
        let _ = tx.try_send(Message::text(hello.to_string()));
        g.members.push(tx.clone());
    }
    let (mut sink, mut stream) = ws.split();
    let writer = tokio::spawn(async move {
        while let Some(message) = rx.recv().await {
            if sink.send(message).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    while let Some(Ok(message)) = stream.next().await {
        let text = match message {
            Message::Text(text) => text,
            Message::Close(_) => break,
            _ => continue,
        };
        let id = serde_json::from_str::<Command>(&text)
            .map(|c| c.id)
            .unwrap_or_default();
        let mut g = group.lock().unwrap_or_else(|e| e.into_inner());
        g.version += 1;
        let next = (g.turn + 1) % GROUP;
        let update = serde_json::json!({
            "type": "update", "version": g.version,
            "events": [{"type": "rolled", "seat": g.turn, "die": 1 + g.version % 6}],
            "patch": [
                {"op": "replace", "path": "/game/view/turn/seat", "value": next},
                {"op": "replace", "path": "/pad", "value": &*padding},
            ],
        });
        g.turn = next;
        let update = Message::Text(Utf8Bytes::from(update.to_string()));
        g.members.retain(|m| m.try_send(update.clone()).is_ok());
        let ack = serde_json::json!({"type": "ack", "id": id, "version": g.version});
        let _ = tx.try_send(Message::text(ack.to_string()));
    }
    {
        // Leave the group: nobody else holds our queue, so the writer ends.
        let mut g = group.lock().unwrap_or_else(|e| e.into_inner());
        g.members.retain(|m| !m.same_channel(&tx));
    }
    drop(tx);
    writer.abort();
}

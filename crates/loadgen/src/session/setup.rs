//! Getting a room ready: players and a started game through the REST API (or the baseline's fixed URLs), and
//! the WebSocket connections to it, each from its own loopback source address.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};
use tokio::net::TcpSocket;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use super::{SEATS, SessionConfig, Ws};

/// Connection attempts per player before it counts as a connect error.
const CONNECT_ATTEMPTS: usize = 3;

/// One room's four WebSocket paths (seat order does not matter: `hello` says).
#[derive(Debug, Clone)]
pub struct Plan {
    /// The path and query of each player's WebSocket (any node of a cluster takes it).
    pub paths: Vec<String>,
    /// The players' tokens (parchis-server; the game record is read with the first).
    pub tokens: Vec<String>,
    /// Index of the room in the whole run (all shards), which places it on the nodes.
    pub index: usize,
}

#[derive(Deserialize)]
struct Created {
    token: String,
}

#[derive(Deserialize)]
struct RoomView {
    id: String,
    join_code: Option<String>,
}

async fn post(
    client: &reqwest::Client,
    url: String,
    token: Option<&str>,
    body: Value,
) -> Result<Value, String> {
    let mut req = client.post(&url).json(&body);
    if let Some(token) = token {
        req = req.bearer_auth(token);
    }
    let resp = req.send().await.map_err(|e| format!("POST {url}: {e}"))?;
    let status = resp.status();
    let body: Value = resp
        .json()
        .await
        .map_err(|e| format!("POST {url}: {status}: {e}"))?;
    if !status.is_success() {
        return Err(format!("POST {url}: {status}: {body}"));
    }
    Ok(body)
}

/// Creates four players and a private 4-seat room without turn timer, seats
/// them all and starts the game; returns their WebSocket URLs.
pub async fn setup_parchis_room(
    client: &reqwest::Client,
    addr: SocketAddr,
    index: usize,
    rules: &str,
) -> Result<Plan, String> {
    let base = format!("http://{addr}");
    let mut tokens = Vec::with_capacity(SEATS);
    for seat in 0..SEATS {
        let body = json!({ "display_name": format!("lg{index}-{seat}") });
        let created: Created =
            serde_json::from_value(post(client, format!("{base}/api/players"), None, body).await?)
                .map_err(|e| e.to_string())?;
        tokens.push(created.token);
    }
    let settings = json!({
        "rules": rules, "mode": "individual", "players": SEATS, "bots": [],
        "turn_time_secs": null, "preview_next_roll": false, "public": false,
    });
    let room: RoomView = serde_json::from_value(
        post(
            client,
            format!("{base}/api/rooms"),
            Some(&tokens[0]),
            settings,
        )
        .await?,
    )
    .map_err(|e| e.to_string())?;
    for token in &tokens[1..] {
        let body = json!({ "code": room.join_code });
        post(
            client,
            format!("{base}/api/rooms/{}/join", room.id),
            Some(token),
            body,
        )
        .await?;
    }
    post(
        client,
        format!("{base}/api/rooms/{}/start", room.id),
        Some(&tokens[0]),
        json!({}),
    )
    .await?;
    Ok(Plan {
        paths: tokens
            .iter()
            .map(|t| format!("/api/rooms/{}/ws?token={t}", room.id))
            .collect(),
        tokens,
        index,
    })
}

/// The baseline's paths for group `index`.
pub fn baseline_plan(index: usize) -> Plan {
    Plan {
        paths: (0..SEATS).map(|s| format!("/g/{index}/{s}")).collect(),
        tokens: Vec::new(),
        index,
    }
}

/// A socket, and whether the node that took it relays it to the room's node (the upgrade's
/// `X-Parchis-Room-Served: relayed`).
pub struct Opened {
    /// The socket.
    pub ws: Ws,
    /// Relayed to the room's owner by another node.
    pub relayed: bool,
}

/// Opens one client connection from `source` (if given) to `ws://{addr}{path}`.
pub async fn connect(
    addr: SocketAddr,
    source: Option<IpAddr>,
    path: &str,
) -> Result<Opened, String> {
    let url = format!("ws://{addr}{path}");
    let socket = TcpSocket::new_v4().map_err(|e| format!("socket: {e}"))?;
    if let Some(ip) = source {
        socket
            .bind(SocketAddr::new(ip, 0))
            .map_err(|e| format!("bind {ip}: {e}"))?;
    }
    let stream = socket
        .connect(addr)
        .await
        .map_err(|e| format!("connect {addr}: {e}"))?;
    let _ = stream.set_nodelay(true);
    // Small buffers: 50,000 clients at the default 128 KiB read buffer would need 6 GiB.
    let config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    let (ws, response) = tokio_tungstenite::client_async_with_config(&url, stream, Some(config))
        .await
        .map_err(|e| format!("upgrade {url}: {e}"))?;
    let relayed = response
        .headers()
        .get("x-parchis-room-served")
        .is_some_and(|v| v.as_bytes() == b"relayed");
    Ok(Opened { ws, relayed })
}

/// The source address of the `n`th connection.
pub(super) fn source_for(config: &SessionConfig, n: usize) -> IpAddr {
    let block = n / config.conns_per_ip.max(1);
    let last = (usize::from(config.first_source) + block).min(254);
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, u8::try_from(last).unwrap_or(254)))
}

/// Opens the four connections of `plan`, seat `i` from `sources[i]` to `addrs[i]` (a cluster's nodes
/// take any room's sockets), with retries.
pub(super) async fn connect_plan(
    addrs: &[SocketAddr],
    plan: &Plan,
    sources: &[IpAddr],
) -> Result<Vec<Opened>, String> {
    let mut conns = Vec::with_capacity(SEATS);
    for ((path, source), &addr) in plan.paths.iter().zip(sources).zip(addrs) {
        let mut last = String::new();
        let mut opened = None;
        for attempt in 0..CONNECT_ATTEMPTS {
            match connect(addr, Some(*source), path).await {
                Ok(ws) => {
                    opened = Some(ws);
                    break;
                }
                Err(e) => {
                    last = e;
                    tokio::time::sleep(Duration::from_millis(200 << attempt)).await;
                }
            }
        }
        conns.push(opened.ok_or(last)?);
    }
    Ok(conns)
}

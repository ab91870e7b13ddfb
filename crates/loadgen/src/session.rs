//! One bounded load session: set up rooms, connect four players per room,
//! play at a pace for a duration, report.
//!
//! Each room is one task owning its four WebSocket connections. Seat 0's
//! connection (the *keeper*) keeps the full public state by applying every
//! update's JSON Patch to its snapshot; the other three track their version
//! (a gap is an error). When the room's slot comes (every `pace`), the
//! connection of the seat to act sends `roll`, or `move` with the first legal
//! move and the version it saw. Latency runs from sending the command to each
//! client receiving the resulting `update`.

use std::borrow::Cow;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::stream::{self, BoxStream, SelectAll, SplitSink};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use crate::procstat::{self, Sample};
use crate::stats::{Latency, Stats};

/// A client WebSocket over plain TCP.
pub type Ws = WebSocketStream<TcpStream>;

/// Players per room.
pub const SEATS: usize = 4;
/// The connection that keeps the full state.
const KEEPER: usize = 0;
/// Smallest gap between two commands on one connection (the server allows 20/s).
const MIN_GAP: Duration = Duration::from_millis(55);
/// Connection attempts per player before it counts as a connect error.
const CONNECT_ATTEMPTS: usize = 3;

/// Which server the session drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// `parchis-server`: rooms and players are created through its REST API.
    Parchis,
    /// The bare broadcaster of [`crate::baseline`].
    Baseline,
}

/// What to do.
#[derive(Debug, Clone)]
pub struct SessionConfig {
    /// Server kind.
    pub target: Target,
    /// Server address (must be on 127.0.0.0/8).
    pub addr: SocketAddr,
    /// Rooms of four players.
    pub rooms: usize,
    /// Each room acts once per `pace`; zero = as fast as it can (closed loop).
    pub pace: Duration,
    /// Measured play time (after warm-up).
    pub duration: Duration,
    /// Play before measuring starts (latency samples of it are discarded).
    pub warmup: Duration,
    /// Pause after every player is connected, before the idle RSS reading.
    pub settle: Duration,
    /// House rules of the rooms (`ludoteka`, `playgridia`, `morocco`).
    pub rules: String,
    /// Rooms set up through REST at once.
    pub setup_concurrency: usize,
    /// Rooms connecting at once.
    pub connect_concurrency: usize,
    /// Connections per source address (ephemeral ports are ~28k per address).
    pub conns_per_ip: usize,
    /// Last octet of the first source address 127.0.0.x.
    pub first_source: u8,
    /// Process to read CPU and RSS of (the server).
    pub server_pid: Option<u32>,
    /// Print a progress line this often (stderr).
    pub progress: Option<Duration>,
    /// A command not completed within this counts as an error.
    pub command_timeout: Duration,
    /// When a room's game ends, its four players leave and start a new game in a new room (set up
    /// through REST like the first), so the load stays the same however long the session runs.
    pub new_games: bool,
}

impl SessionConfig {
    /// Defaults for a small session against `addr`.
    pub fn new(target: Target, addr: SocketAddr) -> Self {
        SessionConfig {
            target,
            addr,
            rooms: 2,
            pace: Duration::from_millis(500),
            duration: Duration::from_secs(2),
            warmup: Duration::ZERO,
            settle: Duration::from_millis(200),
            rules: "ludoteka".into(),
            setup_concurrency: 32,
            connect_concurrency: 128,
            conns_per_ip: 20_000,
            first_source: 1,
            server_pid: None,
            progress: None,
            command_timeout: Duration::from_secs(10),
            new_games: false,
        }
    }
}

/// Server figures from `/proc`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ServerFigures {
    /// Its pid.
    pub pid: u32,
    /// RSS when the session began, KiB.
    pub rss_start_kib: u64,
    /// RSS after the rooms were set up (REST), KiB.
    pub rss_after_setup_kib: u64,
    /// RSS with every player connected and idle, KiB.
    pub rss_idle_kib: u64,
    /// (idle − after setup) / players: what one idle connection costs, KiB.
    pub rss_per_idle_player_kib: f64,
    /// (idle − start) / players: connection plus its share of rooms and setup, KiB.
    pub rss_per_player_all_in_kib: f64,
    /// RSS when measuring began (after warm-up), KiB.
    pub rss_measure_start_kib: u64,
    /// RSS at the end, KiB.
    pub rss_end_kib: u64,
    /// Highest RSS seen while measuring, KiB.
    pub rss_max_kib: u64,
    /// (end − measure start) / measure start, percent.
    pub rss_growth_percent: f64,
    /// CPU while measuring, percent of one core.
    pub cpu_percent: f64,
    /// (seconds since measuring began, RSS KiB) at each progress line.
    pub rss_series: Vec<(u64, u64)>,
}

/// What a session measured.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Server kind.
    pub target: Target,
    /// Rooms asked for.
    pub rooms_requested: usize,
    /// Rooms with all four players connected.
    pub rooms_playing: usize,
    /// Players connected when play began.
    pub players_connected: u64,
    /// Rooms whose REST setup failed.
    pub setup_errors: u64,
    /// Players that could not connect.
    pub connect_errors: u64,
    /// Seconds the REST setup took.
    pub setup_secs: f64,
    /// Seconds connecting took.
    pub connect_secs: f64,
    /// Pace per room, ms (0: closed loop).
    pub pace_ms: u64,
    /// Measured seconds.
    pub duration_secs: f64,
    /// Commands completed while measuring (acked and seen by all four).
    pub actions: u64,
    /// Of which moves (the rest are rolls).
    pub moves: u64,
    /// Actions per second.
    pub actions_per_sec: f64,
    /// Moves per second.
    pub moves_per_sec: f64,
    /// `update` messages delivered to clients per second (the broadcast rate).
    pub updates_per_sec: f64,
    /// Mean size of an `update` message, bytes.
    pub mean_update_bytes: f64,
    /// Text received by all clients per second, bytes.
    pub received_bytes_per_sec: f64,
    /// Command → one client has its update.
    pub latency_client: Latency,
    /// Command → all four clients have it.
    pub latency_room: Latency,
    /// Errors over the whole session (error messages, gaps, bad patches, timeouts).
    pub errors: u64,
    /// Connections lost while playing.
    pub disconnects: u64,
    /// Games that ended.
    pub games_finished: u64,
    /// Games started in new rooms after one ended (`new_games`).
    pub games_restarted: u64,
    /// Paced slots that found the previous command still in flight.
    pub skipped_slots: u64,
    /// Example error texts.
    pub error_samples: Vec<String>,
    /// CPU of the load generator itself while measuring, percent of one core.
    pub loadgen_cpu_percent: f64,
    /// The server's figures, when its pid is known.
    pub server: Option<ServerFigures>,
}

/// One room's four WebSocket URLs (seat order does not matter: `hello` says).
#[derive(Debug, Clone)]
pub struct Plan {
    /// `ws://…` URL per player.
    pub urls: Vec<String>,
}

// ----- setup ------------------------------------------------------------------------------------

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
        urls: tokens
            .iter()
            .map(|t| format!("ws://{addr}/api/rooms/{}/ws?token={t}", room.id))
            .collect(),
    })
}

/// The baseline's URLs for group `index`.
pub fn baseline_plan(addr: SocketAddr, index: usize) -> Plan {
    Plan {
        urls: (0..SEATS)
            .map(|s| format!("ws://{addr}/g/{index}/{s}"))
            .collect(),
    }
}

/// Opens one client connection from `source` (if given) to `addr`.
pub async fn connect(addr: SocketAddr, source: Option<IpAddr>, url: &str) -> Result<Ws, String> {
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
    let (ws, _) = tokio_tungstenite::client_async_with_config(url, stream, Some(config))
        .await
        .map_err(|e| format!("upgrade {url}: {e}"))?;
    Ok(ws)
}

/// The source address of the `n`th connection.
fn source_for(config: &SessionConfig, n: usize) -> IpAddr {
    let block = n / config.conns_per_ip.max(1);
    let last = (usize::from(config.first_source) + block).min(254);
    IpAddr::V4(Ipv4Addr::new(127, 0, 0, u8::try_from(last).unwrap_or(254)))
}

// ----- one room ---------------------------------------------------------------------------------

struct Pending {
    id: u64,
    base: u64,
    sent: Instant,
    got: [bool; SEATS],
    acked: bool,
    is_move: bool,
    slowest: Duration,
}

struct Player {
    sink: SplitSink<Ws, Message>,
    version: Option<u64>,
    seat: Option<u64>,
    last_sent: Option<Instant>,
}

/// Fields every message is read for (the keeper also parses the whole message).
#[derive(Deserialize)]
struct Head<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    version: Option<u64>,
    id: Option<Value>,
    seat: Option<u64>,
    #[serde(borrow)]
    code: Option<Cow<'a, str>>,
}

struct Shared {
    stats: Arc<Stats>,
    pace: Duration,
    command_timeout: Duration,
    /// Set when the session ends: closes seen after it are not disconnects.
    stopping: AtomicBool,
    /// How to start a new game when one ends (`None`: rooms stop when their game ends).
    renewal: Option<Renewal>,
}

/// What a room needs to start a new game once its game has ended.
struct Renewal {
    /// REST client for the setup.
    client: reqwest::Client,
    /// The server.
    addr: SocketAddr,
    /// House rules of the new rooms.
    rules: String,
    /// Index of the next new room (names its players).
    next_index: AtomicUsize,
}

struct RoomDriver {
    shared: Arc<Shared>,
    players: Vec<Player>,
    state: Option<Value>,
    pending: Option<Pending>,
    next_id: u64,
    /// A slot is due and not yet used.
    due: bool,
    /// Next paced slot.
    next_slot: Option<Instant>,
    /// Earliest time the next command may go (per-connection rate limit).
    defer_until: Option<Instant>,
    over: bool,
}

enum Flow {
    Continue,
    Dead,
}

impl RoomDriver {
    fn stats(&self) -> &Stats {
        &self.shared.stats
    }

    /// When the room next has to look at the clock.
    fn wake_at(&self) -> Option<Instant> {
        let timeout = self
            .pending
            .as_ref()
            .map(|p| p.sent + self.shared.command_timeout);
        [self.next_slot, self.defer_until, timeout]
            .into_iter()
            .flatten()
            .min()
    }

    async fn on_timer(&mut self) {
        let now = Instant::now();
        if let Some(p) = &self.pending
            && now >= p.sent + self.shared.command_timeout
        {
            let id = p.id;
            self.stats()
                .error(|| format!("command {id} not completed within the timeout"));
            self.pending = None;
        }
        if let Some(slot) = self.next_slot
            && now >= slot
        {
            if self.due {
                self.stats().skipped_slots.fetch_add(1, Ordering::Relaxed);
            }
            self.due = true;
            self.next_slot = if self.shared.pace.is_zero() {
                None // closed loop: the next slot comes with the completion
            } else {
                let next = slot + self.shared.pace;
                Some(if next <= now {
                    now + self.shared.pace
                } else {
                    next
                })
            };
        }
        if self.defer_until.is_some_and(|d| now >= d) {
            self.defer_until = None;
        }
        self.try_act().await;
    }

    async fn try_act(&mut self) {
        if !self.due || self.pending.is_some() || self.over || self.defer_until.is_some() {
            return;
        }
        let Some(state) = &self.state else { return };
        let keeper_version = self.players[KEEPER].version;
        if self.players.iter().any(|p| p.version != keeper_version) {
            return; // some client has not seen everything yet
        }
        let Some(version) = keeper_version else {
            return;
        };
        let finished = state["room"]["status"] == "finished";
        let view = &state["game"]["view"];
        let turn = &view["turn"];
        let phase = turn["phase"].as_str().unwrap_or("");
        if finished || phase == "over" {
            self.over = true;
            self.stats().games_finished.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let Some(seat) = turn["seat"].as_u64() else {
            return; // no game yet
        };
        let Some(conn) = self.players.iter().position(|p| p.seat == Some(seat)) else {
            return; // hello not seen yet
        };
        let now = Instant::now();
        if let Some(last) = self.players[conn].last_sent
            && now < last + MIN_GAP
        {
            self.defer_until = Some(last + MIN_GAP);
            return;
        }
        self.next_id += 1;
        let id = self.next_id;
        let (command, is_move) = match phase {
            "roll" => (json!({"type": "roll", "id": id}), false),
            _ => match view["legal_moves"][0]["text"].as_str() {
                Some(text) => (
                    json!({"type": "move", "id": id, "move": text, "version": version}),
                    true,
                ),
                None => {
                    self.stats().error(|| {
                        format!("phase {phase} without legal moves at version {version}")
                    });
                    self.due = false;
                    return;
                }
            },
        };
        self.due = false;
        self.players[conn].last_sent = Some(now);
        self.pending = Some(Pending {
            id,
            base: version,
            sent: now,
            got: [false; SEATS],
            acked: false,
            is_move,
            slowest: Duration::ZERO,
        });
        self.stats().commands.fetch_add(1, Ordering::Relaxed);
        if let Err(e) = self.players[conn]
            .sink
            .send(Message::text(command.to_string()))
            .await
        {
            self.stats().error(|| format!("send: {e}"));
            self.pending = None;
        }
    }

    /// Completes the pending command once acked and seen by every client.
    fn check_complete(&mut self) {
        let Some(p) = &self.pending else { return };
        if !p.acked || p.got.iter().any(|g| !g) {
            return;
        }
        let stats = &self.shared.stats;
        stats.actions.fetch_add(1, Ordering::Relaxed);
        if p.is_move {
            stats.moves.fetch_add(1, Ordering::Relaxed);
        }
        stats.record_room(p.slowest);
        self.pending = None;
        if self.shared.pace.is_zero() {
            self.due = true;
        }
    }

    async fn on_text(&mut self, i: usize, text: &str) -> Flow {
        let stats = self.shared.stats.clone();
        stats.bytes.fetch_add(text.len() as u64, Ordering::Relaxed);
        let head: Head<'_> = match serde_json::from_str(text) {
            Ok(h) => h,
            Err(e) => {
                stats.error(|| format!("unreadable message: {e}"));
                return Flow::Continue;
            }
        };
        match head.kind.as_ref() {
            "snapshot" => {
                self.players[i].version = head.version;
                if i == KEEPER {
                    match serde_json::from_str::<Value>(text) {
                        Ok(mut v) => self.state = Some(v["state"].take()),
                        Err(e) => stats.error(|| format!("snapshot: {e}")),
                    }
                }
            }
            "update" => {
                stats.updates.fetch_add(1, Ordering::Relaxed);
                stats
                    .update_bytes
                    .fetch_add(text.len() as u64, Ordering::Relaxed);
                let Some(v) = head.version else {
                    stats.error(|| "update without version".into());
                    return Flow::Continue;
                };
                if let Some(prev) = self.players[i].version
                    && v != prev + 1
                {
                    stats.error(|| format!("version gap: {prev} then {v}"));
                }
                self.players[i].version = Some(v);
                if i == KEEPER {
                    let applied = serde_json::from_str::<Value>(text)
                        .map_err(|e| e.to_string())
                        .and_then(|mut m| {
                            serde_json::from_value::<json_patch::Patch>(m["patch"].take())
                                .map_err(|e| e.to_string())
                        })
                        .and_then(|patch| match &mut self.state {
                            Some(state) => {
                                json_patch::patch(state, &patch).map_err(|e| e.to_string())
                            }
                            None => Err("update before snapshot".into()),
                        });
                    if let Err(e) = applied {
                        stats.error(|| format!("patch of version {v}: {e}"));
                        self.state = None;
                        let resync = Message::text(r#"{"type":"resync"}"#);
                        let _ = self.players[KEEPER].sink.send(resync).await;
                    }
                }
                if let Some(p) = &mut self.pending
                    && v > p.base
                    && !p.got[i]
                {
                    p.got[i] = true;
                    let d = p.sent.elapsed();
                    p.slowest = p.slowest.max(d);
                    stats.record_client(d);
                    self.check_complete();
                }
            }
            "ack" => {
                if let Some(p) = &mut self.pending
                    && head.id.as_ref().and_then(Value::as_u64) == Some(p.id)
                {
                    p.acked = true;
                    self.check_complete();
                }
            }
            "error" => {
                let code = head.code.as_deref().unwrap_or("?").to_owned();
                stats.error(|| format!("server error: {text}"));
                if let Some(p) = &self.pending
                    && head.id.as_ref().and_then(Value::as_u64) == Some(p.id)
                {
                    self.pending = None;
                    if code == "game_over" {
                        self.over = true;
                    }
                }
            }
            "hello" => self.players[i].seat = head.seat,
            _ => {}
        }
        Flow::Continue
    }

    fn lost(&self, i: usize, why: &str) -> Flow {
        if !self.shared.stopping.load(Ordering::Relaxed) {
            self.stats().disconnects.fetch_add(1, Ordering::Relaxed);
            self.stats()
                .error(|| format!("player {i} disconnected: {why}"));
        }
        Flow::Dead
    }
}

/// Opens the four connections of `plan`, seat `i` from `sources[i]`, with retries.
async fn connect_plan(
    addr: SocketAddr,
    plan: &Plan,
    sources: &[IpAddr],
) -> Result<Vec<Ws>, String> {
    let mut conns = Vec::with_capacity(SEATS);
    for (url, source) in plan.urls.iter().zip(sources) {
        let mut last = String::new();
        let mut opened = None;
        for attempt in 0..CONNECT_ATTEMPTS {
            match connect(addr, Some(*source), url).await {
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

/// How a room's game ended, seen from the load generator.
enum GameEnd {
    /// The game is over (the server said so).
    Over,
    /// The session is stopping, or a connection was lost.
    Stop,
}

/// One stream of messages per player, tagged with the player's index; `None` when it ends.
type Inbound = SelectAll<BoxStream<'static, (usize, Option<Result<Message, WsError>>)>>;

/// Splits each connection: the sinks go to the players, the streams into one tagged stream.
fn attach(conns: Vec<Ws>) -> (Vec<Player>, Inbound) {
    let mut streams: Inbound = SelectAll::new();
    let mut players = Vec::with_capacity(SEATS);
    for (i, ws) in conns.into_iter().enumerate() {
        let (sink, stream) = ws.split();
        players.push(Player {
            sink,
            version: None,
            seat: None,
            last_sent: None,
        });
        let tagged = stream
            .map(move |m| (i, Some(m)))
            .chain(stream::once(async move { (i, None) }));
        streams.push(tagged.boxed());
    }
    (players, streams)
}

/// Plays one room: its game, then (with [`SessionConfig::new_games`]) a new game in a new room each
/// time one ends, from the same source addresses, keeping the room's slot in the pace.
async fn drive_room(
    conns: Vec<Ws>,
    sources: Vec<IpAddr>,
    shared: Arc<Shared>,
    mut go: watch::Receiver<Option<Instant>>,
    mut stop: watch::Receiver<bool>,
    offset: Duration,
) {
    let (players, mut streams) = attach(conns);
    let mut room = RoomDriver {
        shared: shared.clone(),
        players,
        state: None,
        pending: None,
        next_id: 0,
        due: false,
        next_slot: None,
        defer_until: None,
        over: false,
    };
    let mut waiting_go = true;
    loop {
        let count = room.players.len() as u64;
        shared.stats.connected.fetch_add(count, Ordering::Relaxed);
        let end = play(
            &mut room,
            &mut streams,
            &mut go,
            &mut waiting_go,
            &mut stop,
            offset,
        )
        .await;
        shared.stats.connected.fetch_sub(count, Ordering::Relaxed);
        // Close politely so the server sees a normal end, not a reset.
        for p in &mut room.players {
            let _ = tokio::time::timeout(Duration::from_millis(200), p.sink.close()).await;
        }
        drop(streams);
        let (GameEnd::Over, Some(renewal)) = (end, &shared.renewal) else {
            return;
        };
        let index = renewal.next_index.fetch_add(1, Ordering::Relaxed);
        let conns =
            match setup_parchis_room(&renewal.client, renewal.addr, index, &renewal.rules).await {
                Ok(plan) => match connect_plan(renewal.addr, &plan, &sources).await {
                    Ok(conns) => conns,
                    Err(e) => {
                        shared.stats.connect_errors.fetch_add(1, Ordering::Relaxed);
                        shared.stats.error(|| format!("connect (new game): {e}"));
                        return;
                    }
                },
                Err(e) => {
                    shared.stats.error(|| format!("setup (new game): {e}"));
                    return;
                }
            };
        if *stop.borrow() {
            return;
        }
        shared.stats.games_restarted.fetch_add(1, Ordering::Relaxed);
        let (players, new_streams) = attach(conns);
        streams = new_streams;
        room.players = players;
        room.state = None;
        room.pending = None;
        // Closed loop: the new game's first command goes as soon as its state arrives. Paced: the next
        // slot of the room's schedule.
        room.due = room.shared.pace.is_zero();
        room.defer_until = None;
        room.over = false;
    }
}

/// Plays the room's current game until it ends, the session stops or a connection is lost.
async fn play(
    room: &mut RoomDriver,
    streams: &mut Inbound,
    go: &mut watch::Receiver<Option<Instant>>,
    waiting_go: &mut bool,
    stop: &mut watch::Receiver<bool>,
    offset: Duration,
) -> GameEnd {
    let far = Instant::now() + Duration::from_secs(365 * 86400);
    let sleep = tokio::time::sleep_until(far);
    tokio::pin!(sleep);
    let renew = room.shared.renewal.is_some();
    loop {
        if room.over && renew {
            return GameEnd::Over;
        }
        let wake = room.wake_at();
        if let Some(at) = wake
            && sleep.deadline() != at
        {
            sleep.as_mut().reset(at);
        }
        tokio::select! {
            biased;
            _ = stop.changed() => return GameEnd::Stop,
            changed = go.changed(), if *waiting_go => {
                *waiting_go = false;
                if changed.is_ok() && let Some(start) = *go.borrow() {
                    room.next_slot = Some(start + offset);
                }
            }
            item = streams.next() => {
                let flow = match item {
                    None => return GameEnd::Stop,
                    Some((i, None)) => room.lost(i, "end of stream"),
                    Some((i, Some(Err(e)))) => room.lost(i, &e.to_string()),
                    Some((i, Some(Ok(Message::Text(t))))) => room.on_text(i, t.as_str()).await,
                    Some((i, Some(Ok(Message::Close(frame))))) => {
                        room.lost(i, &format!("closed by the server: {frame:?}"))
                    }
                    Some(_) => Flow::Continue,
                };
                if let Flow::Dead = flow {
                    return GameEnd::Stop;
                }
                if room.due && room.pending.is_none() {
                    room.try_act().await;
                }
            }
            () = &mut sleep, if wake.is_some() => room.on_timer().await,
        }
    }
}

// ----- the session ------------------------------------------------------------------------------

fn sample(pid: Option<u32>) -> Option<Sample> {
    pid.and_then(procstat::sample)
}

fn rate(n: u64, secs: f64) -> f64 {
    if secs > 0.0 { n as f64 / secs } else { 0.0 }
}

/// Runs a whole session and reports. Never sends to anything but `config.addr`.
pub async fn run(config: SessionConfig) -> Result<Report, String> {
    if !config.addr.ip().is_loopback() {
        return Err(format!(
            "{} is not a loopback address: load is only sent to 127.0.0.0/8",
            config.addr
        ));
    }
    let stats = Arc::new(Stats::new());
    let log = |line: String| {
        if config.progress.is_some() {
            eprintln!("{line}");
        }
    };
    let s_start = sample(config.server_pid);

    // 1. Rooms.
    let t = Instant::now();
    let client = reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(config.setup_concurrency)
        .build()
        .map_err(|e| e.to_string())?;
    let setup_errors = Arc::new(AtomicUsize::new(0));
    let plans: Vec<Plan> = match config.target {
        Target::Baseline => (0..config.rooms)
            .map(|i| baseline_plan(config.addr, i))
            .collect(),
        Target::Parchis => {
            let results: Vec<Result<Plan, String>> = stream::iter(0..config.rooms)
                .map(|i| {
                    let client = client.clone();
                    let rules = config.rules.clone();
                    let addr = config.addr;
                    async move { setup_parchis_room(&client, addr, i, &rules).await }
                })
                .buffer_unordered(config.setup_concurrency.max(1))
                .collect()
                .await;
            let mut plans = Vec::with_capacity(results.len());
            for r in results {
                match r {
                    Ok(p) => plans.push(p),
                    Err(e) => {
                        setup_errors.fetch_add(1, Ordering::Relaxed);
                        stats.error(|| format!("setup: {e}"));
                    }
                }
            }
            plans
        }
    };
    drop(client);
    let setup_secs = t.elapsed().as_secs_f64();
    log(format!("setup: {} rooms in {setup_secs:.1}s", plans.len()));
    let s_setup = sample(config.server_pid);

    // 2. Players.
    let t = Instant::now();
    let shared = Arc::new(Shared {
        stats: stats.clone(),
        pace: config.pace,
        command_timeout: config.command_timeout,
        stopping: AtomicBool::new(false),
        renewal: if config.new_games && config.target == Target::Parchis {
            Some(Renewal {
                // Few idle connections: new games trickle in, one room at a time.
                client: reqwest::Client::builder()
                    .no_proxy()
                    .pool_max_idle_per_host(4)
                    .build()
                    .map_err(|e| e.to_string())?,
                addr: config.addr,
                rules: config.rules.clone(),
                next_index: AtomicUsize::new(config.rooms),
            })
        } else {
            None
        },
    });
    let (go_tx, go_rx) = watch::channel::<Option<Instant>>(None);
    let (stop_tx, stop_rx) = watch::channel(false);
    let next_conn = Arc::new(AtomicUsize::new(0));
    let pace_ms = u64::try_from(config.pace.as_millis()).unwrap_or(u64::MAX);
    let room_count = plans.len().max(1);
    let handles: Vec<Option<tokio::task::JoinHandle<()>>> =
        stream::iter(plans.into_iter().enumerate())
            .map(|(index, plan)| {
                let config = &config;
                let stats = stats.clone();
                let shared = shared.clone();
                let go = go_rx.clone();
                let stop = stop_rx.clone();
                let next_conn = next_conn.clone();
                async move {
                    let sources: Vec<IpAddr> = (0..plan.urls.len())
                        .map(|_| source_for(config, next_conn.fetch_add(1, Ordering::Relaxed)))
                        .collect();
                    let conns = match connect_plan(config.addr, &plan, &sources).await {
                        Ok(conns) => conns,
                        Err(e) => {
                            stats.connect_errors.fetch_add(1, Ordering::Relaxed);
                            stats.error(|| format!("connect: {e}"));
                            return None;
                        }
                    };
                    // Spread the rooms' slots evenly over one pace period.
                    let offset = if pace_ms == 0 {
                        Duration::ZERO
                    } else {
                        Duration::from_millis(pace_ms * (index as u64) / room_count as u64)
                    };
                    Some(tokio::spawn(drive_room(
                        conns, sources, shared, go, stop, offset,
                    )))
                }
            })
            .buffer_unordered(config.connect_concurrency.max(1))
            .collect()
            .await;
    let handles: Vec<_> = handles.into_iter().flatten().collect();
    let connect_secs = t.elapsed().as_secs_f64();
    tokio::time::sleep(config.settle).await;
    let players_connected = Stats::get(&stats.connected);
    let s_idle = sample(config.server_pid);
    log(format!(
        "connected: {players_connected} players in {} rooms in {connect_secs:.1}s{}",
        handles.len(),
        s_idle
            .map(|s| format!(", server RSS {} MiB", s.rss_kib / 1024))
            .unwrap_or_default()
    ));

    // 3. Play: warm up, then measure.
    let me = std::process::id();
    go_tx.send_replace(Some(Instant::now()));
    tokio::time::sleep(config.warmup).await;
    stats.reset_latency();
    let base_actions = Stats::get(&stats.actions);
    let base_moves = Stats::get(&stats.moves);
    let base_updates = Stats::get(&stats.updates);
    let base_update_bytes = Stats::get(&stats.update_bytes);
    let base_bytes = Stats::get(&stats.bytes);
    let s_measure = sample(config.server_pid);
    let me_measure = procstat::sample(me);
    let measure_start = Instant::now();
    let end = measure_start + config.duration;
    let mut rss_series = Vec::new();
    let mut rss_max = s_measure.map(|s| s.rss_kib).unwrap_or(0);
    let mut last_sample = s_measure;
    let mut last_me = me_measure;
    let mut last_actions = base_actions;
    let mut last_updates = base_updates;
    loop {
        let now = Instant::now();
        if now >= end {
            break;
        }
        let step = config.progress.unwrap_or(Duration::from_secs(5));
        tokio::time::sleep(step.min(end - now)).await;
        let server = sample(config.server_pid);
        let mine = procstat::sample(me);
        let elapsed = measure_start.elapsed();
        let secs = elapsed.as_secs_f64();
        if let Some(s) = server {
            rss_max = rss_max.max(s.rss_kib);
            rss_series.push((elapsed.as_secs(), s.rss_kib));
        }
        let actions = Stats::get(&stats.actions);
        let updates = Stats::get(&stats.updates);
        let lat = stats.take_interval();
        let dt = step.as_secs_f64();
        let cpu = |a: Option<Sample>, b: Option<Sample>| match (a, b) {
            (Some(a), Some(b)) => format!("{:.0}%", procstat::cpu_percent(&a, &b)),
            _ => "-".into(),
        };
        log(format!(
            "t={secs:5.0}s conns={} actions/s={:.0} updates/s={:.0} p50={:.1}ms p99={:.1}ms max={:.1}ms errors={} disconnects={} server cpu={} rss={} MiB loadgen cpu={}",
            Stats::get(&stats.connected),
            rate(actions - last_actions, dt),
            rate(updates - last_updates, dt),
            lat.p50_ms,
            lat.p99_ms,
            lat.max_ms,
            Stats::get(&stats.errors),
            Stats::get(&stats.disconnects),
            cpu(last_sample, server),
            server
                .map(|s| (s.rss_kib / 1024).to_string())
                .unwrap_or("-".into()),
            cpu(last_me, mine),
        ));
        last_actions = actions;
        last_updates = updates;
        last_sample = server.or(last_sample);
        last_me = mine.or(last_me);
    }
    let duration_secs = measure_start.elapsed().as_secs_f64();
    let actions = Stats::get(&stats.actions) - base_actions;
    let moves = Stats::get(&stats.moves) - base_moves;
    let updates = Stats::get(&stats.updates) - base_updates;
    let update_bytes = Stats::get(&stats.update_bytes) - base_update_bytes;
    let bytes = Stats::get(&stats.bytes) - base_bytes;
    let s_end = sample(config.server_pid);
    let me_end = procstat::sample(me);
    let (latency_client, latency_room) = stats.latency();

    // 4. Stop.
    shared.stopping.store(true, Ordering::Relaxed);
    stop_tx.send_replace(true);
    for h in handles {
        let _ = tokio::time::timeout(Duration::from_secs(10), h).await;
    }

    let server = config.server_pid.map(|pid| {
        let kib = |s: Option<Sample>| s.map(|s| s.rss_kib).unwrap_or(0);
        let players = players_connected.max(1) as f64;
        let (start, setup, idle) = (kib(s_start), kib(s_setup), kib(s_idle));
        let (m0, m1) = (kib(s_measure), kib(s_end));
        ServerFigures {
            pid,
            rss_start_kib: start,
            rss_after_setup_kib: setup,
            rss_idle_kib: idle,
            rss_per_idle_player_kib: idle.saturating_sub(setup) as f64 / players,
            rss_per_player_all_in_kib: idle.saturating_sub(start) as f64 / players,
            rss_measure_start_kib: m0,
            rss_end_kib: m1,
            rss_max_kib: rss_max.max(m1),
            rss_growth_percent: if m0 > 0 {
                (m1 as f64 - m0 as f64) / m0 as f64 * 100.0
            } else {
                0.0
            },
            cpu_percent: match (s_measure, s_end) {
                (Some(a), Some(b)) => procstat::cpu_percent(&a, &b),
                _ => 0.0,
            },
            rss_series,
        }
    });
    let error_samples = stats
        .error_samples
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    Ok(Report {
        target: config.target,
        rooms_requested: config.rooms,
        rooms_playing: players_connected as usize / SEATS,
        players_connected,
        setup_errors: setup_errors.load(Ordering::Relaxed) as u64,
        connect_errors: Stats::get(&stats.connect_errors),
        setup_secs,
        connect_secs,
        pace_ms,
        duration_secs,
        actions,
        moves,
        actions_per_sec: rate(actions, duration_secs),
        moves_per_sec: rate(moves, duration_secs),
        updates_per_sec: rate(updates, duration_secs),
        mean_update_bytes: rate(update_bytes, updates as f64),
        received_bytes_per_sec: rate(bytes, duration_secs),
        latency_client,
        latency_room,
        errors: Stats::get(&stats.errors),
        disconnects: Stats::get(&stats.disconnects),
        games_finished: Stats::get(&stats.games_finished),
        games_restarted: Stats::get(&stats.games_restarted),
        skipped_slots: Stats::get(&stats.skipped_slots),
        error_samples,
        loadgen_cpu_percent: match (me_measure, me_end) {
            (Some(a), Some(b)) => procstat::cpu_percent(&a, &b),
            _ => 0.0,
        },
        server,
    })
}

impl Report {
    /// A short human-readable summary.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "target={:?} rooms={}/{} players={} setup={:.1}s connect={:.1}s pace={}ms measured={:.0}s\n\
             actions/s={:.1} moves/s={:.1} updates delivered/s={:.1} (mean {:.0} B) received {:.2} MB/s\n\
             latency per client: p50={:.2}ms p99={:.2}ms p99.9={:.2}ms max={:.2}ms (n={})\n\
             latency all 4:      p50={:.2}ms p99={:.2}ms p99.9={:.2}ms max={:.2}ms (n={})\n\
             errors={} disconnects={} setup_errors={} connect_errors={} games_finished={} games_restarted={} skipped_slots={} loadgen cpu={:.0}%\n",
            self.target,
            self.rooms_playing,
            self.rooms_requested,
            self.players_connected,
            self.setup_secs,
            self.connect_secs,
            self.pace_ms,
            self.duration_secs,
            self.actions_per_sec,
            self.moves_per_sec,
            self.updates_per_sec,
            self.mean_update_bytes,
            self.received_bytes_per_sec / 1e6,
            self.latency_client.p50_ms,
            self.latency_client.p99_ms,
            self.latency_client.p999_ms,
            self.latency_client.max_ms,
            self.latency_client.count,
            self.latency_room.p50_ms,
            self.latency_room.p99_ms,
            self.latency_room.p999_ms,
            self.latency_room.max_ms,
            self.latency_room.count,
            self.errors,
            self.disconnects,
            self.setup_errors,
            self.connect_errors,
            self.games_finished,
            self.games_restarted,
            self.skipped_slots,
            self.loadgen_cpu_percent,
        );
        if let Some(s) = &self.server {
            out.push_str(&format!(
                "server pid={} cpu={:.0}% rss: start={}KiB after-setup={}KiB idle={}KiB ({:.1} KiB/idle player, {:.1} KiB/player all-in) measure-start={}KiB end={}KiB max={}KiB growth={:+.1}%\n",
                s.pid,
                s.cpu_percent,
                s.rss_start_kib,
                s.rss_after_setup_kib,
                s.rss_idle_kib,
                s.rss_per_idle_player_kib,
                s.rss_per_player_all_in_kib,
                s.rss_measure_start_kib,
                s.rss_end_kib,
                s.rss_max_kib,
                s.rss_growth_percent,
            ));
        }
        for e in &self.error_samples {
            out.push_str(&format!("  error: {e}\n"));
        }
        out
    }
}

//! One room's task: its four connections, the keeper's patched copy of the state, the seat to act sending
//! `roll` or `move` on its paced slot, latencies measured to every client, and a new game when one ends.

use std::borrow::Cow;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::stream::{self, BoxStream, SelectAll, SplitSink};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use super::setup::{connect_plan, setup_parchis_room};
use super::{SEATS, Ws};
use crate::stats::Stats;

/// The connection that keeps the full state.
const KEEPER: usize = 0;
/// Smallest gap between two commands on one connection (the server allows 20/s).
const MIN_GAP: Duration = Duration::from_millis(55);

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

/// What every room task of a session shares.
pub(super) struct Shared {
    pub(super) stats: Arc<Stats>,
    pub(super) pace: Duration,
    pub(super) command_timeout: Duration,
    /// Set when the session ends: closes seen after it are not disconnects.
    pub(super) stopping: AtomicBool,
    /// How to start a new game when one ends (`None`: rooms stop when their game ends).
    pub(super) renewal: Option<Renewal>,
}

/// What a room needs to start a new game once its game has ended.
pub(super) struct Renewal {
    /// REST client for the setup.
    pub(super) client: reqwest::Client,
    /// The server.
    pub(super) addr: SocketAddr,
    /// House rules of the new rooms.
    pub(super) rules: String,
    /// Index of the next new room (names its players).
    pub(super) next_index: AtomicUsize,
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

/// Plays one room: its game, then (with [`SessionConfig::new_games`](super::SessionConfig::new_games)) a
/// new game in a new room each time one ends, from the same source addresses, keeping the room's slot in
/// the pace.
pub(super) async fn drive_room(
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
                Ok(plan) => match connect_plan(&[renewal.addr; 4], &plan, &sources).await {
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

//! One room's task: its four connections, the keeper's patched copy of the state, the seat to act sending
//! `roll` or `move` on its paced slot, latencies measured to every client, a socket that drops opened
//! again through another node (`reconnect`), and a new game when one ends.

use std::borrow::Cow;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::stream::{FuturesUnordered, SplitSink};
use futures_util::{SinkExt, StreamExt};
use json_patch::Patch;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

use super::reconnect::{self, Inbound, Reopening};
use super::setup::{Opened, Plan, connect_plan, setup_parchis_room};
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
    /// The connection that sent it (only it gets the `ack`).
    by: usize,
    got: [bool; SEATS],
    acked: bool,
    is_move: bool,
    slowest: Duration,
}

/// An action the server acknowledged, as the game's record must show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    /// The seat that acted.
    pub seat: u64,
    /// `None`: a roll; else the move's text.
    pub mv: Option<String>,
}

/// Every action acknowledged in one game, to be found in its stored record after the run.
#[derive(Debug, Clone, Default)]
pub struct Ledger {
    /// The game (`state.game.id`), once seen.
    pub game_id: Option<String>,
    /// A seated player's token (the record of a private room's running game is theirs to read).
    pub token: String,
    /// Index of the room in the run (which node to ask first).
    pub index: usize,
    /// In the order acknowledged.
    pub actions: Vec<Action>,
}

pub(super) struct Player {
    /// `None` while the socket is being opened again.
    sink: Option<SplitSink<Ws, Message>>,
    version: Option<u64>,
    epoch: Option<String>,
    seat: Option<u64>,
    last_sent: Option<Instant>,
    /// On a node that relays it to the room's node.
    relayed: bool,
    /// Index of its node in [`Shared::targets`].
    node: usize,
    /// Bumped each time the socket is replaced: what an older socket still says is ignored.
    generation: u32,
    /// Its WebSocket path (token included), to open it again.
    path: String,
    /// Its loopback source address.
    source: IpAddr,
}

/// What a message is read for, in one pass over its text: the fields every connection needs and,
/// for the keeper alone, an update's patch (`P`) and a snapshot's state (`S`). The other connections
/// read with [`IgnoredAny`] there, which skips those values without building them.
#[derive(Deserialize)]
struct Head<'a, P = Patch, S = Value> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    version: Option<u64>,
    #[serde(borrow)]
    epoch: Option<Cow<'a, str>>,
    id: Option<Value>,
    seat: Option<u64>,
    #[serde(borrow)]
    code: Option<Cow<'a, str>>,
    patch: Option<P>,
    state: Option<S>,
}

impl<'a> Head<'a> {
    /// Reads `text` as connection `i` needs it (the keeper with the patch or state).
    fn read(text: &'a str, i: usize) -> serde_json::Result<Self> {
        if i == KEEPER {
            return serde_json::from_str(text);
        }
        let h: Head<'a, IgnoredAny, IgnoredAny> = serde_json::from_str(text)?;
        Ok(Head {
            kind: h.kind,
            version: h.version,
            epoch: h.epoch,
            id: h.id,
            seat: h.seat,
            code: h.code,
            patch: None,
            state: None,
        })
    }
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
    /// The server's nodes (one for a single server).
    pub(super) targets: Vec<SocketAddr>,
    /// A socket that drops is opened again (through the next node when its own refuses), for at most
    /// this long; `None`: a dropped socket ends its room.
    pub(super) reconnect: Option<Duration>,
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
    /// Commands sent and not yet answered, by id: an `ack` for any of them counts.
    unanswered: HashMap<u64, Action>,
    /// The current game's acknowledged actions; `done` the games before it.
    ledger: Ledger,
    done: Vec<Ledger>,
    /// When the room last completed an action.
    last_done: Option<Instant>,
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
        if self
            .players
            .iter()
            .any(|p| p.version != keeper_version || p.sink.is_none())
        {
            return; // some client has not seen everything yet, or is being reconnected
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
        if self.ledger.game_id.is_none() {
            self.ledger.game_id = state["game"]["id"].as_str().map(str::to_owned);
        }
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
        let (command, action) = match phase {
            "roll" => (
                json!({"type": "roll", "id": id, "version": version}),
                Action { seat, mv: None },
            ),
            _ => match view["legal_moves"][0]["text"].as_str() {
                Some(text) => (
                    json!({"type": "move", "id": id, "move": text, "version": version}),
                    Action {
                        seat,
                        mv: Some(text.to_owned()),
                    },
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
            by: conn,
            got: [false; SEATS],
            acked: false,
            is_move: action.mv.is_some(),
            slowest: Duration::ZERO,
        });
        self.unanswered.insert(id, action);
        self.stats().commands.fetch_add(1, Ordering::Relaxed);
        let Some(sink) = self.players[conn].sink.as_mut() else {
            return;
        };
        if let Err(e) = sink.send(Message::text(command.to_string())).await {
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
        let now = Instant::now();
        if let Some(last) = self.last_done.replace(now) {
            stats.record_gap(now - last);
        }
        self.pending = None;
        if self.shared.pace.is_zero() {
            self.due = true;
        }
    }

    /// Gives the pending command up (its answer cannot come): the room decides again from its state.
    fn abandon(&mut self) {
        if self.pending.take().is_some() {
            self.stats().abandoned.fetch_add(1, Ordering::Relaxed);
            if self.shared.pace.is_zero() {
                self.due = true;
            }
        }
    }

    async fn on_text(&mut self, i: usize, text: &str) -> Flow {
        let stats = self.shared.stats.clone();
        stats.bytes.fetch_add(text.len() as u64, Ordering::Relaxed);
        let head = match Head::read(text, i) {
            Ok(h) => h,
            Err(e) => {
                stats.error(|| format!("unreadable message: {e}"));
                return Flow::Continue;
            }
        };
        match head.kind.as_ref() {
            "snapshot" => {
                // A later snapshot (the room moved to another node, or a reconnect past the updates
                // kept): an update the pending command waits for may never come on this socket.
                if self.players[i].version.is_some() {
                    self.abandon();
                }
                self.players[i].version = head.version;
                self.players[i].epoch = head.epoch.map(Cow::into_owned);
                if i == KEEPER {
                    match head.state {
                        Some(state) => self.state = Some(state),
                        None => stats.error(|| "snapshot without state".into()),
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
                    self.apply_patch(head.patch, v).await;
                }
                if let Some(p) = &mut self.pending
                    && v > p.base
                    && !p.got[i]
                {
                    p.got[i] = true;
                    let d = p.sent.elapsed();
                    p.slowest = p.slowest.max(d);
                    stats.record_client(d, self.players[i].relayed);
                    self.check_complete();
                }
            }
            "ack" => {
                let id = head.id.as_ref().and_then(Value::as_u64);
                if let Some(action) = id.and_then(|id| self.unanswered.remove(&id)) {
                    stats.acked.fetch_add(1, Ordering::Relaxed);
                    self.ledger.actions.push(action);
                }
                if let Some(p) = &mut self.pending
                    && id == Some(p.id)
                {
                    p.acked = true;
                    self.check_complete();
                }
            }
            "error" => {
                let code = head.code.as_deref().unwrap_or("?").to_owned();
                stats.error(|| format!("server error: {text}"));
                let id = head.id.as_ref().and_then(Value::as_u64);
                if let Some(id) = id {
                    self.unanswered.remove(&id);
                }
                if let Some(p) = &self.pending
                    && id == Some(p.id)
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

    /// The keeper applies an update's patch to its state (asks for a snapshot if it cannot). The
    /// state is dropped on a failure, so a patch half applied is never used: no undo is kept.
    async fn apply_patch(&mut self, patch: Option<Patch>, v: u64) {
        let applied = match (patch, &mut self.state) {
            (Some(patch), Some(state)) => {
                json_patch::patch_unsafe(state, &patch).map_err(|e| e.to_string())
            }
            (None, _) => Err("update without patch".to_owned()),
            (_, None) => Err("update before snapshot".to_owned()),
        };
        if let Err(e) = applied {
            self.stats().error(|| format!("patch of version {v}: {e}"));
            self.state = None;
            if let Some(sink) = self.players[KEEPER].sink.as_mut() {
                let _ = sink.send(Message::text(r#"{"type":"resync"}"#)).await;
            }
        }
    }

    /// Player `i`'s socket is open again (of `generation`, on node `node`).
    fn reattach(
        &mut self,
        i: usize,
        generation: u32,
        opened: Opened,
        node: usize,
        streams: &mut Inbound,
    ) {
        let stats = &self.shared.stats;
        stats.reconnects.fetch_add(1, Ordering::Relaxed);
        stats.connected.fetch_add(1, Ordering::Relaxed);
        let (sink, stream) = opened.ws.split();
        let player = &mut self.players[i];
        player.sink = Some(sink);
        player.relayed = opened.relayed;
        player.node = node;
        reconnect::listen(streams, i, generation, stream);
    }

    /// Player `i`'s socket dropped: the room ends, or (with `reconnect`) the socket is opened again.
    fn lost(&mut self, i: usize, why: &str, reopening: &mut Reopening) -> Flow {
        if self.shared.stopping.load(Ordering::Relaxed) {
            return Flow::Dead;
        }
        let stats = self.shared.stats.clone();
        stats.disconnects.fetch_add(1, Ordering::Relaxed);
        let Some(within) = self.shared.reconnect else {
            stats.error(|| format!("player {i} disconnected: {why}"));
            return Flow::Dead;
        };
        stats.note(|| format!("player {i} disconnected: {why}"));
        stats.connected.fetch_sub(1, Ordering::Relaxed);
        let player = &mut self.players[i];
        player.sink = None;
        player.generation += 1;
        if self.pending.as_ref().is_some_and(|p| p.by == i) {
            self.abandon(); // its ack went with the socket
        }
        let player = &self.players[i];
        let resume = match (player.version, &player.epoch) {
            (Some(v), Some(e)) => format!("&since={v}&epoch={e}"),
            _ => String::new(),
        };
        reopening.push(reconnect::reopen(
            i,
            player.generation,
            self.shared.targets.clone(),
            player.node,
            player.source,
            format!("{}{resume}", player.path),
            within,
        ));
        Flow::Continue
    }
}

/// How a room's game ended, seen from the load generator.
enum GameEnd {
    /// The game is over (the server said so).
    Over,
    /// The session is stopping, or a connection was lost for good.
    Stop,
}

/// The players of freshly opened sockets, and one tagged stream of their messages.
fn attach(
    conns: Vec<Opened>,
    plan: &Plan,
    nodes: &[usize],
    sources: &[IpAddr],
) -> (Vec<Player>, Inbound) {
    let mut streams = Inbound::new();
    let mut players = Vec::with_capacity(SEATS);
    for (i, opened) in conns.into_iter().enumerate() {
        let (sink, stream) = opened.ws.split();
        players.push(Player {
            sink: Some(sink),
            version: None,
            epoch: None,
            seat: None,
            last_sent: None,
            relayed: opened.relayed,
            node: nodes[i],
            generation: 0,
            path: plan.paths[i].clone(),
            source: sources[i],
        });
        reconnect::listen(&mut streams, i, 0, stream);
    }
    (players, streams)
}

/// A room's sockets as opened, with where they are.
pub(super) struct Start {
    pub(super) conns: Vec<Opened>,
    pub(super) plan: Plan,
    /// Index in [`Shared::targets`] of each socket's node.
    pub(super) nodes: Vec<usize>,
    pub(super) sources: Vec<IpAddr>,
    /// When the room's slots begin, after the go signal.
    pub(super) offset: Duration,
}

/// Plays one room: its game, then (with [`SessionConfig::new_games`](super::SessionConfig::new_games)) a
/// new game in a new room each time one ends, from the same source addresses, keeping the room's slot in
/// the pace. Returns the acknowledged actions of each game it played.
pub(super) async fn drive_room(
    start: Start,
    shared: Arc<Shared>,
    mut go: watch::Receiver<Option<Instant>>,
    mut stop: watch::Receiver<bool>,
) -> Vec<Ledger> {
    let Start {
        conns,
        plan,
        nodes,
        sources,
        offset,
    } = start;
    let (players, mut streams) = attach(conns, &plan, &nodes, &sources);
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
        unanswered: HashMap::new(),
        ledger: Ledger {
            token: plan.tokens.first().cloned().unwrap_or_default(),
            index: plan.index,
            ..Ledger::default()
        },
        done: Vec::new(),
        last_done: None,
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
        let open = room.players.iter().filter(|p| p.sink.is_some()).count() as u64;
        shared.stats.connected.fetch_sub(open, Ordering::Relaxed);
        // Close politely so the server sees a normal end, not a reset.
        for p in &mut room.players {
            if let Some(sink) = p.sink.as_mut() {
                let _ = tokio::time::timeout(Duration::from_millis(200), sink.close()).await;
            }
        }
        drop(streams);
        let finished = std::mem::take(&mut room.ledger);
        let (GameEnd::Over, Some(renewal)) = (end, &shared.renewal) else {
            room.done.push(finished);
            return room.done;
        };
        room.done.push(finished);
        let index = renewal.next_index.fetch_add(1, Ordering::Relaxed);
        let (conns, plan) =
            match setup_parchis_room(&renewal.client, renewal.addr, index, &renewal.rules).await {
                Ok(plan) => match connect_plan(&[renewal.addr; 4], &plan, &sources).await {
                    Ok(conns) => (conns, plan),
                    Err(e) => {
                        shared.stats.connect_errors.fetch_add(1, Ordering::Relaxed);
                        shared.stats.error(|| format!("connect (new game): {e}"));
                        return room.done;
                    }
                },
                Err(e) => {
                    shared.stats.error(|| format!("setup (new game): {e}"));
                    return room.done;
                }
            };
        if *stop.borrow() {
            return room.done;
        }
        shared.stats.games_restarted.fetch_add(1, Ordering::Relaxed);
        let home = shared
            .targets
            .iter()
            .position(|a| *a == renewal.addr)
            .unwrap_or(0);
        let (players, new_streams) = attach(conns, &plan, &[home; SEATS], &sources);
        streams = new_streams;
        room.players = players;
        room.state = None;
        room.pending = None;
        room.unanswered.clear();
        room.ledger = Ledger {
            token: plan.tokens.first().cloned().unwrap_or_default(),
            index: plan.index,
            ..Ledger::default()
        };
        // Closed loop: the new game's first command goes as soon as its state arrives. Paced: the next
        // slot of the room's schedule.
        room.due = room.shared.pace.is_zero();
        room.defer_until = None;
        room.over = false;
    }
}

/// Plays the room's current game until it ends, the session stops or a connection is lost for good.
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
    let mut reopening: Reopening = FuturesUnordered::new();
    loop {
        if room.over && renew {
            return GameEnd::Over;
        }
        if streams.is_empty() && reopening.is_empty() {
            return GameEnd::Stop;
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
            Some(reopened) = reopening.next(), if !reopening.is_empty() => {
                let (i, generation, result) = reopened;
                if generation != room.players[i].generation {
                    continue;
                }
                match result {
                    Ok((opened, node)) => room.reattach(i, generation, opened, node, streams),
                    Err(e) => {
                        let stats = &room.shared.stats;
                        stats.reconnect_failures.fetch_add(1, Ordering::Relaxed);
                        stats.error(|| format!("player {i} not reconnected: {e}"));
                        return GameEnd::Stop;
                    }
                }
            }
            Some((i, generation, item)) = streams.next(), if !streams.is_empty() => {
                if generation != room.players[i].generation {
                    continue; // what an abandoned socket still says
                }
                let flow = match item {
                    None => room.lost(i, "end of stream", &mut reopening),
                    Some(Err(e)) => room.lost(i, &e.to_string(), &mut reopening),
                    Some(Ok(Message::Text(t))) => room.on_text(i, t.as_str()).await,
                    Some(Ok(Message::Close(frame))) => {
                        room.lost(i, &format!("closed by the server: {frame:?}"), &mut reopening)
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

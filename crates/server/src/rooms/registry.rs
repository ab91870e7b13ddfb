//! The narrow interface handlers use to reach rooms, and its single-node
//! implementation (one tokio task per room, bounded channels).

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use tokio::sync::{broadcast, mpsc, oneshot, watch};

use super::hub::{ConnId, OUTBOUND_QUEUE};
use super::lobby::{Lobby, RoomCommand, RoomEvent, RoomSnapshot};
use super::protocol::{ClientMessage, Outbound};
use super::relayed::{RelayedConn, Sink};
use super::room::{ConnectRequest, Room, Timing};
use super::task::{self, Envelope, Inbox};
use crate::db::Db;
use crate::error::AppError;

/// A boxed, sendable future (keeps [`RoomRegistry`] object-safe).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Counts for the metrics endpoint.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RegistryStats {
    /// Rooms with a running task on this node.
    pub live_rooms: usize,
    /// Open subscriptions to room broadcasts (in-process subscribers).
    pub subscribers: usize,
    /// Open realtime (WebSocket) connections.
    pub connections: usize,
    /// Rooms the registry keeps channels for: the live ones, plus any whose task is stopping right now
    /// (stopped rooms must not pile up here).
    pub held_rooms: usize,
}

/// A realtime connection's link to its room: what to send to the client,
/// and the way to pass the client's commands in.
pub struct RoomLink {
    /// Messages for the client, in order (a closed queue means "too slow").
    pub outbound: mpsc::Receiver<Outbound>,
    /// Passes commands in; tells the room when dropped.
    pub sender: RoomSender,
}

/// Sends one connection's commands to its room; dropping it disconnects.
pub struct RoomSender {
    /// Where the commands go.
    route: SenderRoute,
}

/// Where a [`RoomSender`]'s commands go.
enum SenderRoute {
    /// The room's task runs on this node.
    Local {
        /// This connection's id in the room.
        conn: ConnId,
        /// The room's inbox.
        inbox: mpsc::Sender<Inbox>,
        /// Where to report the disconnect (unbounded: one message per connection).
        gone: mpsc::UnboundedSender<ConnId>,
        /// Counts the connection in [`LocalRegistry::connected`] while it lasts (`None` for an
        /// anonymous spectator), so that revoking a player's token finds every room where one of its
        /// sockets is open.
        _presence: Option<Presence>,
    },
    /// Cluster mode: a relay task passes them to the room's owner, wherever it runs (closing the
    /// channel disconnects).
    Relayed(mpsc::Sender<ClientMessage>),
}

/// Rooms with open realtime connections, by player id: how many sockets the player has in each room.
type ConnectedRooms = Arc<Mutex<HashMap<String, HashMap<String, usize>>>>;

/// One player's connection to one room, counted in [`ConnectedRooms`] until dropped.
struct Presence {
    /// The index it is counted in.
    index: ConnectedRooms,
    /// Whose connection it is.
    player_id: String,
    /// Where it is open.
    room_id: String,
}

impl Presence {
    fn new(index: &ConnectedRooms, player_id: String, room_id: String) -> Presence {
        let mut players = index.lock().unwrap_or_else(|e| e.into_inner());
        *players
            .entry(player_id.clone())
            .or_default()
            .entry(room_id.clone())
            .or_default() += 1;
        Presence {
            index: Arc::clone(index),
            player_id,
            room_id,
        }
    }
}

impl Drop for Presence {
    fn drop(&mut self) {
        let mut players = self.index.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(rooms) = players.get_mut(&self.player_id) {
            if let Some(n) = rooms.get_mut(&self.room_id) {
                *n -= 1;
                if *n == 0 {
                    rooms.remove(&self.room_id);
                }
            }
            if rooms.is_empty() {
                players.remove(&self.player_id);
            }
        }
    }
}

impl RoomSender {
    /// A sender whose commands a relay task reads from `tx`'s channel (cluster mode).
    pub fn relayed(tx: mpsc::Sender<ClientMessage>) -> RoomSender {
        RoomSender {
            route: SenderRoute::Relayed(tx),
        }
    }

    /// Whether the room runs on another node (cluster mode), as it did when the socket was attached.
    pub fn is_relayed(&self) -> bool {
        matches!(self.route, SenderRoute::Relayed(_))
    }

    /// Passes a command to the room (waits if the room is busy); `false` if the room is gone.
    pub async fn send(&self, message: ClientMessage) -> bool {
        match &self.route {
            SenderRoute::Local { conn, inbox, .. } => inbox
                .send(Inbox::Client {
                    conn: *conn,
                    message,
                })
                .await
                .is_ok(),
            SenderRoute::Relayed(tx) => tx.send(message).await.is_ok(),
        }
    }
}

impl Drop for RoomSender {
    fn drop(&mut self) {
        if let SenderRoute::Local { conn, gone, .. } = &self.route {
            let _ = gone.send(*conn);
        }
    }
}

/// Proof that this node owns a room, held by the room's task while it runs and dropped when it stops
/// (cluster mode releases the room then).
pub type OwnerGuard = Box<dyn Send + Sync>;

/// Cluster mode's say in which rooms this node may run: asked before a room's task starts.
pub trait Ownership: Send + Sync + 'static {
    /// Claims the (existing) room for this node: `Some` when this node owns it now, `None` when
    /// another node does.
    fn claim<'a>(&'a self, room_id: &'a str)
    -> BoxFuture<'a, Result<Option<OwnerGuard>, AppError>>;

    /// Whether another node is known to own the room now: then its task does not start here, and no
    /// claim is tried (it would fail).
    fn owned_elsewhere(&self, _room_id: &str) -> bool {
        false
    }
}

/// How handlers reach rooms: look one up, send it a command, subscribe or
/// connect to it. A multi-node implementation only has to provide these.
pub trait RoomRegistry: Send + Sync + 'static {
    /// The room's current state, or `None` if no room has this id (a snapshot command to its owner).
    fn lookup<'a>(
        &'a self,
        room_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<RoomSnapshot>, AppError>> {
        Box::pin(async move {
            match self.send(room_id, RoomCommand::Snapshot).await {
                Ok(snapshot) => Ok(Some(snapshot)),
                Err(AppError::RoomNotFound) => Ok(None),
                Err(err) => Err(err),
            }
        })
    }

    /// The room's current state if its task is running on this node, else `None`; never loads a room
    /// from storage (for listings, which must not wake every stored room).
    fn lookup_live<'a>(
        &'a self,
        room_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<RoomSnapshot>, AppError>>;

    /// Has the room's owner apply `command`; answers with the state afterwards.
    fn send<'a>(
        &'a self,
        room_id: &'a str,
        command: RoomCommand,
    ) -> BoxFuture<'a, Result<RoomSnapshot, AppError>>;

    /// Receives every lobby event the room broadcasts from now on.
    fn subscribe<'a>(
        &'a self,
        room_id: &'a str,
    ) -> BoxFuture<'a, Result<broadcast::Receiver<RoomEvent>, AppError>>;

    /// Opens a realtime connection to the room (snapshot or catch-up first).
    fn connect<'a>(
        &'a self,
        room_id: &'a str,
        request: ConnectRequest,
    ) -> BoxFuture<'a, Result<RoomLink, AppError>>;

    /// The rooms on this node where `player_id` has a realtime connection open, seated or watching (a
    /// revoked token must lose every socket it opened, wherever).
    fn connected_rooms(&self, player_id: &str) -> Vec<String>;

    /// [`RoomRegistry::connected_rooms`] of every node (cluster mode asks them all; a single node
    /// answers for itself).
    fn connected_rooms_everywhere<'a>(&'a self, player_id: &'a str) -> BoxFuture<'a, Vec<String>> {
        Box::pin(async move { self.connected_rooms(player_id) })
    }

    /// Stops every room task (server shutdown); their connections are closed.
    fn shutdown(&self);

    /// Resolves once every room task of this node has ended (after [`RoomRegistry::shutdown`]), so that
    /// storage is closed only when no room can use it any more.
    fn stopped(&self) -> BoxFuture<'_, ()> {
        Box::pin(std::future::ready(()))
    }

    /// Counts for metrics.
    fn stats(&self) -> RegistryStats;
}

/// Capacity of each room's inbox; senders wait when it is full.
const COMMAND_QUEUE: usize = 64;
/// Capacity of each room's lobby broadcast buffer; slow subscribers see `Lagged`. Lobby events are a
/// handful per room (joins, leaves, start), and the buffer is allocated whole for every live room.
const EVENT_BUFFER: usize = 16;
/// How long a command may wait for a place in a full queue.
const SEND_TIMEOUT: Duration = Duration::from_secs(5);
/// How many times a command or connection is handed to the room's task when the task stops without
/// reading it (it became idle the instant it arrived; each time, the next task starts afresh).
const DELIVERIES: usize = 3;

/// Channels to one running room task.
#[derive(Clone)]
struct RoomHandle {
    /// The task's inbox.
    inbox: mpsc::Sender<Inbox>,
    /// Disconnect notices into the task.
    gone: mpsc::UnboundedSender<ConnId>,
    /// Broadcast side, to hand out subscriptions.
    events: broadcast::Sender<RoomEvent>,
    /// Which start of the room's task this is: a stopping task removes its own entry, never a newer one's.
    generation: u64,
    /// Flipped to `true` to stop this room's task alone (cluster mode: the node lost the room).
    stop: Arc<watch::Sender<bool>>,
}

/// Single-node registry. The map is only touched to find or insert a room's
/// channels; commands never hold its lock.
pub struct LocalRegistry {
    /// Storage, to load rooms whose task is not running (yet, or any more).
    db: Db,
    /// Running room tasks by room id (a task removes its entry when it stops, so the map holds
    /// only live rooms however many have come and gone).
    rooms: Arc<RwLock<HashMap<String, RoomHandle>>>,
    /// Numbers room task starts, for [`RoomHandle::generation`].
    starts: AtomicU64,
    /// Delays before the server acts for a seat.
    timing: Timing,
    /// Open realtime connections across rooms.
    connections: Arc<AtomicUsize>,
    /// The rooms where each player has connections open.
    connected: ConnectedRooms,
    /// Flipped to `true` to stop every room task.
    stop: watch::Sender<bool>,
    /// How many room tasks are running (see [`RoomRegistry::stopped`]).
    running: Arc<watch::Sender<usize>>,
    /// Cluster mode: claims a room for this node before its task starts (`None`: single node).
    ownership: Option<Arc<dyn Ownership>>,
    /// A room starts under one of these (by its id's hash), so that two requests never load and claim
    /// it twice at once.
    starting: Vec<tokio::sync::Mutex<()>>,
    /// Rooms loading at once (read, claimed, log replayed) at most: a burst of starts (a dead node's
    /// rooms taken over) waits its turn instead of taking every connection of the pool, whose waits
    /// then ran out for everyone (`storage_unavailable`; BENCHMARKS.md, Cluster (c)).
    loading: Arc<tokio::sync::Semaphore>,
}

/// One running room task, counted in [`LocalRegistry::running`] until it is dropped.
struct Running(Arc<watch::Sender<usize>>);

impl Running {
    fn count(running: &Arc<watch::Sender<usize>>) -> Self {
        running.send_modify(|n| *n += 1);
        Running(Arc::clone(running))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n -= 1);
    }
}

/// How many [`LocalRegistry::starting`] locks there are.
const START_LOCKS: usize = 64;

impl LocalRegistry {
    /// An empty registry loading rooms from `db` on demand, default timing.
    pub fn new(db: Db) -> Self {
        Self::with_timing(db, Timing::default())
    }

    /// An empty registry with the given bot delay and away grace.
    pub fn with_timing(db: Db, timing: Timing) -> Self {
        let loading = db.pool_settings().room_starts();
        LocalRegistry {
            db,
            rooms: Arc::default(),
            starts: AtomicU64::new(0),
            timing,
            connections: Arc::default(),
            connected: Arc::default(),
            stop: watch::Sender::new(false),
            running: Arc::new(watch::Sender::new(0)),
            ownership: None,
            starting: (0..START_LOCKS)
                .map(|_| tokio::sync::Mutex::new(()))
                .collect(),
            loading: Arc::new(tokio::sync::Semaphore::new(loading)),
        }
    }

    /// The same registry, claiming each room through `ownership` before running it (cluster mode).
    pub fn with_ownership(mut self, ownership: Arc<dyn Ownership>) -> Self {
        self.ownership = Some(ownership);
        self
    }

    /// Whether the room's task runs on this node.
    pub fn is_running(&self, room_id: &str) -> bool {
        self.running(room_id).is_some()
    }

    /// The rooms whose task runs on this node.
    pub fn running_rooms(&self) -> Vec<String> {
        let rooms = self.rooms.read().unwrap_or_else(|e| e.into_inner());
        rooms
            .iter()
            .filter(|(_, h)| !h.inbox.is_closed())
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// Stops the room's task if it runs here (its connections are closed as at shutdown).
    pub fn evict(&self, room_id: &str) {
        if let Some(handle) = self.running(room_id) {
            handle.stop.send_replace(true);
        }
    }

    fn running(&self, room_id: &str) -> Option<RoomHandle> {
        let rooms = self.rooms.read().unwrap_or_else(|e| e.into_inner());
        rooms.get(room_id).filter(|h| !h.inbox.is_closed()).cloned()
    }

    /// The room's task, started from storage if needed; `None` if no such room.
    async fn handle(&self, room_id: &str) -> Result<Option<RoomHandle>, AppError> {
        if let Some(handle) = self.running(room_id) {
            return Ok(Some(handle));
        }
        // The server is stopping: no room starts again (its task would never hear of the stop).
        if *self.stop.borrow() {
            return Err(AppError::RoomBusy);
        }
        if self
            .ownership
            .as_ref()
            .is_some_and(|o| o.owned_elsewhere(room_id))
        {
            return Err(AppError::RoomBusy);
        }
        let lock = {
            use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
            let hash = BuildHasherDefault::<DefaultHasher>::default().hash_one(room_id);
            &self.starting[(hash % START_LOCKS as u64) as usize]
        };
        let _starting = lock.lock().await;
        if let Some(handle) = self.running(room_id) {
            return Ok(Some(handle));
        }
        // Held until the room's log is replayed, in its task.
        let loading = Arc::clone(&self.loading)
            .acquire_owned()
            .await
            .map_err(|_| AppError::RoomBusy)?;
        let Some(room) = self.db.room(room_id).await? else {
            return Ok(None);
        };
        // Cluster mode: only the room's owner runs it (another node's request is routed to it).
        let guard = match &self.ownership {
            None => None,
            Some(ownership) => match ownership.claim(room_id).await? {
                Some(guard) => Some(guard),
                None => return Err(AppError::RoomBusy),
            },
        };
        let seats = self.db.room_seats(room_id).await?;
        let game = self.db.latest_game_of_room(room_id).await?;
        let mut rooms = self.rooms.write().unwrap_or_else(|e| e.into_inner());
        // Another request may have started the task while we were loading.
        if let Some(handle) = rooms.get(room_id).filter(|h| !h.inbox.is_closed()) {
            return Ok(Some(handle.clone()));
        }
        let (inbox, receiver) = mpsc::channel(COMMAND_QUEUE);
        let (gone, gone_rx) = mpsc::unbounded_channel();
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        let lobby = Lobby::new(room, seats, game);
        let room = Room::new(
            lobby,
            self.db.clone(),
            events.clone(),
            self.timing,
            self.connections.clone(),
        );
        let generation = self.starts.fetch_add(1, Ordering::Relaxed);
        let map = Arc::clone(&self.rooms);
        let id = room_id.to_owned();
        // Its own stop, flipped by `evict` or with every other room's by `shutdown`.
        let (stop, stop_rx) = watch::channel(*self.stop.borrow());
        let running = Running::count(&self.running);
        tokio::spawn(async move {
            let _running = running;
            task::run(room, loading, receiver, gone_rx, stop_rx).await;
            let mut rooms = map.write().unwrap_or_else(|e| e.into_inner());
            if rooms.get(&id).is_some_and(|h| h.generation == generation) {
                rooms.remove(&id);
            }
            drop(rooms);
            drop(guard);
        });
        let handle = RoomHandle {
            inbox,
            gone,
            events,
            generation,
            stop: Arc::new(stop),
        };
        rooms.insert(room_id.to_owned(), handle.clone());
        // A shutdown that came while the room was loading still reaches it.
        if *self.stop.borrow() {
            handle.stop.send_replace(true);
        }
        Ok(Some(handle))
    }

    /// Delivers an inbox message, retrying once if the task stopped in
    /// between; returns the handle it went to.
    async fn deliver(&self, room_id: &str, mut message: Inbox) -> Result<RoomHandle, AppError> {
        for _ in 0..2 {
            let handle = self.handle(room_id).await?.ok_or(AppError::RoomNotFound)?;
            match tokio::time::timeout(SEND_TIMEOUT, handle.inbox.send(message)).await {
                Err(_elapsed) => return Err(AppError::RoomBusy),
                Ok(Err(mpsc::error::SendError(back))) => message = back,
                Ok(Ok(())) => return Ok(handle),
            }
        }
        Err(AppError::Internal("room task keeps stopping".into()))
    }

    async fn send_inner(
        &self,
        room_id: &str,
        command: RoomCommand,
    ) -> Result<RoomSnapshot, AppError> {
        for _ in 0..DELIVERIES {
            let (reply, answer) = oneshot::channel();
            let message = Inbox::Command(Envelope {
                command: command.clone(),
                reply,
            });
            self.deliver(room_id, message).await?;
            match answer.await {
                Ok(result) => return result,
                // The task stopped with the command unread in its inbox (it had just become idle):
                // nothing was done, so it goes to the room's next task.
                Err(_unread) => {}
            }
        }
        Err(AppError::Internal("room task dropped a reply".into()))
    }

    async fn connect_inner(
        &self,
        room_id: &str,
        request: ConnectRequest,
    ) -> Result<RoomLink, AppError> {
        let (tx, outbound) = mpsc::channel(OUTBOUND_QUEUE);
        let sender = self
            .add_connection(room_id, request, Sink::Local(tx))
            .await?;
        Ok(RoomLink { outbound, sender })
    }

    /// Cluster mode: adds a connection whose socket is on another node; its messages go through the
    /// room's relay (see [`super::relayed`]). The answer passes its commands in.
    pub async fn connect_relayed(
        &self,
        room_id: &str,
        request: ConnectRequest,
        relayed: RelayedConn,
    ) -> Result<RoomSender, AppError> {
        self.add_connection(room_id, request, Sink::Relayed(relayed))
            .await
    }

    /// Adds a connection whose messages go to `sink` to the room: the sender of its commands.
    async fn add_connection(
        &self,
        room_id: &str,
        request: ConnectRequest,
        sink: Sink,
    ) -> Result<RoomSender, AppError> {
        // Counted before the room sees it, so that a revocation racing the connection still finds it.
        let presence = request
            .player_id
            .clone()
            .map(|player| Presence::new(&self.connected, player, room_id.to_owned()));
        for _ in 0..DELIVERIES {
            let (reply, answer) = oneshot::channel();
            let message = Inbox::Connect {
                sink: sink.clone(),
                request: request.clone(),
                reply,
            };
            let handle = self.deliver(room_id, message).await?;
            // `Err`: the task stopped with the connection unread (see `send_inner`), so nothing went
            // to the sink yet: to the next task.
            if let Ok(conn) = answer.await {
                return Ok(RoomSender {
                    route: SenderRoute::Local {
                        conn,
                        inbox: handle.inbox,
                        gone: handle.gone,
                        _presence: presence,
                    },
                });
            }
        }
        Err(AppError::Internal("room task dropped a connection".into()))
    }
}

impl RoomRegistry for LocalRegistry {
    fn lookup_live<'a>(
        &'a self,
        room_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<RoomSnapshot>, AppError>> {
        Box::pin(async move {
            let Some(handle) = self.running(room_id) else {
                return Ok(None);
            };
            let (reply, answer) = oneshot::channel();
            let message = Inbox::Command(Envelope {
                command: RoomCommand::Snapshot,
                reply,
            });
            match tokio::time::timeout(SEND_TIMEOUT, handle.inbox.send(message)).await {
                Err(_elapsed) => return Err(AppError::RoomBusy),
                Ok(Err(_stopped)) => return Ok(None), // stopped meanwhile: nobody is in it
                Ok(Ok(())) => {}
            }
            match answer.await {
                Ok(Ok(snapshot)) => Ok(Some(snapshot)),
                Ok(Err(err)) => Err(err),
                Err(_dropped) => Ok(None),
            }
        })
    }

    fn send<'a>(
        &'a self,
        room_id: &'a str,
        command: RoomCommand,
    ) -> BoxFuture<'a, Result<RoomSnapshot, AppError>> {
        Box::pin(self.send_inner(room_id, command))
    }

    fn subscribe<'a>(
        &'a self,
        room_id: &'a str,
    ) -> BoxFuture<'a, Result<broadcast::Receiver<RoomEvent>, AppError>> {
        Box::pin(async move {
            let handle = self.handle(room_id).await?.ok_or(AppError::RoomNotFound)?;
            Ok(handle.events.subscribe())
        })
    }

    fn connect<'a>(
        &'a self,
        room_id: &'a str,
        request: ConnectRequest,
    ) -> BoxFuture<'a, Result<RoomLink, AppError>> {
        Box::pin(self.connect_inner(room_id, request))
    }

    fn connected_rooms(&self, player_id: &str) -> Vec<String> {
        let players = self.connected.lock().unwrap_or_else(|e| e.into_inner());
        players
            .get(player_id)
            .map(|rooms| rooms.keys().cloned().collect())
            .unwrap_or_default()
    }

    fn shutdown(&self) {
        self.stop.send_replace(true);
        let rooms = self.rooms.read().unwrap_or_else(|e| e.into_inner());
        for handle in rooms.values() {
            handle.stop.send_replace(true);
        }
    }

    fn stopped(&self) -> BoxFuture<'_, ()> {
        let mut running = self.running.subscribe();
        Box::pin(async move {
            let _ = running.wait_for(|n| *n == 0).await;
        })
    }

    fn stats(&self) -> RegistryStats {
        let rooms = self.rooms.read().unwrap_or_else(|e| e.into_inner());
        let live: Vec<_> = rooms.values().filter(|h| !h.inbox.is_closed()).collect();
        RegistryStats {
            live_rooms: live.len(),
            subscribers: live.iter().map(|h| h.events.receiver_count()).sum(),
            connections: self.connections.load(Ordering::Relaxed),
            held_rooms: rooms.len(),
        }
    }
}

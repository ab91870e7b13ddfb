//! [`ClusterRegistry`]: the [`RoomRegistry`] of a cluster node. A room whose task runs here is served
//! by the node's [`LocalRegistry`]; any other is asked of its owner over NATS, and a room nobody runs
//! is claimed and run here.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use async_nats::RequestErrorKind;
use futures_util::StreamExt;
use sqlx::PgPool;
use tokio::sync::{broadcast, watch};
use tokio::task::JoinHandle;

use super::answered::{Answered, reply_to};
use super::feed::FeedEntry;
use super::owners::KnownOwners;
use super::sessions::Sessions;
use super::wire::{Asked, Frame, RoomReply, RoomRequest};
use super::{ClusterConfig, REQUEST_TIMEOUT, relay, release, store, upkeep};
use crate::db::{Db, Pool};
use crate::error::AppError;
use crate::rooms::registry::{BoxFuture, OwnerGuard, Ownership};
use crate::rooms::relayed::{RelayPublisher, RelayedConn};
use crate::rooms::{
    ConnectRequest, LocalRegistry, RegistryStats, RoomCommand, RoomEvent, RoomLink, RoomRegistry,
    RoomSnapshot, Timing,
};

/// How many times a request is routed again while its room changes hands (the waits add up to about
/// twice [`NODE_TTL`], so a dead owner's room is claimed within them).
const ATTEMPTS: u32 = 40;

/// How long a node waits for the others to say where a player is connected.
const PRESENCE_WAIT: Duration = Duration::from_millis(500);

/// The wait before the `attempt`th new try (0-based): short at first, then a quarter of a second.
/// Give or take a quarter (the same on average, so [`ATTEMPTS`] still outlasts a dead owner), so
/// that nodes asking for the same rooms (a dead node's) do not all ask again at the same instant.
pub(super) fn backoff(attempt: u32) -> Duration {
    let ms = (25u64 << attempt.min(4)).min(250);
    Duration::from_millis(rand::random_range(ms * 3 / 4..=ms * 5 / 4))
}

/// The node's cluster-wide registry.
pub struct ClusterRegistry {
    inner: Arc<Inner>,
}

/// Everything the registry, its relays and its upkeep share.
pub(super) struct Inner {
    /// This node's id (new at every start).
    pub node: String,
    /// Its name in logs.
    pub name: String,
    /// First token of every subject.
    prefix: String,
    /// The NATS connection.
    pub nats: async_nats::Client,
    /// PostgreSQL, unfenced: ownership records.
    pub(super) pg: PgPool,
    /// One connection of the heartbeat's own: on the shared pool a burst of requests made it wait over
    /// the TTL, and a late heartbeat stops every room of a node that is alive (BENCHMARKS.md, Cluster).
    pub(super) heartbeat_pg: PgPool,
    /// The rooms whose task runs here (their storage is fenced).
    pub local: LocalRegistry,
    /// The nodes alive, as last read (this one included while its heartbeat holds).
    pub alive: watch::Sender<Arc<HashSet<String>>>,
    /// The owner ends of relayed connections (where their gateways' frames go, by session id), and
    /// the sessions their gateways gave up on before they were added.
    pub sessions: Mutex<Sessions>,
    /// The feeds of rooms run elsewhere that this node's sockets are in, by room id.
    pub feeds: Mutex<HashMap<String, FeedEntry>>,
    /// Opens the relay of a room run here when a socket on another node joins it.
    pub publisher: Arc<dyn RelayPublisher>,
    /// Sockets on this node whose room runs elsewhere, by player id: how many in each room.
    pub presence: Mutex<HashMap<String, HashMap<String, usize>>>,
    /// How many such sockets are open.
    pub relayed: AtomicUsize,
    /// Flipped to `true` when the node stops.
    pub stop: watch::Sender<bool>,
    /// The node's own tasks (dispatch, presence, heartbeat, owned rooms, takeover), ended when it leaves.
    pub(super) tasks: Mutex<Vec<JoinHandle<()>>>,
    /// Its recent answers to other nodes' requests, for their repeats.
    answered: Answered,
    /// Where rooms given up go to be released (tried again until done).
    pub(super) releases: release::Releases,
    /// Claims of this node being made or held, by room: a room it owns in PostgreSQL without one is
    /// released by [`drop_rooms_owned_elsewhere`].
    pub(super) held: Mutex<HashMap<String, usize>>,
    /// Owners that this node's failed claims found, believed for a moment.
    owners: KnownOwners,
}

impl Inner {
    /// The subject of requests to a room's owner.
    fn room_subject(&self, room: &str) -> String {
        format!("{}.room.{room}", self.prefix)
    }

    /// The subject of a relayed connection's frames on `node`.
    pub fn session_subject(&self, node: &str, session: &str) -> String {
        format!("{}.node.{node}.{session}", self.prefix)
    }

    /// The subject of a room's broadcasts to the nodes with sockets in it.
    pub fn fan_subject(&self, room: &str) -> String {
        format!("{}.fan.{room}", self.prefix)
    }

    /// The subject of a room's messages for single sockets on `node`.
    pub fn gateway_subject(&self, node: &str, room: &str) -> String {
        format!("{}.gw.{node}.{room}", self.prefix)
    }

    /// Whether `node` was alive at the last look.
    pub fn is_alive(&self, node: &str) -> bool {
        self.alive.borrow().contains(node)
    }

    /// Asks the room's owner (`None`: nobody serves the room, or its owner did not answer in time; a
    /// late owner may have applied it all the same, so a new try asks with the same `request.id`).
    pub async fn ask(&self, room: &str, request: &Asked) -> Result<Option<RoomReply>, AppError> {
        Ok(match self.ask_owner(room, request).await? {
            Answer::Reply(reply) => Some(reply),
            Answer::Nobody | Answer::Late => None,
        })
    }

    /// Asks the room's owner, telling apart nobody serving the room from an owner that did not
    /// answer in time (and may still act on the request).
    pub async fn ask_owner(&self, room: &str, request: &Asked) -> Result<Answer, AppError> {
        let payload = serde_json::to_vec(request)
            .map_err(|e| AppError::Internal(format!("cannot encode a room request: {e}")))?;
        let asked = Instant::now();
        let answer = self
            .nats
            .request(self.room_subject(room), payload.into())
            .await;
        metrics::histogram!("parchis_cluster_request_seconds")
            .record(asked.elapsed().as_secs_f64());
        match answer {
            Ok(message) => serde_json::from_slice(&message.payload)
                .map(Answer::Reply)
                .map_err(|e| AppError::Internal(format!("a room's owner answered nonsense: {e}"))),
            Err(err) if matches!(err.kind(), RequestErrorKind::NoResponders) => Ok(Answer::Nobody),
            Err(err) if matches!(err.kind(), RequestErrorKind::TimedOut) => {
                tracing::warn!(node = %self.name, room, "the room's owner did not answer in time");
                Ok(Answer::Late)
            }
            Err(err) => Err(AppError::Internal(format!("NATS: {err}"))),
        }
    }

    /// Tells the room's owner, without waiting, that this node gave up on relayed `session`.
    pub async fn abandon(&self, room: &str, session: &str) {
        let request = Asked {
            id: crate::auth::new_id(),
            request: RoomRequest::Abandon {
                gateway: self.node.clone(),
                session: session.to_owned(),
            },
        };
        if let Ok(payload) = serde_json::to_vec(&request) {
            let _ = self
                .nats
                .publish(self.room_subject(room), payload.into())
                .await;
        }
    }

    /// The rooms where `player` has a socket open on this node (its room here or elsewhere).
    fn connected_rooms(&self, player: &str) -> Vec<String> {
        let mut rooms = self.local.connected_rooms(player);
        let presence = self.presence.lock().unwrap_or_else(|e| e.into_inner());
        for room in presence.get(player).into_iter().flat_map(HashMap::keys) {
            if !rooms.contains(room) {
                rooms.push(room.clone());
            }
        }
        rooms
    }

    /// Adds to `rooms` those where `player` has a socket open on the other nodes alive (each answers
    /// on `<prefix>.presence`; a node that does not answer within [`PRESENCE_WAIT`] is left out).
    async fn ask_every_node(
        &self,
        player: &str,
        rooms: &mut Vec<String>,
    ) -> Result<(), async_nats::Error> {
        let others = self
            .alive
            .borrow()
            .iter()
            .filter(|n| **n != self.node)
            .count();
        if others == 0 {
            return Ok(());
        }
        let inbox = self.nats.new_inbox();
        let mut answers = self.nats.subscribe(inbox.clone()).await?;
        self.nats
            .publish_with_reply(
                format!("{}.presence", self.prefix),
                inbox,
                player.to_owned().into(),
            )
            .await?;
        let deadline = tokio::time::Instant::now() + PRESENCE_WAIT;
        let mut heard = 0;
        while heard < others {
            let Ok(Some(answer)) = tokio::time::timeout_at(deadline, answers.next()).await else {
                break;
            };
            let Ok((node, theirs)) =
                serde_json::from_slice::<(String, Vec<String>)>(&answer.payload)
            else {
                continue;
            };
            if node == self.node {
                continue;
            }
            heard += 1;
            for room in theirs {
                if !rooms.contains(&room) {
                    rooms.push(room);
                }
            }
        }
        Ok(())
    }

    /// Claims the room for this node and starts serving requests to it.
    async fn claim(self: Arc<Self>, room: &str) -> Result<Option<OwnerGuard>, AppError> {
        // Counted before the claim is written, so that the upkeep never takes it for a lost one.
        self.hold(room, true);
        let epoch = match store::claim(&self.pg, room, &self.node).await {
            Ok(store::Claim::Won(epoch)) => epoch,
            other => {
                self.hold(room, false);
                let held = other.map_err(|e| AppError::from(crate::db::DbError::Sqlx(e)))?;
                if let store::Claim::Held(Some(owner)) = held {
                    self.owners.found(room, owner);
                }
                return Ok(None);
            }
        };
        self.owners.forget(room);
        let mut owned = Owned {
            room: room.to_owned(),
            epoch,
            serve: None,
            inner: Arc::downgrade(&self),
        };
        // Released on failure (`owned` dropped).
        let subscriber = self
            .nats
            .subscribe(self.room_subject(room))
            .await
            .map_err(|e| AppError::Internal(format!("NATS: {e}")))?;
        // The server knows the subscription before anyone is answered (requests then find it).
        let _ = self.nats.flush().await;
        tracing::debug!(node = %self.name, room, epoch, "room claimed");
        metrics::gauge!("parchis_cluster_rooms_owned").increment(1.0);
        let serve = tokio::spawn(serve_room(
            Arc::downgrade(&self),
            room.to_owned(),
            subscriber,
        ));
        owned.serve = Some(serve);
        Ok(Some(Box::new(owned)))
    }

    /// Counts a claim of `room` being made or held (`true`), or one given up.
    fn hold(&self, room: &str, more: bool) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if more {
            *held.entry(room.to_owned()).or_default() += 1;
        } else if let Some(n) = held.get_mut(room) {
            *n -= 1;
            if *n == 0 {
                held.remove(room);
            }
        }
    }
}

/// What came of asking a room's owner.
pub(super) enum Answer {
    /// Its answer.
    Reply(RoomReply),
    /// Nobody serves the room: the request reached no one.
    Nobody,
    /// No answer in time: the owner may still act on the request.
    Late,
}

/// This node's claim on a room, held by the room's task.
struct Owned {
    room: String,
    epoch: i64,
    /// Its requests' server (`None` until it is subscribed).
    serve: Option<JoinHandle<()>>,
    inner: Weak<Inner>,
}

impl Drop for Owned {
    fn drop(&mut self) {
        if let Some(serve) = self.serve.take() {
            serve.abort();
            metrics::gauge!("parchis_cluster_rooms_owned").decrement(1.0);
        }
        if let Some(inner) = self.inner.upgrade() {
            let _ = inner.releases.send((self.room.clone(), self.epoch));
            inner.hold(&self.room, false);
        }
    }
}

/// The [`Ownership`] the node's [`LocalRegistry`] asks.
struct Claims(Weak<Inner>);

impl Ownership for Claims {
    fn claim<'a>(
        &'a self,
        room_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<OwnerGuard>, AppError>> {
        Box::pin(async move {
            match self.0.upgrade() {
                Some(inner) => inner.claim(room_id).await,
                None => Err(AppError::RoomBusy),
            }
        })
    }

    fn owned_elsewhere(&self, room_id: &str) -> bool {
        self.0.upgrade().is_some_and(|inner| {
            let alive = |node: &str| node != inner.node && inner.is_alive(node);
            inner.owners.held_elsewhere(room_id, alive)
        })
    }
}

/// Answers the requests to a room this node owns, each in a task of its own (a repeat of a recent
/// one with its first answer).
async fn serve_room(inner: Weak<Inner>, room: String, mut subscriber: async_nats::Subscriber) {
    while let Some(message) = subscriber.next().await {
        let Some(inner) = inner.upgrade() else { return };
        let room = room.clone();
        tokio::spawn(async move {
            let reply = reply_to(
                &inner.answered,
                &message.payload,
                Instant::now(),
                |request| answer(&inner, &room, request),
            )
            .await;
            if let Some(to) = message.reply {
                let _ = inner.nats.publish(to, reply).await;
            }
        });
    }
}

/// The owner's answer to one request.
async fn answer(inner: &Arc<Inner>, room: &str, request: RoomRequest) -> RoomReply {
    let result = match request {
        RoomRequest::Command(command) => inner
            .local
            .send(room, command)
            .await
            .map(|s| RoomReply::Snapshot(Some(Box::new(s)))),
        RoomRequest::LookupLive => inner
            .local
            .lookup_live(room)
            .await
            .map(|s| RoomReply::Snapshot(s.map(Box::new))),
        RoomRequest::Connect {
            gateway,
            session,
            request,
        } => match inner
            .local
            .connect_relayed(
                room,
                request.into(),
                RelayedConn {
                    gateway: gateway.as_str().into(),
                    session: session.as_str().into(),
                    publisher: Arc::clone(&inner.publisher),
                },
            )
            .await
        {
            Ok(sender) => {
                if relay::serve_owner(Arc::clone(inner), sender, gateway, session) {
                    Ok(RoomReply::Connected {
                        owner: inner.node.clone(),
                    })
                } else {
                    // Its gateway gave up on it meanwhile: nobody waits for this answer.
                    Err(AppError::RoomBusy)
                }
            }
            Err(err) => Err(err),
        },
        RoomRequest::Abandon { gateway, session } => {
            let dropped = inner
                .sessions
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .abandon(&session, &gateway, Instant::now());
            if dropped {
                metrics::counter!("parchis_cluster_abandoned_connections_total").increment(1);
            }
            // Published without a reply subject: nobody reads this.
            Ok(RoomReply::Snapshot(None))
        }
    };
    result.unwrap_or_else(|err| RoomReply::Error((&err).into()))
}

impl ClusterRegistry {
    /// Joins the cluster: records the node, connects to NATS, opens the fenced pool and starts the
    /// node's upkeep. `db` is the node's (unfenced) PostgreSQL storage, `database_url` its URL.
    pub async fn start(
        db: &Db,
        database_url: &str,
        config: ClusterConfig,
        timing: Timing,
    ) -> Result<Self, String> {
        let Pool::Postgres(pg) = Pool::of(db).clone() else {
            return Err("cluster mode needs PostgreSQL".to_owned());
        };
        let node = crate::auth::new_id();
        let nats = async_nats::ConnectOptions::new()
            .name(format!("parchis {}", config.name))
            .request_timeout(Some(REQUEST_TIMEOUT))
            .connect(config.nats_url.as_str())
            .await
            .map_err(|e| format!("cannot connect to NATS at {}: {e}", config.nats_url))?;
        store::register(&pg, &node, &config.name)
            .await
            .map_err(|e| format!("cannot record the node in PostgreSQL: {e}"))?;
        let fenced = Db::connect_with(&super::fenced_url(database_url, &node), db.pool_settings())
            .await
            .map_err(|e| format!("cannot open the rooms' storage: {e}"))?;
        let alive: HashSet<String> = store::alive_nodes(&pg).await.unwrap_or_default();
        let (releases, to_release) = tokio::sync::mpsc::unbounded_channel();
        let releaser = tokio::spawn(release::run(pg.clone(), node.clone(), to_release));
        let heartbeat_pg = sqlx::postgres::PgPoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .connect_lazy_with((*pg.connect_options()).clone());
        let inner = Arc::new_cyclic(|weak: &Weak<Inner>| Inner {
            local: LocalRegistry::with_timing(fenced, timing)
                .with_ownership(Arc::new(Claims(weak.clone()))),
            node: node.clone(),
            name: config.name.clone(),
            prefix: config.prefix.clone(),
            nats,
            pg,
            heartbeat_pg,
            alive: watch::Sender::new(Arc::new(alive)),
            sessions: Mutex::default(),
            feeds: Mutex::default(),
            publisher: Arc::new(relay::Publisher(weak.clone())),
            presence: Mutex::default(),
            relayed: AtomicUsize::new(0),
            stop: watch::Sender::new(false),
            tasks: Mutex::default(),
            answered: Answered::default(),
            releases,
            held: Mutex::default(),
            owners: KnownOwners::default(),
        });
        let frames = inner
            .nats
            .subscribe(format!("{}.node.{node}.*", config.prefix))
            .await
            .map_err(|e| format!("cannot subscribe to NATS: {e}"))?;
        let presence = inner
            .nats
            .subscribe(format!("{}.presence", config.prefix))
            .await
            .map_err(|e| format!("cannot subscribe to NATS: {e}"))?;
        let tasks = vec![
            tokio::spawn(dispatch(Arc::downgrade(&inner), frames)),
            tokio::spawn(answer_presence(Arc::downgrade(&inner), presence)),
            tokio::spawn(upkeep::heartbeat(Arc::downgrade(&inner))),
            tokio::spawn(upkeep::drop_rooms_owned_elsewhere(Arc::downgrade(&inner))),
            tokio::spawn(upkeep::take_over(Arc::downgrade(&inner))),
            releaser,
        ];
        *inner.tasks.lock().unwrap_or_else(|e| e.into_inner()) = tasks;
        tracing::info!(node = %config.name, id = %node, prefix = %config.prefix, "joined the cluster");
        Ok(ClusterRegistry { inner })
    }

    /// Waits until no other node holds `key`, then holds it until the answer is dropped (a PostgreSQL
    /// transaction-level advisory lock: released at the end of the transaction, or if the node dies).
    pub async fn exclusive(
        &self,
        key: &str,
    ) -> Result<sqlx::Transaction<'static, sqlx::Postgres>, AppError> {
        let db = |e| AppError::from(crate::db::DbError::Sqlx(e));
        let mut tx = self.inner.pg.begin().await.map_err(db)?;
        sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
            .bind(format!("{}:{key}", self.inner.prefix))
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        Ok(tx)
    }

    /// This node's id.
    pub fn node_id(&self) -> &str {
        &self.inner.node
    }

    /// Whether the node's NATS connection is up (for `/readyz`).
    pub fn nats_connected(&self) -> bool {
        self.inner.nats.connection_state() == async_nats::connection::State::Connected
    }

    /// The node has stopped serving: its rooms are released at once and its record goes.
    pub async fn leave(&self) {
        for task in self
            .inner
            .tasks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain(..)
        {
            task.abort();
        }
        if let Err(err) = store::leave(&self.inner.pg, &self.inner.node).await {
            tracing::warn!(%err, "the node's rooms were not released (claimable once it counts as dead)");
        }
        let _ = self.inner.nats.flush().await;
    }
}

/// The snapshot in an owner's reply.
fn snapshot_of(reply: RoomReply) -> Result<Option<RoomSnapshot>, AppError> {
    match reply {
        RoomReply::Snapshot(snapshot) => Ok(snapshot.map(|s| *s)),
        RoomReply::Error(err) => Err(err.into()),
        RoomReply::Connected { .. } => Err(AppError::Internal("unexpected reply".into())),
    }
}

impl RoomRegistry for ClusterRegistry {
    fn lookup_live<'a>(
        &'a self,
        room_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<RoomSnapshot>, AppError>> {
        Box::pin(async move {
            let inner = &self.inner;
            if inner.local.is_running(room_id) {
                return inner.local.lookup_live(room_id).await;
            }
            // Nobody answering means nobody runs it: not live anywhere (no room is woken for this).
            let request = Asked {
                id: crate::auth::new_id(),
                request: RoomRequest::LookupLive,
            };
            match inner.ask(room_id, &request).await? {
                None => Ok(None),
                Some(reply) => snapshot_of(reply),
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
        // Lobby events are for in-process subscribers: the room is run here if nobody else runs it.
        Box::pin(self.inner.local.subscribe(room_id))
    }

    fn connect<'a>(
        &'a self,
        room_id: &'a str,
        request: ConnectRequest,
    ) -> BoxFuture<'a, Result<RoomLink, AppError>> {
        Box::pin(relay::connect(Arc::clone(&self.inner), room_id, request))
    }

    fn connected_rooms(&self, player_id: &str) -> Vec<String> {
        self.inner.connected_rooms(player_id)
    }

    fn connected_rooms_everywhere<'a>(&'a self, player_id: &'a str) -> BoxFuture<'a, Vec<String>> {
        Box::pin(async move {
            let inner = &self.inner;
            let mut rooms = inner.connected_rooms(player_id);
            if let Err(err) = inner.ask_every_node(player_id, &mut rooms).await {
                tracing::warn!(node = %inner.name, %err, "not every node said where a player is connected");
            }
            rooms
        })
    }

    fn shutdown(&self) {
        let inner = &self.inner;
        inner.stop.send_replace(true);
        // The others may claim this node's rooms from now on (its tasks stop below, and the fence
        // refuses anything they still try to write).
        let (pg, node) = (inner.pg.clone(), inner.node.clone());
        tokio::spawn(async move {
            if let Err(err) = store::drain(&pg, &node).await {
                tracing::warn!(%err, "the node was not marked draining");
            }
        });
        inner.local.shutdown();
    }

    fn stats(&self) -> RegistryStats {
        let mut stats = self.inner.local.stats();
        stats.connections += self.inner.relayed.load(Ordering::Relaxed);
        stats
    }
}

impl ClusterRegistry {
    /// Has the room's owner apply `command`: this node's task when the room runs here or nobody runs
    /// it (claiming it), else its owner over NATS; tries again while the room changes hands. Every try
    /// carries the same request id: an owner that applied the command but answered too late answers
    /// the next try with that answer instead of applying it twice.
    async fn send_inner(&self, room: &str, command: RoomCommand) -> Result<RoomSnapshot, AppError> {
        let inner = &self.inner;
        let request = Asked {
            id: crate::auth::new_id(),
            request: RoomRequest::Command(command.clone()),
        };
        for attempt in 0..ATTEMPTS {
            let result = if inner.local.is_running(room) {
                inner.local.send(room, command.clone()).await
            } else {
                match inner.ask(room, &request).await? {
                    None => inner.local.send(room, command.clone()).await,
                    Some(reply) => snapshot_of(reply).and_then(|s| s.ok_or(AppError::RoomNotFound)),
                }
            };
            match result {
                // Owned by a node that does not answer (yet, or any more), or busy: again shortly.
                Err(AppError::RoomBusy) if !*inner.stop.borrow() => {}
                other => return other,
            }
            tokio::time::sleep(backoff(attempt)).await;
        }
        Err(AppError::RoomBusy)
    }
}

/// Tells the node that asks where a player has sockets open on this node.
async fn answer_presence(inner: Weak<Inner>, mut questions: async_nats::Subscriber) {
    while let Some(question) = questions.next().await {
        let Some(inner) = inner.upgrade() else { return };
        let (Some(reply), Ok(player)) = (question.reply, std::str::from_utf8(&question.payload))
        else {
            continue;
        };
        let answer = (&inner.node, inner.connected_rooms(player));
        if let Ok(payload) = serde_json::to_vec(&answer) {
            let _ = inner.nats.publish(reply, payload.into()).await;
        }
    }
}

/// Hands each relayed frame that reaches this node to its session.
async fn dispatch(inner: Weak<Inner>, mut frames: async_nats::Subscriber) {
    while let Some(message) = frames.next().await {
        let Some(inner) = inner.upgrade() else { return };
        let Some(session) = message.subject.rsplit('.').next() else {
            continue;
        };
        let Some(frame) = Frame::decode(&message.payload) else {
            continue;
        };
        let sessions = inner.sessions.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = sessions.get(session) {
            let _ = tx.send(frame);
        }
    }
}

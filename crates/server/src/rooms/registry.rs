//! The narrow interface handlers use to reach rooms, and its single-node
//! implementation (one tokio task per room, bounded channels).

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use tokio::sync::{broadcast, mpsc, oneshot};

use super::lobby::{Lobby, RoomCommand, RoomEvent, RoomSnapshot};
use super::task::{self, Envelope};
use crate::db::Db;
use crate::error::AppError;

/// A boxed, sendable future (keeps [`RoomRegistry`] object-safe).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Counts for the metrics endpoint.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RegistryStats {
    /// Rooms with a running task on this node.
    pub live_rooms: usize,
    /// Open subscriptions to room broadcasts (one per realtime connection).
    pub subscribers: usize,
}

/// How handlers reach rooms: look one up, send it a command, subscribe to it.
/// A multi-node implementation only has to provide these.
pub trait RoomRegistry: Send + Sync + 'static {
    /// The room's current state, or `None` if no room has this id.
    fn lookup<'a>(
        &'a self,
        room_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<RoomSnapshot>, AppError>>;

    /// Has the room's owner apply `command`; answers with the state afterwards.
    fn send<'a>(
        &'a self,
        room_id: &'a str,
        command: RoomCommand,
    ) -> BoxFuture<'a, Result<RoomSnapshot, AppError>>;

    /// Receives every event the room broadcasts from now on.
    fn subscribe<'a>(
        &'a self,
        room_id: &'a str,
    ) -> BoxFuture<'a, Result<broadcast::Receiver<RoomEvent>, AppError>>;

    /// Counts for metrics.
    fn stats(&self) -> RegistryStats;
}

/// Capacity of each room's command queue; senders wait when it is full.
const COMMAND_QUEUE: usize = 64;
/// Capacity of each room's broadcast buffer; slow subscribers see `Lagged`.
const EVENT_BUFFER: usize = 256;
/// How long a command may wait for a place in a full queue.
const SEND_TIMEOUT: Duration = Duration::from_secs(5);

/// Channels to one running room task.
#[derive(Clone)]
struct RoomHandle {
    /// Command queue into the task.
    commands: mpsc::Sender<Envelope>,
    /// Broadcast side, to hand out subscriptions.
    events: broadcast::Sender<RoomEvent>,
}

/// Single-node registry. The map is only touched to find or insert a room's
/// channels; commands never hold its lock.
pub struct LocalRegistry {
    /// Storage, to load rooms whose task is not running (yet, or any more).
    db: Db,
    /// Running room tasks by room id.
    rooms: Arc<RwLock<HashMap<String, RoomHandle>>>,
}

impl LocalRegistry {
    /// An empty registry loading rooms from `db` on demand.
    pub fn new(db: Db) -> Self {
        LocalRegistry {
            db,
            rooms: Arc::default(),
        }
    }

    fn running(&self, room_id: &str) -> Option<RoomHandle> {
        let rooms = self.rooms.read().unwrap_or_else(|e| e.into_inner());
        rooms
            .get(room_id)
            .filter(|h| !h.commands.is_closed())
            .cloned()
    }

    /// The room's task, started from storage if needed; `None` if no such room.
    async fn handle(&self, room_id: &str) -> Result<Option<RoomHandle>, AppError> {
        if let Some(handle) = self.running(room_id) {
            return Ok(Some(handle));
        }
        let Some(room) = self.db.room(room_id).await? else {
            return Ok(None);
        };
        let seats = self.db.room_seats(room_id).await?;
        let game = self.db.latest_game_of_room(room_id).await?;
        let mut rooms = self.rooms.write().unwrap_or_else(|e| e.into_inner());
        // Another request may have started the task while we were loading.
        if let Some(handle) = rooms.get(room_id).filter(|h| !h.commands.is_closed()) {
            return Ok(Some(handle.clone()));
        }
        let (commands, receiver) = mpsc::channel(COMMAND_QUEUE);
        let (events, _) = broadcast::channel(EVENT_BUFFER);
        let lobby = Lobby::new(room, seats, game);
        tokio::spawn(task::run(lobby, self.db.clone(), receiver, events.clone()));
        let handle = RoomHandle { commands, events };
        rooms.insert(room_id.to_owned(), handle.clone());
        Ok(Some(handle))
    }

    async fn send_inner(
        &self,
        room_id: &str,
        command: RoomCommand,
    ) -> Result<RoomSnapshot, AppError> {
        // Two attempts: the task may stop (idle) between lookup and send.
        for _ in 0..2 {
            let handle = self.handle(room_id).await?.ok_or(AppError::RoomNotFound)?;
            let (reply, answer) = oneshot::channel();
            let envelope = Envelope {
                command: command.clone(),
                reply,
            };
            match tokio::time::timeout(SEND_TIMEOUT, handle.commands.send(envelope)).await {
                Err(_elapsed) => return Err(AppError::RoomBusy),
                Ok(Err(_closed)) => continue,
                Ok(Ok(())) => {}
            }
            return answer
                .await
                .map_err(|_| AppError::Internal("room task dropped a reply".into()))?;
        }
        Err(AppError::Internal("room task keeps stopping".into()))
    }
}

impl RoomRegistry for LocalRegistry {
    fn lookup<'a>(
        &'a self,
        room_id: &'a str,
    ) -> BoxFuture<'a, Result<Option<RoomSnapshot>, AppError>> {
        Box::pin(async move {
            match self.send_inner(room_id, RoomCommand::Snapshot).await {
                Ok(snapshot) => Ok(Some(snapshot)),
                Err(AppError::RoomNotFound) => Ok(None),
                Err(err) => Err(err),
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

    fn stats(&self) -> RegistryStats {
        let rooms = self.rooms.read().unwrap_or_else(|e| e.into_inner());
        let live: Vec<_> = rooms.values().filter(|h| !h.commands.is_closed()).collect();
        RegistryStats {
            live_rooms: live.len(),
            subscribers: live.iter().map(|h| h.events.receiver_count()).sum(),
        }
    }
}

//! A room's fan-out: its connections, the versioned public state, and a
//! bounded ring of recent updates for reconnecting clients. Each update is
//! serialised once and the same bytes are queued to every connection.

use std::collections::{HashMap, VecDeque};

use parchis_rules::Event;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;

use super::protocol::{Outbound, frame};

/// Identifies one connection within its room.
pub type ConnId = u64;

/// Updates kept for reconnects (older ones get a snapshot instead). 32 updates
/// (~25 KiB per busy room at ~800 bytes each) cover a couple of rounds of play,
/// enough for a short network drop; a longer absence gets a snapshot.
pub const RING: usize = 32;
/// Messages queued per connection before it counts as too slow.
pub const OUTBOUND_QUEUE: usize = 256;

/// One open connection as the room sees it.
#[derive(Debug)]
pub struct Conn {
    /// Its bounded outbound queue; never awaited, so it cannot block the room.
    pub tx: mpsc::Sender<Outbound>,
    /// The authenticated player, `None` for an anonymous spectator.
    pub player_id: Option<String>,
}

/// Versioned public state plus the connections watching it.
#[derive(Debug)]
pub struct Hub {
    /// Names this life of the room, so versions from before a restart are not mistaken for current ones.
    pub epoch: String,
    /// Version of `state`; +1 per published update.
    version: u64,
    /// The public state last published (patches are computed from it).
    state: Value,
    /// Recent updates, oldest first, as sent.
    ring: VecDeque<(u64, Outbound)>,
    /// Open connections.
    conns: HashMap<ConnId, Conn>,
    /// Next connection id to hand out.
    next_id: ConnId,
}

impl Hub {
    /// A hub at version 0 with `state`.
    pub fn new(state: Value) -> Self {
        Hub {
            epoch: crate::auth::new_id(),
            version: 0,
            state,
            ring: VecDeque::with_capacity(RING),
            conns: HashMap::new(),
            next_id: 1,
        }
    }

    /// Current version.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Current public state.
    pub fn state(&self) -> &Value {
        &self.state
    }

    /// Publishes `state` with `events` as one update (nothing if neither changed).
    /// Returns connections dropped for being too slow.
    pub fn publish(&mut self, events: &[Event], state: Value) -> Vec<ConnId> {
        if events.is_empty() && state == self.state {
            return Vec::new();
        }
        let patch = json_patch::diff(&self.state, &state);
        self.version += 1;
        self.state = state;
        let message = Outbound::Text(frame(&json!({
            "type": "update",
            "version": self.version,
            "events": events,
            "patch": patch,
        })));
        if self.ring.len() == RING {
            self.ring.pop_front();
        }
        self.ring.push_back((self.version, message.clone()));
        self.broadcast(&message)
    }

    /// Queues `message` to every connection; returns those dropped as too slow.
    pub fn broadcast(&mut self, message: &Outbound) -> Vec<ConnId> {
        let ids: Vec<ConnId> = self.conns.keys().copied().collect();
        ids.into_iter()
            .filter(|&id| !self.send(id, message.clone()))
            .collect()
    }

    /// The snapshot message for the current state.
    pub fn snapshot(&self) -> Outbound {
        Outbound::Text(frame(&json!({
            "type": "snapshot",
            "version": self.version,
            "epoch": self.epoch,
            "state": self.state,
        })))
    }

    /// The updates after `since` if all are still in the ring (`None`: send a snapshot).
    pub fn missed_since(&self, since: u64, epoch: &str) -> Option<Vec<Outbound>> {
        if epoch != self.epoch || since > self.version {
            return None;
        }
        if since == self.version {
            return Some(Vec::new());
        }
        let oldest = self.ring.front()?.0;
        (since + 1 >= oldest).then(|| {
            self.ring
                .iter()
                .filter(|(v, _)| *v > since)
                .map(|(_, m)| m.clone())
                .collect()
        })
    }

    /// Registers a connection; returns its id.
    pub fn add(&mut self, conn: Conn) -> ConnId {
        let id = self.next_id;
        self.next_id += 1;
        self.conns.insert(id, conn);
        id
    }

    /// Forgets a connection (its queue closes, which ends its writer).
    pub fn remove(&mut self, id: ConnId) -> Option<Conn> {
        self.conns.remove(&id)
    }

    /// The connection, if still open.
    pub fn conn(&self, id: ConnId) -> Option<&Conn> {
        self.conns.get(&id)
    }

    /// All open connections.
    pub fn conns(&self) -> impl Iterator<Item = (&ConnId, &Conn)> {
        self.conns.iter()
    }

    /// Number of open connections.
    pub fn len(&self) -> usize {
        self.conns.len()
    }

    /// Whether no connection is open.
    pub fn is_empty(&self) -> bool {
        self.conns.is_empty()
    }

    /// Queues one message without waiting; a full queue drops the connection
    /// (returns false, as for a closed one), so one slow client never holds up the room.
    pub fn send(&mut self, id: ConnId, message: Outbound) -> bool {
        let Some(conn) = self.conns.get(&id) else {
            return true;
        };
        match conn.tx.try_send(message) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) => {
                tracing::info!(conn = id, "disconnecting a client that is too slow");
                self.conns.remove(&id);
                false
            }
            Err(TrySendError::Closed(_)) => {
                self.conns.remove(&id);
                false
            }
        }
    }
}

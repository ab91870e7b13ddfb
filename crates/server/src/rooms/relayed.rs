//! Cluster mode, the owner's side: a room's messages for sockets on other nodes. The room writes them,
//! in the order it makes them, to one queue ([`RoomRelay`]) that one publisher drains: a broadcast
//! (update, chat) once for the whole room whatever the number of such sockets, a private message
//! (hello, ack, error, preview, snapshot) for its socket alone. Each carries where it falls among the
//! room's broadcasts, so that a gateway node puts each socket's messages back in the room's order.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::mpsc;

use super::protocol::Outbound;

/// Messages a room may have queued for other nodes and not yet published before it drops its sockets
/// there as too slow (NATS is not taking them): the slow-client rule, for the relay itself.
pub const RELAY_BACKLOG: usize = 4_096;

/// One message for other nodes.
#[derive(Debug)]
pub enum RelayOut {
    /// For every socket of the room: the room's `seq`th broadcast (1, 2, …).
    Broadcast {
        /// Its number among the room's broadcasts.
        seq: u64,
        /// The message.
        message: Outbound,
    },
    /// For one socket, after the room's `after`th broadcast and before the next.
    To {
        /// The node holding the socket.
        gateway: Arc<str>,
        /// The socket's session there.
        session: Arc<str>,
        /// The number of the last broadcast before it.
        after: u64,
        /// The message; `None`: the room dropped the connection.
        message: Option<Outbound>,
    },
}

/// The queue of one room's messages for other nodes (cheap to clone).
#[derive(Debug, Clone)]
pub struct RoomRelay {
    tx: mpsc::UnboundedSender<RelayOut>,
    backlog: Arc<AtomicUsize>,
}

/// The reading end of a [`RoomRelay`], for its publisher.
#[derive(Debug)]
pub struct RelayQueue {
    rx: mpsc::UnboundedReceiver<RelayOut>,
    backlog: Arc<AtomicUsize>,
}

impl RoomRelay {
    /// A new queue and its reading end.
    pub fn new() -> (RoomRelay, RelayQueue) {
        let (tx, rx) = mpsc::unbounded_channel();
        let backlog = Arc::new(AtomicUsize::new(0));
        (
            RoomRelay {
                tx,
                backlog: Arc::clone(&backlog),
            },
            RelayQueue { rx, backlog },
        )
    }

    /// Queues `out`; `false` if the publisher is gone or more than [`RELAY_BACKLOG`] wait (`out` is
    /// queued all the same while the publisher runs: a drop notice must always get through).
    pub fn push(&self, out: RelayOut) -> bool {
        // Counted before it can be read, so that the count never goes below zero.
        let waiting = self.backlog.fetch_add(1, Ordering::Relaxed);
        if self.tx.send(out).is_err() {
            self.backlog.fetch_sub(1, Ordering::Relaxed);
            return false;
        }
        waiting < RELAY_BACKLOG
    }
}

impl RelayQueue {
    /// The next message to publish (`None`: the room is gone and everything was read).
    pub async fn recv(&mut self) -> Option<RelayOut> {
        let out = self.rx.recv().await?;
        self.backlog.fetch_sub(1, Ordering::Relaxed);
        Some(out)
    }
}

/// Opens a room's relay: cluster mode starts a publisher for it (one per life of the room's task).
pub trait RelayPublisher: Send + Sync + 'static {
    /// A relay for `room_id`, published under a stream id of its own.
    fn open(&self, room_id: &str) -> RoomRelay;
}

/// A connection whose socket is on another node (cluster mode).
#[derive(Clone)]
pub struct RelayedConn {
    /// The node holding the socket.
    pub gateway: Arc<str>,
    /// The socket's session on that node.
    pub session: Arc<str>,
    /// Opens the room's relay when its first such connection comes.
    pub publisher: Arc<dyn RelayPublisher>,
}

impl std::fmt::Debug for RelayedConn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RelayedConn")
            .field("gateway", &self.gateway)
            .field("session", &self.session)
            .finish_non_exhaustive()
    }
}

/// Where a connection's messages go.
#[derive(Debug, Clone)]
pub enum Sink {
    /// A socket on this node: its bounded queue (full: too slow).
    Local(mpsc::Sender<Outbound>),
    /// A socket on another node, reached through the room's relay.
    Relayed(RelayedConn),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn broadcast(seq: u64) -> RelayOut {
        RelayOut::Broadcast {
            seq,
            message: Outbound::Close(super::super::protocol::Close::RoomClosed),
        }
    }

    #[tokio::test]
    async fn a_relay_nobody_reads_is_too_slow_past_its_backlog_and_reading_makes_room() {
        let (relay, mut queue) = RoomRelay::new();
        for seq in 0..RELAY_BACKLOG as u64 {
            assert!(relay.push(broadcast(seq)), "message {seq}");
        }
        assert!(!relay.push(broadcast(0)), "one too many");
        for _ in 0..2 {
            queue.recv().await.expect("queued");
        }
        assert!(relay.push(broadcast(0)));
        drop(queue);
        assert!(!relay.push(broadcast(0)), "nobody publishes any more");
    }
}

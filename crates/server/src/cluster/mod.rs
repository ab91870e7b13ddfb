//! Cluster mode (issue 32): several server nodes share one set of rooms over PostgreSQL and NATS.
//!
//! - **Ownership** is in PostgreSQL (`store`): each node heartbeats with the database's clock, and a
//!   room is claimed by one compare-and-set (only when it has no owner or its owner is dead). The room's
//!   task runs on its owner alone; the `LocalRegistry` asks `Claims` before starting one.
//! - **Fencing**: room tasks write through a pool of their own whose connections carry
//!   `parchis.node`; a trigger (migration 0017) refuses any write to a room this node does not own now,
//!   in the writing statement itself. A paused node that wakes after its rooms moved writes nothing.
//! - **Routing** is NATS core: a request on `<prefix>.room.<id>` reaches the owner (its subscription
//!   lives as long as the room's task). A socket on another node is relayed (`relay`): the owner
//!   publishes each broadcast of the room once on `<prefix>.fan.<id>`, and a socket's own messages
//!   to its node; every node with sockets in the room listens while it has them (`feed`) and fans out
//!   to them in the room's order (per-socket queue and slow-client rule as for any socket; a gap makes
//!   a socket resync). When the owner dies or gives the room up, the gateway attaches the socket to
//!   the room's new owner and the client gets a fresh snapshot.
//! - **Takeover**: every node looks once a second for playing rooms whose owner is dead and claims
//!   them (the game is replayed from its log), so bots and timers go on; other rooms are claimed when
//!   next used.

mod answered;
mod feed;
mod owners;
mod registry;
mod relay;
mod release;
mod sessions;
mod store;
mod unanswered;
mod upkeep;
pub mod wire;

use std::time::Duration;

pub use registry::ClusterRegistry;
pub use store::NODE_TTL;

/// How often a node renews its heartbeat, checks which rooms it still owns and takes over orphans.
pub const HEARTBEAT_EVERY: Duration = Duration::from_secs(1);

/// How long a request to a room's owner may take before the room is looked for again.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(3);

/// Settings of cluster mode.
#[derive(Debug, Clone)]
pub struct ClusterConfig {
    /// NATS server(s), e.g. `nats://127.0.0.1:4222`.
    pub nats_url: String,
    /// First token of every subject, so that several clusters (or tests) can share a NATS server.
    pub prefix: String,
    /// The node's name in logs (its id is new at every start).
    pub name: String,
}

/// The database URL whose connections carry this node's id (`parchis.node`), which the fence checks
/// (added to the URL's `options` if it has some, such as a `search_path`).
pub fn fenced_url(url: &str, node: &str) -> String {
    let setting = format!("-c%20parchis.node%3D{node}");
    if let Some(at) = url.find("options=") {
        let start = at + "options=".len();
        let end = url[start..].find('&').map_or(url.len(), |i| start + i);
        return format!("{}%20{setting}{}", &url[..end], &url[end..]);
    }
    let separator = if url.contains('?') { '&' } else { '?' };
    format!("{url}{separator}options={setting}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fenced_url_names_the_node_whatever_the_url_has() {
        assert_eq!(
            fenced_url("postgres://h/db", "n1"),
            "postgres://h/db?options=-c%20parchis.node%3Dn1"
        );
        assert_eq!(
            fenced_url("postgres://h/db?sslmode=disable", "n1"),
            "postgres://h/db?sslmode=disable&options=-c%20parchis.node%3Dn1"
        );
        assert_eq!(
            fenced_url("postgres://h/db?options=-c%20search_path%3Dt1&x=1", "n1"),
            "postgres://h/db?options=-c%20search_path%3Dt1%20-c%20parchis.node%3Dn1&x=1"
        );
    }
}

//! A cluster node's upkeep, once a second: its heartbeat, the rooms it owns, and the dead nodes' games.

use std::sync::{Arc, Weak};
use std::time::Instant;

use super::registry::Inner;
use super::{HEARTBEAT_EVERY, NODE_TTL, store};
use crate::error::AppError;
use crate::rooms::RoomRegistry;

/// Renews the node's heartbeat and reads which nodes are alive, on the heartbeat's own connection and
/// nothing else, so that only the heartbeat itself can be late. A node that could not renew it for most
/// of the TTL (paused, cut off) stops all its rooms first: others may own them by now.
pub(super) async fn heartbeat(inner: Weak<Inner>) {
    let mut every = tokio::time::interval(HEARTBEAT_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut renewed = Instant::now();
    loop {
        every.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        if renewed.elapsed() > NODE_TTL.saturating_sub(HEARTBEAT_EVERY * 2) {
            let rooms = inner.local.running_rooms();
            if !rooms.is_empty() {
                tracing::warn!(node = %inner.name, rooms = rooms.len(), "heartbeat late: stopping this node's rooms");
            }
            for room in rooms {
                inner.local.evict(&room);
            }
        }
        match store::heartbeat(&inner.heartbeat_pg, &inner.node).await {
            Ok(true) => renewed = Instant::now(),
            Ok(false) => {
                // Removed (by hand, or a node that left with the same id): record it again.
                let _ = store::register(&inner.heartbeat_pg, &inner.node, &inner.name).await;
            }
            Err(err) => tracing::warn!(node = %inner.name, %err, "heartbeat failed"),
        }
        match store::alive_nodes(&inner.heartbeat_pg).await {
            Ok(alive) => {
                inner.alive.send_if_modified(|known| {
                    let changed = **known != alive;
                    if changed {
                        *known = Arc::new(alive);
                    }
                    changed
                });
            }
            Err(err) => {
                tracing::warn!(node = %inner.name, %err, "cannot read which nodes are alive")
            }
        }
    }
}

/// Stops the tasks of rooms this node no longer owns (another node claimed them while this one was
/// thought dead), and releases the rooms it owns but neither runs nor is claiming (a release lost).
/// Not in the heartbeat's loop: this read goes through the shared pool, which may wait for seconds
/// under a burst of requests, and a heartbeat late for it stopped every room of a node that was alive
/// (BENCHMARKS.md, Cluster (c)). The fence refuses such a room's writes meanwhile.
pub(super) async fn drop_rooms_owned_elsewhere(inner: Weak<Inner>) {
    let mut every = tokio::time::interval(HEARTBEAT_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        match store::owned_rooms(&inner.pg, &inner.node).await {
            Ok(owned) => {
                let lost: Vec<(String, i64)> = {
                    let held = inner.held.lock().unwrap_or_else(|e| e.into_inner());
                    owned
                        .iter()
                        .filter(|(room, _)| !held.contains_key(*room))
                        .map(|(room, epoch)| (room.clone(), *epoch))
                        .collect()
                };
                for room in lost {
                    tracing::warn!(node = %inner.name, room = %room.0, "room owned but not run here: releasing it");
                    let _ = inner.releases.send(room);
                }
                for room in inner.local.running_rooms() {
                    if !owned.contains_key(&room) {
                        tracing::warn!(node = %inner.name, %room, "room owned by another node now: stopping it here");
                        inner.local.evict(&room);
                    }
                }
            }
            Err(err) => {
                tracing::warn!(node = %inner.name, %err, "cannot read the rooms this node owns")
            }
        }
    }
}

/// Claims the playing rooms of dead nodes, so that their games go on (bots, timers) before anyone
/// asks for them.
pub(super) async fn take_over(inner: Weak<Inner>) {
    let mut every = tokio::time::interval(HEARTBEAT_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        if *inner.stop.borrow() {
            return;
        }
        let orphans = match store::orphaned_games(&inner.pg, 64).await {
            Ok(orphans) => orphans,
            Err(err) => {
                tracing::warn!(node = %inner.name, %err, "cannot look for rooms to take over");
                continue;
            }
        };
        for room in orphans {
            // Another node may win the claim: then this one has nothing to do.
            match inner.local.lookup(&room).await {
                Ok(_) => {
                    metrics::counter!("parchis_cluster_takeovers_total").increment(1);
                    tracing::info!(node = %inner.name, %room, "took over a room whose node died");
                }
                Err(AppError::RoomBusy) => {}
                Err(err) => {
                    tracing::warn!(node = %inner.name, %room, %err, "taking a room over failed")
                }
            }
        }
    }
}

//! Giving rooms up in PostgreSQL so that other nodes may claim them at once. A release that fails (the
//! pool out of connections while a dead node's rooms are taken over, say) is tried again until it is
//! done: lost, it left the room owned by a node that no longer ran it, and nobody could claim it while
//! that node lived (BENCHMARKS.md, Cluster (c)). Releases waiting together go in one statement.

use std::collections::HashMap;
use std::time::Duration;

use sqlx::PgPool;
use tokio::sync::mpsc;

use super::store;

/// Where the node's releases are sent: `(room, epoch of the claim given up)`.
pub(super) type Releases = mpsc::UnboundedSender<(String, i64)>;

/// Most releases in one statement.
const BATCH: usize = 512;

/// The wait before the `failures`th new try: doubling from 100 ms to 5 s, then a random part of it,
/// so that nodes in the same trouble do not all try again at the same instant.
fn retry_after(failures: u32) -> Duration {
    jittered(Duration::from_millis(
        (100u64 << failures.min(6)).min(5_000),
    ))
}

/// A random wait between half of `base` and `base`.
fn jittered(base: Duration) -> Duration {
    let ms = u64::try_from(base.as_millis()).unwrap_or(u64::MAX).max(2);
    Duration::from_millis(rand::random_range(ms / 2..=ms))
}

/// Releases the rooms sent to `releases` for `node`, in batches, until every sender is gone.
pub(super) async fn run(
    pg: PgPool,
    node: String,
    mut releases: mpsc::UnboundedReceiver<(String, i64)>,
) {
    // Room → epoch: a room given up twice is released at its latest claim.
    let mut pending: HashMap<String, i64> = HashMap::new();
    let mut failures = 0;
    loop {
        if pending.is_empty() {
            let Some((room, epoch)) = releases.recv().await else {
                return;
            };
            pending.insert(room, epoch);
        }
        while pending.len() < BATCH {
            let Ok((room, epoch)) = releases.try_recv() else {
                break;
            };
            let latest = pending.entry(room).or_insert(epoch);
            *latest = (*latest).max(epoch);
        }
        let (rooms, epochs): (Vec<String>, Vec<i64>) = pending
            .iter()
            .take(BATCH)
            .map(|(room, epoch)| (room.clone(), *epoch))
            .unzip();
        match store::release_many(&pg, &node, &rooms, &epochs).await {
            Ok(()) => {
                failures = 0;
                for room in &rooms {
                    pending.remove(room);
                }
            }
            Err(err) => {
                metrics::counter!("parchis_cluster_release_retries_total").increment(1);
                tracing::warn!(rooms = rooms.len(), %err, "rooms not released yet: trying again");
                tokio::time::sleep(retry_after(failures)).await;
                failures += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_wait_longer_each_time_up_to_five_seconds_and_never_in_lockstep() {
        for failures in 0..20 {
            let base = Duration::from_millis((100u64 << failures.min(6)).min(5_000));
            let wait = retry_after(failures);
            assert!(wait >= base / 2 && wait <= base, "{failures}: {wait:?}");
        }
        let waits: std::collections::HashSet<_> = (0..50).map(|_| retry_after(6)).collect();
        assert!(waits.len() > 1, "the waits vary");
    }
}

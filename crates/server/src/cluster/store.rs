//! The cluster's records in PostgreSQL: the nodes alive (heartbeats written with the database's clock)
//! and each room's owner, claimed by one compare-and-set.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use sqlx::PgPool;

/// A node whose heartbeat is older than this is dead (its rooms may be claimed).
pub const NODE_TTL: Duration = Duration::from_secs(5);

/// `NODE_TTL` in seconds, as the queries take it.
fn ttl_secs() -> f64 {
    NODE_TTL.as_secs_f64()
}

/// Records this node as alive (a new id per process start).
pub async fn register(pg: &PgPool, node: &str, name: &str) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO cluster_nodes (node_id, name) VALUES ($1, $2)")
        .bind(node)
        .bind(name)
        .execute(pg)
        .await?;
    Ok(())
}

/// Renews this node's heartbeat (the database's clock); `false` if the row is gone.
pub async fn heartbeat(pg: &PgPool, node: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE cluster_nodes SET heartbeat_at = now() WHERE node_id = $1")
        .bind(node)
        .execute(pg)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// The nodes alive now: heartbeat within the TTL, not draining.
pub async fn alive_nodes(pg: &PgPool) -> Result<HashSet<String>, sqlx::Error> {
    let rows: Vec<String> = sqlx::query_scalar(
        "SELECT node_id FROM cluster_nodes \
         WHERE NOT draining AND heartbeat_at > now() - make_interval(secs => $1)",
    )
    .bind(ttl_secs())
    .fetch_all(pg)
    .await?;
    Ok(rows.into_iter().collect())
}

/// What came of a claim.
#[derive(Debug, PartialEq, Eq)]
pub enum Claim {
    /// This node owns the room now, with this epoch.
    Won(i64),
    /// A live node owns it (`None`: it changed hands meanwhile).
    Held(Option<String>),
}

/// Claims `room` for `node` if it has no owner, its owner is dead or draining, or is `node` itself;
/// else says who owns it (read in the same statement, before the claim).
pub async fn claim(pg: &PgPool, room: &str, node: &str) -> Result<Claim, sqlx::Error> {
    let (epoch, owner): (Option<i64>, Option<String>) = sqlx::query_as(
        "WITH claimed AS (\
           INSERT INTO room_owners (room_id, node_id, epoch) VALUES ($1, $2, 1) \
           ON CONFLICT (room_id) DO UPDATE SET node_id = EXCLUDED.node_id, epoch = room_owners.epoch + 1 \
           WHERE room_owners.node_id IS NULL OR room_owners.node_id = EXCLUDED.node_id \
              OR NOT EXISTS (SELECT 1 FROM cluster_nodes n WHERE n.node_id = room_owners.node_id \
                             AND NOT n.draining AND n.heartbeat_at > now() - make_interval(secs => $3)) \
           RETURNING epoch) \
         SELECT (SELECT epoch FROM claimed), (SELECT node_id FROM room_owners WHERE room_id = $1)",
    )
    .bind(room)
    .bind(node)
    .bind(ttl_secs())
    .fetch_one(pg)
    .await?;
    Ok(match epoch {
        Some(epoch) => Claim::Won(epoch),
        None => Claim::Held(owner),
    })
}

/// Gives up each of `rooms` whose claim is still the one of the same place in `epochs`, in one
/// statement.
pub async fn release_many(
    pg: &PgPool,
    node: &str,
    rooms: &[String],
    epochs: &[i64],
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE room_owners o SET node_id = NULL \
         FROM unnest($2::text[], $3::bigint[]) AS r(room_id, epoch) \
         WHERE o.room_id = r.room_id AND o.epoch = r.epoch AND o.node_id = $1",
    )
    .bind(node)
    .bind(rooms)
    .bind(epochs)
    .execute(pg)
    .await?;
    Ok(())
}

/// The rooms `node` owns, with the epoch of its claim.
pub async fn owned_rooms(pg: &PgPool, node: &str) -> Result<HashMap<String, i64>, sqlx::Error> {
    let rows: Vec<(String, i64)> =
        sqlx::query_as("SELECT room_id, epoch FROM room_owners WHERE node_id = $1")
            .bind(node)
            .fetch_all(pg)
            .await?;
    Ok(rows.into_iter().collect())
}

/// Playing rooms whose owner is dead or draining (at most `limit`): to take over, so that their bots
/// and timers go on.
pub async fn orphaned_games(pg: &PgPool, limit: i64) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT o.room_id FROM room_owners o JOIN rooms r ON r.id = o.room_id \
         WHERE r.status = 'playing' AND o.node_id IS NOT NULL \
           AND NOT EXISTS (SELECT 1 FROM cluster_nodes n WHERE n.node_id = o.node_id \
                           AND NOT n.draining AND n.heartbeat_at > now() - make_interval(secs => $1)) \
         LIMIT $2",
    )
    .bind(ttl_secs())
    .bind(limit)
    .fetch_all(pg)
    .await
}

/// This node stops: its rooms may be claimed at once by the others.
pub async fn drain(pg: &PgPool, node: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE cluster_nodes SET draining = TRUE WHERE node_id = $1")
        .bind(node)
        .execute(pg)
        .await?;
    Ok(())
}

/// This node has stopped: its rooms are released and its row goes.
pub async fn leave(pg: &PgPool, node: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE room_owners SET node_id = NULL WHERE node_id = $1")
        .bind(node)
        .execute(pg)
        .await?;
    sqlx::query("DELETE FROM cluster_nodes WHERE node_id = $1")
        .bind(node)
        .execute(pg)
        .await?;
    Ok(())
}

//! Issue 35, point 8: `resync` is answered with a snapshot at most once a second per connection; the
//! resyncs in between are held and answered together when the second ends, never refused.
mod common;

use std::time::Duration;

use common::ws::WsClient;
use common::{TestServer, public_four};
use serde_json::{Value, json};

/// The messages that arrive on `client` within `within`.
async fn messages_within(client: &mut WsClient, within: Duration) -> Vec<Value> {
    let deadline = tokio::time::Instant::now() + within;
    let mut seen = Vec::new();
    while let Ok(message) = tokio::time::timeout_at(deadline, client.next()).await {
        seen.push(message);
    }
    seen
}

#[tokio::test]
async fn a_burst_of_resyncs_gets_one_snapshot_a_second_and_every_ack() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let room = server.room(&ana, public_four()).await;
    let room_id = room["id"].as_str().unwrap();
    let mut client = WsClient::connect(&server, room_id, Some(&ana.token)).await;
    // The flood limit is lifted for tests (a player's client stays under it: PROTOCOL.md).
    for id in 1..=50 {
        client
            .send_text(&json!({ "type": "resync", "id": id }).to_string())
            .await;
    }
    let seen = messages_within(&mut client, Duration::from_millis(1500)).await;
    let snapshots: Vec<&Value> = seen.iter().filter(|m| m["type"] == "snapshot").collect();
    assert!(
        (1..=2).contains(&snapshots.len()),
        "{} snapshots for 50 resyncs in 1.5 s",
        snapshots.len()
    );
    let mut acked: Vec<u64> = seen
        .iter()
        .filter(|m| m["type"] == "ack")
        .map(|m| m["id"].as_u64().unwrap())
        .collect();
    acked.sort_unstable();
    assert_eq!(
        acked,
        (1..=50).collect::<Vec<u64>>(),
        "every resync is acknowledged"
    );
    // Each ack follows the snapshot that answers it: the last snapshot comes before the last ack.
    let last_snapshot = seen.iter().rposition(|m| m["type"] == "snapshot").unwrap();
    let last_ack = seen.iter().rposition(|m| m["type"] == "ack").unwrap();
    assert!(last_snapshot < last_ack);
    // The last snapshot is the room as it is now: what a new connection is shown.
    let fresh = WsClient::connect(&server, room_id, Some(&ana.token)).await;
    let last = snapshots.last().unwrap();
    assert_eq!(last["state"], fresh.state);
    assert_eq!(last["version"].as_u64(), Some(fresh.version));
    // A second later, a resync is answered at once again.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let seen = messages_within(&mut client, Duration::ZERO).await;
    assert!(seen.iter().all(|m| m["type"] != "snapshot"), "{seen:?}");
    let snapshot = client.resync().await;
    assert_eq!(snapshot, fresh.state);
    server.finish().await;
}

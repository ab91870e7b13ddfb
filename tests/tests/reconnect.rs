//! Reconnecting with the last version: the missed updates, nothing more, nothing less.
mod common;

use common::TestServer;
use common::game::start_with_bots;
use common::ws::WsClient;

#[tokio::test]
async fn a_player_who_reconnects_with_their_version_misses_nothing_and_sees_nothing_twice() {
    let server = TestServer::sqlite().await;
    let started = start_with_bots(&server, "playgridia", "quick", 4).await;
    let mut spectator = WsClient::connect(&server, &started.room, None).await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;

    // Play until a decision of ours hands the turn to the bots, then drop the connection.
    loop {
        assert!(!player.over(), "the game ended before the turn ever passed");
        if player.my_turn() {
            player.act().await;
            if !player.my_turn() {
                break;
            }
        } else {
            player.next().await;
        }
    }
    let left_at = player.version;
    let seen_before = std::mem::take(&mut player.versions);
    let token = started.owner.token.clone();
    player.close_socket().await;

    // While we are away the bots play on; the spectator sees it come back to us.
    let seat = player.seat;
    let back_to_us = |s: &serde_json::Value| {
        s["game"]["view"]["turn"]["seat"].as_u64() == seat && s["seats"][0]["status"] == "away"
    };
    while !(spectator.version > left_at && back_to_us(&spectator.state)) {
        spectator.next().await;
    }
    assert!(
        spectator.version > left_at + 1,
        "updates happened while away"
    );

    let mut player = WsClient::reconnect(&server, &started.room, &token, player).await;
    spectator
        .until_state(|s| s["seats"][0]["status"] == "connected")
        .await;
    player
        .until_state(|s| s["seats"][0]["status"] == "connected")
        .await;
    // Every version after the one we left at arrived exactly once, in order, with no snapshot.
    let expected: Vec<u64> = (left_at + 1..=player.version).collect();
    assert_eq!(player.versions, expected);
    assert!(seen_before.iter().all(|v| *v <= left_at));
    assert_eq!(player.version, spectator.version);
    assert_eq!(
        player.state, spectator.state,
        "same state as a client that never left"
    );
    let fresh = player.resync().await;
    assert_eq!(player.state, fresh);
    server.finish().await;
}

#[tokio::test]
async fn a_reconnect_from_another_epoch_gets_a_snapshot() {
    let server = TestServer::sqlite().await;
    let started = start_with_bots(&server, "playgridia", "quick", 2).await;
    let url = common::ws::ws_url(
        &server,
        &started.room,
        &format!("token={}&since=3&epoch=not-this-one", started.owner.token),
    );
    let client = WsClient::connect_url(&url).await;
    assert!(!client.first_snapshot.is_null(), "a snapshot was sent");
    server.finish().await;
}

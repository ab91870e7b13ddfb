//! The private next-roll preview and the turn timer.
mod common;

use common::TestServer;
use common::game::{record, start_room};
use common::ws::WsClient;
use serde_json::json;

#[tokio::test]
async fn only_the_player_about_to_roll_sees_the_next_roll_and_it_is_the_roll_they_get() {
    let server = TestServer::sqlite().await;
    let started = start_room(
        &server,
        json!({ "rules": "playgridia", "mode": "quick", "players": 2,
                "turn_time_secs": null, "preview_next_roll": true, "public": true }),
    )
    .await;
    let mut spectator = WsClient::connect(&server, &started.room, None).await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    let preview = player.until(|m| m["type"] == "preview").await;
    assert_eq!(preview["roll"], 0);
    let reply = player.request(json!({ "type": "roll" })).await;
    assert_eq!(reply["type"], "ack");
    let record = record(&server, &started.game).await;
    assert_eq!(record["log"][0]["payload"]["die"], preview["die"]);
    // The spectator got every update but never a preview (nor the seed).
    spectator
        .until_state(|s| s["game"]["rolls"].as_u64() >= Some(1))
        .await;
    assert!(spectator.private.iter().all(|m| m["type"] != "preview"));
    assert!(spectator.state["game"]["seed"].is_null());
    server.finish().await;
}

#[tokio::test]
async fn when_the_turn_timer_runs_out_the_server_rolls_and_moves_for_the_player() {
    let server = TestServer::sqlite().await;
    let started = start_room(
        &server,
        json!({ "rules": "playgridia", "mode": "quick", "players": 2,
                "turn_time_secs": 5, "public": true }),
    )
    .await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    assert!(
        player.game()["deadline_ms"].is_i64(),
        "the deadline is shown"
    );
    // We do nothing; the timer acts for us.
    player
        .until_state(|s| s["game"]["rolls"].as_u64() >= Some(1))
        .await;
    let record = record(&server, &started.game).await;
    assert_eq!(record["log"][0]["payload"]["by"], "timer");
    server.finish().await;
}

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

#[tokio::test]
async fn a_preselected_move_is_played_when_the_turn_timer_runs_out() {
    // A "second" of the room's turn timer lasts 200 ms here, so 5 s (the API's minimum) is one second.
    let server = TestServer::sqlite_with(|c| c.turn_second_ms = 200).await;
    let started = start_room(
        &server,
        json!({ "rules": "playgridia", "mode": "quick", "players": 2,
                "turn_time_secs": 5, "public": true }),
    )
    .await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    // We never roll nor move ourselves. At a move with a choice, we pre-select the last option
    // (not the first, which is what a careless server might pick).
    let chosen = loop {
        let moves = player.game()["view"]["legal_moves"].as_array().cloned();
        if player.my_turn() && moves.as_ref().is_some_and(|m| m.len() >= 2) {
            let moves = moves.unwrap();
            let text = moves.last().unwrap()["text"].as_str().unwrap().to_owned();
            let reply = player
                .request(json!({ "type": "preselect", "move": text }))
                .await;
            if reply["type"] == "ack" {
                break text;
            }
        }
        assert!(!player.over(), "no move with a choice came up");
        player.next().await;
    };
    let rolls = player.game()["rolls"].clone();
    // The timer runs out and the server plays it for us.
    player
        .until_state(|s| {
            s["game"]["rolls"] != rolls || s["game"]["view"]["turn"]["phase"] == "roll"
        })
        .await;
    let log = record(&server, &started.game).await["log"].clone();
    let played = log
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|e| e["kind"] == "move" && e["payload"]["seat"] == 0)
        .expect("a move of ours")
        .clone();
    assert_eq!(played["payload"]["move"], chosen.as_str(), "{log}");
    assert_eq!(played["payload"]["by"], "timer");
    server.finish().await;
}

#[tokio::test]
async fn the_api_still_refuses_turn_timers_under_5_seconds_even_with_fast_test_seconds() {
    let server = TestServer::sqlite_with(|c| c.turn_second_ms = 100).await;
    let owner = server.player("Ana").await;
    let (status, body) = server
        .post_as(
            &owner,
            "/api/rooms",
            json!({ "rules": "playgridia", "mode": "quick", "players": 2, "turn_time_secs": 1 }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["code"], "invalid_settings");
    server.finish().await;
}

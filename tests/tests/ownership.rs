//! Who may start a waiting room when its owner is gone: the owner who leaves hands the room to the
//! next seated player at once; an owner who stays away hands it, after the away grace, to a seated
//! player who is there. A room nobody else is in keeps its owner.
mod common;

use std::time::Duration;

use common::TestServer;
use common::game::ana_and_bea;
use common::ws::WsClient;
use serde_json::json;

#[tokio::test]
async fn an_owner_who_leaves_hands_the_room_to_the_next_seated_player_who_can_then_start_it() {
    let server = TestServer::sqlite().await;
    let (room, ana, bea) = ana_and_bea(&server).await;
    let (status, body) = server
        .post_as(&ana, &format!("/api/rooms/{room}/leave"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["owner_id"], bea.id.as_str(), "Bea owns the room now");
    let (status, body) = server
        .post_as(&ana, &format!("/api/rooms/{room}/start"), json!({}))
        .await;
    assert_eq!(status, 403, "Ana no longer owns it: {body}");
    let (status, body) = server
        .post_as(&bea, &format!("/api/rooms/{room}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "playing");
    server.finish().await;
}

#[tokio::test]
async fn an_owner_who_leaves_over_the_websocket_hands_the_room_over_too() {
    let server = TestServer::sqlite().await;
    let (room, ana, bea) = ana_and_bea(&server).await;
    let mut bea_ws = WsClient::connect(&server, &room, Some(&bea.token)).await;
    let mut ana_ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    let ack = ana_ws.request(json!({ "type": "leave" })).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    bea_ws
        .until_state(|s| s["room"]["owner_id"] == bea.id.as_str())
        .await;
    server.finish().await;
}

#[tokio::test]
async fn an_owner_away_past_the_grace_hands_the_room_to_a_player_who_is_there_and_it_is_stored() {
    let mut server = TestServer::sqlite_with(|c| c.away_grace_secs = 1).await;
    let (room, ana, bea) = ana_and_bea(&server).await;
    let mut ana_ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    let mut bea_ws = WsClient::connect(&server, &room, Some(&bea.token)).await;
    // Well past the grace with Ana there: she keeps the room.
    let _ = tokio::time::timeout(
        Duration::from_millis(1500),
        bea_ws.until_state(|s| s["room"]["owner_id"] != ana.id.as_str()),
    )
    .await;
    assert_eq!(bea_ws.state["room"]["owner_id"], ana.id.as_str());
    ana_ws
        .until_state(|s| s["seats"][1]["status"] == "connected")
        .await;

    ana_ws.close().await;
    bea_ws
        .until_state(|s| s["room"]["owner_id"] == bea.id.as_str())
        .await;
    // Stored: after a restart Bea still owns it and starts it.
    bea_ws.close().await;
    server.stop().await;
    let again = TestServer::start(server.database_url.clone()).await;
    let (status, body) = again
        .post_as(&bea, &format!("/api/rooms/{room}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    again.stop_only().await;
    server.finish().await;
}

#[tokio::test]
async fn an_owner_away_keeps_the_room_when_nobody_else_is_there() {
    let server = TestServer::sqlite_with(|c| c.away_grace_secs = 1).await;
    let (room, ana, _bea) = ana_and_bea(&server).await;
    let mut spectator = WsClient::connect(&server, &room, None).await;
    let ana_ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    ana_ws.close().await;
    // Bea is seated but not there, and a spectator does not count: after twice the grace Ana still
    // owns the room.
    let _ = tokio::time::timeout(
        Duration::from_millis(2500),
        spectator.until_state(|s| s["room"]["owner_id"] != ana.id.as_str()),
    )
    .await;
    assert_eq!(spectator.state["room"]["owner_id"], ana.id.as_str());
    server.finish().await;
}

#[tokio::test]
async fn a_player_who_sits_down_in_a_waiting_room_everyone_left_owns_it_and_can_start_it_at_once() {
    let server = TestServer::sqlite().await;
    let (room, ana, bea) = ana_and_bea(&server).await;
    for who in [&ana, &bea] {
        let (status, body) = server
            .post_as(who, &format!("/api/rooms/{room}/leave"), json!({}))
            .await;
        assert_eq!(status, 200, "{body}");
    }
    // Bea, the last to leave and so still the owner, keeps the room open on her screen.
    let mut bea_ws = WsClient::connect(&server, &room, Some(&bea.token)).await;
    assert_eq!(bea_ws.state["room"]["owner_id"], bea.id.as_str());
    let cai = server.player("Cai").await;
    let (status, body) = server
        .post_as(&cai, &format!("/api/rooms/{room}/join"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["owner_id"], cai.id.as_str(), "{body}");
    bea_ws
        .until_state(|s| s["room"]["owner_id"] == cai.id.as_str())
        .await;
    let (status, body) = server
        .post_as(&cai, &format!("/api/rooms/{room}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    server.finish().await;
}

/// An owner who gave up their seat, in a room everyone left, cannot start it: the game would have no person
/// at all (only bots, which room settings refuse as `no_human_seat`), played by the server for nobody. It is
/// refused `409 not_seated` and the room stays waiting; once someone sits down, they own it and start it.
/// (Found by the REST fuzz of `fuzz_rest.rs`: `leave` then `start` by the owner made a game of four bots.)
#[tokio::test]
async fn an_owner_who_left_an_empty_room_cannot_start_a_game_of_bots_alone() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let room = server.room(&ana, common::public_four()).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = server
        .post_as(&ana, &format!("/api/rooms/{room}/leave"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["owner_id"], ana.id.as_str(), "{body}");
    let (status, body) = server
        .post_as(&ana, &format!("/api/rooms/{room}/start"), json!({}))
        .await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (409, Some("not_seated")),
        "{body}"
    );
    assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
    let (status, view) = server
        .get_as(&ana.token, &format!("/api/rooms/{room}"))
        .await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["status"], "waiting", "{view}");
    assert!(view["game_id"].is_null(), "{view}");
    // Sitting down again, she owns it and starts it.
    let (status, body) = server
        .post_as(&ana, &format!("/api/rooms/{room}/join"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = server
        .post_as(&ana, &format!("/api/rooms/{room}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    server.finish().await;
}

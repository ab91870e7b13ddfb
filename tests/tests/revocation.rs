//! A token revoked (signing out, a new password, erasing yourself) also closes the sockets opened with
//! it, with close code 4001 `token_revoked`: a device signed out cannot go on playing or chatting
//! through a connection it opened before. Sockets of the player's other devices stay.
mod common;

use common::game::start_with_bots;
use common::ws::WsClient;
use common::{Player, TestServer, quick_two, status_and_json};
use serde_json::json;

/// Ana at seat 0 of a started four-seat game (bots elsewhere, her turn first), with an account, signed
/// in on a phone too: Ana (her first token), the phone's token, the room, and both devices' sockets.
async fn ana_on_two_devices(server: &TestServer) -> (Player, String, String, WsClient, WsClient) {
    let started = start_with_bots(server, "playgridia", "individual", 4).await;
    let ana = started.owner;
    let (status, body) = server
        .post_as(
            &ana,
            "/api/account",
            json!({ "username": "ana", "password": "correct horse" }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = status_and_json(
        server
            .post("/api/sessions")
            .json(&json!({ "username": "ana", "password": "correct horse" }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let phone = body["token"].as_str().unwrap().to_owned();
    let laptop_ws = WsClient::connect(server, &started.room, Some(&ana.token)).await;
    let phone_ws = WsClient::connect(server, &started.room, Some(&phone)).await;
    (ana, phone, started.room, laptop_ws, phone_ws)
}

#[tokio::test]
async fn signing_out_on_a_device_closes_its_open_sockets_and_no_other() {
    let server = TestServer::sqlite().await;
    let (_, phone, _, mut laptop_ws, mut phone_ws) = ana_on_two_devices(&server).await;
    let (status, _) = server.delete_as(&phone, "/api/sessions/current").await;
    assert_eq!(status, 204);
    phone_ws.assert_revoked().await;
    // The laptop plays on.
    laptop_ws.act().await;
    laptop_ws.close().await;
    server.finish().await;
}

#[tokio::test]
async fn a_new_password_closes_the_sockets_of_the_devices_it_signs_out() {
    let server = TestServer::sqlite().await;
    let (_, phone, _, mut laptop_ws, mut phone_ws) = ana_on_two_devices(&server).await;
    let (status, body) = server
        .patch_as(
            &phone,
            "/api/account",
            json!({ "password": "correct horse", "new_password": "battery staple" }),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    laptop_ws.assert_revoked().await;
    // The phone, which set the new password, plays on.
    phone_ws.act().await;
    phone_ws.close().await;
    server.finish().await;
}

#[tokio::test]
async fn erasing_yourself_closes_every_socket_you_have_open_and_no_spectators() {
    let server = TestServer::sqlite().await;
    let (ana, _, room, mut laptop_ws, mut phone_ws) = ana_on_two_devices(&server).await;
    let mut spectator = WsClient::connect(&server, &room, None).await;
    let (status, _) = server.erase_me(&ana.token, Some("correct horse")).await;
    assert_eq!(status, 204);
    laptop_ws.assert_revoked().await;
    phone_ws.assert_revoked().await;
    // The spectator still watches: the seat now shows the stand-in name.
    spectator
        .until_state(|s| s["seats"][0]["display_name"] == "Deleted player")
        .await;
    spectator.close().await;
    server.finish().await;
}

#[tokio::test]
async fn signing_out_closes_a_socket_that_only_watches_someone_elses_room() {
    let server = TestServer::sqlite().await;
    let (_, phone, _, laptop_ws, phone_ws) = ana_on_two_devices(&server).await;
    // The phone watches Bea's game, where Ana has no seat.
    let beas = start_with_bots(&server, "ludoteka", "individual", 4).await;
    let mut watching = WsClient::connect(&server, &beas.room, Some(&phone)).await;
    let (status, _) = server.delete_as(&phone, "/api/sessions/current").await;
    assert_eq!(status, 204);
    watching.assert_revoked().await;
    laptop_ws.close().await;
    drop(phone_ws);
    server.finish().await;
}

#[tokio::test]
async fn signing_out_closes_sockets_in_rooms_older_than_the_thirty_newest() {
    let server = TestServer::sqlite().await;
    let (ana, phone, _, laptop_ws, mut phone_ws) = ana_on_two_devices(&server).await;
    // Thirty newer rooms push the game off Ana's own list of rooms; its socket must close all the same.
    for _ in 0..30 {
        server.room(&ana, quick_two()).await;
    }
    let (status, _) = server.delete_as(&phone, "/api/sessions/current").await;
    assert_eq!(status, 204);
    phone_ws.assert_revoked().await;
    laptop_ws.close().await;
    server.finish().await;
}

#[tokio::test]
async fn a_socket_asked_for_with_a_token_that_is_not_a_bearer_token_is_refused_with_a_code() {
    let server = TestServer::sqlite().await;
    let (_, _, room, laptop_ws, phone_ws) = ana_on_two_devices(&server).await;
    for header in ["Basic YW5hOmNvcnJlY3QgaG9yc2U=", "Bearer    "] {
        let (status, body) = status_and_json(
            server
                .get(&format!("/api/rooms/{room}/ws"))
                .header("authorization", header)
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(
            (status.as_u16(), body["code"].as_str()),
            (401, Some("invalid_token")),
            "{header}"
        );
    }
    laptop_ws.close().await;
    phone_ws.close().await;
    server.finish().await;
}

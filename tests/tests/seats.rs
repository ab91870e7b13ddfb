//! The owner of a waiting room manages its seats: puts a bot in an empty seat, changes a bot's level,
//! takes a bot out so that a friend can sit there, and removes a stranger, who cannot come back.
mod common;

use common::databases::sqlite_and_postgres;
use common::game::ana_and_bea;
use common::ws::WsClient;
use common::{Player, TestServer};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// `PUT /api/rooms/{room}/seats/{seat}` with `body`, as `player`.
async fn put_seat(
    server: &TestServer,
    player: &Player,
    room: &str,
    seat: &str,
    body: Value,
) -> (StatusCode, Value) {
    server
        .put_as(player, &format!("/api/rooms/{room}/seats/{seat}"), body)
        .await
}

/// `DELETE /api/rooms/{room}/seats/{seat}`, as `player`.
async fn remove_seat(
    server: &TestServer,
    player: &Player,
    room: &str,
    seat: &str,
) -> (StatusCode, Value) {
    server
        .delete_as(&player.token, &format!("/api/rooms/{room}/seats/{seat}"))
        .await
}

/// Asserts a refusal with `status` and `code`.
fn refused(answer: (StatusCode, Value), status: u16, code: &str) {
    let (got, body) = answer;
    assert_eq!(got.as_u16(), status, "{body}");
    assert_eq!(body["code"], code, "{body}");
    assert!(
        body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
}

/// The owner adds a bot, every client sees it, and it is stored: `ana_and_bea`'s room, seat 2.
async fn owner_adds_a_bot_and_every_client_sees_it(server: TestServer) {
    let (room, ana, bea) = ana_and_bea(&server).await;
    let mut ana_ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    let mut bea_ws = WsClient::connect(&server, &room, Some(&bea.token)).await;
    let mut watcher = WsClient::connect(&server, &room, None).await;

    let (status, body) = put_seat(&server, &ana, &room, "2", json!({ "bot": "expert" })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["seats"][2]["bot"], "expert", "{body}");
    for ws in [&mut ana_ws, &mut bea_ws, &mut watcher] {
        ws.until_state(|s| s["seats"][2]["bot"] == "expert").await;
        assert_eq!(ws.state["seats"][2]["status"], "bot");
    }
    // Stored: read back from a fresh look-up.
    let (_, room_now) = server
        .get_as(&bea.token, &format!("/api/rooms/{room}"))
        .await;
    assert_eq!(room_now["seats"][2]["bot"], "expert", "{room_now}");
    server.finish().await;
}

sqlite_and_postgres!(
    the_owner_adds_a_bot_to_an_empty_seat_and_every_client_sees_it,
    owner_adds_a_bot_and_every_client_sees_it
);

#[tokio::test]
async fn the_owner_changes_a_bots_level_and_it_survives_a_restart() {
    let mut server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let room = server
        .room(
            &ana,
            json!({ "rules": "ludoteka", "mode": "individual", "players": 4, "public": true,
                    "bots": [null, "random", null, null] }),
        )
        .await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut ana_ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    assert_eq!(ana_ws.state["seats"][1]["bot"], "random");

    let (status, body) = put_seat(&server, &ana, &room, "1", json!({ "bot": "hard" })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["seats"][1]["bot"], "expert",
        "an alias is stored by its name"
    );
    ana_ws
        .until_state(|s| s["seats"][1]["bot"] == "expert")
        .await;
    // Asking again for the same level is answered all the same.
    let (status, body) = put_seat(&server, &ana, &room, "1", json!({ "bot": "expert" })).await;
    assert_eq!(status, 200, "{body}");
    ana_ws.close().await;

    server.stop().await;
    let again = TestServer::start(server.database_url.clone()).await;
    let (_, body) = again
        .get_as(&ana.token, &format!("/api/rooms/{room}"))
        .await;
    assert_eq!(body["seats"][1]["bot"], "expert", "{body}");
    again.stop_only().await;
    server.finish().await;
}

#[tokio::test]
async fn the_owner_takes_a_bot_out_and_a_friend_joins_that_seat() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let cris = server.player("Cris").await;
    let room = server
        .room(
            &ana,
            json!({ "rules": "playgridia", "mode": "1v1", "players": 2, "public": false,
                    "bots": [null, "greedy"] }),
        )
        .await;
    let (id, code) = (
        room["id"].as_str().unwrap().to_owned(),
        room["join_code"].as_str().unwrap().to_owned(),
    );
    // Full: the bot holds the only other seat.
    refused(
        server
            .post_as(&cris, &format!("/api/rooms/{code}/join"), json!({}))
            .await,
        409,
        "room_full",
    );
    let mut ana_ws = WsClient::connect(&server, &id, Some(&ana.token)).await;

    let (status, body) = put_seat(&server, &ana, &id, "1", json!({ "bot": null })).await;
    assert_eq!(status, 200, "{body}");
    assert!(body["seats"][1]["bot"].is_null(), "{body}");
    ana_ws
        .until_state(|s| s["seats"][1]["status"] == "empty")
        .await;

    let (status, body) = server
        .post_as(&cris, &format!("/api/rooms/{code}/join"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["seats"][1]["player_id"], cris.id.as_str());
    ana_ws
        .until_state(|s| s["seats"][1]["player_id"] == cris.id.as_str())
        .await;
    server.finish().await;
}

#[tokio::test]
async fn the_owner_removes_a_stranger_who_is_told_and_cannot_rejoin_and_quick_match_does_not_seat_them_there()
 {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let sam = server.player("Sam").await;
    let kind = json!({ "rules": "playgridia", "mode": "individual", "players": 4 });
    let (status, body) = server.post_as(&ana, "/api/quick-match", kind.clone()).await;
    assert_eq!(status, 201, "{body}");
    let room = body["id"].as_str().unwrap().to_owned();
    let mut ana_ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    // A stranger's quick match seats them in Ana's public room.
    let (status, body) = server.post_as(&sam, "/api/quick-match", kind.clone()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["id"], room.as_str());
    let sam_seat = body["seats"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["player_id"] == sam.id.as_str())
        .unwrap();
    let mut sam_ws = WsClient::connect(&server, &room, Some(&sam.token)).await;
    let hello = sam_ws
        .private
        .iter()
        .find(|m| m["type"] == "hello")
        .unwrap();
    assert_eq!(hello["removed"], false, "{hello}");

    let (status, body) = remove_seat(&server, &ana, &room, &sam_seat.to_string()).await;
    assert_eq!(status, 204, "{body}");
    // Everyone sees the seat free; Sam's page stays, watching, and is told why.
    ana_ws
        .until_state(|s| s["seats"][sam_seat]["status"] == "empty")
        .await;
    let hello = sam_ws
        .until(|m| m["type"] == "hello" && m["removed"] == true)
        .await;
    assert_eq!(
        (&hello["seat"], &hello["role"]),
        (&Value::Null, &json!("spectator"))
    );
    assert_eq!(sam_ws.state["seats"][sam_seat]["status"], "empty");
    // Coming back later, they are still told.
    let again = WsClient::connect(&server, &room, Some(&sam.token)).await;
    let hello = again.private.iter().find(|m| m["type"] == "hello").unwrap();
    assert_eq!(hello["removed"], true, "{hello}");

    refused(
        server
            .post_as(&sam, &format!("/api/rooms/{room}/join"), json!({}))
            .await,
        403,
        "removed_from_room",
    );
    // Quick match passes Ana's room by (it still has free seats and Ana is in it).
    let (status, body) = server.post_as(&sam, "/api/quick-match", kind).await;
    assert_eq!(status, 201, "a room of their own: {body}");
    assert_ne!(body["id"], room.as_str());
    let (_, body) = server
        .get_as(&ana.token, &format!("/api/rooms/{room}"))
        .await;
    assert!(
        body["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["player_id"] != sam.id.as_str()),
        "{body}"
    );
    server.finish().await;
}

#[tokio::test]
async fn only_the_owner_manages_seats() {
    let server = TestServer::sqlite().await;
    let (room, ana, bea) = ana_and_bea(&server).await;
    let before = server
        .get_as(&ana.token, &format!("/api/rooms/{room}"))
        .await;
    refused(
        put_seat(&server, &bea, &room, "2", json!({ "bot": "random" })).await,
        403,
        "not_room_owner",
    );
    refused(
        remove_seat(&server, &bea, &room, "0").await,
        403,
        "not_room_owner",
    );
    let (status, _) = server
        .client
        .put(server.url(&format!("/api/rooms/{room}/seats/2")))
        .json(&json!({ "bot": "random" }))
        .send()
        .await
        .map(|r| (r.status(), ()))
        .unwrap();
    assert_eq!(status, 401);
    let after = server
        .get_as(&ana.token, &format!("/api/rooms/{room}"))
        .await;
    assert_eq!(before, after, "nothing changed");
    server.finish().await;
}

#[tokio::test]
async fn a_started_room_keeps_its_seats() {
    let server = TestServer::sqlite().await;
    let (room, ana, _bea) = ana_and_bea(&server).await;
    let (status, body) = server
        .post_as(&ana, &format!("/api/rooms/{room}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    refused(
        put_seat(&server, &ana, &room, "2", json!({ "bot": null })).await,
        409,
        "room_not_waiting",
    );
    refused(
        remove_seat(&server, &ana, &room, "1").await,
        409,
        "room_not_waiting",
    );
    server.finish().await;
}

#[tokio::test]
async fn a_seat_the_room_does_not_have_is_not_found() {
    let server = TestServer::sqlite().await;
    let (room, ana, _bea) = ana_and_bea(&server).await;
    for seat in ["4", "-1", "99999999999999999999", "two"] {
        refused(
            put_seat(&server, &ana, &room, seat, json!({ "bot": "greedy" })).await,
            404,
            "seat_not_found",
        );
        refused(
            remove_seat(&server, &ana, &room, seat).await,
            404,
            "seat_not_found",
        );
    }
    refused(
        put_seat(
            &server,
            &ana,
            "no-such-room",
            "1",
            json!({ "bot": "greedy" }),
        )
        .await,
        404,
        "room_not_found",
    );
    server.finish().await;
}

#[tokio::test]
async fn a_body_without_a_bot_level_is_refused_with_a_code() {
    let server = TestServer::sqlite().await;
    let (room, ana, _bea) = ana_and_bea(&server).await;
    for body in [
        json!({}),
        json!({ "bot": "grandmaster" }),
        json!({ "bot": 3 }),
        json!({ "bot": "greedy", "seat": 1 }),
        json!([]),
    ] {
        refused(
            put_seat(&server, &ana, &room, "2", body).await,
            422,
            "invalid_body",
        );
    }
    let resp = server
        .client
        .put(server.url(&format!("/api/rooms/{room}/seats/2")))
        .bearer_auth(&ana.token)
        .header("content-type", "application/json")
        .body("{\"bot\":")
        .send()
        .await
        .unwrap();
    refused(common::status_and_json(resp).await, 400, "malformed_json");
    let (_, body) = server
        .get_as(&ana.token, &format!("/api/rooms/{room}"))
        .await;
    assert!(body["seats"][2]["bot"].is_null(), "{body}");
    server.finish().await;
}

#[tokio::test]
async fn a_persons_seat_takes_no_bot_and_an_empty_or_bot_seat_has_nobody_to_remove() {
    let server = TestServer::sqlite().await;
    let (room, ana, _bea) = ana_and_bea(&server).await;
    refused(
        put_seat(&server, &ana, &room, "1", json!({ "bot": "expert" })).await,
        409,
        "seat_has_person",
    );
    refused(
        put_seat(&server, &ana, &room, "0", json!({ "bot": null })).await,
        409,
        "seat_has_person",
    );
    refused(
        remove_seat(&server, &ana, &room, "2").await,
        409,
        "no_person_at_seat",
    );
    let (status, _) = put_seat(&server, &ana, &room, "3", json!({ "bot": "random" })).await;
    assert_eq!(status, 200);
    refused(
        remove_seat(&server, &ana, &room, "3").await,
        409,
        "no_person_at_seat",
    );
    refused(
        remove_seat(&server, &ana, &room, "0").await,
        409,
        "cannot_remove_self",
    );
    server.finish().await;
}

#[tokio::test]
async fn seat_changes_count_as_writes() {
    let server = TestServer::sqlite_with(|c| c.http_writes_per_minute = 6).await;
    let ana = server.player("Ana").await;
    let room = server.room(&ana, common::public_four()).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // Two writes so far (registering, creating); four more PUTs use the allowance up.
    let mut statuses = Vec::new();
    for level in ["random", "greedy", "expert", "random", "greedy"] {
        statuses.push(
            put_seat(&server, &ana, &room, "1", json!({ "bot": level }))
                .await
                .0
                .as_u16(),
        );
    }
    assert_eq!(statuses, [200, 200, 200, 200, 429]);
    server.finish().await;
}

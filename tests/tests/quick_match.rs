//! Quick match: one call seats a player in an online game with other people, and a full quick-match
//! room starts by itself.
mod common;

use common::databases::sqlite_and_postgres;
use common::ws::WsClient;
use common::{Player, TestServer, status_and_json};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// `POST /api/quick-match` as `player`: status and body.
async fn quick_match(server: &TestServer, player: &Player, body: Value) -> (StatusCode, Value) {
    server.post_as(player, "/api/quick-match", body).await
}

/// A quick match that must succeed with `expected`; returns the room's id and the body.
async fn matched(
    server: &TestServer,
    player: &Player,
    body: Value,
    expected: StatusCode,
) -> (String, Value) {
    let (status, room) = quick_match(server, player, body).await;
    assert_eq!(status, expected, "{room}");
    assert_eq!(room["created"], expected == StatusCode::CREATED, "{room}");
    assert!(seat_of(&room, player).is_some(), "seated: {room}");
    (room["id"].as_str().unwrap().to_owned(), room)
}

fn seat_of(room: &Value, player: &Player) -> Option<usize> {
    room["seats"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["player_id"] == player.id.as_str())
}

fn seated_count(room: &Value) -> usize {
    room["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| !s["player_id"].is_null())
        .count()
}

async fn get_room(server: &TestServer, id: &str) -> Value {
    let (status, room) = status_and_json(
        server
            .get(&format!("/api/rooms/{id}"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{room}");
    room
}

async fn my_room_count(server: &TestServer, player: &Player) -> usize {
    let resp = server
        .get("/api/players/me/rooms")
        .bearer_auth(&player.token)
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(resp).await;
    assert_eq!(status, 200, "{body}");
    body["rooms"].as_array().unwrap().len()
}

fn individual() -> Value {
    json!({ "rules": "playgridia", "mode": "individual" })
}

sqlite_and_postgres!(
    players_asking_for_the_same_game_meet_in_one_room,
    same_game_same_room
);

async fn same_game_same_room(server: TestServer) {
    let ana = server.player("Ana").await;
    let bea = server.player("Bea").await;
    let cleo = server.player("Cleo").await;

    let (room, body) = matched(&server, &ana, individual(), StatusCode::CREATED).await;
    assert_eq!(body["status"], "waiting");
    assert_eq!(body["owner_id"], ana.id.as_str());
    let settings = &body["settings"];
    assert_eq!(settings["quick_match"], true, "{body}");
    assert_eq!(settings["public"], true);
    assert_eq!(settings["players"], 4, "the mode's usual count");
    assert_eq!(settings["bots"], json!([null, null, null, null]));
    assert_eq!(settings["turn_time_secs"], 30, "the server's default timer");
    assert_eq!(
        settings["house_rules"],
        json!({}),
        "strangers play the rule set as it is"
    );
    // Ana has the room open, as the browser does once it gets there.
    let mut ana_ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    assert_eq!(ana_ws.state["room"]["settings"]["quick_match"], true);

    let (bea_room, body) = matched(&server, &bea, individual(), StatusCode::OK).await;
    assert_eq!(bea_room, room, "Bea joins Ana: {body}");
    assert_eq!(seated_count(&body), 2);
    assert_eq!(body["status"], "waiting");
    ana_ws
        .until_state(|s| s["seats"][1]["player_id"] == bea.id.as_str())
        .await;

    // Another mode is another game.
    let (cleo_room, _) = matched(
        &server,
        &cleo,
        json!({ "rules": "playgridia", "mode": "quick" }),
        StatusCode::CREATED,
    )
    .await;
    assert_ne!(cleo_room, room);

    // Asking again (even with the count spelled out) finds the seat already held, never a second one.
    for (player, body) in [
        (&ana, individual()),
        (
            &bea,
            json!({ "rules": "playgridia", "mode": "individual", "players": 4 }),
        ),
    ] {
        let (again, body) = matched(&server, player, body, StatusCode::OK).await;
        assert_eq!(again, room);
        assert_eq!(seated_count(&body), 2, "{body}");
        assert_eq!(my_room_count(&server, player).await, 1);
    }
    let stored = get_room(&server, &room).await;
    assert_eq!(seated_count(&stored), 2);
    ana_ws.close().await;
    server.finish().await;
}

#[tokio::test]
async fn private_rooms_plain_rooms_and_rooms_nobody_has_open_are_never_matched() {
    let server = TestServer::sqlite().await;
    let duel = json!({ "rules": "playgridia", "mode": "1v1", "players": 2 });

    // A private room and a public room of the same game, not made by quick match, each with its owner there.
    let mut open = Vec::new();
    for public in [false, true] {
        let owner = server.player("Owner").await;
        let mut settings = duel.clone();
        settings["public"] = json!(public);
        let room = server.room(&owner, settings).await;
        let id = room["id"].as_str().unwrap().to_owned();
        open.push(WsClient::connect(&server, &id, Some(&owner.token)).await);
    }

    // A quick-match room whose only player closed it (never opened it here).
    let ana = server.player("Ana").await;
    let (unwatched, _) = matched(&server, &ana, duel.clone(), StatusCode::CREATED).await;

    let bea = server.player("Bea").await;
    let (bea_room, body) = matched(&server, &bea, duel.clone(), StatusCode::CREATED).await;
    assert_ne!(bea_room, unwatched, "nobody had Ana's room open");
    assert_eq!(seated_count(&body), 1);
    assert_eq!(
        seated_count(&get_room(&server, &unwatched).await),
        1,
        "nobody was seated in the unwatched room"
    );
    for client in open {
        assert_eq!(
            seated_count(&client.state),
            1,
            "the private and the plain room were left alone"
        );
        client.close().await;
    }
    server.finish().await;
}

#[tokio::test]
async fn the_fullest_room_comes_first_then_the_oldest_and_a_full_room_starts_by_itself() {
    let server = TestServer::sqlite().await;
    let four = || json!({ "rules": "ludoteka", "mode": "individual", "players": 4 });
    let players: Vec<Player> = {
        let mut v = Vec::new();
        for name in ["Ana", "Bea", "Cleo", "Dan", "Eva", "Fer"] {
            v.push(server.player(name).await);
        }
        v
    };
    let [ana, bea, cleo, dan, eva, fer] = &players[..] else {
        unreachable!()
    };

    // Room A (older) and room B: both made while no other room was open.
    let (a, _) = matched(&server, ana, four(), StatusCode::CREATED).await;
    let (b, _) = matched(&server, bea, four(), StatusCode::CREATED).await;
    assert_ne!(a, b);
    let mut bea_ws = WsClient::connect(&server, &b, Some(&bea.token)).await;
    let (room, _) = matched(&server, cleo, four(), StatusCode::OK).await;
    assert_eq!(room, b, "the only room someone has open");
    let ana_ws = WsClient::connect(&server, &a, Some(&ana.token)).await;
    // A (1 seated, older) against B (2 seated): the fuller one.
    let (room, _) = matched(&server, dan, four(), StatusCode::OK).await;
    assert_eq!(room, b);
    bea_ws
        .until_state(|s| {
            s["room"]["status"] == "waiting" && s["seats"][2]["player_id"] == dan.id.as_str()
        })
        .await;

    // Eva takes B's last seat: the game starts by itself, with no Start from the owner.
    let (room, body) = matched(&server, eva, four(), StatusCode::OK).await;
    assert_eq!(room, b);
    assert_eq!(body["status"], "playing", "{body}");
    assert!(body["game_id"].is_string(), "{body}");
    bea_ws
        .until_state(|s| s["room"]["status"] == "playing" && !s["game"].is_null())
        .await;
    let seats = bea_ws.state["seats"].as_array().unwrap();
    assert!(
        seats.iter().all(|s| s["bot"].is_null()),
        "four people, no bot"
    );
    assert_eq!(get_room(&server, &b).await["status"], "playing");

    // A started room is no longer matched: Fer joins A.
    let (room, _) = matched(&server, fer, four(), StatusCode::OK).await;
    assert_eq!(room, a);

    // Among rooms equally full, the oldest.
    let duel = || json!({ "rules": "morocco", "mode": "quick", "players": 2 });
    let gil = server.player("Gil").await;
    let hugo = server.player("Hugo").await;
    let ines = server.player("Ines").await;
    let (older, _) = matched(&server, &gil, duel(), StatusCode::CREATED).await;
    let (newer, _) = matched(&server, &hugo, duel(), StatusCode::CREATED).await;
    let newer_ws = WsClient::connect(&server, &newer, Some(&hugo.token)).await;
    let older_ws = WsClient::connect(&server, &older, Some(&gil.token)).await;
    let (room, body) = matched(&server, &ines, duel(), StatusCode::OK).await;
    assert_eq!(room, older);
    assert_eq!(body["status"], "playing", "two of two: started");

    for ws in [bea_ws, ana_ws, newer_ws, older_ws] {
        ws.close().await;
    }
    server.finish().await;
}

#[tokio::test]
async fn the_owner_may_still_start_early_and_empty_seats_get_bots() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let (room, _) = matched(&server, &ana, individual(), StatusCode::CREATED).await;
    let (status, body) = server
        .post_as(&ana, &format!("/api/rooms/{room}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "playing");
    let bots = body["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| !s["bot"].is_null())
        .count();
    assert_eq!(bots, 3);
    // Ana's next quick match is a new room: the started one is not waiting any more.
    let (next, _) = matched(&server, &ana, individual(), StatusCode::CREATED).await;
    assert_ne!(next, room);
    server.finish().await;
}

#[tokio::test]
async fn bad_requests_are_refused_with_a_code_and_change_nothing() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let cases = [
        (
            json!({ "rules": "chess", "mode": "individual" }),
            422,
            "invalid_body",
        ),
        (
            json!({ "rules": "playgridia", "mode": "solo" }),
            422,
            "invalid_body",
        ),
        (json!({ "mode": "individual" }), 422, "invalid_body"),
        (
            json!({ "rules": "playgridia", "mode": "individual", "players": 7 }),
            422,
            "invalid_settings",
        ),
        (
            json!({ "rules": "playgridia", "mode": "pairs", "players": 3 }),
            422,
            "invalid_settings",
        ),
        (
            json!({ "rules": "playgridia", "mode": "individual", "players": "four" }),
            422,
            "invalid_body",
        ),
    ];
    for (body, status, code) in cases {
        let (got, error) = quick_match(&server, &ana, body.clone()).await;
        assert_eq!(got.as_u16(), status, "{body}: {error}");
        assert_eq!(error["code"], code, "{body}: {error}");
        assert!(
            error["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{error}"
        );
    }
    let resp = server
        .post("/api/quick-match")
        .bearer_auth(&ana.token)
        .header("content-type", "application/json")
        .body("{\"rules\":")
        .send()
        .await
        .unwrap();
    let (status, error) = status_and_json(resp).await;
    assert_eq!(status, 400, "{error}");
    assert_eq!(error["code"], "malformed_json");
    let resp = server
        .post("/api/quick-match")
        .json(&individual())
        .send()
        .await
        .unwrap();
    let (status, error) = status_and_json(resp).await;
    assert_eq!(status, 401, "{error}");
    assert_eq!(error["code"], "missing_token");

    assert_eq!(my_room_count(&server, &ana).await, 0, "no room was made");
    let (status, list) = status_and_json(server.get("/api/rooms").send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(list["rooms"], json!([]));
    server.finish().await;
}

#[tokio::test]
async fn a_quick_match_rematch_waits_for_its_owner_and_is_not_offered_to_strangers() {
    // Bea never connects: after the away grace a bot plays her seat, which stays hers.
    let server = TestServer::sqlite_with(|c| c.away_grace_secs = 1).await;
    let ana = server.player("Ana").await;
    let bea = server.player("Bea").await;
    let duel = || json!({ "rules": "playgridia", "mode": "quick", "players": 2 });
    let (room, _) = matched(&server, &ana, duel(), StatusCode::CREATED).await;
    // Only a room someone has open is matched.
    let mut ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    let (_, body) = matched(&server, &bea, duel(), StatusCode::OK).await;
    assert_eq!(body["status"], "playing", "full: started by itself");
    ws.play_to_the_end().await;
    ws.close().await;

    let (status, next) = server
        .post_as(&ana, &format!("/api/rooms/{room}/rematch"), json!({}))
        .await;
    assert_eq!(status, 201, "{next}");
    let next_id = next["id"].as_str().unwrap().to_owned();
    assert_eq!(
        next["settings"]["quick_match"], false,
        "a rematch starts when its owner says so, not by itself: {next}"
    );
    // Bea does not want another: her seat is free, and Ana waits in the rematch with it open.
    let (status, body) = server
        .post_as(&bea, &format!("/api/rooms/{next_id}/leave"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let ana_ws = WsClient::connect(&server, &next_id, Some(&ana.token)).await;
    // A stranger asking for the same quick game gets a room of their own, not Bea's seat at Ana's table.
    let cai = server.player("Cai").await;
    let (other, _) = matched(&server, &cai, duel(), StatusCode::CREATED).await;
    assert_ne!(other, next_id);
    assert_eq!(seated_count(&get_room(&server, &next_id).await), 1);
    let (status, body) = server
        .post_as(&ana, &format!("/api/rooms/{next_id}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "playing");
    ana_ws.close().await;
    server.finish().await;
}

mod common;

use common::game::{start_room, start_with_bots};
use common::ws::WsClient;
use common::{TestServer, games_to_watch, private_duel, public_four, status_and_json};
use serde_json::{Value, json};

fn seats(room: &Value) -> &Vec<Value> {
    room["seats"].as_array().unwrap()
}

#[tokio::test]
async fn creating_a_room_returns_a_join_code() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    let room = server.room(&owner, public_four()).await;
    let code = room["join_code"].as_str().unwrap();
    assert_eq!(code.len(), 6);
    assert!(
        code.bytes()
            .all(|b| b"ABCDEFGHJKMNPQRSTUVWXYZ23456789".contains(&b))
    );
    assert_eq!(room["status"], "waiting");
    assert_eq!(room["owner_id"], owner.id.as_str());
    assert_eq!(seats(&room).len(), 4);
    assert_eq!(seats(&room)[0]["player_id"], owner.id.as_str());
    assert_eq!(
        room["settings"]["turn_time_secs"], 30,
        "server default applies"
    );
    server.finish().await;
}

#[tokio::test]
async fn a_room_can_be_found_by_id_or_by_join_code() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    let room = server.room(&owner, private_duel()).await;
    let id = room["id"].as_str().unwrap();
    let code = room["join_code"].as_str().unwrap();

    let (status, by_id) = status_and_json(
        server
            .get(&format!("/api/rooms/{id}"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 403, "a private room is hidden from strangers");
    assert_eq!(by_id["code"], "wrong_join_code");
    let (status, by_id) = server
        .get_as(&owner.token, &format!("/api/rooms/{id}"))
        .await;
    assert_eq!(status, 200, "its owner finds it by id");
    assert_eq!(by_id["join_code"], code);

    let lower = code.to_ascii_lowercase();
    let (status, by_code) = status_and_json(
        server
            .get(&format!("/api/rooms/{lower}"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(by_code["id"], id);
    assert_eq!(by_code["join_code"], code);
    server.finish().await;
}

#[tokio::test]
async fn invalid_settings_are_refused_with_422() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    let (status, body) = server
        .post_as(
            &owner,
            "/api/rooms",
            json!({ "rules": "ludoteka", "mode": "pairs", "players": 3 }),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(body["code"], "invalid_settings");
    // Which check refused it, for a client to say in its own words; the sentence stays for people.
    assert_eq!(body["reason"], "bad_player_count", "{body}");
    assert!(body["message"].as_str().unwrap().contains('3'), "{body}");
    // Other errors carry no reason.
    let (status, body) = server
        .post_as(&owner, "/api/rooms", json!({ "rules": "chess" }))
        .await;
    assert_eq!(status, 422);
    assert!(body.get("reason").is_none(), "{body}");
    server.finish().await;
}

#[tokio::test]
async fn public_waiting_rooms_are_listed_and_private_ones_are_not() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    let public = server.room(&owner, public_four()).await;
    let private = server.room(&owner, private_duel()).await;
    // The owner has both rooms open, as the web client does once it has created a room.
    let _in_public =
        WsClient::connect(&server, public["id"].as_str().unwrap(), Some(&owner.token)).await;
    let _in_private =
        WsClient::connect(&server, private["id"].as_str().unwrap(), Some(&owner.token)).await;
    let ids = listed(&server).await;
    assert!(ids.contains(&public["id"].as_str().unwrap().to_owned()));
    assert!(!ids.contains(&private["id"].as_str().unwrap().to_owned()));
    server.finish().await;
}

/// Ids of the rooms `GET /api/rooms` lists, in its order.
async fn listed(server: &TestServer) -> Vec<String> {
    let (status, body) = status_and_json(server.get("/api/rooms").send().await.unwrap()).await;
    assert_eq!(status, 200, "{body}");
    body["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_public_room_is_listed_only_while_one_of_its_players_has_it_open() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let bea = server.player("Bea").await;
    let first = server.room(&ana, public_four()).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let second = server.room(&bea, public_four()).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        listed(&server).await.is_empty(),
        "nobody is waiting in either room"
    );

    // A spectator is not someone waiting to play.
    let spectator = WsClient::connect(&server, &first, None).await;
    assert!(listed(&server).await.is_empty());
    let ana_ws = WsClient::connect(&server, &first, Some(&ana.token)).await;
    let bea_ws = WsClient::connect(&server, &second, Some(&bea.token)).await;
    assert_eq!(
        listed(&server).await,
        [first.clone(), second.clone()],
        "oldest first"
    );

    // Ana goes away: her room leaves the lobby (still joinable by its link), Bea's stays.
    ana_ws.close().await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while listed(&server).await != [second.clone()] {
        assert!(
            std::time::Instant::now() < deadline,
            "Ana's room stayed listed"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let (status, _) = status_and_json(
        server
            .get(&format!("/api/rooms/{first}"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200);
    spectator.close().await;
    bea_ws.close().await;
    server.finish().await;
}

#[tokio::test]
async fn public_games_being_played_are_offered_to_watch_while_a_player_is_at_the_table() {
    let server = TestServer::sqlite().await;
    let older = start_with_bots(&server, "playgridia", "individual", 4).await;
    // Rooms are ordered by their creation time in milliseconds.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let newer = start_with_bots(&server, "morocco", "individual", 4).await;
    let private = start_room(
        &server,
        json!({ "rules": "playgridia", "mode": "1v1", "players": 2, "turn_time_secs": null, "public": false }),
    )
    .await;
    assert!(
        games_to_watch(&server).await.is_empty(),
        "nobody is at any of the tables"
    );

    // A spectator is not a player at the table.
    let spectator = WsClient::connect(&server, &older.room, None).await;
    assert!(games_to_watch(&server).await.is_empty());
    let at_older = WsClient::connect(&server, &older.room, Some(&older.owner.token)).await;
    let at_newer = WsClient::connect(&server, &newer.room, Some(&newer.owner.token)).await;
    let at_private = WsClient::connect(&server, &private.room, Some(&private.owner.token)).await;
    assert_eq!(
        games_to_watch(&server).await,
        [newer.room.clone(), older.room.clone()],
        "the newest game first, the private one never"
    );
    // Games being played are to watch, not rooms to join.
    assert!(listed(&server).await.is_empty());

    // The player of the newer game goes away: it is not offered any more.
    at_newer.close().await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while games_to_watch(&server).await != [older.room.clone()] {
        assert!(
            std::time::Instant::now() < deadline,
            "a game nobody is at stayed offered"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    spectator.close().await;
    at_older.close().await;
    at_private.close().await;
    server.finish().await;
}

#[tokio::test]
async fn a_finished_game_is_no_longer_offered_to_watch() {
    let server = TestServer::sqlite().await;
    let started = start_with_bots(&server, "playgridia", "quick", 4).await;
    let mut at_table = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    assert_eq!(games_to_watch(&server).await, vec![started.room.clone()]);
    at_table.play_to_the_end().await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !games_to_watch(&server).await.is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "a finished game stayed offered"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    at_table.close().await;
    server.finish().await;
}

#[tokio::test]
async fn an_unknown_status_to_list_is_refused_with_422() {
    let server = TestServer::sqlite().await;
    for query in ["?status=finished", "?status=everything", "?status="] {
        let (status, body) = status_and_json(
            server
                .get(&format!("/api/rooms{query}"))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, 422, "{query}: {body}");
        assert_eq!(body["code"], "invalid_query", "{query}");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    server.finish().await;
}

#[tokio::test]
async fn joining_a_public_room_takes_the_next_free_seat() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    let guest = server.player("Luis").await;
    let room = server.room(&owner, public_four()).await;
    let id = room["id"].as_str().unwrap();
    let (status, room) = server
        .post_as(
            &guest,
            &format!("/api/rooms/{id}/join"),
            json!({ "preferred_colour": "red" }),
        )
        .await;
    assert_eq!(status, 200, "{room}");
    assert_eq!(seats(&room)[1]["player_id"], guest.id.as_str());
    assert_eq!(seats(&room)[1]["display_name"], "Luis");
    assert_eq!(seats(&room)[1]["preferred_colour"], "red");

    let third = server.player("Eva").await;
    let (status, body) = server
        .post_as(
            &third,
            &format!("/api/rooms/{id}/join"),
            json!({ "preferred_colour": "red" }),
        )
        .await;
    assert_eq!(status, 409);
    assert_eq!(body["code"], "colour_taken");
    server.finish().await;
}

#[tokio::test]
async fn a_private_room_needs_its_code() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    let guest = server.player("Luis").await;
    let room = server.room(&owner, private_duel()).await;
    let id = room["id"].as_str().unwrap();
    let code = room["join_code"].as_str().unwrap();

    let (status, body) = server
        .post_as(&guest, &format!("/api/rooms/{id}/join"), json!({}))
        .await;
    assert_eq!(status, 403);
    assert_eq!(body["code"], "wrong_join_code");

    let (status, _) = server
        .post_as(
            &guest,
            &format!("/api/rooms/{id}/join"),
            json!({ "code": code }),
        )
        .await;
    assert_eq!(status, 200);
    server.finish().await;
}

#[tokio::test]
async fn a_full_room_refuses_another_player() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    let room = server.room(&owner, private_duel()).await;
    let code = room["join_code"].as_str().unwrap();
    let second = server.player("Luis").await;
    let (status, _) = server
        .post_as(&second, &format!("/api/rooms/{code}/join"), json!({}))
        .await;
    assert_eq!(status, 200);
    let third = server.player("Eva").await;
    let (status, body) = server
        .post_as(&third, &format!("/api/rooms/{code}/join"), json!({}))
        .await;
    assert_eq!(status, 409);
    assert_eq!(body["code"], "room_full");
    server.finish().await;
}

#[tokio::test]
async fn leaving_frees_the_seat() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    let guest = server.player("Luis").await;
    let room = server.room(&owner, public_four()).await;
    let id = room["id"].as_str().unwrap();
    server
        .post_as(&guest, &format!("/api/rooms/{id}/join"), json!({}))
        .await;
    let (status, room) = server
        .post_as(&guest, &format!("/api/rooms/{id}/leave"), json!({}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(seats(&room)[1]["player_id"], Value::Null);
    let (status, body) = server
        .post_as(&guest, &format!("/api/rooms/{id}/leave"), json!({}))
        .await;
    assert_eq!(status, 409);
    assert_eq!(body["code"], "not_seated");
    server.finish().await;
}

#[tokio::test]
async fn only_the_owner_can_start() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    let guest = server.player("Luis").await;
    let room = server.room(&owner, public_four()).await;
    let id = room["id"].as_str().unwrap();
    server
        .post_as(&guest, &format!("/api/rooms/{id}/join"), json!({}))
        .await;
    let (status, body) = server
        .post_as(&guest, &format!("/api/rooms/{id}/start"), json!({}))
        .await;
    assert_eq!(status, 403);
    assert_eq!(body["code"], "not_room_owner");
    let (status, _) = server
        .post_as(&owner, &format!("/api/rooms/{id}/start"), json!({}))
        .await;
    assert_eq!(status, 200);
    server.finish().await;
}

#[tokio::test]
async fn starting_fills_empty_seats_with_bots_and_records_a_seed_commitment() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    let mut settings = public_four();
    settings["bots"] = json!([null, "expert"]);
    let room = server.room(&owner, settings).await;
    let id = room["id"].as_str().unwrap();
    let (status, room) = server
        .post_as(&owner, &format!("/api/rooms/{id}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{room}");
    assert_eq!(room["status"], "playing");
    let bots: Vec<&Value> = seats(&room).iter().map(|s| &s["bot"]).collect();
    assert_eq!(
        bots,
        [
            &Value::Null,
            &json!("expert"),
            &json!("greedy"),
            &json!("greedy")
        ]
    );

    let (status, body) = server
        .post_as(&owner, &format!("/api/rooms/{id}/start"), json!({}))
        .await;
    assert_eq!(status, 409);
    assert_eq!(body["code"], "room_not_waiting");

    let game_id = room["game_id"].as_str().unwrap();
    let (status, record) = status_and_json(
        server
            .get(&format!("/api/games/{game_id}/record"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(record["room_id"], id);
    assert_eq!(record["seed_hash"].as_str().unwrap().len(), 64);
    assert_eq!(
        record["seed"],
        Value::Null,
        "the seed stays secret while playing"
    );
    assert_eq!(record["log"], json!([]));
    assert_eq!(record["seats"][2]["bot"], "greedy");
    server.finish().await;
}

#[tokio::test]
async fn nobody_can_join_a_started_room() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    let room = server.room(&owner, public_four()).await;
    let id = room["id"].as_str().unwrap();
    server
        .post_as(&owner, &format!("/api/rooms/{id}/start"), json!({}))
        .await;
    let late = server.player("Tarde").await;
    let (status, body) = server
        .post_as(&late, &format!("/api/rooms/{id}/join"), json!({}))
        .await;
    assert_eq!(status, 409);
    assert_eq!(body["code"], "room_not_waiting");
    server.finish().await;
}

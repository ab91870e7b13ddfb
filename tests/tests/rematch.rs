//! Rematch: after a finished game, the same players in a new room with the same settings.
mod common;

use common::TestServer;
use common::databases::sqlite_and_postgres;
use common::game::start_room;
use common::ws::WsClient;
use serde_json::json;

sqlite_and_postgres!(
    after_a_finished_game_a_seated_player_gets_one_rematch_room_with_the_same_seats,
    rematch_after_a_finished_game
);

/// Plays a quick game to the end, then asks for its rematch as a stranger, as the player, and again.
async fn rematch_after_a_finished_game(server: TestServer) {
    let started = start_room(
        &server,
        json!({ "rules": "playgridia", "mode": "quick", "players": 2, "turn_time_secs": null,
                "public": false, "bots": [null, "greedy"] }),
    )
    .await;
    let ana = &started.owner;
    let rematch = format!("/api/rooms/{}/rematch", started.room);

    let (status, body) = server.post_as(ana, &rematch, json!({})).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["code"], "game_not_finished", "not while the game runs");

    let mut client = WsClient::connect(&server, &started.room, Some(&ana.token)).await;
    client.play_to_the_end().await;
    client
        .until_state(|s| s["room"]["status"] == "finished")
        .await;

    let bea = server.player("Bea").await;
    let (status, body) = server.post_as(&bea, &rematch, json!({})).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["code"], "not_seated", "only the room's players");

    let (status, next) = server.post_as(ana, &rematch, json!({})).await;
    assert_eq!(status, 201, "{next}");
    let next_id = next["id"].as_str().unwrap().to_owned();
    assert_ne!(next_id, started.room);
    assert_eq!(next["status"], "waiting");
    assert_eq!(next["owner_id"], ana.id.as_str());
    assert_eq!(next["settings"]["mode"], "quick");
    assert_eq!(next["settings"]["public"], false);
    assert!(
        next["join_code"].is_string(),
        "the owner sees the code to share"
    );
    assert_eq!(
        next["seats"][0]["player_id"],
        ana.id.as_str(),
        "Ana keeps her seat"
    );
    assert_eq!(
        next["seats"][1]["bot"], "greedy",
        "the bot keeps its seat and level"
    );

    let (status, again) = server.post_as(ana, &rematch, json!({})).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(
        again["id"],
        next_id.as_str(),
        "asking again gives the same room"
    );

    let (status, body) = server
        .post_as(ana, &format!("/api/rooms/{next_id}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(
        body["game_id"].is_string(),
        "the rematch starts like any room"
    );
    server.finish().await;
}

#[tokio::test]
async fn a_rematch_of_an_unknown_room_is_not_found() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let (status, body) = server
        .post_as(&ana, "/api/rooms/ZZZZZZ/rematch", json!({}))
        .await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["code"], "room_not_found");
    server.finish().await;
}

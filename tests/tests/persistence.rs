mod common;

use common::databases::sqlite_and_postgres;
use common::{TestServer, public_four, status_and_json};
use serde_json::json;

#[tokio::test]
async fn rooms_and_seats_survive_a_restart() {
    let mut server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    let guest = server.player("Luis").await;
    let room = server.room(&owner, public_four()).await;
    let id = room["id"].as_str().unwrap().to_owned();
    server
        .post_as(
            &guest,
            &format!("/api/rooms/{id}/join"),
            json!({ "preferred_colour": "green" }),
        )
        .await;
    server.stop().await;

    let again = TestServer::start(server.database_url.clone()).await;
    let (status, room) =
        status_and_json(again.get(&format!("/api/rooms/{id}")).send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(room["seats"][1]["player_id"], guest.id.as_str());
    assert_eq!(room["seats"][1]["preferred_colour"], "green");
    // The old token still authenticates against the new process.
    let (status, room) = again
        .post_as(&owner, &format!("/api/rooms/{id}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{room}");
    again.finish().await;
    drop(server);
}

sqlite_and_postgres!(
    a_game_survives_a_restart_and_play_continues,
    common::game::restart_mid_game
);

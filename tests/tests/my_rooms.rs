//! A player's own rooms: what they can resume, what waits to start, and how their games ended.
mod common;

use common::databases::sqlite_and_postgres;
use common::game::start_room;
use common::ws::WsClient;
use common::{TestServer, private_duel, public_four, status_and_json};
use serde_json::{Value, json};

async fn my_rooms(server: &TestServer, token: &str) -> Value {
    let (status, body) = server.get_as(token, "/api/players/me/rooms").await;
    assert_eq!(status, 200, "{body}");
    body
}

sqlite_and_postgres!(
    a_player_sees_their_rooms_newest_first_with_what_became_of_each_game,
    my_rooms_list
);

/// A finished game, a running one and a waiting room for Ana; Bea sees only her own seat.
async fn my_rooms_list(server: TestServer) {
    let finished = start_room(
        &server,
        json!({ "rules": "playgridia", "mode": "quick", "players": 2, "turn_time_secs": null,
                "public": false, "bots": [null, "greedy"] }),
    )
    .await;
    let ana = finished.owner.clone();
    let mut client = WsClient::connect(&server, &finished.room, Some(&ana.token)).await;
    client.play_to_the_end().await;
    client
        .until_state(|s| s["room"]["status"] == "finished")
        .await;
    let winner_seats = client.game()["result"]["winner_seats"].clone();
    let ana_won = winner_seats.as_array().unwrap().contains(&json!(0));

    // A running game (the owner made it; Ana is not in it) and a waiting room with Ana and Bea.
    let running = start_room(
        &server,
        json!({ "rules": "ludoteka", "mode": "individual", "players": 4, "turn_time_secs": null,
                "public": true, "bots": [null, "greedy", "greedy", "greedy"] }),
    )
    .await;
    let waiting = server.room(&ana, public_four()).await;
    let waiting_id = waiting["id"].as_str().unwrap();
    let bea = server.player("Bea").await;
    let (status, body) = server
        .post_as(&bea, &format!("/api/rooms/{waiting_id}/join"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");

    let list = my_rooms(&server, &ana.token).await;
    let rooms = list["rooms"].as_array().unwrap();
    assert_eq!(rooms.len(), 2, "only the rooms Ana sits in: {list}");
    assert_eq!(rooms[0]["room_id"], waiting_id, "newest first");
    assert_eq!(rooms[0]["status"], "waiting");
    assert_eq!(rooms[0]["seat"], 0);
    assert_eq!(rooms[0]["settings"]["rules"], "ludoteka");
    assert!(rooms[0]["game"].is_null());
    assert_eq!(rooms[1]["room_id"], finished.room.as_str());
    assert_eq!(rooms[1]["status"], "finished");
    assert_eq!(rooms[1]["settings"]["mode"], "quick");
    assert_eq!(rooms[1]["game"]["id"], finished.game.as_str());
    assert_eq!(rooms[1]["game"]["won"], ana_won, "{winner_seats}");
    assert!(
        rooms[1]["game"]["finished_at"].as_i64().unwrap()
            >= rooms[1]["game"]["started_at"].as_i64().unwrap()
    );

    // The running game's owner sees it as one to resume.
    let owner_list = my_rooms(&server, &running.owner.token).await;
    let game = &owner_list["rooms"][0];
    assert_eq!(game["room_id"], running.room.as_str());
    assert_eq!(game["status"], "playing");
    assert_eq!(game["game"]["id"], running.game.as_str());
    assert!(game["game"]["won"].is_null(), "not decided yet");
    assert!(game["game"]["finished_at"].is_null());

    let bea_list = my_rooms(&server, &bea.token).await;
    assert_eq!(bea_list["rooms"].as_array().unwrap().len(), 1);
    assert_eq!(bea_list["rooms"][0]["seat"], 1);
    server.finish().await;
}

#[tokio::test]
async fn a_new_player_has_no_rooms_and_a_wrong_token_gets_401() {
    let server = TestServer::sqlite().await;
    let lola = server.player("Lola").await;
    assert_eq!(my_rooms(&server, &lola.token).await, json!({ "rooms": [] }));
    let owner = server.player("Owner").await;
    server.room(&owner, private_duel()).await;
    assert_eq!(
        my_rooms(&server, &lola.token).await["rooms"],
        json!([]),
        "someone else's room is not hers"
    );

    for request in [
        server.get("/api/players/me/rooms"),
        server
            .get("/api/players/me/rooms")
            .bearer_auth("0".repeat(64)),
    ] {
        let (status, body) = status_and_json(request.send().await.unwrap()).await;
        assert_eq!(status, 401, "{body}");
        assert!(
            body["code"].as_str().is_some_and(|c| !c.is_empty()),
            "{body}"
        );
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    server.finish().await;
}

//! Ratings at the table and over time: each seat of a person shows their rating in the room's rules (in
//! the room's state and wherever the API shows its seats), the seats of a rated game show the new ratings
//! as soon as it ends, and `GET /api/accounts/{username}/ratings` lists how the rated games moved them.
mod common;

use common::databases::sqlite_and_postgres;
use common::ws::WsClient;
use common::{Player, TestServer, quick_two, status_and_json};
use serde_json::{Value, json};

fn playgridia_four() -> Value {
    json!({ "rules": "playgridia", "mode": "individual", "players": 4, "turn_time_secs": null, "public": true })
}

/// The `rating` of each seat of a room's seats (REST view or WebSocket state).
fn seat_ratings(seats: &Value) -> Vec<Value> {
    seats
        .as_array()
        .expect("seats")
        .iter()
        .map(|s| {
            assert!(
                s.as_object().unwrap().contains_key("rating"),
                "every seat has `rating`: {s}"
            );
            s["rating"].clone()
        })
        .collect()
}

/// A rating as the API shows it.
fn rating(value: i64, games: i64) -> Value {
    json!({ "value": value, "games": games, "provisional": games < 5 })
}

/// Starts `room` as `owner`, who plays it through on one WebSocket (the other people are away: bots
/// cover them), and waits on that same connection until the room shows `finished`: the connection's state
/// then.
async fn play_watching(server: &TestServer, owner: &Player, room: &str) -> WsClient {
    let (status, body) = server
        .post_as(owner, &format!("/api/rooms/{room}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let mut ws = WsClient::connect(server, room, Some(&owner.token)).await;
    ws.play_to_the_end().await;
    ws.until_state(|s| s["room"]["status"] == "finished").await;
    ws
}

sqlite_and_postgres!(
    seats_show_ratings_and_the_new_ones_when_a_rated_game_ends,
    seats_show_ratings,
    |c| c.away_grace_secs = 1
);

async fn seats_show_ratings(server: TestServer) {
    let ana = server.member("Ana").await;
    let bea = server.member("Bea").await;

    // Two newcomers: nobody has a rating yet, in the join response and the room's state.
    let room = server.room(&ana, quick_two()).await;
    assert_eq!(seat_ratings(&room["seats"]), vec![Value::Null, Value::Null]);
    let room = room["id"].as_str().unwrap().to_owned();
    let (status, joined) = server
        .post_as(&bea, &format!("/api/rooms/{room}/join"), json!({}))
        .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(
        seat_ratings(&joined["seats"]),
        vec![Value::Null, Value::Null]
    );

    // The game ends: the same connection gets the new ratings in the seats, equal to the result's `after`.
    let ws = play_watching(&server, &ana, &room).await;
    let result = ws.game()["result"].clone();
    let changes = result["ratings"].as_array().expect("a rated game").clone();
    assert_eq!(changes.len(), 2, "{result}");
    let after: Vec<i64> = changes
        .iter()
        .map(|c| c["after"].as_i64().unwrap())
        .collect();
    assert_eq!(
        seat_ratings(&ws.state["seats"]),
        vec![rating(after[0], 1), rating(after[1], 1)],
        "{}",
        ws.state
    );
    assert_ne!(after[0], 1500);
    ws.close().await;
    // The room as the API shows it, and as loaded again from storage, says the same.
    let view = server.get_ok(&format!("/api/rooms/{room}")).await;
    assert_eq!(
        seat_ratings(&view["seats"]),
        vec![rating(after[0], 1), rating(after[1], 1)]
    );

    // The rematch room (loaded from storage) shows them too, and the game there moves them again.
    let (status, rematch) = server
        .post_as(&ana, &format!("/api/rooms/{room}/rematch"), json!({}))
        .await;
    assert_eq!(status, 201, "{rematch}");
    assert_eq!(
        seat_ratings(&rematch["seats"]),
        vec![rating(after[0], 1), rating(after[1], 1)]
    );
    let rematch = rematch["id"].as_str().unwrap().to_owned();
    let ws = play_watching(&server, &ana, &rematch).await;
    let changes = ws.game()["result"]["ratings"].as_array().unwrap().clone();
    let before2: Vec<i64> = changes
        .iter()
        .map(|c| c["before"].as_i64().unwrap())
        .collect();
    let after2: Vec<i64> = changes
        .iter()
        .map(|c| c["after"].as_i64().unwrap())
        .collect();
    assert_eq!(
        before2, after,
        "the second game starts where the first left"
    );
    assert_eq!(
        seat_ratings(&ws.state["seats"]),
        vec![rating(after2[0], 2), rating(after2[1], 2)]
    );
    ws.close().await;

    // A four-seat room: Ana's rating as she sits down, null for a newcomer and for the bots.
    let cy = server.member("Cyd").await;
    let four = server.room(&ana, playgridia_four()).await;
    assert_eq!(
        seat_ratings(&four["seats"]),
        vec![rating(after2[0], 2), Value::Null, Value::Null, Value::Null]
    );
    let four = four["id"].as_str().unwrap().to_owned();
    // Bea watches on the WebSocket: Cy's seat arrives as a patch, with no rating.
    let mut watching = WsClient::connect(&server, &four, Some(&bea.token)).await;
    let (status, joined) = server
        .post_as(&cy, &format!("/api/rooms/{four}/join"), json!({}))
        .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(
        seat_ratings(&joined["seats"]),
        vec![rating(after2[0], 2), Value::Null, Value::Null, Value::Null]
    );
    // Bea sits down: her rating comes with her.
    let (status, joined) = server
        .post_as(&bea, &format!("/api/rooms/{four}/join"), json!({}))
        .await;
    assert_eq!(status, 200, "{joined}");
    watching
        .until_state(|s| !s["seats"][2]["player_id"].is_null())
        .await;
    assert_eq!(
        seat_ratings(&watching.state["seats"]),
        vec![
            rating(after2[0], 2),
            Value::Null,
            rating(after2[1], 2),
            Value::Null
        ]
    );
    // A new colour wish keeps the rating shown.
    let (status, joined) = server
        .post_as(
            &bea,
            &format!("/api/rooms/{four}/join"),
            json!({ "preferred_colour": "green" }),
        )
        .await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["seats"][2]["rating"], rating(after2[1], 2));
    // Renamed: the name changes, the rating stays.
    let (status, body) = server
        .patch_as(
            &bea.token,
            "/api/players/me",
            json!({ "display_name": "Beatriz" }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    watching
        .until_state(|s| s["seats"][2]["display_name"] == "Beatriz")
        .await;
    assert_eq!(watching.state["seats"][2]["rating"], rating(after2[1], 2));
    watching.close().await;
    // Started, with Ana there (so the game waits for her turn): the empty seat is a bot's, without a
    // rating.
    let mut ana_ws = WsClient::connect(&server, &four, Some(&ana.token)).await;
    let (status, started) = server
        .post_as(&ana, &format!("/api/rooms/{four}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{started}");
    ana_ws.until_state(|s| !s["game"].is_null()).await;
    let view = server.get_ok(&format!("/api/rooms/{four}")).await;
    assert!(!view["seats"][3]["bot"].is_null(), "{view}");
    assert_eq!(
        seat_ratings(&ana_ws.state["seats"]),
        seat_ratings(&view["seats"])
    );
    assert_eq!(
        seat_ratings(&view["seats"]),
        vec![
            rating(after2[0], 2),
            Value::Null,
            rating(after2[1], 2),
            Value::Null
        ]
    );
    // Ana watches while Bea erases herself: her seat shows the stand-in name and no rating.
    let (status, body) = server.erase_me(&bea.token, Some("correct horse")).await;
    assert_eq!(status, 204, "{body}");
    ana_ws
        .until_state(|s| s["seats"][2]["display_name"] != "Beatriz")
        .await;
    assert_eq!(ana_ws.state["seats"][2]["rating"], Value::Null);
    assert_eq!(ana_ws.state["seats"][0]["rating"], rating(after2[0], 2));
    ana_ws.close().await;
    server.finish().await;
}

sqlite_and_postgres!(
    the_rating_history_lists_the_rated_games_in_order,
    rating_history,
    |c| c.away_grace_secs = 1
);

async fn rating_history(server: TestServer) {
    let ana = server.member("Ana").await;
    let bea = server.member("Bea").await;

    // Nothing yet: no rating, no history.
    let empty = server.get_ok("/api/accounts/ana/ratings").await;
    assert_eq!(
        empty,
        json!({ "username": "ana", "rules": "playgridia", "rating": null, "history": [] })
    );

    // Three rated games (the first two made by Ana, the third by Bea), and one against a bot alone.
    let mut games = Vec::new();
    for (first, second) in [(&ana, &bea), (&ana, &bea), (&bea, &ana)] {
        let game = common::game::two_play(&server, first, second, quick_two()).await;
        games.push(game["id"].as_str().unwrap().to_owned());
    }
    let mut solo = quick_two();
    solo["bots"] = json!([null, "random"]);
    let room = server.room(&ana, solo).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    common::game::play_through(&server, &ana, &room).await;

    for (who, player) in [("ana", &ana), ("bea", &bea)] {
        let history = server
            .get_ok(&format!("/api/accounts/{who}/ratings?rules=playgridia"))
            .await;
        assert_eq!(history["username"], who);
        assert_eq!(history["rules"], "playgridia");
        let points = history["history"].as_array().unwrap();
        assert_eq!(
            points
                .iter()
                .map(|p| p["game_id"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>(),
            games,
            "the rated games, oldest first (not the one against a bot): {history}"
        );
        assert_eq!(points[0]["before"], 1500);
        for pair in points.windows(2) {
            assert_eq!(pair[1]["before"], pair[0]["after"], "{history}");
            assert!(pair[1]["finished_at"].as_i64() >= pair[0]["finished_at"].as_i64());
        }
        // Each game's change is the one the game's result stored for this player.
        for p in points {
            let replay = server
                .get_ok(&format!(
                    "/api/games/{}/replay",
                    p["game_id"].as_str().unwrap()
                ))
                .await;
            let changes = replay["result"]["ratings"].as_array().unwrap();
            assert!(
                changes
                    .iter()
                    .any(|c| c["before"] == p["before"] && c["after"] == p["after"]),
                "{p} in {changes:?}"
            );
        }
        // The rating now is the last `after`, as the record shows it.
        let last = points.last().unwrap()["after"].as_i64().unwrap();
        assert_eq!(history["rating"], rating(last, 3));
        let (_, stats) = server.get_as(&player.token, "/api/players/me/stats").await;
        let line = stats["rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["rules"] == "playgridia")
            .unwrap()
            .clone();
        assert_eq!(line["rating"], history["rating"]);
    }

    // The default rule set is playgridia; the username in any case; another rule set has nothing yet.
    assert_eq!(
        server.get_ok("/api/accounts/ANA/ratings").await,
        server
            .get_ok("/api/accounts/ana/ratings?rules=playgridia")
            .await
    );
    assert_eq!(
        server
            .get_ok("/api/accounts/ana/ratings?rules=ludoteka")
            .await,
        json!({ "username": "ana", "rules": "ludoteka", "rating": null, "history": [] })
    );

    // Errors: an unknown username, unknown rules.
    let (status, body) = status_and_json(
        server
            .get("/api/accounts/nobody/ratings")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], "account_not_found", "{body}");
    assert!(body["message"].is_string(), "{body}");
    let (status, body) = status_and_json(
        server
            .get("/api/accounts/ana/ratings?rules=chess")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(body["code"], "invalid_query", "{body}");
    assert!(body["message"].is_string(), "{body}");

    // Erased: the account is gone, and so is its history.
    let (status, _) = server.erase_me(&bea.token, Some("correct horse")).await;
    assert_eq!(status, 204);
    let (status, body) = status_and_json(
        server
            .get("/api/accounts/bea/ratings")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        (status.as_u16(), &body["code"]),
        (404, &json!("account_not_found"))
    );
    server.finish().await;
}

//! Players on one device (pass and play): a seated player seats people who play at the same phone or
//! tablet, acts for their seats over their own connection, and no one else can; such a game is nobody's
//! record but the device player's, and never rated.
mod common;

use common::databases::sqlite_and_postgres;
use common::ws::WsClient;
use common::{Player, TestServer, quick_two};
use serde_json::{Value, json};

/// `player` seats `name` at their device in `room`: `(status, body)`.
async fn add_local(server: &TestServer, player: &Player, room: &str, name: &str) -> (u16, Value) {
    let (status, body) = server
        .post_as(
            player,
            &format!("/api/rooms/{room}/local-players"),
            json!({ "display_name": name }),
        )
        .await;
    (status.as_u16(), body)
}

/// `player` joins, leaves or starts `room` (`action`), which must succeed: the room afterwards.
async fn room_action(server: &TestServer, player: &Player, room: &str, action: &str) -> Value {
    let (status, body) = server
        .post_as(player, &format!("/api/rooms/{room}/{action}"), json!({}))
        .await;
    assert_eq!(status, 200, "{action}: {body}");
    body
}

/// A new room of `settings` owned by `owner`: its id.
async fn new_room(server: &TestServer, owner: &Player, settings: Value) -> String {
    server.room(owner, settings).await["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn seat(room: &Value, index: usize) -> &Value {
    &room["seats"][index]
}

sqlite_and_postgres!(
    a_player_seats_someone_at_their_device_and_plays_both_seats_over_one_connection,
    local_game
);

async fn local_game(server: TestServer) {
    // Ana has an account: a game between two people would be rated.
    let ana = server.member("Ana").await;
    let room = new_room(&server, &ana, quick_two()).await;
    let (status, body) = add_local(&server, &ana, &room, "  Abuela ").await;
    assert_eq!(status, 201, "{body}");
    let abuela = seat(&body, 1);
    assert_eq!(
        abuela["display_name"], "Abuela",
        "the name, trimmed: {body}"
    );
    assert_eq!(abuela["local_of"], ana.id.as_str());
    assert!(abuela["player_id"].is_null() && abuela["bot"].is_null());
    // The room is full: nobody else can take that seat.
    let bea = server.player("Bea").await;
    let (status, body) = server
        .post_as(&bea, &format!("/api/rooms/{room}/join"), json!({}))
        .await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (409, Some("room_full"))
    );

    // The seat is stored: a restarted server shows it the same.
    let mut server = server;
    server.stop().await;
    let server = TestServer::start(server.database_url.clone()).await;
    let shown = server.get_ok(&format!("/api/rooms/{room}")).await;
    assert_eq!(seat(&shown, 1)["display_name"], "Abuela", "{shown}");
    assert_eq!(seat(&shown, 1)["local_of"], ana.id.as_str());

    let body = room_action(&server, &ana, &room, "start").await;
    assert!(
        seat(&body, 1)["bot"].is_null(),
        "the start leaves a seat played at a device to its person: {body}"
    );
    let mut ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    assert_eq!(ws.seat, Some(0), "Ana's own seat");
    assert_eq!(ws.state["seats"][1]["local_of"], ana.id.as_str());
    // Present while Ana's device is.
    ws.until_state(|s| s["seats"][1]["status"] == "connected")
        .await;
    // Every decision of both seats is Ana's to make, and the server makes none (no timer, no bot).
    let mut acted_for = [0; 2];
    while !ws.over() {
        let to_act = ws.game()["view"]["turn"]["seat"].as_u64().unwrap() as usize;
        ws.act().await;
        acted_for[to_act] += 1;
    }
    assert!(acted_for[0] > 0 && acted_for[1] > 0, "{acted_for:?}");
    assert!(ws.state["seats"][1]["bot_playing"] == false);
    ws.close().await;

    // Ana's record has the game, played against no other person: not rated.
    let (_, stats) = server.get_as(&ana.token, "/api/players/me/stats").await;
    let recent = &stats["recent"][0];
    assert_eq!(recent["people"], 1, "Ana alone: {stats}");
    assert!(recent["rating_change"].is_null(), "{stats}");
    let line = &stats["rules"][0];
    assert_eq!(line["games_with_people"], 0, "{stats}");
    assert!(line["rating"].is_null(), "{stats}");

    // A rematch seats Abuela at Ana's device again.
    let (status, again) = server
        .post_as(&ana, &format!("/api/rooms/{room}/rematch"), json!({}))
        .await;
    assert_eq!(status, 201, "{again}");
    assert_eq!(seat(&again, 1)["display_name"], "Abuela", "{again}");
    assert_eq!(seat(&again, 1)["local_of"], ana.id.as_str());
    server.finish().await;
}

#[tokio::test]
async fn only_the_device_player_acts_for_a_seat_played_at_their_device() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let bea = server.player("Bea").await;
    let settings = json!({ "rules": "playgridia", "mode": "individual", "players": 3, "turn_time_secs": null, "public": true });
    let room = new_room(&server, &ana, settings).await;
    room_action(&server, &bea, &room, "join").await;
    let (status, body) = add_local(&server, &ana, &room, "Abuela").await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(seat(&body, 2)["local_of"], ana.id.as_str());
    room_action(&server, &ana, &room, "start").await;
    let mut a = WsClient::connect(&server, &room, Some(&ana.token)).await;
    let mut b = WsClient::connect(&server, &room, Some(&bea.token)).await;
    let mut watcher = WsClient::connect(&server, &room, None).await;
    // Play the people's own seats until Abuela (seat 2) is to act; each client catches up with the
    // other's actions before deciding.
    loop {
        let to_act = a.game()["view"]["turn"]["seat"].as_u64().unwrap();
        if to_act == 2 {
            break;
        }
        if to_act == 0 {
            a.act().await;
        } else {
            b.act().await;
        }
        let version = a.version.max(b.version);
        while a.version < version {
            a.next().await;
        }
        while b.version < version {
            b.next().await;
        }
        assert!(!a.over());
    }
    let phase = a.game()["view"]["turn"]["phase"].clone();
    let command = if phase == "roll" {
        json!({ "type": "roll" })
    } else {
        let text = a.game()["view"]["legal_moves"][0]["text"].clone();
        json!({ "type": "move", "move": text, "version": a.version })
    };
    let refused = b.request(command.clone()).await;
    assert_eq!(
        refused["code"], "not_your_turn",
        "Bea, seated elsewhere: {refused}"
    );
    let refused = watcher.request(command.clone()).await;
    assert_eq!(refused["code"], "not_seated", "a spectator: {refused}");
    let done = a.request(command).await;
    assert_eq!(
        done["type"], "ack",
        "Ana, at whose device Abuela plays: {done}"
    );

    // Ana leaves the running game: bots take her seat and Abuela's, Bea plays on.
    a.send_text(r#"{"type":"leave"}"#).await;
    b.until_state(|s| s["seats"][0]["bot"] == "greedy" && s["seats"][2]["bot"] == "greedy")
        .await;
    assert!(
        b.state["seats"][2]["local_of"].is_null(),
        "{}",
        b.state["seats"]
    );
    assert_eq!(b.state["seats"][1]["player_id"], bea.id.as_str());
    server.finish().await;
}

#[tokio::test]
async fn people_at_a_device_are_seated_and_removed_by_its_player_only_while_waiting() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let bea = server.player("Bea").await;
    let cai = server.player("Cai").await;
    let settings =
        json!({ "rules": "ludoteka", "mode": "individual", "players": 3, "public": true });
    let room = new_room(&server, &ana, settings).await;
    // Only a seated player can seat someone at their device, under a real name.
    let (status, body) = add_local(&server, &bea, &room, "Abuela").await;
    assert_eq!((status, body["code"].as_str()), (409, Some("not_seated")));
    let (status, body) = add_local(&server, &ana, &room, "   ").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (422, Some("invalid_display_name"))
    );
    let (status, body) = add_local(&server, &ana, &room, "Abuela").await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(seat(&body, 1)["display_name"], "Abuela");
    let body = room_action(&server, &bea, &room, "join").await;
    assert_eq!(seat(&body, 2)["player_id"], bea.id.as_str());
    // Full now.
    let (status, body) = add_local(&server, &ana, &room, "Tío").await;
    assert_eq!((status, body["code"].as_str()), (409, Some("room_full")));

    // Nobody but Ana frees Abuela's seat; Ana does.
    let (status, body) = server
        .delete_as(&bea.token, &format!("/api/rooms/{room}/local-players/1"))
        .await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (404, Some("local_player_not_found"))
    );
    let (status, body) = server
        .delete_as(&ana.token, &format!("/api/rooms/{room}/local-players/2"))
        .await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (404, Some("local_player_not_found")),
        "seat 2 is Bea's own"
    );
    let (status, body) = server
        .delete_as(&ana.token, &format!("/api/rooms/{room}/local-players/one"))
        .await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (404, Some("local_player_not_found")),
        "not a seat number: a JSON error like any other"
    );
    let (status, body) = server
        .delete_as(&ana.token, &format!("/api/rooms/{room}/local-players/1"))
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(seat(&body, 1)["local_of"].is_null() && seat(&body, 1)["display_name"].is_null());
    let (status, body) = server
        .post_as(&cai, &format!("/api/rooms/{room}/join"), json!({}))
        .await;
    assert_eq!(status, 200, "the freed seat is free for anyone: {body}");
    assert_eq!(seat(&body, 1)["player_id"], cai.id.as_str());

    // Cai leaves; Bea seats someone, then leaves too: the person at Bea's device goes with her.
    room_action(&server, &cai, &room, "leave").await;
    let (status, body) = add_local(&server, &bea, &room, "Abuelo").await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(seat(&body, 1)["local_of"], bea.id.as_str());
    let body = room_action(&server, &bea, &room, "leave").await;
    for i in [1, 2] {
        assert!(
            seat(&body, i)["local_of"].is_null() && seat(&body, i)["player_id"].is_null(),
            "{body}"
        );
    }

    // Once the game has started, nobody is seated or removed that way.
    add_local(&server, &ana, &room, "Abuela").await;
    let body = room_action(&server, &ana, &room, "start").await;
    assert_eq!(seat(&body, 1)["display_name"], "Abuela");
    assert_eq!(
        seat(&body, 2)["bot"],
        "greedy",
        "the empty seat got a bot: {body}"
    );
    let (status, body) = server
        .delete_as(&ana.token, &format!("/api/rooms/{room}/local-players/1"))
        .await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (409, Some("room_not_waiting"))
    );
    let (status, body) = add_local(&server, &ana, &room, "Tío").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("room_not_waiting"))
    );
    server.finish().await;
}

#[tokio::test]
async fn a_player_seats_someone_at_their_device_in_the_seat_they_choose() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let bea = server.player("Bea").await;
    let settings = json!({ "rules": "playgridia", "mode": "individual", "players": 4,
        "bots": [null, null, null, "greedy"], "public": true });
    let room = new_room(&server, &ana, settings).await;
    let add_at = |seat: Value| {
        let (server, ana, room) = (&server, &ana, &room);
        async move {
            let (status, body) = server
                .post_as(
                    ana,
                    &format!("/api/rooms/{room}/local-players"),
                    json!({ "display_name": "Abuela", "seat": seat }),
                )
                .await;
            (status.as_u16(), body)
        }
    };
    let (status, body) = add_at(json!(2)).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(seat(&body, 2)["display_name"], "Abuela");
    assert_eq!(seat(&body, 2)["local_of"], ana.id.as_str());
    assert!(
        seat(&body, 1)["display_name"].is_null(),
        "seat 1 stays free"
    );

    // A seat held by anyone (Abuela, Ana herself, a bot) is refused, and so is a seat the room lacks.
    for taken in [2, 0, 3] {
        let (status, body) = add_at(json!(taken)).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (409, Some("seat_taken")),
            "seat {taken}"
        );
    }
    for missing in [json!(4), json!(-1), json!("two")] {
        let (status, body) = add_at(missing.clone()).await;
        assert_eq!(status, 422, "seat {missing}: {body}");
        assert!(body["message"].as_str().unwrap().contains("seat"), "{body}");
    }
    // Nothing above changed the room: the next person to join gets seat 1, the only free one.
    let body = room_action(&server, &bea, &room, "join").await;
    assert_eq!(seat(&body, 1)["player_id"], bea.id.as_str());
    assert_eq!(seat(&body, 2)["display_name"], "Abuela");
    assert_eq!(seat(&body, 3)["bot"], "greedy");
    server.finish().await;
}

#[tokio::test]
async fn the_names_given_at_a_device_are_in_its_players_export_and_go_when_they_are_erased() {
    let mut server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let bea = server.player("Bea").await;
    let settings =
        json!({ "rules": "ludoteka", "mode": "individual", "players": 3, "public": true });
    let room = new_room(&server, &bea, settings).await;
    room_action(&server, &ana, &room, "join").await;
    let (status, body) = add_local(&server, &ana, &room, "Abuela Carmen").await;
    assert_eq!(status, 201, "{body}");
    // Until then, they are in Ana's data export.
    let (status, data) = server.get_as(&ana.token, "/api/players/me/export").await;
    assert_eq!(status, 200, "{data}");
    assert_eq!(
        data["local_players"],
        json!([{ "room_id": room, "seat": 2, "display_name": "Abuela Carmen" }])
    );
    let (status, _) = server.erase_me(&ana.token, Some("correct horse")).await;
    assert_eq!(status, 204);
    let shown = server.get_ok(&format!("/api/rooms/{room}")).await;
    let stand_in = seat(&shown, 1)["display_name"].clone();
    assert_ne!(stand_in, "Ana");
    assert_eq!(seat(&shown, 2)["display_name"], stand_in, "{shown}");
    // Stored so: the same after a restart.
    server.stop().await;
    let server = TestServer::start(server.database_url.clone()).await;
    let shown = server.get_ok(&format!("/api/rooms/{room}")).await;
    assert_eq!(seat(&shown, 2)["display_name"], stand_in, "{shown}");
    assert!(!shown.to_string().contains("Carmen"), "{shown}");
    server.finish().await;
}

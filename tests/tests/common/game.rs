//! Helpers to set up and check games played over the realtime protocol.

use parchis_proof::replay_record;
use parchis_rules::{Event, Game};
use serde_json::{Value, json};

use super::{Player, TestServer, status_and_json};

/// A started room: its owner (seat 0), the room id and the game id.
pub struct Started {
    /// The human owner, seated at seat 0 (where the room draws its seats, wherever the draw put them).
    pub owner: Player,
    /// Room id.
    pub room: String,
    /// Game id.
    pub game: String,
}

/// Creates a public room with one human (seat 0, before any seat draw) and bots elsewhere, timer off, and
/// starts it.
pub async fn start_with_bots(server: &TestServer, rules: &str, mode: &str, players: u8) -> Started {
    start_room(
        server,
        json!({ "rules": rules, "mode": mode, "players": players, "turn_time_secs": null, "public": true }),
    )
    .await
}

/// Creates a room with `settings` owned by a new player and starts it.
pub async fn start_room(server: &TestServer, settings: Value) -> Started {
    let owner = server.player("Ana").await;
    let room = server.room(&owner, settings).await;
    let room = room["id"].as_str().unwrap().to_owned();
    let (status, body) = server
        .post_as(&owner, &format!("/api/rooms/{room}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    Started {
        owner,
        room,
        game: body["game_id"].as_str().unwrap().to_owned(),
    }
}

/// `GET /api/games/{id}/record`.
pub async fn record(server: &TestServer, game: &str) -> Value {
    let (status, record) = status_and_json(
        server
            .get(&format!("/api/games/{game}/record"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{record}");
    record
}

/// The rules crate's public view of a replayed game, as JSON.
pub fn view_json(game: &Game) -> Value {
    serde_json::to_value(game.view()).unwrap()
}

/// Plays part of a game, restarts the server on the same database, and checks
/// the game comes back exactly as it was and can be played to the end.
pub async fn restart_mid_game(mut server: TestServer) {
    use super::ws::WsClient;
    let started = start_with_bots(&server, "ludoteka", "individual", 4).await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    // A few of our decisions, then stop while the game waits for us.
    let mut decisions = 0;
    while decisions < 6 && !player.over() {
        if player.my_turn() {
            player.act().await;
            decisions += 1;
        } else {
            player.next().await;
        }
    }
    player
        .until_state(|s| {
            s["game"]["view"]["turn"]["seat"] == 0 || s["game"]["view"]["turn"]["phase"] == "over"
        })
        .await;
    let before = player.game()["view"].clone();
    let rolls = player.game()["rolls"].clone();
    // The latest roll, as the log has it: what a client that connects now shows on the die.
    let log = record(&server, &started.game).await["log"].clone();
    let roll = log
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|e| e["kind"] == "roll")
        .expect("a roll was made");
    let last_roll = json!({ "seat": roll["payload"]["seat"], "die": roll["payload"]["die"] });
    assert_eq!(player.game()["last_roll"], last_roll);
    server.stop().await;

    let again = TestServer::start(server.database_url.clone()).await;
    let mut player = WsClient::connect(&again, &started.room, Some(&started.owner.token)).await;
    assert_eq!(
        player.game()["view"],
        before,
        "same position, same turn after the restart"
    );
    assert_eq!(player.game()["rolls"], rolls);
    assert_eq!(
        player.game()["last_roll"],
        last_roll,
        "the same die after the restart"
    );
    assert_eq!(player.state["room"]["status"], "playing");
    player.play_to_the_end().await;
    let record = record(&again, &started.game).await;
    let verified = parchis_proof::verify_record(&record).expect("honest record");
    assert_eq!(player.game()["view"], view_json(&verified.game));
    // Counted across the restart: the figures stored with the result are the whole record's.
    assert_eq!(record["result"]["seats"], seat_figures_of(&record));
    again.stop_only().await;
    server.finish().await;
}

/// A public four-seat waiting room owned by Ana (seat 0) with Bea seated at seat 1: `(room, ana, bea)`.
pub async fn ana_and_bea(server: &TestServer) -> (String, Player, Player) {
    let ana = server.player("Ana").await;
    let bea = server.player("Bea").await;
    let id = server.room(&ana, super::public_four()).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = server
        .post_as(&bea, &format!("/api/rooms/{id}/join"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    (id, ana, bea)
}

/// The `game` of `room` in `player`'s own list of rooms (`GET /api/players/me/rooms`): `{id, started_at,
/// finished_at, won}`.
pub async fn my_game(server: &TestServer, player: &Player, room: &str) -> Value {
    let (status, mine) = server.get_as(&player.token, "/api/players/me/rooms").await;
    assert_eq!(status, 200, "{mine}");
    mine["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["room_id"] == room)
        .expect("the room is listed")["game"]
        .clone()
}

/// `owner` starts the waiting room `room` and plays their seat to the end over the WebSocket (the other
/// seats are bots, or people away whom bots cover); the game as `owner`'s list of rooms shows it.
pub async fn play_through(server: &TestServer, owner: &Player, room: &str) -> Value {
    let (status, body) = server
        .post_as(owner, &format!("/api/rooms/{room}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let mut ws = super::ws::WsClient::connect(server, room, Some(&owner.token)).await;
    ws.play_to_the_end().await;
    ws.close().await;
    my_game(server, owner, room).await
}

/// Two members, Ana and Bea, at a room of `settings` that Ana makes and Bea joins; Bea never connects, so
/// after the away grace a bot plays her seat, which stays hers. Ana plays it through: `(ana, bea, the
/// game as Ana's list of rooms shows it)`.
pub async fn members_play(server: &TestServer, settings: Value) -> (Player, Player, Value) {
    let ana = server.member("Ana").await;
    let bea = server.member("Bea").await;
    let game = two_play(server, &ana, &bea, settings).await;
    (ana, bea, game)
}

/// `first` makes a room of `settings` and `second` joins it: the room id.
pub async fn two_seated(
    server: &TestServer,
    first: &Player,
    second: &Player,
    settings: Value,
) -> String {
    let room = server.room(first, settings).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = server
        .post_as(second, &format!("/api/rooms/{room}/join"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    room
}

/// `first` makes a room of `settings`, `second` joins it and `first` starts it: `(room, game)` ids.
pub async fn two_started(
    server: &TestServer,
    first: &Player,
    second: &Player,
    settings: Value,
) -> (String, String) {
    let room = two_seated(server, first, second, settings).await;
    let (status, body) = server
        .post_as(first, &format!("/api/rooms/{room}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let game = body["game_id"].as_str().unwrap().to_owned();
    (room, game)
}

/// `first` makes a room of `settings`, `second` joins it and never connects (a bot covers their seat
/// after the away grace), and `first` plays it through: the game as `first`'s list of rooms shows it.
pub async fn two_play(
    server: &TestServer,
    first: &Player,
    second: &Player,
    settings: Value,
) -> Value {
    let room = two_seated(server, first, second, settings).await;
    play_through(server, first, &room).await
}

/// What each seat did in a record, counted here from its replay: sixes rolled, pieces captured by the seat
/// that moved and from the seat of the piece's colour, pieces at the goal at the end.
pub fn seat_figures_of(record: &Value) -> Value {
    let seats = record["seats"].as_array().unwrap().len();
    let (mut sixes, mut captures, mut captured) = (vec![0; seats], vec![0; seats], vec![0; seats]);
    let verified = replay_record(record, |step| {
        let Some(entry) = step.entry else { return };
        let seat = entry["payload"]["seat"].as_u64().unwrap() as usize;
        for event in step.events {
            match event {
                Event::Rolled { die: 6, .. } => sixes[seat] += 1,
                Event::Captured { piece, .. } => {
                    let layout = step.game.layout();
                    let colour = layout.colour_index(piece.colour).unwrap();
                    captures[seat] += 1;
                    captured[usize::from(layout.seat_of_colour[usize::from(colour)])] += 1;
                }
                _ => {}
            }
        }
    })
    .unwrap();
    let view = view_json(&verified.game);
    (0..seats)
        .map(|seat| {
            let colours = view["seats"][seat]["colours"].as_array().unwrap();
            let home = view["pieces"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| colours.contains(&p["colour"]) && p["place"]["kind"] == "goal")
                .count();
            json!({ "seat": seat, "captures": captures[seat], "captured": captured[seat],
                "sixes": sixes[seat], "home": home })
        })
        .collect()
}

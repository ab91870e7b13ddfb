//! The seat draw: where a rule set's text draws the seats (Playgridia's pairs, Morocco), the server shuffles
//! who sits where when the game starts; elsewhere people keep the seats they took.

mod common;

use common::ws::WsClient;
use common::{Player, TestServer};
use serde_json::{Value, json};

/// Who sits at each seat: a player's id, or `bot:LEVEL`.
fn occupants(room: &Value) -> Vec<String> {
    room["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| match s["player_id"].as_str() {
            Some(id) => id.to_owned(),
            None => format!("bot:{}", s["bot"].as_str().unwrap_or("none")),
        })
        .collect()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// Makes a room of `settings` owned by `owner` and starts it; returns the room as stored after the start.
async fn started(server: &TestServer, owner: &Player, settings: Value) -> Value {
    let room = server.room(owner, settings).await;
    let id = room["id"].as_str().unwrap();
    let (status, body) = server
        .post_as(owner, &format!("/api/rooms/{id}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    room_view_as(server, owner, id).await
}

/// `GET /api/rooms/{id}` with `player`'s token (a private room answers its own people only).
async fn room_view_as(server: &TestServer, player: &Player, id: &str) -> Value {
    let (status, body) = server
        .get_as(&player.token, &format!("/api/rooms/{id}"))
        .await;
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test]
async fn a_morocco_room_draws_its_seats_at_the_start_and_keeps_everyone_seated() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    let settings = json!({ "rules": "morocco", "mode": "individual", "players": 4,
        "bots": [null, "random", "greedy", "expert"], "turn_time_secs": null });
    let before = vec![
        owner.id.clone(),
        "bot:random".to_owned(),
        "bot:greedy".to_owned(),
        "bot:expert".to_owned(),
    ];
    let mut owner_seats = Vec::new();
    for _ in 0..12 {
        let room = started(&server, &owner, settings.clone()).await;
        assert_eq!(room["settings"]["draw_seats"], true);
        let after = occupants(&room);
        assert_eq!(
            sorted(after.clone()),
            sorted(before.clone()),
            "nobody lost or doubled"
        );
        owner_seats.push(after.iter().position(|o| *o == owner.id).unwrap());
    }
    // Drawn uniformly, the owner stays at seat 0 in all twelve with probability 4⁻¹².
    assert!(owner_seats.iter().any(|&s| s != 0), "{owner_seats:?}");
    server.finish().await;
}

#[tokio::test]
async fn without_a_draw_everyone_keeps_the_seat_they_took() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    for settings in [
        // Playgridia's individual game does not draw unless asked.
        json!({ "rules": "playgridia", "mode": "individual", "players": 4,
            "bots": [null, "random", "greedy", "expert"] }),
        // A Morocco table may choose its seats.
        json!({ "rules": "morocco", "mode": "individual", "players": 4,
            "bots": [null, "random", "greedy", "expert"], "draw_seats": false }),
    ] {
        for _ in 0..6 {
            let room = started(&server, &owner, settings.clone()).await;
            assert_eq!(room["settings"]["draw_seats"], false);
            assert_eq!(
                occupants(&room),
                [owner.id.as_str(), "bot:random", "bot:greedy", "bot:expert"]
            );
        }
    }
    server.finish().await;
}

#[tokio::test]
async fn the_rules_catalogue_says_where_rooms_draw_their_seats() {
    let server = TestServer::sqlite().await;
    let catalogue = server.get_ok("/api/rules").await;
    let draws = |rules: &str, mode: &str| {
        catalogue["rule_sets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == rules)
            .and_then(|r| {
                r["modes"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|m| m["name"] == mode)
            })
            .map(|m| m["draw_seats"].as_bool().unwrap())
    };
    assert_eq!(draws("playgridia", "pairs"), Some(true));
    assert_eq!(draws("playgridia", "individual"), Some(false));
    assert_eq!(draws("morocco", "individual"), Some(true));
    assert_eq!(draws("morocco", "1v1"), Some(true));
    assert_eq!(draws("ludoteka", "pairs"), Some(false));
    // A table that wants the draw anyway asks for it.
    let owner = server.player("Ana").await;
    let room = server
        .room(
            &owner,
            json!({ "rules": "ludoteka", "mode": "individual", "players": 2, "draw_seats": true }),
        )
        .await;
    assert_eq!(room["settings"]["draw_seats"], true);
    server.finish().await;
}

#[tokio::test]
async fn a_player_moved_by_the_draw_is_told_their_new_seat_and_acts_only_for_it() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let bea = server.player("Bea").await;
    // Pairs with two people and two bots, until the draw moves Ana (three chances in four each time).
    for _ in 0..20 {
        let room = server
            .room(
                &ana,
                json!({ "rules": "playgridia", "mode": "pairs", "players": 4,
                    "bots": [null, null, "greedy", "greedy"], "turn_time_secs": null, "public": true }),
            )
            .await;
        let id = room["id"].as_str().unwrap().to_owned();
        let (status, body) = server
            .post_as(&bea, &format!("/api/rooms/{id}/join"), json!({}))
            .await;
        assert_eq!(status, 200, "{body}");
        let mut a = WsClient::connect(&server, &id, Some(&ana.token)).await;
        let mut b = WsClient::connect(&server, &id, Some(&bea.token)).await;
        assert_eq!((a.seat, b.seat), (Some(0), Some(1)));
        let (status, body) = server
            .post_as(&ana, &format!("/api/rooms/{id}/start"), json!({}))
            .await;
        assert_eq!(status, 200, "{body}");
        let room = room_view_as(&server, &ana, &id).await;
        let seat_of = |p: &Player| {
            occupants(&room)
                .iter()
                .position(|o| *o == p.id)
                .map(|s| s as u64)
        };
        let (ana_seat, bea_seat) = (seat_of(&ana), seat_of(&bea));
        if ana_seat == Some(0) {
            continue;
        }
        // Each connection learns its drawn seat.
        a.until(|m| m["type"] == "hello" && m["seat"].as_u64() == ana_seat)
            .await;
        if bea_seat != Some(1) {
            b.until(|m| m["type"] == "hello" && m["seat"].as_u64() == bea_seat)
                .await;
        }
        a.until_state(|s| !s["game"].is_null()).await;
        b.until_state(|s| !s["game"].is_null()).await;
        // Bots play their seats; at the first turn of one of the two people, the other may not act for it.
        for _ in 0..400 {
            if a.over() {
                break;
            }
            // Ana's connection is read all along; Bea's catches up (a resync) when her seat is to act.
            let to_act = a.game()["view"]["turn"]["seat"].as_u64();
            if to_act == b.seat {
                b.resync().await;
            }
            let (mover, other) = if a.my_turn() {
                (&mut a, &mut b)
            } else if to_act == b.seat && b.my_turn() {
                (&mut b, &mut a)
            } else {
                a.next().await;
                continue;
            };
            let refused = other.request(json!({ "type": "roll" })).await;
            assert_eq!(refused["code"], "not_your_turn", "{refused}");
            if mover.game()["view"]["turn"]["phase"] == "roll" {
                mover.act().await;
                server.finish().await;
                return;
            }
            mover.act().await;
        }
        panic!("no person's roll came up");
    }
    panic!("the draw never moved Ana in twenty rooms (probability 4⁻²⁰)");
}

#[tokio::test]
async fn a_player_away_when_the_draw_moves_them_is_covered_by_a_bot_at_their_new_seat() {
    let server = TestServer::sqlite_with(|c| {
        c.bot_delay_ms = 0;
        c.away_grace_secs = 1;
    })
    .await;
    let ana = server.player("Ana").await;
    // Ana never connects: wherever the draw seats her, a bot covers her turns after the grace, and the
    // game ends. Until the draw has moved her once (three chances in four).
    for _ in 0..20 {
        let room = started(
            &server,
            &ana,
            json!({ "rules": "morocco", "mode": "quick", "players": 2, "bots": [null, "random"],
                "turn_time_secs": null, "public": true }),
        )
        .await;
        let id = room["id"].as_str().unwrap();
        let mut watcher = WsClient::connect(&server, id, None).await;
        watcher
            .until_state(|s| s["game"]["view"]["turn"]["phase"] == "over")
            .await;
        if occupants(&room)[0] != ana.id {
            server.finish().await;
            return;
        }
    }
    panic!("the draw never moved Ana in twenty rooms (probability 2⁻²⁰)");
}

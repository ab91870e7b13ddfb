//! House rules: a room may change the rules of play on top of its rule set; the game follows them, its
//! record verifies with them, rematches keep them, and the leaderboard does not count them.
mod common;

use common::databases::sqlite_and_postgres;
use common::game::{members_play, record, start_room};
use common::ws::WsClient;
use common::{TestServer, status_and_json};
use serde_json::{Value, json};

fn four_with_bots(house_rules: Value) -> Value {
    json!({
        "rules": "playgridia", "mode": "individual", "players": 4, "turn_time_secs": null, "public": true,
        "bots": [null, "random", "random", "random"], "house_rules": house_rules,
    })
}

#[tokio::test]
async fn a_room_with_house_rules_shows_them_plays_them_and_its_record_verifies_with_them() {
    let server = TestServer::sqlite_with(|c| c.bot_delay_ms = 0).await;
    // The preset's own value (goal_bonus 10) is no house rule; numbers and booleans are taken as text.
    let started = start_room(
        &server,
        four_with_bots(json!({ "capture_bonus": 10, "three_sixes": "off", "goal_bonus": "10" })),
    )
    .await;
    let expected = json!({ "capture_bonus": "10", "three_sixes": "off" });
    let (status, room) = status_and_json(
        server
            .get(&format!("/api/rooms/{}", started.room))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{room}");
    assert_eq!(room["settings"]["house_rules"], expected);

    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    assert_eq!(player.state["room"]["settings"]["house_rules"], expected);
    let view = &player.game()["view"];
    assert_eq!(view["options"]["capture_bonus"], 10, "{view}");
    assert!(
        view["notation"]
            .as_str()
            .unwrap()
            .starts_with("playgridia[three_sixes=off,capture_bonus=10] individual/4 "),
        "{view}"
    );
    player.play_to_the_end().await;

    let record = record(&server, &started.game).await;
    let verified = parchis_proof::verify_record(&record).expect("the record verifies");
    assert_eq!(verified.game.options().capture_bonus, 10);
    // Every capture of the game counted 10, none 20 (a whole game of four has captures).
    let (status, replay) = status_and_json(
        server
            .get(&format!("/api/games/{}/replay", started.game))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{replay}");
    let events: Vec<&Value> = replay["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["events"].as_array().unwrap())
        .collect();
    let captures = events.iter().filter(|e| e["type"] == "captured").count();
    assert!(captures > 0, "a game of four random players has captures");
    let counts: Vec<u64> = events
        .iter()
        .filter(|e| e["type"] == "bonus_granted")
        .map(|e| e["amount"].as_u64().unwrap())
        .collect();
    assert_eq!(
        counts.iter().filter(|&&a| a == 10).count(),
        counts.len(),
        "captures and arrivals both count 10: {counts:?}"
    );
    assert!(counts.len() >= captures);
    assert!(
        !events.iter().any(|e| e["type"] == "three_sixes"),
        "no three-sixes penalty"
    );

    // A rematch is played by the same house rules.
    let (status, rematch) = server
        .post_as(
            &started.owner,
            &format!("/api/rooms/{}/rematch", started.room),
            json!({}),
        )
        .await;
    assert_eq!(status.as_u16() / 100, 2, "{rematch}");
    assert_eq!(rematch["settings"]["house_rules"], expected);
    server.finish().await;
}

#[tokio::test]
async fn house_rules_are_checked_and_a_bad_one_makes_no_room() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    for (rules, says) in [
        (json!({ "start": "home" }), "set-up"),
        (json!({ "capture_bonus": 100 }), "capture_bonus"),
        (json!({ "six": "8" }), "expected 6, 7player, 7colour or 12"),
        (json!({ "capture_bonnus": 10 }), "no such option"),
        (json!({ "exit_mandatory": [1] }), "exit_mandatory"),
    ] {
        let (status, body) = server
            .post_as(&ana, "/api/rooms", four_with_bots(rules.clone()))
            .await;
        assert_eq!(status, 422, "{rules}: {body}");
        assert_eq!(body["code"], "invalid_settings", "{body}");
        let message = body["message"].as_str().unwrap();
        assert!(message.contains(says), "{rules}: {message}");
    }
    let (status, body) = server
        .post_as(
            &ana,
            "/api/rooms",
            four_with_bots(json!("capture_bonus=10")),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    let (_, mine) = server.get_as(&ana.token, "/api/players/me/rooms").await;
    assert_eq!(mine["rooms"], json!([]), "no room was made");
    server.finish().await;
}

#[tokio::test]
async fn the_rules_catalogue_lists_every_rule_set_mode_and_house_rule() {
    let server = TestServer::sqlite().await;
    let (status, catalogue) = status_and_json(server.get("/api/rules").send().await.unwrap()).await;
    assert_eq!(status, 200, "{catalogue}");
    let names: Vec<&str> = catalogue["rule_sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["playgridia", "ludoteka", "morocco"]);
    let playgridia = &catalogue["rule_sets"][0];
    let individual = playgridia["modes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "individual")
        .unwrap();
    assert_eq!(individual["players"], json!([2, 3, 4]));
    assert_eq!(individual["default_players"], 4);
    assert_eq!(individual["options"]["capture_bonus"], "20");
    assert_eq!(individual["options"]["six"], "7player");
    let house: Vec<&Value> = catalogue["house_rules"]
        .as_array()
        .unwrap()
        .iter()
        .collect();
    assert_eq!(house.len(), 15);
    let find = |name: &str| house.iter().find(|h| h["name"] == name).copied();
    assert_eq!(
        find("capture_bonus").unwrap()["values"],
        json!({ "kind": "number", "min": 0, "max": 40 })
    );
    assert_eq!(
        find("three_sixes").unwrap()["values"],
        json!({ "kind": "one_of", "texts": ["off", "last", "second"] })
    );
    assert_eq!(
        find("exit_mandatory").unwrap()["values"],
        json!({ "kind": "flag" })
    );
    assert!(find("start").is_none(), "the set-up is the mode's");
    // Every listed combination makes a room, with every house rule set to each of its values.
    let ana = server.player("Ana").await;
    let morocco_1v1 = json!({ "rules": "morocco", "mode": "1v1", "players": 2, "bots": [null, "random"],
        "house_rules": { "first_roll": false, "six": "7colour", "exit_capture": "never" } });
    let room = server.room(&ana, morocco_1v1).await;
    assert_eq!(
        room["settings"]["house_rules"],
        json!({ "exit_capture": "never", "first_roll": "0", "six": "7colour" })
    );
    server.finish().await;
}

sqlite_and_postgres!(
    a_house_rule_game_counts_in_your_record_but_not_on_the_leaderboard,
    not_ranked,
    |c| c.away_grace_secs = 1
);

async fn not_ranked(server: TestServer) {
    let settings = json!({ "rules": "playgridia", "mode": "quick", "players": 2, "turn_time_secs": null,
        "public": true, "house_rules": { "goal_bonus": 0 } });
    let (ana, bea, _) = members_play(&server, settings).await;

    let (status, board) = status_and_json(
        server
            .get("/api/leaderboard?rules=playgridia")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{board}");
    assert_eq!(
        board["players"],
        json!([]),
        "a house-rules game is not ranked"
    );
    for player in [&ana, &bea] {
        let (status, stats) = server.get_as(&player.token, "/api/players/me/stats").await;
        assert_eq!(status, 200, "{stats}");
        assert_eq!(stats["games"], 1, "{stats}");
        assert_eq!(stats["recent"][0]["house_rules"], true, "{stats}");
        assert_eq!(stats["recent"][0]["people"], 2, "{stats}");
    }
    server.finish().await;
}

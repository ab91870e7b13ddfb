//! Your record (`GET /api/players/me/stats`): every finished game you sat at, per rule set, against bots
//! too, with the games against other people apart (those are what the leaderboard counts).
mod common;

use common::databases::sqlite_and_postgres;
use common::game::play_through;
use common::{Player, TestServer, status_and_json, token_hash};
use serde_json::{Value, json};

/// A two-seat quick game of `rules` owned by `owner`, with `bea` seated (she never connects: a bot plays
/// her seat after the away grace) or a bot; `owner` plays it to the end. Whether `owner` won.
async fn play_quick(
    server: &TestServer,
    owner: &Player,
    rules: &str,
    bea: Option<&Player>,
) -> bool {
    let mut settings = json!({ "rules": rules, "mode": "quick", "players": 2, "turn_time_secs": null, "public": false });
    if bea.is_none() {
        settings["bots"] = json!([null, "random"]);
    }
    let room = server.room(owner, settings).await;
    let room = room["id"].as_str().unwrap();
    if let Some(bea) = bea {
        let code = server
            .get_as(&owner.token, &format!("/api/rooms/{room}"))
            .await
            .1["join_code"]
            .as_str()
            .unwrap()
            .to_owned();
        let (status, body) = server
            .post_as(
                bea,
                &format!("/api/rooms/{room}/join"),
                json!({ "code": code }),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    play_through(server, owner, room).await["won"]
        .as_bool()
        .expect("a finished game")
}

async fn stats(server: &TestServer, player: &Player) -> Value {
    let (status, body) = server.get_as(&player.token, "/api/players/me/stats").await;
    assert_eq!(status, 200, "{body}");
    body
}

/// `GET /api/accounts/{username}/stats`, without a token.
async fn public_stats(server: &TestServer, username: &str) -> (u16, Value) {
    let resp = server
        .get(&format!("/api/accounts/{username}/stats"))
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(resp).await;
    (status.as_u16(), body)
}

fn won(yes: bool) -> i64 {
    i64::from(yes)
}

#[tokio::test]
async fn a_new_player_has_played_nothing_yet() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    assert_eq!(
        stats(&server, &ana).await,
        json!({ "games": 0, "wins": 0, "rules": [], "recent": [] })
    );
    server.finish().await;
}

sqlite_and_postgres!(
    every_finished_game_counts_in_your_record_per_rule_set_and_games_against_people_apart,
    counted,
    |c| c.away_grace_secs = 1
);

async fn counted(server: TestServer) {
    let ana = server.player("Ana").await;
    let bea = server.player("Bea").await;
    let against_bea = play_quick(&server, &ana, "playgridia", Some(&bea)).await;
    let against_bot = play_quick(&server, &ana, "playgridia", None).await;
    let ludoteka = play_quick(&server, &ana, "ludoteka", None).await;
    // A game still being played counts for nobody yet.
    let unfinished = server
        .room(
            &ana,
            json!({ "rules": "morocco", "mode": "individual", "players": 2, "turn_time_secs": null, "bots": [null, "random"] }),
        )
        .await;
    let (status, body) = server
        .post_as(
            &ana,
            &format!("/api/rooms/{}/start", unfinished["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");

    let wins = won(against_bea) + won(against_bot) + won(ludoteka);
    let mut ana_stats = stats(&server, &ana).await;
    // The latest games, newest first, each with its result and how many people sat at it.
    let recent = ana_stats.as_object_mut().unwrap().remove("recent").unwrap();
    let latest: Vec<(&str, bool, i64)> = recent
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["rules"].as_str().unwrap(),
                g["won"].as_bool().unwrap(),
                g["people"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        latest,
        [
            ("ludoteka", ludoteka, 1),
            ("playgridia", against_bot, 1),
            ("playgridia", against_bea, 2)
        ]
    );
    // Each opens its replay.
    let replay = format!(
        "/api/games/{}/replay",
        recent[0]["game_id"].as_str().unwrap()
    );
    assert_eq!(server.get_as(&ana.token, &replay).await.0, 200);
    let mut ratings = Vec::new();
    for rules in ana_stats["rules"].as_array_mut().unwrap() {
        let rules = rules.as_object_mut().unwrap();
        let finished = rules.remove("last_finished_at").unwrap();
        assert!(finished.as_i64().unwrap() > 0);
        ratings.push(rules.remove("rating").unwrap());
        // Every one of these games kept its figures (what they add up to: tests/record_figures.rs).
        let figures = rules.remove("figures").unwrap();
        assert_eq!(figures["games"], rules["games"], "{figures}");
    }
    // Only the game against Bea was rated (people on two sides): a rating of playgridia, none of ludoteka.
    assert!(ratings[0].is_null(), "{ratings:?}");
    assert_eq!(
        (&ratings[1]["games"], &ratings[1]["provisional"]),
        (&json!(1), &json!(true))
    );
    assert_eq!(
        ana_stats,
        json!({
            "games": 3,
            "wins": wins,
            "rules": [
                { "rules": "ludoteka", "games": 1, "wins": won(ludoteka), "games_with_people": 0, "wins_with_people": 0 },
                { "rules": "playgridia", "games": 2, "wins": won(against_bea) + won(against_bot),
                  "games_with_people": 1, "wins_with_people": won(against_bea) },
            ],
        })
    );
    // Bea sat at one of them (a bot played for her): it is in her record, the other side of Ana's.
    let bea_stats = stats(&server, &bea).await;
    assert_eq!(bea_stats["games"], 1);
    assert_eq!(bea_stats["wins"], won(!against_bea));
    assert_eq!(bea_stats["rules"][0]["rules"], "playgridia");
    assert_eq!(bea_stats["rules"][0]["games_with_people"], 1);
    server.finish().await;
}

#[tokio::test]
async fn anyone_sees_the_record_of_a_player_with_an_account_by_username_and_no_one_elses() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let (status, body) = server
        .post_as(
            &ana,
            "/api/account",
            json!({ "username": "Ana_R", "password": "correct horse" }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let ana_won = play_quick(&server, &ana, "morocco", None).await;
    // No token needed, and the username in any case.
    for name in ["Ana_R", "ana_r", "ANA_R"] {
        let (status, body) = public_stats(&server, name).await;
        assert_eq!(status, 200, "{name}: {body}");
        assert_eq!(body["username"], "Ana_R");
        assert_eq!(body["display_name"], "Ana");
        assert_eq!(body["games"], 1);
        assert_eq!(body["wins"], won(ana_won));
        let own = stats(&server, &ana).await;
        assert_eq!(body["rules"], own["rules"]);
        assert_eq!(body["recent"], own["recent"]);
    }
    // A player without an account has no public page; nor has a name nobody took.
    let bea = server.player("Bea").await;
    let unknown = ["bea", "nobody", "x%2Fy", &"a".repeat(300)];
    for name in unknown {
        let (status, body) = public_stats(&server, name).await;
        assert_eq!(status, 404, "{name}: {body}");
        assert_eq!(body["code"], "account_not_found", "{name}");
    }
    assert_eq!(stats(&server, &bea).await["games"], 0);
    server.finish().await;
}

#[tokio::test]
async fn your_record_needs_your_token() {
    let server = TestServer::sqlite().await;
    let (status, body) =
        status_and_json(server.get("/api/players/me/stats").send().await.unwrap()).await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (401, Some("missing_token"))
    );
    let (status, body) = server.get_as("not-a-token", "/api/players/me/stats").await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (401, Some("invalid_token"))
    );
    server.finish().await;
}

/// Data written by the server before results were kept for games against bots (migrations up to 6):
/// Solo's game against a bot, which they won, and Ana and Bea's game, which Bea won.
const BEFORE_EVERY_GAME_COUNTED: &str = "
    INSERT INTO players (id, display_name, token_hash, created_at) VALUES
        ('p-solo', 'Solo', '{solo}', 1), ('p-ana', 'Ana', '{ana}', 1), ('p-bea', 'Bea', '{bea}', 1);
    INSERT INTO rooms (id, join_code, owner_id, settings, status, created_at) VALUES
        ('r-solo', 'AAAAAA', 'p-solo', '{\"rules\":\"morocco\",\"mode\":\"individual\",\"players\":2,\"bots\":[null,\"random\"],\"turn_time_secs\":null,\"preview_next_roll\":false,\"public\":false}', 'finished', 1),
        ('r-duo', 'BBBBBB', 'p-ana', '{\"rules\":\"playgridia\",\"mode\":\"quick\",\"players\":2,\"bots\":[null,null],\"turn_time_secs\":null,\"preview_next_roll\":false,\"public\":true}', 'finished', 1);
    INSERT INTO room_seats (room_id, seat, player_id, bot_level, preferred_colour) VALUES
        ('r-solo', 0, 'p-solo', NULL, NULL), ('r-solo', 1, NULL, 'random', NULL),
        ('r-duo', 0, 'p-ana', NULL, NULL), ('r-duo', 1, 'p-bea', NULL, NULL);
    INSERT INTO games (id, room_id, seed_hash, seed, started_at, finished_at, result) VALUES
        ('g-solo', 'r-solo', 'h', 's', 1, 1000, '{\"winner_side\":0,\"winner_seats\":[0]}'),
        ('g-duo', 'r-duo', 'h', 's', 1, 2000, '{\"winner_side\":1,\"winner_seats\":[1]}');
    INSERT INTO player_results (game_id, player_id, rules, won, finished_at) VALUES
        ('g-duo', 'p-ana', 'playgridia', 0, 2000), ('g-duo', 'p-bea', 'playgridia', 1, 2000);
";

fn old_data() -> String {
    BEFORE_EVERY_GAME_COUNTED
        .replace("{solo}", &token_hash("solo-token"))
        .replace("{ana}", &token_hash("ana-token"))
        .replace("{bea}", &token_hash("bea-token"))
}

fn player(id: &str, token: &str) -> Player {
    Player {
        id: id.to_owned(),
        token: token.to_owned(),
    }
}

/// What the upgraded server shows of the old data: the old game against a bot now in Solo's record,
/// Ana and Bea's game in theirs and still alone on the leaderboard's side of things; neither has figures
/// (they were not counted then).
async fn old_games_are_in_the_records(server: TestServer) {
    let no_figures = json!({ "games": 0, "captures": 0, "captured": 0, "sixes": 0, "home": 0 });
    let solo = stats(&server, &player("p-solo", "solo-token")).await;
    assert_eq!(
        solo,
        json!({ "games": 1, "wins": 1, "rules": [
            { "rules": "morocco", "games": 1, "wins": 1, "games_with_people": 0, "wins_with_people": 0, "last_finished_at": 1000,
              "rating": null, "figures": no_figures },
        ], "recent": [
            { "game_id": "g-solo", "rules": "morocco", "won": true, "people": 1, "house_rules": false, "finished_at": 1000,
              "rating_change": null },
        ] })
    );
    let ana = stats(&server, &player("p-ana", "ana-token")).await;
    assert_eq!(
        ana["rules"],
        // A game against Bea finished before ratings existed: counted, never rated.
        json!([{ "rules": "playgridia", "games": 1, "wins": 0, "games_with_people": 1, "wins_with_people": 0, "last_finished_at": 2000,
                 "rating": null, "figures": no_figures }])
    );
    let bea = stats(&server, &player("p-bea", "bea-token")).await;
    assert_eq!(
        (bea["games"].as_i64(), bea["wins"].as_i64()),
        (Some(1), Some(1))
    );
    server.finish().await;
}

/// The last schema version before every game was counted.
const BEFORE_EVERY_GAME_COUNTED_VERSION: i64 = 6;

sqlite_and_postgres!(
    games_against_bots_finished_before_the_upgrade_are_in_your_record,
    old_games_are_in_the_records,
    upgraded_from(BEFORE_EVERY_GAME_COUNTED_VERSION, &old_data())
);

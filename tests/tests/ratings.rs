//! Skill ratings: one per player and rule set, moved by rated games (no house rules, people on at least
//! two sides), shown in the game's result, the players' records and a leaderboard by rating.
mod common;

use common::databases::sqlite_and_postgres;
use common::game::{members_play, my_game, play_through, two_play, two_started};
use common::ws::WsClient;
use common::{Player, TestServer, quick_two};
use serde_json::{Value, json};

async fn my_stats(server: &TestServer, player: &Player) -> Value {
    let (status, stats) = server.get_as(&player.token, "/api/players/me/stats").await;
    assert_eq!(status, 200, "{stats}");
    stats
}

/// The stored result of a finished game (as its replay gives it).
async fn result_of(server: &TestServer, game: &Value) -> Value {
    let path = format!("/api/games/{}/replay", game["id"].as_str().unwrap());
    server.get_ok(&path).await["result"].clone()
}

/// A player's record of one rule set.
fn rules_line<'a>(stats: &'a Value, rules: &str) -> &'a Value {
    stats["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["rules"] == rules)
        .unwrap_or_else(|| panic!("no {rules} in {stats}"))
}

sqlite_and_postgres!(
    a_rated_game_moves_the_winner_up_and_the_loser_down_by_as_much,
    rated_game,
    |c| c.away_grace_secs = 1
);

async fn rated_game(server: TestServer) {
    let (ana, bea, game) = members_play(&server, quick_two()).await;
    let ana_won = game["won"].as_bool().expect("a finished game");

    // The result everyone in the room and the replay see: both people, from 1500.
    let result = result_of(&server, &game).await;
    let ratings = result["ratings"].as_array().expect("a rated game").clone();
    assert_eq!(ratings.len(), 2, "{ratings:?}");
    assert_eq!(
        ratings
            .iter()
            .map(|r| (r["seat"].as_i64(), r["before"].as_i64()))
            .collect::<Vec<_>>(),
        vec![(Some(0), Some(1500)), (Some(1), Some(1500))],
        "Ana made the room (seat 0), Bea joined (seat 1), both new"
    );
    let (ana_after, bea_after) = (
        ratings[0]["after"].as_i64().unwrap(),
        ratings[1]["after"].as_i64().unwrap(),
    );
    let (winner_after, loser_after) = if ana_won {
        (ana_after, bea_after)
    } else {
        (bea_after, ana_after)
    };
    assert!(winner_after > 1500 && loser_after < 1500, "{ratings:?}");
    assert_eq!(
        winner_after - 1500,
        1500 - loser_after,
        "two newcomers: one's gain is the other's loss"
    );

    // Each record: the rating, provisional after one game, and the game's change.
    for (player, after) in [(&ana, ana_after), (&bea, bea_after)] {
        let stats = my_stats(&server, player).await;
        assert_eq!(
            rules_line(&stats, "playgridia")["rating"],
            json!({ "value": after, "games": 1, "provisional": true }),
            "{stats}"
        );
        assert_eq!(
            stats["recent"][0]["rating_change"],
            json!(after - 1500),
            "{stats}"
        );
    }
    // Anyone's page shows the same.
    let page = server.get_ok("/api/accounts/bea/stats").await;
    assert_eq!(
        rules_line(&page, "playgridia")["rating"]["value"],
        json!(bea_after)
    );

    // The wins leaderboard shows the ratings beside the wins; the rating one waits for five games.
    let board = server.get_ok("/api/leaderboard").await;
    assert_eq!(board["by"], "wins");
    let shown: Vec<(String, i64)> = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["username"].as_str().unwrap().to_owned(),
                p["rating"]["value"].as_i64().unwrap(),
            )
        })
        .collect();
    let mut expected = vec![("ana".to_owned(), ana_after), ("bea".to_owned(), bea_after)];
    expected.sort_by_key(|(_, v)| -v);
    assert_eq!(shown, expected, "{board}");
    let by_rating = server.get_ok("/api/leaderboard?by=rating").await;
    assert_eq!(
        (&by_rating["by"], &by_rating["players"]),
        (&json!("rating"), &json!([]))
    );
    server.finish().await;
}

/// Members Ana (seat 0) and Bea (seat 1) at a rated two-player game Ana made and started: `(ana, bea, room)`.
async fn started_two(server: &TestServer) -> (Player, Player, String) {
    let ana = server.member("Ana").await;
    let bea = server.member("Bea").await;
    let (room, _) = two_started(server, &ana, &bea, quick_two()).await;
    (ana, bea, room)
}

sqlite_and_postgres!(
    a_person_who_leaves_a_running_rated_game_loses_it_whatever_the_bot_in_their_seat_does,
    |server| left_game(server, true)
);

#[tokio::test]
async fn leaving_a_running_game_through_the_rest_api_is_the_same_loss() {
    left_game(TestServer::sqlite().await, false).await;
}

/// Ana and Bea start a rated game; Bea leaves it (over the WebSocket, or `POST …/leave`); Ana plays on.
async fn left_game(server: TestServer, over_the_websocket: bool) {
    let (ana, bea, room) = started_two(&server).await;

    // Bea leaves once the game runs: a bot takes her seat at once.
    if over_the_websocket {
        let mut bea_ws = WsClient::connect(&server, &room, Some(&bea.token)).await;
        let ack = bea_ws.request(json!({ "type": "leave" })).await;
        assert_eq!(ack["type"], "ack", "{ack}");
    } else {
        let (status, body) = server
            .post_as(&bea, &format!("/api/rooms/{room}/leave"), json!({}))
            .await;
        assert_eq!(status, 200, "{body}");
        assert!(body["seats"][1]["bot"].is_string(), "{body}");
        // Once is all: she no longer sits there.
        let (status, body) = server
            .post_as(&bea, &format!("/api/rooms/{room}/leave"), json!({}))
            .await;
        assert_eq!(
            (status.as_u16(), &body["code"]),
            (409, &json!("not_seated"))
        );
    }
    let mut ana_ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    ana_ws
        .until_state(|s| s["seats"][1]["bot"].is_string())
        .await;
    assert!(ana_ws.state["seats"][1]["player_id"].is_null());
    ana_ws.play_to_the_end().await;
    let game = my_game(&server, &ana, &room).await;
    let ana_won = game["won"].as_bool().expect("a finished game");

    // Rated all the same: Bea's line says she left and goes down; Ana goes up even if the bot won.
    let result = result_of(&server, &game).await;
    let ratings = result["ratings"].as_array().expect("a rated game").clone();
    assert_eq!(ratings.len(), 2, "{ratings:?}");
    let line = |seat: i64| ratings.iter().find(|r| r["seat"] == seat).unwrap().clone();
    let (ana_line, bea_line) = (line(0), line(1));
    assert_eq!(bea_line["left"], true, "{bea_line}");
    assert!(ana_line.get("left").is_none(), "{ana_line}");
    assert!(bea_line["after"].as_i64() < Some(1500), "{bea_line}");
    assert!(
        ana_line["after"].as_i64() > Some(1500),
        "Ana ranks above the one who left (she won: {ana_won}): {ana_line}"
    );

    // The game is in Bea's record as a loss, and her rating is the one shown.
    let stats = my_stats(&server, &bea).await;
    let line = rules_line(&stats, "playgridia");
    assert_eq!(
        (&line["games"], &line["wins"]),
        (&json!(1), &json!(0)),
        "{stats}"
    );
    assert_eq!(line["rating"]["value"], bea_line["after"], "{stats}");
    let stats = my_stats(&server, &ana).await;
    assert_eq!(rules_line(&stats, "playgridia")["games"], 1, "{stats}");

    // Her data export says which game she left, and Ana's says none.
    let (status, data) = server.get_as(&bea.token, "/api/players/me/export").await;
    assert_eq!(status, 200, "{data}");
    let left = data["games_left"].as_array().unwrap();
    assert_eq!(left.len(), 1, "{data}");
    assert_eq!(
        (&left[0]["game_id"], &left[0]["seat"]),
        (&game["id"], &json!(1))
    );
    assert_eq!(left[0]["room_id"], room.as_str());
    let (_, data) = server.get_as(&ana.token, "/api/players/me/export").await;
    assert_eq!(data["games_left"], json!([]));
    server.finish().await;
}

#[tokio::test]
async fn a_seat_left_on_its_own_turn_is_played_on_by_its_bot() {
    let server = TestServer::sqlite().await;
    let (ana, bea, room) = started_two(&server).await;
    // Seat 0 (Ana) rolls first: she leaves before rolling, and her bot must roll for her.
    let (status, body) = server
        .post_as(&ana, &format!("/api/rooms/{room}/leave"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let mut bea_ws = WsClient::connect(&server, &room, Some(&bea.token)).await;
    bea_ws.play_to_the_end().await;
    let game = my_game(&server, &bea, &room).await;
    assert!(game["won"].is_boolean(), "the game finished: {game}");
    let result = result_of(&server, &game).await;
    let ana_line = result["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["seat"] == 0)
        .cloned()
        .unwrap();
    assert_eq!(ana_line["left"], true, "{result}");
    server.finish().await;
}

#[tokio::test]
async fn games_against_bots_between_partners_or_at_house_rules_are_not_rated() {
    let server = TestServer::sqlite_with(|c| c.away_grace_secs = 1).await;
    let ana = server.member("Ana").await;
    let bea = server.member("Bea").await;

    // Ana alone against a bot.
    let mut solo = quick_two();
    solo["bots"] = json!([null, "random"]);
    let room = server.room(&ana, solo).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let game = play_through(&server, &ana, &room).await;
    // Ana and Bea as partners (seats 0 and 2, kept: no seat draw) against two bots.
    let pairs = json!({ "rules": "playgridia", "mode": "pairs", "players": 4, "turn_time_secs": null,
                        "public": true, "bots": [null, "random", null, "random"], "draw_seats": false });
    let partners = two_play(&server, &ana, &bea, pairs).await;
    // Ana against Bea, with a house rule.
    let mut house = quick_two();
    house["house_rules"] = json!({ "capture_bonus": 10 });
    let house = two_play(&server, &ana, &bea, house).await;

    for g in [&game, &partners, &house] {
        let result = result_of(&server, g).await;
        assert!(result["winner_side"].is_u64(), "{result}");
        assert!(result.get("ratings").is_none(), "not rated: {}", result);
    }
    for player in [&ana, &bea] {
        let stats = my_stats(&server, player).await;
        assert!(
            rules_line(&stats, "playgridia")["rating"].is_null(),
            "{stats}"
        );
        let recent = stats["recent"].as_array().unwrap();
        assert!(
            !recent.is_empty() && recent.iter().all(|g| g["rating_change"].is_null()),
            "{stats}"
        );
    }
    server.finish().await;
}

sqlite_and_postgres!(
    five_rated_games_put_players_on_the_rating_leaderboard_until_they_erase_themselves,
    five_games,
    |c| c.away_grace_secs = 1
);

async fn five_games(server: TestServer) {
    let ana = server.member("Ana").await;
    let bea = server.member("Bea").await;
    let cai = server.member("Cai").await;
    for _ in 0..5 {
        two_play(&server, &ana, &bea, quick_two()).await;
    }
    // Cai played four rated games: still provisional, so not on the rating leaderboard.
    for _ in 0..4 {
        two_play(&server, &cai, &ana, quick_two()).await;
    }
    let mut values = Vec::new();
    for (name, player) in [("ana", &ana), ("bea", &bea)] {
        let stats = my_stats(&server, player).await;
        let rating = rules_line(&stats, "playgridia")["rating"].clone();
        let games = if name == "ana" { 9 } else { 5 };
        assert_eq!(
            (rating["games"].as_i64(), &rating["provisional"]),
            (Some(games), &json!(false)),
            "{stats}"
        );
        values.push((name, rating["value"].as_i64().unwrap()));
    }
    let cai_rating = rules_line(&my_stats(&server, &cai).await, "playgridia")["rating"].clone();
    assert_eq!(
        (&cai_rating["games"], &cai_rating["provisional"]),
        (&json!(4), &json!(true))
    );

    // The rating leaderboard: the two settled ratings, best first, as the records show them.
    values.sort_by_key(|&(name, v)| (-v, name));
    let board = server
        .get_ok("/api/leaderboard?by=rating&rules=playgridia&days=1")
        .await;
    let listed: Vec<(&str, i64, i64)> = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["username"].as_str().unwrap(),
                p["rating"]["value"].as_i64().unwrap(),
                p["rank"].as_i64().unwrap(),
            )
        })
        .collect();
    let ranks = if values[0].1 == values[1].1 {
        [1, 1]
    } else {
        [1, 2]
    };
    assert_eq!(
        listed,
        vec![
            (values[0].0, values[0].1, ranks[0]),
            (values[1].0, values[1].1, ranks[1])
        ],
        "{board}"
    );
    // Its games and wins are the period's, as on the wins leaderboard.
    let bea_line = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["username"] == "bea")
        .unwrap();
    assert_eq!(bea_line["games"], 5);
    // Other rule sets have their own ratings.
    let other = server
        .get_ok("/api/leaderboard?by=rating&rules=ludoteka")
        .await;
    assert_eq!(other["players"], json!([]));

    // Erased, Bea is no longer ranked; Ana stays.
    let (status, body) = server.erase_me(&bea.token, Some("correct horse")).await;
    assert!(status.is_success(), "{body}");
    let board = server.get_ok("/api/leaderboard?by=rating").await;
    let names: Vec<&str> = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["username"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["ana"], "{board}");
    server.finish().await;
}

#[tokio::test]
async fn a_rated_four_player_game_counts_every_person_and_leaves_the_bots_out() {
    let server = TestServer::sqlite_with(|c| c.away_grace_secs = 1).await;
    let ana = server.member("Ana").await;
    let bea = server.member("Bea").await;
    let four = json!({ "rules": "playgridia", "mode": "quick", "players": 4, "turn_time_secs": null,
                       "public": true, "bots": [null, null, "random", "random"] });
    let game = two_play(&server, &ana, &bea, four).await;
    let result = result_of(&server, &game).await;
    let ratings = result["ratings"]
        .as_array()
        .expect("rated: two people")
        .clone();
    let seats: Vec<i64> = ratings
        .iter()
        .map(|r| r["seat"].as_i64().unwrap())
        .collect();
    assert_eq!(seats, vec![0, 1], "people only: {ratings:?}");
    let winners = result["winner_seats"].as_array().unwrap().clone();
    for r in &ratings {
        let won = winners.contains(&r["seat"]);
        let change = r["after"].as_i64().unwrap() - r["before"].as_i64().unwrap();
        assert_eq!(change > 0, won, "a winner gains, a loser loses: {r}");
    }
    server.finish().await;
}

sqlite_and_postgres!(
    games_at_two_tables_at_once_both_count_in_a_shared_players_rating,
    concurrent,
    |c| c.away_grace_secs = 1
);

/// Ana plays Bea and Cai at two tables at once: neither game's rating update is lost to the other's.
async fn concurrent(server: TestServer) {
    let ana = server.member("Ana").await;
    let bea = server.member("Bea").await;
    let cai = server.member("Cai").await;
    let (one, two) = tokio::join!(
        two_play(&server, &bea, &ana, quick_two()),
        two_play(&server, &cai, &ana, quick_two()),
    );
    let mut ana_changes = Vec::new();
    for g in [&one, &two] {
        let result = result_of(&server, g).await;
        // Ana joined second: seat 1.
        let line = result["ratings"]
            .as_array()
            .and_then(|r| r.iter().find(|r| r["seat"] == 1))
            .cloned()
            .unwrap_or_else(|| panic!("Ana rated: {result}"));
        ana_changes.push((
            line["before"].as_i64().unwrap(),
            line["after"].as_i64().unwrap(),
        ));
    }
    // One game was rated first, from 1500; the other started from where the first left her.
    ana_changes.sort_by_key(|&(before, _)| (before != 1500, before));
    assert_eq!(ana_changes[0].0, 1500, "{ana_changes:?}");
    assert_eq!(
        ana_changes[1].0, ana_changes[0].1,
        "the second saw the first: {ana_changes:?}"
    );
    let rating = rules_line(&my_stats(&server, &ana).await, "playgridia")["rating"].clone();
    assert_eq!(
        (rating["games"].as_i64(), rating["value"].as_i64()),
        (Some(2), Some(ana_changes[1].1))
    );
    server.finish().await;
}

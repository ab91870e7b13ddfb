//! The leaderboard: per rule set, the most wins over the last days among players with an account, in
//! games where at least two people sat (games against bots alone do not count).
mod common;

use common::databases::sqlite_and_postgres;
use common::game::{members_play, play_through};
use common::{TestServer, quick_two, status_and_json};
use serde_json::{Value, json};

async fn leaderboard(server: &TestServer, query: &str) -> (u16, Value) {
    let resp = server
        .get(&format!("/api/leaderboard{query}"))
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(resp).await;
    (status.as_u16(), body)
}

sqlite_and_postgres!(
    a_game_between_two_members_counts_for_both_and_games_against_bots_do_not,
    counted,
    |c| c.away_grace_secs = 1
);

async fn counted(server: TestServer) {
    let quick = quick_two();
    let (ana, _bea, game) = members_play(&server, quick.clone()).await;
    let ana_won = game["won"].as_bool().expect("a finished game");
    // Ana against a bot alone: not counted.
    let mut solo = quick.clone();
    solo["bots"] = json!([null, "random"]);
    let solo_room = server.room(&ana, solo).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    play_through(&server, &ana, &solo_room).await;

    let (status, board) = leaderboard(&server, "").await;
    assert_eq!(status, 200, "{board}");
    assert_eq!(
        (board["rules"].as_str(), board["days"].as_u64()),
        (Some("playgridia"), Some(30))
    );
    let (winner, loser) = if ana_won {
        ("ana", "bea")
    } else {
        ("bea", "ana")
    };
    // Beside the wins, each one's rating after that one rated game (`ratings.rs` says more).
    let mut players = board["players"].as_array().unwrap().clone();
    let ratings: Vec<Value> = players
        .iter_mut()
        .map(|p| p.as_object_mut().unwrap().remove("rating").unwrap())
        .collect();
    assert_eq!(
        players,
        vec![
            json!({ "rank": 1, "username": winner, "display_name": if ana_won { "Ana" } else { "Bea" }, "games": 1, "wins": 1 }),
            json!({ "rank": 2, "username": loser, "display_name": if ana_won { "Bea" } else { "Ana" }, "games": 1, "wins": 0 }),
        ]
    );
    assert!(
        ratings[0]["value"].as_i64() > Some(1500) && ratings[1]["value"].as_i64() < Some(1500),
        "{ratings:?}"
    );
    assert!(
        ratings
            .iter()
            .all(|r| r["games"] == 1 && r["provisional"] == true),
        "{ratings:?}"
    );
    // Other rules have their own board; a player without an account is never listed.
    let (_, other) = leaderboard(&server, "?rules=ludoteka&days=365").await;
    assert_eq!(other["players"], json!([]));
    server.finish().await;
}

#[tokio::test]
async fn unknown_rules_or_a_period_out_of_range_are_refused_with_a_code() {
    let server = TestServer::sqlite().await;
    for query in [
        "?rules=chess",
        "?days=0",
        "?days=366",
        "?days=soon",
        "?by=elo",
    ] {
        let (status, body) = leaderboard(&server, query).await;
        assert_eq!(status, 422, "{query}: {body}");
        assert_eq!(body["code"], "invalid_query", "{query}: {body}");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let (status, body) = leaderboard(&server, "?rules=morocco&days=1").await;
    assert_eq!((status, &body["players"]), (200, &json!([])));
    server.finish().await;
}

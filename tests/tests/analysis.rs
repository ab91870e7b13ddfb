//! Looking back at a finished game: for any move, the position it was played in, its legal moves and the
//! move the expert bot picks there; never for a game still being played.
mod common;

use common::game::{Started, start_with_bots};
use common::ws::WsClient;
use common::{TestServer, status_and_json};
use parchis_rules::Game;
use reqwest::StatusCode;
use serde_json::Value;

async fn get(server: &TestServer, path: &str) -> (StatusCode, Value) {
    status_and_json(server.get(path).send().await.unwrap()).await
}

/// A finished two-player quick game against a bot, played by the test.
async fn finished_game(server: &TestServer) -> Started {
    let started = start_with_bots(server, "playgridia", "quick", 2).await;
    let mut player = WsClient::connect(server, &started.room, Some(&started.owner.token)).await;
    player.play_to_the_end().await;
    started
}

#[tokio::test]
async fn every_move_of_a_finished_game_can_be_set_beside_the_experts() {
    let server = TestServer::sqlite_with(|c| c.bot_delay_ms = 0).await;
    let started = finished_game(&server).await;
    let (status, replay) = get(&server, &format!("/api/games/{}/replay", started.game)).await;
    assert_eq!(status, 200, "{replay}");
    let moves: Vec<&Value> = replay["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "move")
        .collect();
    assert!(moves.len() >= 12, "a whole game has moves");
    // Moves in order until six of them were choices (many early moves of a quick game are forced).
    let mut choices = 0;
    for step in moves {
        if choices == 6 {
            break;
        }
        let seq = step["seq"].as_u64().unwrap();
        let path = format!("/api/games/{}/analysis?seq={seq}", started.game);
        let (status, analysis) = get(&server, &path).await;
        assert_eq!(status, 200, "{analysis}");
        assert_eq!(analysis["played"], step["move"], "{analysis}");
        assert_eq!(analysis["seat"], step["seat"]);
        // The position is the one the move was played in: the rules crate gives the same legal moves.
        let position: Game = analysis["position"].as_str().unwrap().parse().unwrap();
        let legal: Vec<String> = position.legal_texts();
        assert_eq!(analysis["legal"], serde_json::json!(legal), "{analysis}");
        assert!(legal.iter().any(|m| *m == analysis["played"]));
        assert!(legal.iter().any(|m| *m == analysis["expert"]), "{analysis}");
        assert_eq!(
            analysis["agrees"],
            analysis["expert"] == analysis["played"],
            "{analysis}"
        );
        if legal.len() > 1 {
            // The same question, the same answer.
            let (_, again) = get(&server, &path).await;
            assert_eq!(again["expert"], analysis["expert"]);
            choices += 1;
        }
    }
    assert_eq!(choices, 6, "a whole game has moves with a choice");
    server.finish().await;
}

#[tokio::test]
async fn analysis_is_refused_for_games_being_played_rolls_and_steps_that_do_not_exist() {
    let server = TestServer::sqlite().await;
    let started = start_with_bots(&server, "playgridia", "individual", 4).await;
    let base = format!("/api/games/{}/analysis", started.game);
    let (status, body) = get(&server, &format!("{base}?seq=1")).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["code"], "game_not_finished");

    let (status, body) = get(&server, "/api/games/nope/analysis?seq=1").await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["code"], "game_not_found");

    let server = {
        server.finish().await;
        TestServer::sqlite_with(|c| c.bot_delay_ms = 0).await
    };
    let started = finished_game(&server).await;
    let base = format!("/api/games/{}/analysis", started.game);
    let (status, body) = get(&server, &format!("{base}?seq=0")).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["code"], "not_a_move", "the first entry is a roll");
    assert!(body["message"].as_str().unwrap().contains("roll"), "{body}");
    for query in ["", "?seq=", "?seq=abc", "?seq=-1", "?seq=1000000"] {
        let (status, body) = get(&server, &format!("{base}{query}")).await;
        assert_eq!(status, 422, "{query}: {body}");
        assert_eq!(body["code"], "invalid_query", "{query}: {body}");
    }
    server.finish().await;
}

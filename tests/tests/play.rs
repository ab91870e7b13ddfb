//! Whole games over REST + WebSocket: every mode to the end, the patches, the
//! record and its verification.
mod common;

use common::TestServer;
use common::game::seat_figures_of;
use common::game::{record, start_with_bots, view_json};
use common::ws::WsClient;
use parchis_proof::verify_record;

/// Plays one game of `mode` (one scripted human, bots elsewhere, a spectator
/// watching) and checks everything a finished game should satisfy.
async fn a_whole_game_of(rules: &str, mode: &str, players: u8) {
    let server = TestServer::sqlite().await;
    let started = start_with_bots(&server, rules, mode, players).await;
    let mut spectator = WsClient::connect(&server, &started.room, None).await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    // Seat 0, unless the rule set draws the seats (Morocco): then wherever the draw put the owner.
    let owner_seat = player.state["seats"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["player_id"] == started.owner.id.as_str())
        .map(|s| s as u64);
    assert_eq!(player.seat, owner_seat);
    if rules != "morocco" {
        assert_eq!(player.seat, Some(0));
    }
    assert_eq!(spectator.seat, None);

    player.play_to_the_end().await;
    spectator
        .until_state(|s| s["game"]["view"]["turn"]["phase"] == "over")
        .await;
    spectator
        .until_state(|s| s["room"]["status"] == "finished")
        .await;
    player
        .until_state(|s| s["room"]["status"] == "finished")
        .await;

    // The record is honest and its replay ends exactly where the clients are.
    let record = record(&server, &started.game).await;
    let verified = verify_record(&record).unwrap_or_else(|e| panic!("{mode}: {e}"));
    assert!(verified.rolls > 0 && verified.moves > 0);
    assert_eq!(
        player.state["game"]["view"],
        view_json(&verified.game),
        "{mode}"
    );
    assert_eq!(player.state["game"]["seed"], record["seed"]);
    assert_eq!(player.state["game"]["result"], record["result"]);
    assert_eq!(
        record["result"]["seats"],
        seat_figures_of(&record),
        "{mode}: the end card's figures"
    );
    let figures = record["result"]["seats"].as_array().unwrap();
    let sixes: u64 = figures.iter().map(|f| f["sixes"].as_u64().unwrap()).sum();
    assert!(sixes > 0, "{mode}: a whole game rolls sixes");
    let winners = record["result"]["winner_seats"].as_array().unwrap();
    for w in winners {
        let home = &record["result"]["seats"][w.as_u64().unwrap() as usize]["home"];
        assert!(
            home.as_u64().unwrap() >= 1,
            "{mode}: a winner has pieces home"
        );
    }

    // Patches applied to the first snapshot give exactly a fresh snapshot, for every client.
    for client in [&mut player, &mut spectator] {
        let patched = client.state.clone();
        let fresh = client.resync().await;
        assert_eq!(
            patched, fresh,
            "{mode}: patched state equals a fresh snapshot"
        );
        assert!(
            client.first_snapshot["game"]["seed"].is_null(),
            "no seed before the end"
        );
    }
    server.finish().await;
}

#[tokio::test]
async fn an_individual_game_is_played_to_the_end() {
    a_whole_game_of("ludoteka", "individual", 4).await;
}

#[tokio::test]
async fn a_quick_game_is_played_to_the_end() {
    a_whole_game_of("playgridia", "quick", 4).await;
}

#[tokio::test]
async fn a_pairs_game_is_played_to_the_end() {
    a_whole_game_of("ludoteka", "pairs", 4).await;
}

#[tokio::test]
async fn a_one_versus_one_game_is_played_to_the_end() {
    a_whole_game_of("morocco", "1v1", 2).await;
}

#[tokio::test]
async fn a_six_piece_game_is_played_to_the_end() {
    a_whole_game_of("playgridia", "6-piece", 2).await;
}

#[tokio::test]
async fn a_three_versus_three_game_is_played_to_the_end() {
    a_whole_game_of("playgridia", "3v3", 6).await;
}

#[tokio::test]
async fn a_record_with_one_altered_roll_fails_verification() {
    let server = TestServer::sqlite().await;
    let started = start_with_bots(&server, "playgridia", "quick", 2).await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    player.play_to_the_end().await;
    let honest = record(&server, &started.game).await;
    assert!(verify_record(&honest).is_ok());
    // For trying `parchis verify` by hand: PARCHIS_DUMP_RECORD=dir cargo test …
    if let Ok(dir) = std::env::var("PARCHIS_DUMP_RECORD") {
        std::fs::write(format!("{dir}/record.json"), honest.to_string()).unwrap();
    }

    let mut forged = honest.clone();
    let log = forged["log"].as_array_mut().unwrap();
    let roll = log.iter_mut().find(|e| e["kind"] == "roll").unwrap();
    let die = roll["payload"]["die"].as_u64().unwrap();
    roll["payload"]["die"] = (die % 6 + 1).into();
    if let Ok(dir) = std::env::var("PARCHIS_DUMP_RECORD") {
        std::fs::write(format!("{dir}/forged.json"), forged.to_string()).unwrap();
    }
    let err = verify_record(&forged).unwrap_err();
    assert!(
        err.contains("log[0]") && err.contains("seed gives"),
        "{err}"
    );

    let mut unsealed = honest.clone();
    unsealed["seed_hash"] = "00".repeat(32).into();
    assert!(verify_record(&unsealed).unwrap_err().contains("hashes to"));
    server.finish().await;
}

#[tokio::test]
async fn metrics_count_rooms_connections_and_moves() {
    let server = TestServer::sqlite().await;
    let started = start_with_bots(&server, "playgridia", "quick", 2).await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    player.act().await;
    let text = server
        .get("/metrics")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for name in [
        "parchis_rooms_live",
        "parchis_ws_connections 1",
        "parchis_moves_total",
        "parchis_move_latency_seconds_bucket",
    ] {
        assert!(text.contains(name), "{name} missing from\n{text}");
    }
    server.finish().await;
}

//! Game records: the log is returned in order and the seed only once finished.
mod common;

use common::{TestServer, public_four, status_and_json};
use parchis_server::db::{Db, LogAction, MovePayload, RollPayload, now_ms};
use parchis_server::model::Actor;
use serde_json::{Value, json};

#[tokio::test]
async fn the_seed_is_revealed_only_after_the_game_finishes_and_matches_its_hash() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    let room = server.room(&owner, public_four()).await;
    let id = room["id"].as_str().unwrap();
    let (_, room) = server
        .post_as(&owner, &format!("/api/rooms/{id}/start"), json!({}))
        .await;
    let game_id = room["game_id"].as_str().unwrap().to_owned();

    // Play "as the referee" straight through storage (the rules crate is not wired yet).
    let db = Db::connect(&server.database_url).await.unwrap();
    let roll = LogAction::Roll(RollPayload {
        by: Actor::Player,
        die: 5,
        roll: 0,
        seat: 0,
    });
    db.append_log(&game_id, 0, &roll, now_ms()).await.unwrap();
    let mv = LogAction::Move(MovePayload {
        by: Actor::Player,
        text: "y1:b-5".into(),
        seat: 0,
    });
    db.append_log(&game_id, 1, &mv, now_ms()).await.unwrap();
    assert!(
        db.append_log(&game_id, 1, &roll, now_ms()).await.is_err(),
        "a sequence number cannot be written twice"
    );
    let path = format!("/api/games/{game_id}/record");
    let (_, record) = status_and_json(server.get(&path).send().await.unwrap()).await;
    assert_eq!(record["seed"], Value::Null);
    assert_eq!(record["log"].as_array().unwrap().len(), 2);
    assert_eq!(record["log"][0]["kind"], "roll");
    assert_eq!(record["log"][1]["payload"]["move"], "y1:b-5");

    db.finish_game(
        &game_id,
        json!({ "winner": 0 }),
        now_ms(),
        "playgridia",
        false,
        &[0, 1],
        0,
        &[],
    )
    .await
    .unwrap();
    db.close().await;
    let (status, record) = status_and_json(server.get(&path).send().await.unwrap()).await;
    assert_eq!(status, 200);
    let seed = record["seed"].as_str().expect("seed revealed");
    let bytes = parchis_proof::dice::decode_seed(seed).expect("32 bytes of hex");
    assert_eq!(
        parchis_proof::dice::seed_hash(&bytes),
        record["seed_hash"].as_str().unwrap()
    );
    assert_eq!(record["result"]["winner"], 0);
    assert!(record["finished_at"].is_i64());
    server.finish().await;
}

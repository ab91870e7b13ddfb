//! `parchis verify` on a record the real server wrote: a finished game is honest; the same record with one
//! roll changed, or with another seed hash, is not, and the command says where.

use std::process::Command;
use std::time::Duration;

use parchis_server::{Config, run};
use serde_json::{Value, json};
use tokio::net::TcpListener;

/// Plays a whole bot game on a fresh in-process server (the owner never connects, so after a zero grace
/// period a bot covers the owner's seat too) and returns its record as `GET /api/games/{id}/record` gives it.
async fn a_finished_game_record() -> Value {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("p.db").display());
    let mut config = Config::for_database(url);
    config.away_grace_secs = 0;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(run(listener, config, async {
        let _ = stopped.await;
    }));
    let http = reqwest::Client::new();
    let post = |path: &str, token: Option<&str>, body: Value| {
        let mut request = http.post(format!("{base}{path}")).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        async move { request.send().await.unwrap().json::<Value>().await.unwrap() }
    };

    let player = post("/api/players", None, json!({ "display_name": "Ana" })).await;
    let token = player["token"].as_str().unwrap();
    let settings =
        json!({ "rules": "playgridia", "mode": "quick", "players": 2, "turn_time_secs": null });
    let room = post("/api/rooms", Some(token), settings).await;
    let room = room["id"].as_str().unwrap();
    let started = post(&format!("/api/rooms/{room}/start"), Some(token), json!({})).await;
    let game = started["game_id"].as_str().expect("game id").to_owned();

    let mut record = Value::Null;
    for _ in 0..600 {
        record = http
            .get(format!("{base}/api/games/{game}/record"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap_or(Value::Null);
        if record["seed"].is_string() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(record["seed"].is_string(), "game never finished: {record}");
    let _ = stop.send(());
    server.await.unwrap().unwrap();
    record
}

/// Runs `parchis verify FILE` on `record`; returns success, stdout and stderr.
fn verify(record: &Value) -> (bool, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("record.json");
    std::fs::write(&file, record.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_parchis"))
        .arg("verify")
        .arg(&file)
        .output()
        .expect("run parchis");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_accepts_a_real_record_and_rejects_one_altered_roll_or_a_wrong_seed_hash() {
    let honest = a_finished_game_record().await;

    let (ok, out, err) = verify(&honest);
    assert!(ok, "honest record refused: {err}");
    assert!(out.starts_with("honest: "), "{out}");
    assert!(out.contains("winner side"), "{out}");

    let mut forged = honest.clone();
    let roll = forged["log"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|e| e["kind"] == "roll")
        .expect("a roll in the log");
    let die = roll["payload"]["die"].as_u64().unwrap();
    roll["payload"]["die"] = (die % 6 + 1).into();
    let (ok, _, err) = verify(&forged);
    assert!(!ok, "a record with an altered roll passed");
    assert!(
        err.contains("DISHONEST") && err.contains("seed gives"),
        "{err}"
    );

    let mut resealed = honest.clone();
    resealed["seed_hash"] = "00".repeat(32).into();
    let (ok, _, err) = verify(&resealed);
    assert!(!ok, "a record whose seed does not match its hash passed");
    assert!(err.contains("hashes to"), "{err}");

    let (ok, _, err) = verify(&json!({ "not": "a record" }));
    assert!(!ok);
    assert!(err.contains("DISHONEST") || err.contains("record"), "{err}");
}

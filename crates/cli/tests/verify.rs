//! `parchis verify` on a record the real server wrote (`fixtures/finished_game_record.json`: a quick game,
//! its owner's seat played by a bot, as `GET /api/games/{id}/record` returned it): the record is honest;
//! the same record with one roll changed, or with another seed hash, is not, and the command says where.
//! That the server's records of today still verify is the black-box tests' part (`tests/`, through
//! `parchis_proof::verify_record`); the CLI does not link the server.

use std::process::Command;

use serde_json::{Value, json};

/// The record of a finished game, as the server returned it.
fn a_finished_game_record() -> Value {
    let text = include_str!("fixtures/finished_game_record.json");
    let record: Value = serde_json::from_str(text).expect("the fixture is JSON");
    assert!(record["seed"].is_string(), "the fixture's game is finished");
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

#[test]
fn verify_accepts_a_real_record_and_rejects_one_altered_roll_or_a_wrong_seed_hash() {
    let honest = a_finished_game_record();

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

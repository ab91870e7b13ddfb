mod common;

use common::{TestServer, status_and_json};
use serde_json::json;

#[tokio::test]
async fn registering_a_player_returns_a_64_hex_token() {
    let server = TestServer::sqlite().await;
    let resp = server
        .post("/api/players")
        .json(&json!({ "display_name": "  Lola  " }))
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(resp).await;
    assert_eq!(status, 201);
    assert_eq!(body["display_name"], "Lola");
    let token = body["token"].as_str().unwrap();
    assert_eq!(token.len(), 64);
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
    server.finish().await;
}

#[tokio::test]
async fn an_empty_display_name_is_refused_with_422() {
    let server = TestServer::sqlite().await;
    let resp = server
        .post("/api/players")
        .json(&json!({ "display_name": "   " }))
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(resp).await;
    assert_eq!(status, 422);
    assert_eq!(body["code"], "invalid_display_name");
    server.finish().await;
}

#[tokio::test]
async fn the_token_is_never_stored_in_clear() {
    let mut server = TestServer::sqlite().await;
    let player = server.player("Pepe").await;
    let path = server
        .database_url
        .trim_start_matches("sqlite://")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    server.stop().await; // keeps the temporary directory until `server` drops
    let mut bytes = std::fs::read(&path).unwrap();
    if let Ok(wal) = std::fs::read(format!("{path}-wal")) {
        bytes.extend(wal);
    }
    let text = String::from_utf8_lossy(&bytes);
    assert!(
        !text.contains(&player.token),
        "the token is in the database file"
    );
    assert!(text.contains("Pepe"), "read the wrong file");
    drop(server);
}

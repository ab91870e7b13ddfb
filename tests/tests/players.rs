mod common;

use common::databases::sqlite_and_postgres;
use common::game::ana_and_bea;
use common::ws::WsClient;
use common::{Player, TestServer, status_and_json};
use serde_json::{Value, json};

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

/// `PATCH /api/players/me` with `body` as `player`: status and JSON.
async fn rename(server: &TestServer, player: &Player, body: &str) -> (reqwest::StatusCode, Value) {
    let resp = server
        .client
        .patch(server.url("/api/players/me"))
        .bearer_auth(&player.token)
        .header("content-type", "application/json")
        .body(body.to_owned())
        .send()
        .await
        .unwrap();
    status_and_json(resp).await
}

/// `GET /api/players/me` as `player`.
async fn me(server: &TestServer, player: &Player) -> Value {
    let (status, body) = server.get_as(&player.token, "/api/players/me").await;
    assert_eq!(status, 200, "{body}");
    body
}

sqlite_and_postgres!(
    a_new_name_keeps_the_same_player_token_and_seat_and_shows_at_once_in_an_open_room,
    renaming
);

async fn renaming(server: TestServer) {
    let (room, ana, bea) = ana_and_bea(&server).await;
    let mut ana_ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    assert_eq!(ana_ws.state["seats"][1]["display_name"], "Bea");

    let (status, body) = rename(&server, &bea, r#"{"display_name":"  Beatriz "}"#).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({ "id": bea.id, "display_name": "Beatriz", "username": null })
    );
    assert_eq!(me(&server, &bea).await["display_name"], "Beatriz");

    // The table sees the new name without anyone reloading, and Bea still holds her seat.
    ana_ws
        .until_state(|s| s["seats"][1]["display_name"] == "Beatriz")
        .await;
    assert_eq!(ana_ws.state["seats"][1]["player_id"], bea.id.as_str());
    let (status, body) = server
        .post_as(&bea, &format!("/api/rooms/{room}/leave"), json!({}))
        .await;
    assert_eq!(status, 200, "the old token still acts for the seat: {body}");
    server.finish().await;
}

#[tokio::test]
async fn a_new_name_is_stored_and_shown_by_a_room_loaded_after_a_restart() {
    let mut server = TestServer::sqlite().await;
    let (room, _ana, bea) = ana_and_bea(&server).await;
    let (status, body) = rename(&server, &bea, r#"{"display_name":"Beatriz"}"#).await;
    assert_eq!(status, 200, "{body}");
    server.stop().await;
    let again = TestServer::start(server.database_url.clone()).await;
    let resp = again
        .get(&format!("/api/rooms/{room}"))
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(resp).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["seats"][1]["display_name"], "Beatriz");
    assert_eq!(me(&again, &bea).await["display_name"], "Beatriz");
    again.stop_only().await;
    server.finish().await;
}

#[tokio::test]
async fn a_name_loses_direction_overrides_and_invisible_spaces_as_chat_does() {
    let server = TestServer::sqlite().await;
    let lola = server.player("Lola").await;
    let (got, answer) = rename(
        &server,
        &lola,
        r#"{"display_name":"\u202eAna\u202c\u200b"}"#,
    )
    .await;
    assert_eq!(got, 200, "{answer}");
    assert_eq!(me(&server, &lola).await["display_name"], "Ana");
    server.finish().await;
}

#[tokio::test]
async fn a_bad_new_name_is_refused_with_a_code_and_changes_nothing() {
    let server = TestServer::sqlite().await;
    let lola = server.player("Lola").await;
    for (body, status, code) in [
        (r#"{"display_name":"   "}"#, 422, "invalid_display_name"),
        (
            &format!(r#"{{"display_name":"{}"}}"#, "x".repeat(33)),
            422,
            "invalid_display_name",
        ),
        (
            r#"{"display_name":"a\u0007b"}"#,
            422,
            "invalid_display_name",
        ),
        (
            r#"{"display_name":"\u200b\u200e"}"#,
            422,
            "invalid_display_name",
        ),
        (r#"{"display_name":"\u3164"}"#, 422, "invalid_display_name"),
        (r#"{"display_name":"#, 400, "malformed_json"),
    ] {
        let (got, answer) = rename(&server, &lola, body).await;
        assert_eq!(got, status, "{body}: {answer}");
        assert_eq!(answer["code"], code, "{body}: {answer}");
        assert!(answer["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let stranger = Player {
        id: String::new(),
        token: "0".repeat(64),
    };
    let (got, answer) = rename(&server, &stranger, r#"{"display_name":"Eve"}"#).await;
    assert_eq!(got, 401, "{answer}");
    assert_eq!(answer["code"], "invalid_token");
    assert_eq!(me(&server, &lola).await["display_name"], "Lola");
    server.finish().await;
}

/// Answers that carry a token or a player's own data must not be kept by a browser's cache or a proxy
/// between it and the server (a shared computer, a company proxy): `Cache-Control: no-store`.
#[tokio::test]
async fn answers_with_a_token_or_personal_data_are_never_stored_by_caches() {
    let server = TestServer::sqlite().await;
    let no_store = |resp: &reqwest::Response, what: &str| {
        let value = resp
            .headers()
            .get("cache-control")
            .unwrap_or_else(|| panic!("{what}: no Cache-Control"))
            .to_str()
            .unwrap()
            .to_owned();
        assert!(value.contains("no-store"), "{what}: {value}");
    };
    let resp = server
        .post("/api/players")
        .json(&json!({ "display_name": "Lola" }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 201);
    no_store(&resp, "POST /api/players");
    let body: Value = resp.json().await.unwrap();
    let token = body["token"].as_str().unwrap().to_owned();
    let resp = server
        .post("/api/account")
        .bearer_auth(&token)
        .json(&json!({ "username": "lola", "password": "correct horse" }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 201);
    no_store(&resp, "POST /api/account");
    let resp = server
        .post("/api/sessions")
        .json(&json!({ "username": "lola", "password": "correct horse" }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 201);
    no_store(&resp, "POST /api/sessions");
    for path in [
        "/api/players/me",
        "/api/players/me/export",
        "/api/players/me/rooms",
        "/api/players/me/stats",
    ] {
        let resp = server.get(path).bearer_auth(&token).send().await.unwrap();
        assert_eq!(resp.status(), 200, "{path}");
        no_store(&resp, path);
    }
    // Errors too: a 401 must not be replayed from a cache after the player signs in.
    let resp = server.get("/api/players/me").send().await.unwrap();
    assert_eq!(resp.status(), 401);
    no_store(&resp, "GET /api/players/me without a token");
    server.finish().await;
}

//! Deleting your data: `DELETE /api/players/me` erases a player for good (name, account, what they
//! wrote, every token) while the games they played stay whole, played by "Deleted player".
mod common;

use common::databases::sqlite_and_postgres;
use common::game::ana_and_bea;
use common::ws::WsClient;
use common::{TestServer, status_and_json};
use serde_json::json;

sqlite_and_postgres!(
    an_erased_player_is_gone_everywhere_but_their_games_stay,
    erased_everywhere
);

async fn erased_everywhere(mut server: TestServer) {
    let (room, ana, bea) = ana_and_bea(&server).await;
    let (status, body) = server
        .post_as(
            &bea,
            "/api/account",
            json!({ "username": "bea", "password": "correct horse" }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let mut ana_ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    let mut bea_ws = WsClient::connect(&server, &room, Some(&bea.token)).await;
    for (ws, text) in [
        (&mut ana_ws, "buenas"),
        (&mut bea_ws, "mi número es 600 000 000"),
    ] {
        let ack = ws.request(json!({ "type": "chat", "text": text })).await;
        assert_eq!(ack["type"], "ack", "{ack}");
    }
    ana_ws.until_chat(2).await;

    let (status, body) = server.erase_me(&bea.token, Some("correct horse")).await;
    assert_eq!(status, 204, "{body}");

    // No token of Bea's works, her account is gone and its username free again.
    let (status, body) = server.get_as(&bea.token, "/api/players/me").await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (401, Some("invalid_token"))
    );
    let resp = server
        .post("/api/sessions")
        .json(&json!({ "username": "bea", "password": "correct horse" }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 401);
    let cleo = server.player("Cleo").await;
    let (status, body) = server
        .post_as(
            &cleo,
            "/api/account",
            json!({ "username": "Bea", "password": "another horse" }),
        )
        .await;
    assert_eq!(status, 201, "the username is free: {body}");

    // The open room shows the stand-in name at once; Bea's seat is still taken, Ana's message stays.
    ana_ws
        .until_state(|s| s["seats"][1]["display_name"] == "Deleted player")
        .await;
    assert_eq!(ana_ws.state["seats"][1]["player_id"], bea.id.as_str());
    let mut newcomer = WsClient::connect(&server, &room, None).await;
    newcomer.until(|m| m["type"] == "chat_history").await;
    assert_eq!(
        newcomer.chat_history(),
        vec![(json!(1), json!("Ana"), json!("buenas"))],
        "what Bea wrote is not shown again"
    );

    // The same from storage, after a restart; numbering does not reuse Bea's message's number.
    ana_ws.close().await;
    newcomer.close().await;
    server.stop().await;
    let again = TestServer::start(server.database_url.clone()).await;
    let (status, body) = status_and_json(
        again
            .get(&format!("/api/rooms/{room}"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["seats"][1]["display_name"], "Deleted player");
    let mut ana_ws = WsClient::connect(&again, &room, Some(&ana.token)).await;
    ana_ws.until(|m| m["type"] == "chat_history").await;
    assert_eq!(
        ana_ws.chat_history(),
        vec![(json!(1), json!("Ana"), json!("buenas"))]
    );
    let ack = ana_ws
        .request(json!({ "type": "chat", "text": "¿hola?" }))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    let message = ana_ws.until_chat(1).await;
    assert_eq!(message["seq"], 3, "{message}");
    ana_ws.close().await;
    again.stop_only().await;
    server.finish().await;
}

#[tokio::test]
async fn erasing_needs_the_players_own_token() {
    let server = TestServer::sqlite().await;
    let resp = server
        .client
        .delete(server.url("/api/players/me"))
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(resp).await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (401, Some("missing_token"))
    );
    let (status, _) = server.delete_as(&"f".repeat(64), "/api/players/me").await;
    assert_eq!(status, 401);
    server.finish().await;
}

/// Someone at an unlocked, signed-in device (or with a leaked token) must not be able to destroy an
/// account, its ratings and history: erasing a player with an account needs its current password.
#[tokio::test]
async fn erasing_an_account_needs_its_password() {
    let server = TestServer::sqlite().await;
    let ana = server.member("Ana").await;

    let (status, body) = server.erase_me(&ana.token, None).await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (422, Some("password_required")),
        "{body}"
    );
    let (status, body) = server.erase_me(&ana.token, Some("")).await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (422, Some("password_required")),
        "{body}"
    );
    let (status, body) = server.erase_me(&ana.token, Some("a good guess")).await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (403, Some("wrong_password")),
        "{body}"
    );
    // Nothing was erased: the token works and the account signs in.
    let (status, me) = server.get_as(&ana.token, "/api/players/me").await;
    assert_eq!(
        (status.as_u16(), me["username"].as_str()),
        (200, Some("ana"))
    );
    let (status, _) = sign_in(&server, "ana", "correct horse").await;
    assert_eq!(status, 201);

    let (status, body) = server.erase_me(&ana.token, Some("correct horse")).await;
    assert_eq!(status, 204, "{body}");
    let (status, _) = server.get_as(&ana.token, "/api/players/me").await;
    assert_eq!(status, 401);
    server.finish().await;
}

#[tokio::test]
async fn a_guest_erases_themselves_with_the_token_alone() {
    let server = TestServer::sqlite().await;
    let guest = server.player("Gus").await;
    let (status, body) = server.erase_me(&guest.token, None).await;
    assert_eq!(status, 204, "{body}");
    let (status, _) = server.get_as(&guest.token, "/api/players/me").await;
    assert_eq!(status, 401);
    server.finish().await;
}

/// A token buys no unlimited guesses at the password through erasing: five wrong ones lock this
/// device's attempts, and count towards the username's slowdown, as for changing the password.
#[tokio::test]
async fn wrong_passwords_when_erasing_are_limited_like_password_changes() {
    let server = TestServer::sqlite().await;
    let ana = server.member("Ana").await;
    for i in 0..5 {
        let (status, body) = server
            .erase_me(&ana.token, Some(&format!("guess number {i}")))
            .await;
        assert_eq!(status, 403, "{body}");
    }
    let (status, body) = server.erase_me(&ana.token, Some("correct horse")).await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (429, Some("too_many_attempts")),
        "{body}"
    );
    // They slow signing in as the username without locking its owner out (PROTOCOL.md, sign-in limits).
    assert_eq!(sign_in(&server, "ana", "correct horse").await.0, 201);
    assert_eq!(server.get_as(&ana.token, "/api/players/me").await.0, 200);
    server.finish().await;
}

async fn sign_in(
    server: &TestServer,
    username: &str,
    password: &str,
) -> (reqwest::StatusCode, serde_json::Value) {
    status_and_json(
        server
            .post("/api/sessions")
            .json(&json!({ "username": username, "password": password }))
            .send()
            .await
            .unwrap(),
    )
    .await
}

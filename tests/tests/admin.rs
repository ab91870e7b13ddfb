//! The host's moderation: with the server's `ADMIN_TOKEN`, `DELETE /api/admin/players/{id}` erases a
//! player who wrote something offensive: their name and messages go, their tokens and open connections
//! end. Without that token nobody can, and a server without one has no such endpoint.
mod common;

use common::game::ana_and_bea;
use common::ws::WsClient;
use common::{TestServer, status_and_json};
use serde_json::json;

const ADMIN: &str = "a long host secret, 35 characters";

async fn erase_as(server: &TestServer, token: Option<&str>, id: &str) -> (u16, serde_json::Value) {
    let mut request = server
        .client
        .delete(server.url(&format!("/api/admin/players/{id}")));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let (status, body) = status_and_json(request.send().await.unwrap()).await;
    (status.as_u16(), body)
}

#[tokio::test]
async fn the_host_erases_an_offensive_player_and_cuts_their_connections() {
    let server = TestServer::sqlite_with(|c| c.admin_token = Some(ADMIN.into())).await;
    let (room, ana, bea) = ana_and_bea(&server).await;
    let mut ana_ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    let mut bea_ws = WsClient::connect(&server, &room, Some(&bea.token)).await;
    let ack = bea_ws
        .request(json!({ "type": "chat", "text": "something offensive" }))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    ana_ws.until_chat(1).await;

    assert_eq!(erase_as(&server, Some(ADMIN), &bea.id).await.0, 204);
    // Bea's socket is closed, her token no longer works, and the table shows the stand-in name.
    let frame = bea_ws.closed().await.expect("a close frame");
    assert_eq!(u16::from(frame.code), 4001);
    assert_eq!(server.get_as(&bea.token, "/api/players/me").await.0, 401);
    ana_ws
        .until_state(|s| s["seats"][1]["display_name"] == "Deleted player")
        .await;
    // Someone arriving now does not get her message; Ana's stays.
    let ack = ana_ws
        .request(json!({ "type": "chat", "text": "bye" }))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    let mut newcomer = WsClient::connect(&server, &room, None).await;
    newcomer.until(|m| m["type"] == "chat_history").await;
    assert_eq!(
        newcomer.chat_history(),
        vec![(json!(2), json!("Ana"), json!("bye"))]
    );
    newcomer.close().await;
    ana_ws.close().await;
    server.finish().await;
}

#[tokio::test]
async fn only_the_admin_token_erases_and_an_unknown_player_is_404() {
    let server = TestServer::sqlite_with(|c| c.admin_token = Some(ADMIN.into())).await;
    let (_, ana, bea) = ana_and_bea(&server).await;
    let (status, body) = erase_as(&server, None, &bea.id).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("missing_token"))
    );
    for wrong in [ana.token.as_str(), "a long host secret, 35 characterz", ""] {
        let (status, body) = erase_as(&server, Some(wrong), &bea.id).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (403, Some("not_admin")),
            "{wrong}"
        );
    }
    let (status, body) = erase_as(&server, Some(ADMIN), "no-such-player").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("player_not_found"))
    );
    // Bea was never touched.
    assert_eq!(server.get_as(&bea.token, "/api/players/me").await.0, 200);
    server.finish().await;
}

#[tokio::test]
async fn a_server_without_an_admin_token_has_no_admin_endpoint() {
    // An empty ADMIN_TOKEN (as a compose file passes an unset variable) is no token.
    let server = TestServer::sqlite_with(|c| c.admin_token = Some(String::new())).await;
    let bea = server.player("Bea").await;
    for token in [None, Some(bea.token.as_str()), Some(ADMIN)] {
        let (status, body) = erase_as(&server, token, &bea.id).await;
        assert_eq!((status, body["code"].as_str()), (404, Some("not_found")));
    }
    assert_eq!(server.get_as(&bea.token, "/api/players/me").await.0, 200);
    server.finish().await;
}

#[tokio::test]
async fn a_short_admin_token_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = parchis_server::Config::for_database(format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("p.db").display()
    ));
    config.admin_token = Some("guessable".into());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let err = parchis_server::run(listener, config, std::future::pending())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("at least 16 characters"), "{err}");
}

/// The host's list of reports is read with a `GET`, which the write limit does not count: wrong admin
/// tokens are counted like room lookups that find nothing, so one address cannot try them without end
/// (and once refused, is refused whatever it sends, so a refusal says nothing about the token).
#[tokio::test]
async fn an_address_guessing_the_admin_token_is_refused_after_its_misses() {
    let server = TestServer::sqlite_with(|c| {
        c.admin_token = Some(ADMIN.into());
        c.http_writes_per_minute = 60;
    })
    .await;
    let mut refused_at = None;
    for i in 0..40 {
        let (status, body) = server
            .get_as(
                &format!("guess number {i} of the admin token"),
                "/api/admin/reports",
            )
            .await;
        match status.as_u16() {
            403 => assert_eq!(body["code"], "not_admin"),
            429 => {
                assert_eq!(body["code"], "rate_limited");
                refused_at = Some(i);
                break;
            }
            other => panic!("guess {i}: {other} {body}"),
        }
    }
    let refused_at = refused_at.expect("guessing the admin token is limited");
    assert!(
        refused_at >= 20,
        "a host mistyping it is not refused at once: {refused_at}"
    );
    let (status, body) = server.get_as(ADMIN, "/api/admin/reports").await;
    assert_eq!(status, 429, "{body}");
    server.finish().await;
}

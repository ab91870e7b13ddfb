//! The WebSocket's token travels in the `Sec-WebSocket-Protocol` header (the client offers `parchis` and
//! `parchis.token.<token>`), not in the URL, where proxies' access logs, browser history and monitoring
//! would keep it. The server answers with `parchis` alone: the token is never sent back. `?token=` still
//! works for older clients.
mod common;

use common::game::start_with_bots;
use common::ws::{WsClient, ws_url};
use common::{TestServer, status_and_json};
use serde_json::Value;

/// `parchis, parchis.token.<token>`, as the web client offers it.
fn offer(token: &str) -> Vec<u8> {
    format!("parchis, parchis.token.{token}").into_bytes()
}

fn refusal(result: Result<(WsClient, Option<String>), (u16, Value)>) -> (u16, Option<String>) {
    match result {
        Ok(_) => panic!("the upgrade was accepted"),
        Err((status, body)) => (status, body["code"].as_str().map(str::to_owned)),
    }
}

#[tokio::test]
async fn a_token_offered_as_a_subprotocol_seats_you_and_is_never_sent_back() {
    let server = TestServer::sqlite().await;
    let started = start_with_bots(&server, "playgridia", "individual", 4).await;
    let token = &started.owner.token;
    let url = ws_url(&server, &started.room, "");
    let (mut ws, protocol) = WsClient::connect_offering(&url, &offer(token))
        .await
        .unwrap_or_else(|(status, body)| panic!("refused: {status} {body}"));
    assert_eq!(protocol.as_deref(), Some("parchis"));
    assert_eq!(ws.seat, Some(0), "seated as the token's player");
    // Seated for real: it is Ana's turn, and her roll is taken.
    ws.act().await;
    ws.close().await;

    // A spectator offers the protocol alone.
    let (watching, protocol) = WsClient::connect_offering(&url, b"parchis")
        .await
        .unwrap_or_else(|(status, body)| panic!("refused: {status} {body}"));
    assert_eq!(protocol.as_deref(), Some("parchis"));
    assert_eq!(watching.seat, None);
    watching.close().await;
    server.finish().await;
}

#[tokio::test]
async fn a_wrong_subprotocol_token_is_refused_like_a_wrong_query_token() {
    let server = TestServer::sqlite().await;
    let started = start_with_bots(&server, "playgridia", "individual", 4).await;
    let wrong = "f".repeat(64);
    let by_query = refusal(
        WsClient::connect_offering(
            &ws_url(&server, &started.room, &format!("token={wrong}")),
            b"parchis",
        )
        .await,
    );
    assert_eq!(by_query, (401, Some("invalid_token".into())));
    let url = ws_url(&server, &started.room, "");
    let by_protocol = refusal(WsClient::connect_offering(&url, &offer(&wrong)).await);
    assert_eq!(by_protocol, by_query);
    let empty = refusal(WsClient::connect_offering(&url, b"parchis, parchis.token.").await);
    assert_eq!(empty, by_query);
    server.finish().await;
}

#[tokio::test]
async fn a_query_token_and_a_subprotocol_token_must_agree() {
    let server = TestServer::sqlite().await;
    let started = start_with_bots(&server, "playgridia", "individual", 4).await;
    let bea = server.player("Bea").await;
    let ana = &started.owner.token;
    let url = ws_url(&server, &started.room, &format!("token={ana}"));
    assert_eq!(
        refusal(WsClient::connect_offering(&url, &offer(&bea.token)).await),
        (400, Some("conflicting_tokens".into()))
    );
    // The same token twice is no conflict.
    let (ws, _) = WsClient::connect_offering(&url, &offer(ana))
        .await
        .unwrap_or_else(|(status, body)| panic!("refused: {status} {body}"));
    assert_eq!(ws.seat, Some(0));
    ws.close().await;
    server.finish().await;
}

#[tokio::test]
async fn subprotocols_that_cannot_be_read_are_refused_with_a_code() {
    let server = TestServer::sqlite().await;
    let started = start_with_bots(&server, "playgridia", "individual", 4).await;
    let ana = &started.owner.token;
    let url = ws_url(&server, &started.room, "");
    let two_tokens = format!("parchis, parchis.token.{ana}, parchis.token.{ana}");
    let token_alone = format!("parchis.token.{ana}");
    let cases: [&[u8]; 4] = [
        // Two tokens: which one?
        two_tokens.as_bytes(),
        // A token without the protocol the server answers with.
        token_alone.as_bytes(),
        // Another protocol than this server's.
        b"graphql-ws",
        // Commas alone.
        b",,, ,",
    ];
    for offered in cases {
        assert_eq!(
            refusal(WsClient::connect_offering(&url, offered).await),
            (400, Some("invalid_subprotocol".into())),
            "{}",
            String::from_utf8_lossy(offered)
        );
    }
    // Not ASCII (which the WebSocket client here will not even send: asked over plain HTTP).
    let resp = server
        .get(&format!("/api/rooms/{}/ws", started.room))
        .header(
            "sec-websocket-protocol",
            reqwest::header::HeaderValue::from_bytes(b"parchis, parchis.token.\xff\xfe").unwrap(),
        )
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(resp).await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (400, Some("invalid_subprotocol"))
    );
    // The server is still there, and the right offer still seats Ana.
    let (ws, _) = WsClient::connect_offering(&url, &offer(ana))
        .await
        .unwrap_or_else(|(status, body)| panic!("refused: {status} {body}"));
    assert_eq!(ws.seat, Some(0));
    ws.close().await;
    server.finish().await;
}

//! Slow and stalled HTTP clients: each gets a deadline, so none can hold a connection, or a stop of
//! the server, for ever.
mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use common::ws::WsClient;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Long enough for any of these deadlines to have passed, several times over.
const PATIENCE: Duration = Duration::from_secs(15);

/// Writes `bytes` on a new connection, then sends nothing more.
async fn stall_after(server: &TestServer, bytes: &[u8]) -> TcpStream {
    let mut stream = TcpStream::connect(server.addr).await.expect("connect");
    stream.write_all(bytes).await.expect("write");
    stream
}

/// Everything the server sends until it closes the connection, and how long that took.
async fn read_until_closed(stream: &mut TcpStream) -> (String, Duration) {
    let started = Instant::now();
    let mut received = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut received))
        .await
        .expect("the server still held the stalled connection open")
        .expect("read");
    (
        String::from_utf8_lossy(&received).into_owned(),
        started.elapsed(),
    )
}

/// A request for a new player whose body stops after its first byte.
const STALLED_BODY: &[u8] = b"POST /api/players HTTP/1.1\r\nHost: parchis\r\n\
    Content-Type: application/json\r\nContent-Length: 40\r\n\r\n{";

#[tokio::test]
async fn a_request_whose_body_stalls_is_answered_408_request_timeout_and_the_server_serves_on() {
    let server = TestServer::sqlite_with(|config| config.http_request_timeout_secs = 1).await;
    let mut stalled = stall_after(&server, STALLED_BODY).await;
    let (reply, waited) = read_until_closed(&mut stalled).await;
    assert!(reply.starts_with("HTTP/1.1 408"), "{reply}");
    let body: Value = serde_json::from_str(reply.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(body["code"], "request_timeout", "{body}");
    assert!(body["message"].as_str().unwrap().contains("1 s"), "{body}");
    assert!(waited < Duration::from_secs(5), "answered after {waited:?}");
    // Others are served meanwhile and after.
    assert_eq!(server.get_ok("/healthz").await["status"], "ok");
    server.finish().await;
}

#[tokio::test]
async fn a_client_that_stops_midway_through_its_headers_is_disconnected() {
    let server = TestServer::sqlite_with(|config| config.http_request_timeout_secs = 1).await;
    let mut stalled = stall_after(&server, b"GET /healthz HTTP/1.1\r\nHost: parch").await;
    let (reply, waited) = read_until_closed(&mut stalled).await;
    assert!(!reply.contains("200 OK"), "{reply}");
    assert!(waited < Duration::from_secs(5), "closed after {waited:?}");
    server.finish().await;
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed_after_the_deadline() {
    let server = TestServer::sqlite_with(|config| config.http_request_timeout_secs = 1).await;
    let mut idle = stall_after(&server, b"GET /healthz HTTP/1.1\r\nHost: parchis\r\n\r\n").await;
    let (reply, waited) = read_until_closed(&mut idle).await;
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    assert!(waited < Duration::from_secs(5), "closed after {waited:?}");
    server.finish().await;
}

#[tokio::test]
async fn a_game_socket_lives_on_past_the_request_deadline() {
    // The deadline is for HTTP requests: a WebSocket, once open, is the room's to keep.
    let server = TestServer::sqlite_with(|config| config.http_request_timeout_secs = 1).await;
    let owner = server.player("Ana").await;
    let room = server
        .room(
            &owner,
            json!({ "rules": "playgridia", "mode": "individual", "players": 2 }),
        )
        .await;
    let room = room["id"].as_str().unwrap();
    let mut socket = WsClient::connect(&server, room, Some(&owner.token)).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let reply = socket
        .request(json!({ "type": "chat", "text": "¿Alguien?" }))
        .await;
    assert_eq!(reply["type"], "ack", "{reply}");
    server.finish().await;
}

#[tokio::test]
async fn a_stalled_request_holds_up_a_stop_no_longer_than_the_grace() {
    let mut server = TestServer::sqlite_with(|config| {
        config.http_request_timeout_secs = 3600;
        config.shutdown_grace_secs = 1;
    })
    .await;
    let _stalled = stall_after(&server, STALLED_BODY).await;
    // Let the server start on the request before it is told to stop.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = Instant::now();
    tokio::time::timeout(PATIENCE, server.stop())
        .await
        .expect("the stop waited on the stalled request");
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "requests in flight get their grace"
    );
}

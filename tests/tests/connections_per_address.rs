//! One client address may hold only so many connections open at once (`CONNECTIONS_PER_ADDRESS`),
//! game sockets included, so that one machine cannot take every socket the server may open.
mod common;

use std::time::Duration;

use common::TestServer;
use common::ws::WsClient;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// `GET /healthz` on a connection of its own: the status line and the body.
async fn health_on_a_new_connection(server: &TestServer) -> (String, String) {
    let mut stream = TcpStream::connect(server.addr).await.expect("connect");
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: parchis\r\nConnection: close\r\n\r\n")
        .await
        .expect("write");
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer))
        .await
        .expect("answered and closed")
        .expect("read");
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    (
        head.lines().next().unwrap_or("").to_owned(),
        body.to_owned(),
    )
}

/// Asks until the answer's status line starts with `status` (a closed connection is counted out by
/// the server a moment after the client closes it).
async fn until_status(server: &TestServer, status: &str) -> (String, String) {
    for _ in 0..100 {
        let (line, body) = health_on_a_new_connection(server).await;
        if line.starts_with(status) {
            return (line, body);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("never answered {status}");
}

/// Opens idle connections until the address is refused; returns them. The test client's own pooled
/// keep-alive connections count too, so there may be fewer than the limit.
async fn hold_until_refused(server: &TestServer, limit: usize) -> Vec<TcpStream> {
    let mut held = Vec::new();
    loop {
        let (line, body) = health_on_a_new_connection(server).await;
        if line.starts_with("HTTP/1.1 429") {
            assert_eq!(line, "HTTP/1.1 429 Too Many Requests");
            let body: Value = serde_json::from_str(&body).expect("JSON body");
            assert_eq!(body["code"], "too_many_connections", "{body}");
            assert!(
                body["message"]
                    .as_str()
                    .unwrap()
                    .contains("Too many connections")
            );
            return held;
        }
        assert!(
            held.len() < limit,
            "{} connections held, none refused",
            held.len()
        );
        held.push(TcpStream::connect(server.addr).await.expect("connect"));
    }
}

#[tokio::test]
async fn an_address_past_its_connection_limit_is_answered_429_until_it_closes_some() {
    let server = TestServer::sqlite_with(|config| config.connections_per_address = 4).await;
    let mut held = hold_until_refused(&server, 4).await;
    assert!(!held.is_empty());
    held.pop();
    let (_, body) = until_status(&server, "HTTP/1.1 200").await;
    assert!(body.contains("ok"), "{body}");
    server.finish().await;
}

#[tokio::test]
async fn an_open_game_socket_counts_against_its_address_until_it_closes() {
    let server = TestServer::sqlite_with(|config| config.connections_per_address = 4).await;
    let owner = server.player("Ana").await;
    let room = server
        .room(
            &owner,
            json!({ "rules": "playgridia", "mode": "individual", "players": 2, "public": true }),
        )
        .await;
    let room = room["id"].as_str().unwrap().to_owned();
    let socket = WsClient::connect(&server, &room, None).await;
    let _held = hold_until_refused(&server, 4).await;
    socket.close().await;
    until_status(&server, "HTTP/1.1 200").await;
    server.finish().await;
}

#[tokio::test]
async fn behind_a_trusted_proxy_the_server_does_not_count_connections_by_address() {
    // Every connection then comes from the proxy: counting them would refuse everyone at once.
    let server = TestServer::sqlite_with(|config| {
        config.connections_per_address = 1;
        config.trust_forwarded_for = true;
    })
    .await;
    let _held: Vec<_> = [
        TcpStream::connect(server.addr).await.expect("connect"),
        TcpStream::connect(server.addr).await.expect("connect"),
    ]
    .into();
    let (line, _) = health_on_a_new_connection(&server).await;
    assert_eq!(line, "HTTP/1.1 200 OK");
    server.finish().await;
}

//! Hostile and mistaken input over the WebSocket: each is answered as
//! PROTOCOL.md says, and nothing changes.
mod common;

use common::ws::{WsClient, ws_url};
use common::{TestServer, status_and_json};
use serde_json::{Value, json};

/// A quick game (a piece starts out, so moves exist) with two humans and two bots, timer off.
async fn two_humans(server: &TestServer) -> (String, WsClient, WsClient, WsClient) {
    let started = start_room_with_guest(server).await;
    let (room, owner_token, guest_token) = started;
    let a = WsClient::connect(server, &room, Some(&owner_token)).await;
    let b = WsClient::connect(server, &room, Some(&guest_token)).await;
    let spectator = WsClient::connect(server, &room, None).await;
    (room, a, b, spectator)
}

async fn start_room_with_guest(server: &TestServer) -> (String, String, String) {
    let owner = server.player("Ana").await;
    let guest = server.player("Luis").await;
    let room = server
        .room(
            &owner,
            json!({ "rules": "playgridia", "mode": "quick", "players": 4,
                    "turn_time_secs": null, "public": true }),
        )
        .await;
    let id = room["id"].as_str().unwrap().to_owned();
    let (status, body) = server
        .post_as(&guest, &format!("/api/rooms/{id}/join"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = server
        .post_as(&owner, &format!("/api/rooms/{id}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    (id, owner.token, guest.token)
}

/// Asserts `reply` is an error with `code`, and that the room did not change.
async fn refused(client: &mut WsClient, reply: Value, code: &str) {
    assert_eq!(reply["type"], "error", "{reply}");
    assert_eq!(reply["code"], code, "{reply}");
    let before = (client.version, client.state.clone());
    let fresh = client.resync().await;
    assert_eq!(client.version, before.0, "no version was spent");
    assert_eq!(fresh, before.1, "the state is unchanged");
}

#[tokio::test]
async fn out_of_turn_spectator_and_illegal_commands_change_nothing() {
    let server = TestServer::sqlite().await;
    let (_room, mut a, mut b, mut spectator) = two_humans(&server).await;
    a.until_state(|s| s["seats"][1]["status"] == "connected")
        .await;
    assert_eq!(a.game()["view"]["turn"]["seat"], 0);

    // Another seat's player cannot act for seat 0, nor can a spectator.
    let reply = b.request(json!({ "type": "roll" })).await;
    refused(&mut b, reply, "not_your_turn").await;
    let reply = spectator.request(json!({ "type": "roll" })).await;
    refused(&mut spectator, reply, "not_seated").await;
    let reply = spectator
        .request(json!({ "type": "preselect", "move": "y1" }))
        .await;
    refused(&mut spectator, reply, "not_seated").await;

    // Seat 0 must roll before moving.
    let v = a.version;
    let reply = a
        .request(json!({ "type": "move", "move": "y1:5-9", "version": v }))
        .await;
    refused(&mut a, reply, "must_roll").await;

    // Roll until seat 0 has a move to make (a turn may pass when no move is legal).
    loop {
        if a.my_turn() && a.game()["view"]["turn"]["phase"] != "roll" {
            break;
        }
        if a.my_turn() {
            a.act().await;
        } else if b.my_turn() {
            b.act().await;
            a.until_state(|s| {
                s["game"]["view"]["turn"]["seat"] != 1
                    || s["game"]["view"]["turn"]["phase"] != "roll"
            })
            .await;
        } else {
            a.next().await;
        }
    }
    let reply = a.request(json!({ "type": "roll" })).await;
    refused(&mut a, reply, "must_move").await;

    // An illegal move names the rule; a stale version is refused.
    let piece = a.game()["view"]["legal_moves"][0]["piece"]
        .as_str()
        .unwrap()
        .to_owned();
    let v = a.version;
    let reply = a
        .request(json!({ "type": "move", "move": format!("{piece}:h-63"), "version": v }))
        .await;
    assert_eq!(reply["code"], "illegal_move", "{reply}");
    assert!(reply["reason"].is_string(), "{reply}");
    refused(&mut a, reply, "illegal_move").await;
    let text = a.game()["view"]["legal_moves"][0]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    let reply = a
        .request(json!({ "type": "move", "move": text, "version": 0 }))
        .await;
    assert!(
        reply["message"]
            .as_str()
            .unwrap()
            .contains("the game changed"),
        "{reply}"
    );
    refused(&mut a, reply, "stale_version").await;
    // A version from the future is no late decision: the message says so, with the room's version.
    let v = a.version;
    let reply = a
        .request(json!({ "type": "move", "move": text, "version": v + 100 }))
        .await;
    let message = reply["message"].as_str().unwrap();
    assert!(message.contains(&format!("only at version {v}")), "{reply}");
    refused(&mut a, reply, "stale_version").await;

    // Malformed JSON and unknown types are answered, and the connection stays open.
    a.send_text("{not json").await;
    let reply = a.until(|m| m["type"] == "error").await;
    refused(&mut a, reply, "malformed").await;
    a.send_text(r#"{"type":"dance","id":"x"}"#).await;
    let reply = a.until(|m| m["type"] == "error").await;
    assert_eq!(reply["id"], "x");
    refused(&mut a, reply, "unknown_type").await;
    let reply = a.request(json!({ "type": "move", "move": text })).await;
    refused(&mut a, reply, "malformed").await;

    // After all that, the right move at the right version is still accepted.
    let v = a.version;
    let reply = a
        .request(json!({ "type": "move", "move": text, "version": v }))
        .await;
    assert_eq!(reply["type"], "ack", "{reply}");
    server.finish().await;
}

/// One player on two devices (two connections, one token) whose automatic roll or move goes out on both
/// for the same decision: the one that comes second carries the version it was decided at, and is refused
/// `stale_version` without changing anything, whatever the game's turn and phase are now.
#[tokio::test]
async fn a_roll_or_move_decided_at_an_old_version_is_refused_stale_and_changes_nothing() {
    let server = TestServer::sqlite().await;
    let (room, owner_token, guest_token) = start_room_with_guest(&server).await;
    let mut a = WsClient::connect(&server, &room, Some(&owner_token)).await;
    let mut a2 = WsClient::connect(&server, &room, Some(&owner_token)).await;
    let _b = WsClient::connect(&server, &room, Some(&guest_token)).await;
    a.until_state(|s| s["seats"][1]["status"] == "connected")
        .await;
    a2.until_state(|s| s["seats"][1]["status"] == "connected")
        .await;
    assert_eq!(a.version, a2.version);
    assert_eq!(a.game()["view"]["turn"]["seat"], 0);
    assert_eq!(a.game()["view"]["turn"]["phase"], "roll");
    let decided = a.version;

    // A version the room has not reached is refused too.
    let reply = a2
        .request(json!({ "type": "roll", "version": decided + 1000 }))
        .await;
    refused(&mut a2, reply, "stale_version").await;

    // The first device's roll, at the version it saw: accepted.
    let reply = a
        .request(json!({ "type": "roll", "version": decided }))
        .await;
    assert_eq!(reply["type"], "ack", "{reply}");
    let rolled = a.game()["view"]["turn"].clone();
    assert!(a.version > decided);

    // The second device's roll for the same decision: stale, and the die and the version stay.
    let reply = a2
        .request(json!({ "type": "roll", "version": decided }))
        .await;
    assert_eq!(a2.version, a.version);
    refused(&mut a2, reply, "stale_version").await;
    assert_eq!(
        a2.game()["view"]["turn"],
        rolled,
        "the die is the one rolled"
    );
    let fresh = a.resync().await;
    assert_eq!(fresh["game"]["view"]["turn"], rolled);
    assert_eq!(a.version, a2.version, "no version was spent");

    // Seat 0's move, sent by both: the second is stale, even once the turn has gone to another seat.
    if rolled["seat"] == 0 && rolled["phase"] != "roll" {
        let text = a.game()["view"]["legal_moves"][0]["text"].clone();
        let decided = a.version;
        let reply = a
            .request(json!({ "type": "move", "move": text, "version": decided }))
            .await;
        assert_eq!(reply["type"], "ack", "{reply}");
        let reply = a2
            .request(json!({ "type": "move", "move": text, "version": decided }))
            .await;
        assert_eq!(a2.version, a.version);
        refused(&mut a2, reply, "stale_version").await;
    }
    server.finish().await;
}

#[tokio::test]
async fn an_oversized_frame_closes_the_connection() {
    let server = TestServer::sqlite().await;
    let (room, _a, _b, mut spectator) = two_humans(&server).await;
    let big = format!(r#"{{"type":"roll","pad":"{}"}}"#, "x".repeat(8000));
    spectator.send_text(&big).await;
    let frame = spectator.closed().await.expect("a close frame");
    assert_eq!(u16::from(frame.code), 1009, "{frame:?}");
    assert_eq!(frame.reason.as_str(), "too_big");
    // The room is fine: another client still connects and sees the game.
    let again = WsClient::connect(&server, &room, None).await;
    assert!(!again.game().is_null());
    server.finish().await;
}

#[tokio::test]
async fn a_flood_closes_the_connection_with_a_reason() {
    let server = TestServer::sqlite_with(|c| c.ws_messages_per_second = 20).await;
    let (_room, _a, mut b, _spectator) = two_humans(&server).await;
    for _ in 0..100 {
        b.send_text(r#"{"type":"resync"}"#).await;
    }
    let frame = b.closed().await.expect("a close frame");
    assert_eq!(u16::from(frame.code), 1008);
    assert_eq!(frame.reason.as_str(), "rate_limited");
    server.finish().await;
}

#[tokio::test]
async fn a_flood_of_binary_frames_closes_the_connection_as_one_of_commands_does() {
    let server = TestServer::sqlite_with(|c| c.ws_messages_per_second = 20).await;
    let (_room, _a, mut b, _spectator) = two_humans(&server).await;
    for _ in 0..100 {
        if !b.try_send_binary(b"\x00\x01").await {
            break;
        }
    }
    let frame = b.closed().await.expect("a close frame");
    assert_eq!(u16::from(frame.code), 1008);
    assert_eq!(frame.reason.as_str(), "rate_limited");
    server.finish().await;
}

#[tokio::test]
async fn a_websocket_query_that_does_not_parse_gets_a_json_422() {
    let server = TestServer::sqlite().await;
    let (room, ..) = two_humans(&server).await;
    for query in ["since=abc", "since=-1", "token=a&token=b"] {
        let url = ws_url(&server, &room, query).replace("ws://", "http://");
        let (status, body) = status_and_json(server.client.get(&url).send().await.unwrap()).await;
        assert_eq!(
            (status.as_u16(), body["code"].as_str()),
            (422, Some("invalid_query")),
            "{query}: {body}"
        );
    }
    server.finish().await;
}

#[tokio::test]
async fn bad_tokens_and_private_rooms_are_refused_before_the_upgrade() {
    let server = TestServer::sqlite().await;
    let (room, ..) = two_humans(&server).await;
    let url = ws_url(&server, &room, "token=nope").replace("ws://", "http://");
    let (status, body) = status_and_json(server.client.get(&url).send().await.unwrap()).await;
    assert_eq!(status, 401, "{body}");
    let url = ws_url(&server, &room, "").replace("ws://", "http://");
    let (status, body) = status_and_json(server.client.get(&url).send().await.unwrap()).await;
    assert_eq!(status, 426, "{body}");
    assert_eq!(body["code"], "upgrade_required");

    let owner = server.player("Eva").await;
    let private = server
        .room(
            &owner,
            json!({ "rules": "ludoteka", "mode": "individual", "players": 2 }),
        )
        .await;
    let id = private["id"].as_str().unwrap();
    let code = private["join_code"].as_str().unwrap();
    let err = tokio_tungstenite::connect_async(ws_url(&server, id, "")).await;
    assert!(err.is_err(), "a private room is not watchable by id alone");
    let watcher = WsClient::connect(&server, code, None).await;
    assert_eq!(watcher.state["room"]["status"], "waiting");
    server.finish().await;
}

/// A frame just over the limit, of any size past it, closes the connection with 1009 `too_big` as a larger
/// one does: the client is told why, not left with a connection that merely ended. (Found by the WebSocket
/// fuzz of `fuzz_ws.rs`: a frame of 4121 bytes ended the connection without a close frame.)
#[tokio::test]
async fn a_frame_just_over_the_limit_closes_the_connection_with_too_big() {
    let server = TestServer::sqlite().await;
    let (room, _a, _b, _spectator) = two_humans(&server).await;
    for size in [4097, 4121, 4200, 5000, 6000, 8000, 20_000] {
        let mut watcher = WsClient::connect(&server, &room, None).await;
        let pad = "x".repeat(size - r#"{"type":"chat","text":""}"#.len());
        let big = format!(r#"{{"type":"chat","text":"{pad}"}}"#);
        assert_eq!(big.len(), size);
        // Answers the watcher has not read yet when its big frame goes out.
        for _ in 0..20 {
            watcher.send_text(r#"{"type":"resync"}"#).await;
        }
        watcher.send_text(&big).await;
        let frame = watcher.closed().await;
        let frame = frame.unwrap_or_else(|| panic!("{size} bytes: closed without a reason"));
        assert_eq!(
            (u16::from(frame.code), frame.reason.as_str()),
            (1009, "too_big"),
            "{size} bytes"
        );
    }
    server.finish().await;
}

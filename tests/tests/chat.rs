//! The room chat: seated players write, everyone in the room reads; what is refused says why and
//! reaches nobody; the last messages come back on reconnect and after a restart.
mod common;

use common::TestServer;
use common::databases::sqlite_and_postgres;
use common::game::ana_and_bea;
use common::ws::WsClient;
use serde_json::json;

#[tokio::test]
async fn a_seated_players_message_reaches_every_client_in_the_room_spectators_included() {
    let server = TestServer::sqlite().await;
    let (room, ana, bea) = ana_and_bea(&server).await;
    let mut ana_ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    let mut bea_ws = WsClient::connect(&server, &room, Some(&bea.token)).await;
    let mut spectator = WsClient::connect(&server, &room, None).await;
    ana_ws
        .until_state(|s| s["spectators"] == 1 && s["seats"][1]["status"] == "connected")
        .await;
    let version = ana_ws.version;

    let ack = ana_ws
        .request(json!({ "type": "chat", "text": "  ¡Hola,\n   Bea!  " }))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    for client in [&mut bea_ws, &mut spectator, &mut ana_ws] {
        let message = client.until_chat(1).await;
        assert_eq!(message["text"], "¡Hola, Bea!", "one clean line");
        assert_eq!(message["name"], "Ana");
        assert_eq!(message["seat"], 0);
        assert_eq!(message["player_id"], ana.id.as_str());
        assert_eq!(message["seq"], 1);
        assert!(message["at_ms"].as_i64().unwrap() > 0);
    }
    // Chat is not game state: nothing was patched, so a move chosen before it is not stale.
    assert_eq!(ack["version"], version);
    assert_eq!(ana_ws.version, version);

    let answer = bea_ws
        .request(json!({ "type": "chat", "text": "👋" }))
        .await;
    assert_eq!(answer["type"], "ack", "{answer}");
    let message = ana_ws.until_chat(2).await;
    assert_eq!(
        (message["seq"].clone(), message["seat"].clone()),
        (json!(2), json!(1))
    );
    server.finish().await;
}

#[tokio::test]
async fn a_spectator_can_read_the_chat_but_not_write_in_it() {
    let server = TestServer::sqlite().await;
    let (room, ana, _) = ana_and_bea(&server).await;
    let mut ana_ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    let mut spectator = WsClient::connect(&server, &room, None).await;
    let error = spectator
        .request(json!({ "type": "chat", "text": "I am Ana, trust me" }))
        .await;
    assert_eq!(error["type"], "error");
    assert_eq!(error["code"], "not_seated", "{error}");
    // The next chat anyone sees is the player's, numbered first: the refused one went nowhere.
    ana_ws
        .request(json!({ "type": "chat", "text": "hola" }))
        .await;
    let message = spectator.until_chat(1).await;
    assert_eq!(
        (message["text"].clone(), message["seq"].clone()),
        (json!("hola"), json!(1))
    );
    server.finish().await;
}

#[tokio::test]
async fn empty_over_long_malformed_and_flooding_messages_are_refused_with_their_codes() {
    let server = TestServer::sqlite().await;
    let (room, ana, bea) = ana_and_bea(&server).await;
    let mut ana_ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    let mut bea_ws = WsClient::connect(&server, &room, Some(&bea.token)).await;
    for (command, code) in [
        (json!({ "type": "chat", "text": " \n\t " }), "chat_empty"),
        (
            json!({ "type": "chat", "text": "a".repeat(201) }),
            "chat_too_long",
        ),
        (json!({ "type": "chat", "text": 7 }), "malformed"),
        (json!({ "type": "chat" }), "malformed"),
    ] {
        let error = ana_ws.request(command.clone()).await;
        assert_eq!(error["type"], "error", "{command}");
        assert_eq!(error["code"], code, "{command} → {error}");
        assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    for i in 0..5 {
        let ack = ana_ws
            .request(json!({ "type": "chat", "text": format!("{i}") }))
            .await;
        assert_eq!(ack["type"], "ack", "message {i}: {ack}");
    }
    let error = ana_ws
        .request(json!({ "type": "chat", "text": "and one more" }))
        .await;
    assert_eq!(error["code"], "chat_too_fast", "{error}");
    // Bea is not held back by Ana's flood, and saw exactly the five accepted messages before hers.
    let ack = bea_ws
        .request(json!({ "type": "chat", "text": "calma" }))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    ana_ws.until_chat(6).await;
    let texts: Vec<&str> = ana_ws
        .chat
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["0", "1", "2", "3", "4", "calma"]);
    server.finish().await;
}

sqlite_and_postgres!(
    the_last_messages_come_back_on_reconnect_and_after_a_restart,
    chat_survives_reconnect_and_restart
);

/// Messages written, then seen in `chat_history` by a newcomer, and again after a restart.
async fn chat_survives_reconnect_and_restart(mut server: TestServer) {
    let (room, ana, bea) = ana_and_bea(&server).await;
    let mut ana_ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    for text in ["buenas", "¿empezamos?"] {
        let ack = ana_ws
            .request(json!({ "type": "chat", "text": text }))
            .await;
        assert_eq!(ack["type"], "ack", "{ack}");
    }
    let expected = vec![
        (json!(1), json!("Ana"), json!("buenas")),
        (json!(2), json!("Ana"), json!("¿empezamos?")),
    ];
    let mut bea_ws = WsClient::connect(&server, &room, Some(&bea.token)).await;
    bea_ws.until(|m| m["type"] == "chat_history").await;
    assert_eq!(
        bea_ws.chat_history(),
        expected,
        "a newcomer sees what was said"
    );

    ana_ws.close().await;
    bea_ws.close().await;
    server.stop().await;
    let again = TestServer::start(server.database_url.clone()).await;
    let mut bea_ws = WsClient::connect(&again, &room, Some(&bea.token)).await;
    bea_ws.until(|m| m["type"] == "chat_history").await;
    assert_eq!(
        bea_ws.chat_history(),
        expected,
        "the chat is stored, not only in memory"
    );
    // Numbering goes on after the stored messages.
    bea_ws
        .request(json!({ "type": "chat", "text": "sí" }))
        .await;
    assert_eq!(bea_ws.until_chat(1).await["seq"], 3);
    bea_ws.close().await;
    again.stop_only().await;
    server.finish().await;
}

//! Players report offensive chat messages; the host reads the reports with the server's `ADMIN_TOKEN`,
//! erases the writer or dismisses them. A report is made once per player and message, never of your own.
mod common;

use common::databases::sqlite_and_postgres;
use common::game::ana_and_bea;
use common::ws::WsClient;
use common::{Player, TestServer, status_and_json};
use serde_json::{Value, json};

const ADMIN: &str = "a long host secret, 35 characters";

async fn report(
    server: &TestServer,
    who: &Player,
    room: &str,
    seq: impl std::fmt::Display,
    body: Value,
) -> (u16, Value) {
    let (status, body) = server
        .post_as(who, &format!("/api/rooms/{room}/chat/{seq}/report"), body)
        .await;
    (status.as_u16(), body)
}

async fn reports_as(server: &TestServer, token: &str) -> (u16, Value) {
    let (status, body) = server.get_as(token, "/api/admin/reports").await;
    (status.as_u16(), body)
}

/// A server (with the admin token, or none) and a waiting room where Bea, connected, wrote `text` (message
/// 1) beside Ana: `(server, room, ana, bea, bea's socket)`.
async fn bea_wrote(admin: bool, text: &str) -> (TestServer, String, Player, Player, WsClient) {
    let server = TestServer::sqlite_with(|c| c.admin_token = admin.then(|| ADMIN.into())).await;
    let (room, ana, bea) = ana_and_bea(&server).await;
    let mut bea_ws = WsClient::connect(&server, &room, Some(&bea.token)).await;
    let ack = bea_ws
        .request(json!({ "type": "chat", "text": text }))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    (server, room, ana, bea, bea_ws)
}

sqlite_and_postgres!(
    players_report_a_message_and_the_host_reads_the_reports_then_erases_the_writer,
    reported,
    |c| c.admin_token = Some(ADMIN.into())
);

async fn reported(server: TestServer) {
    let (room, ana, bea) = ana_and_bea(&server).await;
    let mut ana_ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    let mut bea_ws = WsClient::connect(&server, &room, Some(&bea.token)).await;
    for text in ["hello", "something offensive"] {
        let ack = bea_ws
            .request(json!({ "type": "chat", "text": text }))
            .await;
        assert_eq!(ack["type"], "ack", "{ack}");
    }
    ana_ws.until_chat(2).await;
    let cleo = server.player("Cleo").await; // a spectator reads the chat too

    // Ana reports message 2 with a reason (cleaned to one line), Cleo without one.
    let (status, body) = report(
        &server,
        &ana,
        &room,
        2,
        json!({ "reason": "  insults\nme " }),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body, json!({ "room_id": room, "seq": 2, "new": true }));
    assert_eq!(report(&server, &cleo, &room, 2, json!({})).await.0, 201);
    // Twice is once.
    let (status, body) = report(&server, &ana, &room, 2, json!({ "reason": "again" })).await;
    assert_eq!((status, body["new"].clone()), (200, json!(false)));

    let (status, list) = reports_as(&server, ADMIN).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(
        list["messages"],
        json!([{
            "room_id": room, "seq": 2, "text": "something offensive", "player_id": bea.id,
            "display_name": "Bea", "reports": 2, "reasons": ["insults me"],
            "last_reported_at": list["messages"][0]["last_reported_at"],
        }])
    );
    assert!(list["messages"][0]["last_reported_at"].as_i64().unwrap() > 0);

    // The host erases Bea: her message is gone, and so are its reports from the list.
    let (status, _) = server
        .delete_as(ADMIN, &format!("/api/admin/players/{}", bea.id))
        .await;
    assert_eq!(status, 204);
    let (_, list) = reports_as(&server, ADMIN).await;
    assert_eq!(list["messages"], json!([]));
    // An erased writer's message can no longer be reported.
    let (status, body) = report(&server, &cleo, &room, 1, json!({})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("message_not_found"))
    );
    bea_ws.closed().await;
    ana_ws.close().await;
    server.finish().await;
}

#[tokio::test]
async fn the_host_dismisses_the_reports_of_an_acceptable_message() {
    let (server, room, ana, _bea, bea_ws) = bea_wrote(true, "you play like a bot").await;
    assert_eq!(report(&server, &ana, &room, 1, json!({})).await.0, 201);
    let path = format!("/api/admin/reports/{room}/1");
    assert_eq!(server.delete_as(ADMIN, &path).await.0, 204);
    assert_eq!(reports_as(&server, ADMIN).await.1["messages"], json!([]));
    let (status, body) = server.delete_as(ADMIN, &path).await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (404, Some("report_not_found"))
    );
    let (status, body) = server
        .delete_as(ADMIN, &format!("/api/admin/reports/{room}/one"))
        .await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (404, Some("report_not_found"))
    );
    // The message stays, and can be reported again.
    assert_eq!(
        report(&server, &ana, &room, 1, json!({ "reason": "rude" }))
            .await
            .0,
        201
    );
    assert_eq!(
        reports_as(&server, ADMIN).await.1["messages"][0]["reasons"],
        json!(["rude"])
    );
    // A reporter who erases their data takes their reports with them.
    assert_eq!(
        server.erase_me(&ana.token, Some("correct horse")).await.0,
        204
    );
    assert_eq!(reports_as(&server, ADMIN).await.1["messages"], json!([]));
    bea_ws.close().await;
    server.finish().await;
}

#[tokio::test]
async fn bad_reports_are_refused_and_change_nothing() {
    let (server, room, ana, bea, bea_ws) = bea_wrote(true, "hi").await;

    let (status, body) = report(&server, &bea, &room, 1, json!({})).await;
    assert_eq!((status, body["code"].as_str()), (422, Some("own_message")));
    for (room_id, seq) in [
        (room.as_str(), "2"),
        (room.as_str(), "-1"),
        (room.as_str(), "two"),
        (room.as_str(), "99999999999999999999"),
        ("no-such-room", "1"),
    ] {
        let (status, body) = report(&server, &ana, room_id, seq, json!({})).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (404, Some("message_not_found")),
            "{room_id} {seq}"
        );
    }
    let (status, body) = report(
        &server,
        &ana,
        &room,
        1,
        json!({ "reason": "x".repeat(201) }),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (422, Some("invalid_report")),
        "{body}"
    );
    let (status, body) = report(&server, &ana, &room, 1, json!({ "reason": 5 })).await;
    assert_eq!(status, 422, "{body}");
    // Without a token, or with a player's token on the host's list: refused.
    let resp = server
        .post(&format!("/api/rooms/{room}/chat/1/report"))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(status_and_json(resp).await.0, 401);
    let (status, body) = reports_as(&server, &ana.token).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("not_admin")));
    assert_eq!(reports_as(&server, ADMIN).await.1["messages"], json!([]));
    bea_ws.close().await;
    server.finish().await;
}

#[tokio::test]
async fn without_an_admin_token_there_is_no_list_of_reports_but_players_still_report() {
    let (server, room, ana, _bea, bea_ws) = bea_wrote(false, "hi").await;
    assert_eq!(report(&server, &ana, &room, 1, json!({})).await.0, 201);
    assert_eq!(reports_as(&server, "anything at all, long").await.0, 404);
    bea_ws.close().await;
    server.finish().await;
}

/// Only someone who can read a private room's chat (its owner, its seated players, or whoever has its
/// join code) can report its messages: a player who only learnt the room's id (from a link, a finished
/// game's public record) can neither fill the host's list with reports of messages they never saw nor
/// learn which messages exist.
#[tokio::test]
async fn a_stranger_without_the_join_code_cannot_report_a_private_rooms_messages() {
    let server = TestServer::sqlite_with(|c| c.admin_token = Some(ADMIN.into())).await;
    let ana = server.player("Ana").await;
    let bea = server.player("Bea").await;
    let room = server.room(&ana, common::private_duel()).await;
    let (id, code) = (
        room["id"].as_str().unwrap().to_owned(),
        room["join_code"].as_str().unwrap().to_owned(),
    );
    let (status, body) = server
        .post_as(&bea, &format!("/api/rooms/{code}/join"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let mut bea_ws = WsClient::connect(&server, &id, Some(&bea.token)).await;
    let ack = bea_ws
        .request(json!({ "type": "chat", "text": "just between us" }))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");

    let cleo = server.player("Cleo").await;
    for seq in ["1", "2"] {
        let (status, body) = report(&server, &cleo, &id, seq, json!({ "reason": "spam" })).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (403, Some("wrong_join_code")),
            "message {seq}: {body}"
        );
    }
    assert_eq!(reports_as(&server, ADMIN).await.1["messages"], json!([]));

    // With the code (which also lets her watch and read the chat), Cleo can; the owner can by the id.
    let (status, body) = report(&server, &cleo, &code, 1, json!({})).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["room_id"], id.as_str());
    let (status, body) = report(&server, &ana, &id, 1, json!({})).await;
    assert_eq!(status, 201, "{body}");
    let (_, list) = reports_as(&server, ADMIN).await;
    assert_eq!(list["messages"][0]["reports"], 2, "{list}");
    bea_ws.close().await;
    server.finish().await;
}

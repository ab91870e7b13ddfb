//! The same flows against PostgreSQL (each test in its own schema).
mod common;

use common::{TestServer, private_duel, status_and_json};
use serde_json::{Value, json};

const NEEDS_PG: &str = "needs PostgreSQL at 127.0.0.1:5432 (run by .ci/run)";

#[tokio::test]
#[ignore = "needs PostgreSQL at 127.0.0.1:5432 (run by .ci/run)"]
async fn readyz_is_ok_with_postgres() {
    let server = TestServer::postgres().await;
    let (status, _) = status_and_json(server.get("/readyz").send().await.unwrap()).await;
    assert_eq!(status, 200, "{NEEDS_PG}");
    server.finish().await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL at 127.0.0.1:5432 (run by .ci/run)"]
async fn a_whole_lobby_works_on_postgres() {
    let server = TestServer::postgres().await;
    let owner = server.player("Ana").await;
    let guest = server.player("Luis").await;
    let room = server.room(&owner, private_duel()).await;
    let code = room["join_code"].as_str().unwrap();
    let (status, room) = server
        .post_as(
            &guest,
            &format!("/api/rooms/{code}/join"),
            json!({ "preferred_colour": "blue" }),
        )
        .await;
    assert_eq!(status, 200, "{room}");
    let id = room["id"].as_str().unwrap();
    let (status, body) = server
        .post_as(&guest, &format!("/api/rooms/{id}/start"), json!({}))
        .await;
    assert_eq!(status, 403, "{body}");
    let (status, room) = server
        .post_as(&owner, &format!("/api/rooms/{id}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{room}");
    let game_id = room["game_id"].as_str().unwrap();
    // A running private game's record is its players' (anyone else: 403).
    let (status, record) = server
        .get_as(&owner.token, &format!("/api/games/{game_id}/record"))
        .await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["seed"], Value::Null);
    assert_eq!(record["settings"]["mode"], "1v1");
    server.finish().await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL at 127.0.0.1:5432 (run by .ci/run)"]
async fn garbage_ids_are_404_not_500_on_postgres() {
    let server = TestServer::postgres().await;
    let (status, body) = status_and_json(server.get("/api/rooms/%00").send().await.unwrap()).await;
    assert_eq!(status, 404, "{body}");
    let (status, _) =
        status_and_json(server.get("/api/games/%00/record").send().await.unwrap()).await;
    assert_eq!(status, 404);
    server.finish().await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL at 127.0.0.1:5432 (run by .ci/run)"]
async fn a_whole_game_is_played_and_verified_on_postgres() {
    use common::game::{record, start_with_bots};
    use common::ws::WsClient;
    let server = TestServer::postgres().await;
    let started = start_with_bots(&server, "ludoteka", "pairs", 4).await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    player.play_to_the_end().await;
    let record = record(&server, &started.game).await;
    parchis_proof::verify_record(&record).expect("honest record");
    server.finish().await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL at 127.0.0.1:5432 (run by .ci/run)"]
async fn a_public_game_being_played_is_offered_to_watch_on_postgres() {
    let server = TestServer::postgres().await;
    let started = common::game::start_with_bots(&server, "ludoteka", "pairs", 4).await;
    let at_table =
        common::ws::WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    assert_eq!(
        common::games_to_watch(&server).await,
        vec![started.room.clone()]
    );
    let (_, to_join) = status_and_json(server.get("/api/rooms").send().await.unwrap()).await;
    assert_eq!(to_join["rooms"], json!([]));
    at_table.close().await;
    server.finish().await;
}

/// PostgreSQL refuses NUL in text: every address that takes a username or an id in its path checks it
/// before asking the database, so that such a path is the usual `404` with its code, not a `500`.
#[tokio::test]
#[ignore = "needs PostgreSQL at 127.0.0.1:5432 (run by .ci/run)"]
async fn a_nul_byte_in_a_username_or_an_admin_path_is_a_404_not_a_500_on_postgres() {
    const ADMIN: &str = "a long host secret, 35 characters";
    let server = TestServer::postgres_with(|c| c.admin_token = Some(ADMIN.into())).await;
    for (path, code) in [
        ("/api/accounts/%00/stats", "account_not_found"),
        ("/api/accounts/a%00b/ratings", "account_not_found"),
    ] {
        let (status, body) = status_and_json(server.get(path).send().await.unwrap()).await;
        assert_eq!(
            (status.as_u16(), body["code"].as_str()),
            (404, Some(code)),
            "{path}: {body}"
        );
    }
    for (path, code) in [
        ("/api/admin/players/%00", "player_not_found"),
        ("/api/admin/reports/%00/1", "report_not_found"),
        ("/api/admin/reports/a%00b/1", "report_not_found"),
    ] {
        let (status, body) = server.delete_as(ADMIN, path).await;
        assert_eq!(
            (status.as_u16(), body["code"].as_str()),
            (404, Some(code)),
            "{path}: {body}"
        );
    }
    server.finish().await;
}

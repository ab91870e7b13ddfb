//! `DELETE /api/sessions/others`: signing out every other device of an account (a lost phone, a shared
//! computer) without changing the password. Their tokens stop working at once, the first token
//! (`POST /api/players`) included, and their open sockets close with 4001 `token_revoked`; this device
//! stays signed in and its socket stays open. The answer counts the devices it signed out.
mod common;

use common::game::start_with_bots;
use common::ws::WsClient;
use common::{Player, TestServer, status_and_json};
use serde_json::{Value, json};

/// Signs in as `username` with `password` and returns the new device's token.
async fn sign_in(server: &TestServer, username: &str, password: &str) -> String {
    let (status, body) = status_and_json(
        server
            .post("/api/sessions")
            .json(&json!({ "username": username, "password": password }))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    body["token"].as_str().unwrap().to_owned()
}

async fn make_account(server: &TestServer, player: &Player, username: &str) {
    let (status, body) = server
        .post_as(
            player,
            "/api/account",
            json!({ "username": username, "password": "correct horse" }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
}

async fn sign_out_others(server: &TestServer, token: &str) -> (u16, Value) {
    let (status, body) = server.delete_as(token, "/api/sessions/others").await;
    (status.as_u16(), body)
}

/// Whether `token` still works: `GET /api/players/me` answers 200, or 401 `invalid_token` once revoked.
async fn works(server: &TestServer, token: &str) -> bool {
    let (status, body) = server.get_as(token, "/api/players/me").await;
    match status.as_u16() {
        200 => true,
        401 => {
            assert_eq!(body["code"], "invalid_token", "{body}");
            false
        }
        other => panic!("{other}: {body}"),
    }
}

#[tokio::test]
async fn signing_out_the_other_devices_ends_their_tokens_and_sockets_and_keeps_this_one() {
    others_signed_out(TestServer::sqlite().await).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL at 127.0.0.1:5432 (run by .ci/run)"]
async fn signing_out_the_other_devices_ends_their_tokens_and_sockets_on_postgres() {
    others_signed_out(TestServer::postgres().await).await;
}

async fn others_signed_out(server: TestServer) {
    // Ana plays on her laptop (her first token), and signs in on a phone and a tablet.
    let started = start_with_bots(&server, "playgridia", "individual", 4).await;
    let laptop = started.owner;
    make_account(&server, &laptop, "ana").await;
    let phone = sign_in(&server, "ana", "correct horse").await;
    let tablet = sign_in(&server, "ana", "correct horse").await;
    let mut laptop_ws = WsClient::connect(&server, &started.room, Some(&laptop.token)).await;
    let mut phone_ws = WsClient::connect(&server, &started.room, Some(&phone)).await;
    let mut tablet_ws = WsClient::connect(&server, &started.room, Some(&tablet)).await;

    // From the phone: the laptop and the tablet are signed out.
    let (status, body) = sign_out_others(&server, &phone).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!({ "signed_out": 2 }));
    assert!(!works(&server, &laptop.token).await);
    assert!(!works(&server, &tablet).await);
    laptop_ws.assert_revoked().await;
    tablet_ws.assert_revoked().await;
    // The phone stays signed in, and plays on through the socket it had open.
    assert!(works(&server, &phone).await);
    phone_ws.act().await;

    // Nothing is left to sign out: a second time counts none (the first token is not counted twice).
    assert_eq!(
        sign_out_others(&server, &phone).await,
        (200, json!({ "signed_out": 0 }))
    );
    assert!(works(&server, &phone).await);
    phone_ws.close().await;
    server.finish().await;
}

#[tokio::test]
async fn the_first_device_can_sign_out_the_others_and_stays_signed_in() {
    let server = TestServer::sqlite().await;
    let laptop = server.player("Ana").await;
    make_account(&server, &laptop, "ana").await;
    let phone = sign_in(&server, "ana", "correct horse").await;
    assert_eq!(
        sign_out_others(&server, &laptop.token).await,
        (200, json!({ "signed_out": 1 }))
    );
    assert!(works(&server, &laptop.token).await);
    assert!(!works(&server, &phone).await);
    // Signing in again gives a working device, which the next sign-out of the others ends too.
    let phone = sign_in(&server, "ana", "correct horse").await;
    assert!(works(&server, &phone).await);
    assert_eq!(
        sign_out_others(&server, &laptop.token).await,
        (200, json!({ "signed_out": 1 }))
    );
    assert!(!works(&server, &phone).await);
    server.finish().await;
}

#[tokio::test]
async fn after_a_new_password_there_is_no_other_device_left_to_count() {
    nothing_left_after_a_new_password(TestServer::sqlite().await).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL at 127.0.0.1:5432 (run by .ci/run)"]
async fn after_a_new_password_there_is_no_other_device_left_to_count_on_postgres() {
    nothing_left_after_a_new_password(TestServer::postgres().await).await;
}

async fn nothing_left_after_a_new_password(server: TestServer) {
    let laptop = server.player("Ana").await;
    make_account(&server, &laptop, "ana").await;
    let phone = sign_in(&server, "ana", "correct horse").await;
    let (status, body) = server
        .patch_as(
            &phone,
            "/api/account",
            json!({ "password": "correct horse", "new_password": "battery staple" }),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    assert!(!works(&server, &laptop.token).await);
    assert_eq!(
        sign_out_others(&server, &phone).await,
        (200, json!({ "signed_out": 0 }))
    );
    assert!(works(&server, &phone).await);
    server.finish().await;
}

#[tokio::test]
async fn another_accounts_devices_are_left_alone() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    make_account(&server, &ana, "ana").await;
    let bea = server.player("Bea").await;
    make_account(&server, &bea, "bea").await;
    let beas_phone = sign_in(&server, "bea", "correct horse").await;
    assert_eq!(
        sign_out_others(&server, &ana.token).await,
        (200, json!({ "signed_out": 0 }))
    );
    assert!(works(&server, &bea.token).await);
    assert!(works(&server, &beas_phone).await);
    server.finish().await;
}

#[tokio::test]
async fn a_guest_is_refused_no_account_and_stays_signed_in() {
    let server = TestServer::sqlite().await;
    let guest = server.player("Guest").await;
    let (status, body) = sign_out_others(&server, &guest.token).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("no_account")),
        "{body}"
    );
    assert!(works(&server, &guest.token).await);
    server.finish().await;
}

#[tokio::test]
async fn without_a_working_token_it_is_401() {
    let server = TestServer::sqlite().await;
    let resp = server
        .client
        .delete(server.url("/api/sessions/others"))
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(resp).await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (401, Some("missing_token"))
    );
    let (status, body) = sign_out_others(&server, "not-a-token").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("invalid_token"))
    );
    server.finish().await;
}

#[tokio::test]
async fn it_counts_as_a_write_for_the_rate_limit() {
    let server = TestServer::sqlite_with(|c| c.http_writes_per_minute = 3).await;
    let ana = server.player("Ana").await; // 1
    make_account(&server, &ana, "ana").await; // 2
    assert_eq!(sign_out_others(&server, &ana.token).await.0, 200); // 3
    let (status, body) = sign_out_others(&server, &ana.token).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("rate_limited")),
        "{body}"
    );
    server.finish().await;
}

#[tokio::test]
async fn the_openapi_document_gives_its_answer_and_refusals() {
    let server = TestServer::sqlite().await;
    let (status, doc) =
        status_and_json(server.get("/api-docs/openapi.json").send().await.unwrap()).await;
    assert_eq!(status, 200);
    let op = &doc["paths"]["/api/sessions/others"]["delete"];
    let codes: Vec<&str> = op["responses"]
        .as_object()
        .expect("DELETE /api/sessions/others is documented")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(codes, ["200", "401", "409"]);
    assert_eq!(
        op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/SignedOutOthers"
    );
    assert!(
        doc["components"]["schemas"]["SignedOutOthers"]["properties"]["signed_out"].is_object()
    );
    server.finish().await;
}

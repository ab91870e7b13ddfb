//! `DELETE /api/sessions/others`: signing out every other device of an account (a lost phone, a shared
//! computer) without changing the password. Their tokens stop working at once, the first token
//! (`POST /api/players`) included, and their open sockets close with 4001 `token_revoked`; this device
//! stays signed in and its socket stays open. The answer counts the devices it signed out.
//!
//! `GET /api/sessions` and `DELETE /api/sessions/{id}`: "Your devices", the list of the devices signed
//! in to an account (what each is, when it signed in and was last used, which one is asking), and
//! signing one of them out (a lost phone).
mod common;

use common::databases::sqlite_and_postgres;
use common::game::start_with_bots;
use common::ws::WsClient;
use common::{Player, TestServer, status_and_json, token_hash};
use serde_json::{Value, json};

const FIREFOX_ON_ANDROID: &str =
    "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0";
const SAFARI_ON_IPHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) \
    AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

/// `GET /api/sessions` with `token`: the devices listed, insisting on 200.
async fn devices(server: &TestServer, token: &str) -> Vec<Value> {
    let (status, body) = server.get_as(token, "/api/sessions").await;
    assert_eq!(status, 200, "{body}");
    body["devices"].as_array().unwrap().clone()
}

/// The id under which the device holding `token` is listed, as `lister` sees the list.
async fn id_of(server: &TestServer, lister: &str, device: &str) -> String {
    let list = devices(server, lister).await;
    let named: Vec<&Value> = list.iter().filter(|d| d["device"] == device).collect();
    assert_eq!(named.len(), 1, "one {device} in {list:?}");
    named[0]["id"].as_str().unwrap().to_owned()
}

/// `DELETE /api/sessions/{id}` with `token`: status and body.
async fn sign_out_device(server: &TestServer, token: &str, id: &str) -> (u16, Value) {
    let (status, body) = server
        .delete_as(token, &format!("/api/sessions/{id}"))
        .await;
    (status.as_u16(), body)
}

/// Unix ms now, as the server's clock reads it.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

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

sqlite_and_postgres!(
    signing_out_the_other_devices_ends_their_tokens_and_sockets_and_keeps_this_one,
    others_signed_out
);

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

sqlite_and_postgres!(
    after_a_new_password_there_is_no_other_device_left_to_count,
    nothing_left_after_a_new_password
);

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
    // Its own answers, and those of any write: too many, too slow, the database or the server at fault.
    assert_eq!(codes, ["200", "401", "408", "409", "429", "500", "503"]);
    assert_eq!(
        op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/SignedOutOthers"
    );
    assert!(
        doc["components"]["schemas"]["SignedOutOthers"]["properties"]["signed_out"].is_object()
    );
    server.finish().await;
}

sqlite_and_postgres!(
    the_device_list_shows_every_device_newest_use_first_and_marks_the_one_asking,
    device_list
);

async fn device_list(server: TestServer) {
    // Ana made her player on a laptop whose client sends no User-Agent, then signed in on her phone.
    let before = now_ms();
    let laptop = server.player("Ana").await;
    make_account(&server, &laptop, "ana").await;
    let phone = server.sign_in_from("ana", FIREFOX_ON_ANDROID).await;
    let after = now_ms();

    let from_phone = devices(&server, &phone).await;
    assert_eq!(from_phone.len(), 2, "{from_phone:?}");
    let (newest, oldest) = (&from_phone[0], &from_phone[1]);
    assert_eq!(
        (&newest["device"], &newest["current"]),
        (&json!("Firefox on Android"), &json!(true))
    );
    assert_eq!(
        (&oldest["device"], &oldest["current"]),
        (&json!("Unknown device"), &json!(false))
    );
    for device in &from_phone {
        let signed_in = device["signed_in_at"].as_i64().unwrap();
        let used = device["last_used_at"].as_i64().unwrap();
        assert!((before..=after).contains(&signed_in), "{device}");
        assert!(used >= signed_in && used <= after, "{device}");
        // The id is opaque: 32 hex digits that are neither the token nor its hash, nor part of them.
        let id = device["id"].as_str().unwrap();
        assert_eq!(id.len(), 32);
        assert!(id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
        for token in [&laptop.token, &phone] {
            assert!(
                !token.contains(id) && !token_hash(token).contains(id),
                "{id}"
            );
        }
    }
    assert!(newest["last_used_at"].as_i64() >= oldest["last_used_at"].as_i64());
    assert_ne!(newest["id"], oldest["id"]);

    // From the laptop: the same devices under the same ids, the laptop the one asking.
    let from_laptop = devices(&server, &laptop.token).await;
    let current: Vec<(&Value, &Value)> = from_laptop
        .iter()
        .map(|d| (&d["id"], &d["current"]))
        .collect();
    assert_eq!(
        current,
        [
            (&newest["id"], &json!(false)),
            (&oldest["id"], &json!(true))
        ]
    );
    server.finish().await;
}

#[tokio::test]
async fn a_guest_has_no_device_list_and_signs_no_device_out() {
    let server = TestServer::sqlite().await;
    let guest = server.player("Guest").await;
    let (status, body) = server.get_as(&guest.token, "/api/sessions").await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (409, Some("no_account")),
        "{body}"
    );
    assert!(body["message"].as_str().unwrap().len() > 10, "{body}");
    let (status, body) = sign_out_device(&server, &guest.token, &"0".repeat(32)).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("no_account")));
    assert!(works(&server, &guest.token).await);
    server.finish().await;
}

sqlite_and_postgres!(
    signing_one_device_out_ends_its_token_and_socket_and_keeps_the_others,
    one_device_signed_out
);

async fn one_device_signed_out(server: TestServer) {
    // Ana plays on her laptop (her first token), her phone and her tablet, a socket open on each.
    let started = start_with_bots(&server, "playgridia", "individual", 4).await;
    let laptop = started.owner;
    make_account(&server, &laptop, "ana").await;
    let phone = server.sign_in_from("ana", FIREFOX_ON_ANDROID).await;
    let tablet = server.sign_in_from("ana", SAFARI_ON_IPHONE).await;
    let mut laptop_ws = WsClient::connect(&server, &started.room, Some(&laptop.token)).await;
    let mut phone_ws = WsClient::connect(&server, &started.room, Some(&phone)).await;
    let mut tablet_ws = WsClient::connect(&server, &started.room, Some(&tablet)).await;

    // She lost the phone: from the tablet, she signs it out.
    let lost = id_of(&server, &tablet, "Firefox on Android").await;
    assert_eq!(
        sign_out_device(&server, &tablet, &lost).await,
        (204, Value::Null)
    );
    assert!(!works(&server, &phone).await);
    phone_ws.assert_revoked().await;
    // The laptop and the tablet stay signed in, and play on through their sockets.
    assert!(works(&server, &laptop.token).await);
    assert!(works(&server, &tablet).await);
    tablet_ws.act().await;
    let left: Vec<Value> = devices(&server, &tablet)
        .await
        .iter()
        .map(|d| d["device"].clone())
        .collect();
    assert_eq!(left.len(), 2);
    assert!(!left.contains(&json!("Firefox on Android")), "{left:?}");

    // The phone is gone from the list: signing it out again finds no such device.
    let (status, body) = sign_out_device(&server, &tablet, &lost).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("device_not_found"))
    );

    // The first token is a device like the others: the tablet signs the laptop out too.
    let first = id_of(&server, &tablet, "Unknown device").await;
    assert_eq!(sign_out_device(&server, &tablet, &first).await.0, 204);
    assert!(!works(&server, &laptop.token).await);
    laptop_ws.assert_revoked().await;
    assert!(works(&server, &tablet).await);
    assert_eq!(devices(&server, &tablet).await.len(), 1);
    tablet_ws.close().await;
    server.finish().await;
}

#[tokio::test]
async fn signing_out_this_devices_own_id_signs_this_device_out() {
    let server = TestServer::sqlite().await;
    let laptop = server.member("Ana").await;
    let phone = server.sign_in_from("ana", FIREFOX_ON_ANDROID).await;
    let mine = id_of(&server, &phone, "Firefox on Android").await;
    assert_eq!(sign_out_device(&server, &phone, &mine).await.0, 204);
    assert!(!works(&server, &phone).await);
    assert!(works(&server, &laptop.token).await);
    server.finish().await;
}

#[tokio::test]
async fn another_accounts_device_is_not_found_and_stays_signed_in() {
    let server = TestServer::sqlite().await;
    let ana = server.member("Ana").await;
    let bea = server.member("Bea").await;
    let beas_phone = server.sign_in_from("bea", FIREFOX_ON_ANDROID).await;
    let beas = id_of(&server, &bea.token, "Firefox on Android").await;
    let (status, body) = sign_out_device(&server, &ana.token, &beas).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("device_not_found")),
        "{body}"
    );
    assert!(works(&server, &beas_phone).await);
    assert_eq!(devices(&server, &bea.token).await.len(), 2);
    server.finish().await;
}

#[tokio::test]
async fn a_malformed_or_unknown_device_id_is_not_found() {
    let server = TestServer::sqlite().await;
    let ana = server.member("Ana").await;
    // A token or its hash is no device id either.
    for id in [
        "nonsense".to_owned(),
        "0".repeat(32),
        "f".repeat(200),
        "%E2%82%AC".to_owned(),
        token_hash(&ana.token),
        ana.token.clone(),
    ] {
        let (status, body) = sign_out_device(&server, &ana.token, &id).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (404, Some("device_not_found")),
            "{id}: {body}"
        );
    }
    assert!(works(&server, &ana.token).await);
    server.finish().await;
}

sqlite_and_postgres!(
    devices_signed_in_before_the_list_existed_are_listed_and_their_next_use_is_recorded,
    old_devices_listed,
    upgraded_from(BEFORE_DEVICES_VERSION, &old_devices())
);

/// The last schema version before devices kept their User-Agent and last use.
const BEFORE_DEVICES_VERSION: i64 = 13;

/// Ana's account as an older server left it: her first token from day one (1 000 000 ms), a phone
/// signed in on day two (2 000 000 ms).
fn old_devices() -> String {
    format!(
        "INSERT INTO players (id, display_name, token_hash, created_at) VALUES ('p-ana', 'Ana', '{}', 1000000);
         INSERT INTO accounts (player_id, username, username_key, password_hash, created_at)
             VALUES ('p-ana', 'ana', 'ana', 'not-a-phc-string', 1000000);
         INSERT INTO sessions (token_hash, player_id, created_at) VALUES ('{}', 'p-ana', 2000000);",
        token_hash("ana-laptop"),
        token_hash("ana-phone"),
    )
}

/// The device asking, in a list of two.
fn this_one(list: &[Value]) -> &Value {
    list.iter()
        .find(|d| d["current"] == true)
        .expect("the device asking")
}

/// The other device, in a list of two.
fn other_one(list: &[Value]) -> &Value {
    list.iter()
        .find(|d| d["current"] == false)
        .expect("another device")
}

async fn old_devices_listed(server: TestServer) {
    // Before any use since the upgrade: both devices, unknown, last used when they signed in.
    let listed = devices(&server, "ana-phone").await;
    let seen: Vec<(&Value, &Value, &Value)> = listed
        .iter()
        .map(|d| (&d["device"], &d["signed_in_at"], &d["current"]))
        .collect();
    assert_eq!(
        seen,
        [
            (&json!("Unknown device"), &json!(2_000_000), &json!(true)),
            (&json!("Unknown device"), &json!(1_000_000), &json!(false)),
        ]
    );
    // The list's own request was the phone's first use in over an hour: recorded, once.
    let before = now_ms();
    let listed = devices(&server, "ana-laptop").await;
    let used = |d: &Value| d["last_used_at"].as_i64().unwrap();
    let (laptop, phone) = (this_one(&listed), other_one(&listed));
    assert!(used(laptop) >= before, "{laptop}");
    let phone_used = used(phone);
    assert!(phone_used > 2_000_000 && phone_used <= before, "{phone}");
    // Used again within the hour: not written again.
    assert!(works(&server, "ana-phone").await);
    let again = devices(&server, "ana-laptop").await;
    assert_eq!(used(other_one(&again)), phone_used, "{again:?}");
    server.finish().await;
}

#[tokio::test]
async fn the_openapi_document_gives_the_device_list_and_signing_one_out() {
    let server = TestServer::sqlite().await;
    let (status, doc) =
        status_and_json(server.get("/api-docs/openapi.json").send().await.unwrap()).await;
    assert_eq!(status, 200);
    let answers = |path: &str, method: &str| -> Vec<String> {
        doc["paths"][path][method]["responses"]
            .as_object()
            .unwrap_or_else(|| panic!("{method} {path} is documented"))
            .keys()
            .cloned()
            .collect()
    };
    assert_eq!(
        answers("/api/sessions", "get"),
        ["200", "401", "408", "409", "429", "500", "503"]
    );
    assert_eq!(
        answers("/api/sessions/{id}", "delete"),
        ["204", "401", "404", "408", "409", "429", "500", "503"]
    );
    assert_eq!(
        doc["paths"]["/api/sessions"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
            ["$ref"],
        "#/components/schemas/Devices"
    );
    let device = &doc["components"]["schemas"]["Device"]["properties"];
    for field in ["id", "device", "signed_in_at", "last_used_at", "current"] {
        assert!(device[field].is_object(), "Device.{field}");
    }
    server.finish().await;
}

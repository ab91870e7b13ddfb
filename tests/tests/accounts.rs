//! Accounts: a player who gives themselves a username and a password signs in on another device as
//! the same player (same seats, same games), each device with its own token that signing out revokes.
mod common;

use common::databases::sqlite_and_postgres;
use common::{Player, TestServer, public_four, status_and_json};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// `POST /api/account` as `player`.
async fn make_account(
    server: &TestServer,
    player: &Player,
    username: &str,
    password: &str,
) -> (StatusCode, Value) {
    server
        .post_as(
            player,
            "/api/account",
            json!({ "username": username, "password": password }),
        )
        .await
}

/// `POST /api/sessions` (no token).
async fn sign_in(server: &TestServer, username: &str, password: &str) -> (StatusCode, Value) {
    let resp = server
        .post("/api/sessions")
        .json(&json!({ "username": username, "password": password }))
        .send()
        .await
        .unwrap();
    status_and_json(resp).await
}

/// `DELETE /api/sessions/current` with `token`.
async fn sign_out(server: &TestServer, token: &str) -> (StatusCode, Value) {
    server.delete_as(token, "/api/sessions/current").await
}

sqlite_and_postgres!(
    an_account_signs_the_same_player_in_on_another_device_with_their_rooms,
    same_player_on_two_devices
);

async fn same_player_on_two_devices(server: TestServer) {
    let ana = server.player("Ana").await;
    let room = server.room(&ana, public_four()).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = make_account(&server, &ana, " Ana_R ", "correct horse").await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(
        body,
        json!({ "id": ana.id, "display_name": "Ana", "username": "Ana_R" })
    );

    // Another device: the username in any case, the right password.
    let (status, body) = sign_in(&server, "ana_r", "correct horse").await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["id"], ana.id.as_str());
    assert_eq!(body["username"], "Ana_R");
    let phone = body["token"].as_str().unwrap().to_owned();
    assert_eq!(phone.len(), 64);
    assert_ne!(phone, ana.token);
    let (status, me) = server.get_as(&phone, "/api/players/me").await;
    assert_eq!(status, 200);
    assert_eq!(
        me,
        json!({ "id": ana.id, "display_name": "Ana", "username": "Ana_R" })
    );
    let (_, rooms) = server.get_as(&phone, "/api/players/me/rooms").await;
    assert_eq!(rooms["rooms"][0]["room_id"], room.as_str(), "{rooms}");
    // The phone acts for Ana's seat; the first device still works too.
    let phone_player = Player {
        id: ana.id.clone(),
        token: phone.clone(),
    };
    let (status, body) = server
        .post_as(
            &phone_player,
            &format!("/api/rooms/{room}/start"),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "the phone starts Ana's room: {body}");
    let (status, _) = server.get_as(&ana.token, "/api/players/me").await;
    assert_eq!(status, 200);
    server.finish().await;
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_username_are_refused_alike() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let (status, _) = make_account(&server, &ana, "ana", "correct horse").await;
    assert_eq!(status, 201);
    let (status, wrong) = sign_in(&server, "ana", "wrong horse!").await;
    assert_eq!(status, 401, "{wrong}");
    assert_eq!(wrong["code"], "wrong_credentials");
    let (status, unknown) = sign_in(&server, "nobody", "correct horse").await;
    assert_eq!(status, 401, "{unknown}");
    assert_eq!(unknown, wrong, "nothing tells whether the username exists");
    let (status, odd) = sign_in(&server, "not a username", "correct horse").await;
    assert_eq!((status, &odd), (StatusCode::UNAUTHORIZED, &wrong));
    server.finish().await;
}

#[tokio::test]
async fn a_username_is_taken_whatever_its_case_and_a_player_has_one_account() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let bea = server.player("Bea").await;
    assert_eq!(
        make_account(&server, &ana, "Ana", "correct horse").await.0,
        201
    );
    let (status, body) = make_account(&server, &bea, "aNA", "another horse").await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["code"], "username_taken");
    let (status, body) = make_account(&server, &ana, "Ana2", "correct horse").await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["code"], "account_exists");
    // Neither refusal changed anything: Bea has no account, Ana's password is the first one.
    assert_eq!(sign_in(&server, "aNA", "another horse").await.0, 401);
    assert_eq!(sign_in(&server, "Ana2", "correct horse").await.0, 401);
    let (_, me) = server.get_as(&bea.token, "/api/players/me").await;
    assert_eq!(me["username"], Value::Null);
    server.finish().await;
}

#[tokio::test]
async fn bad_usernames_short_passwords_and_bad_json_are_refused_with_a_code() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    for (username, password, code) in [
        ("ab", "correct horse", "invalid_username"),
        ("has space", "correct horse", "invalid_username"),
        ("ñandú", "correct horse", "invalid_username"),
        (&"x".repeat(25), "correct horse", "invalid_username"),
        ("ana", "short", "weak_password"),
        ("ana", &"p".repeat(129), "weak_password"),
    ] {
        let (status, body) = make_account(&server, &ana, username, password).await;
        assert_eq!(status, 422, "{username}/{password}: {body}");
        assert_eq!(body["code"], code, "{username}/{password}: {body}");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let resp = server
        .post("/api/account")
        .bearer_auth(&ana.token)
        .header("content-type", "application/json")
        .body(r#"{"username":"ana""#)
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(resp).await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (400, Some("malformed_json"))
    );
    let resp = server
        .post("/api/account")
        .json(&json!({ "username": "ana", "password": "correct horse" }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 401, "no token, no account");
    let (_, me) = server.get_as(&ana.token, "/api/players/me").await;
    assert_eq!(me["username"], Value::Null, "nothing was made");
    server.finish().await;
}

#[tokio::test]
async fn signing_out_revokes_only_that_devices_token_and_signing_in_again_works() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    assert_eq!(
        make_account(&server, &ana, "ana", "correct horse").await.0,
        201
    );
    let phone = sign_in(&server, "ana", "correct horse").await.1["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = sign_out(&server, &phone).await;
    assert_eq!(status, 204, "{body}");
    let (status, body) = server.get_as(&phone, "/api/players/me").await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (401, Some("invalid_token"))
    );
    assert_eq!(
        server.get_as(&ana.token, "/api/players/me").await.0,
        200,
        "the laptop stays"
    );
    // The first device's own token can be signed out too; the account brings Ana back.
    assert_eq!(sign_out(&server, &ana.token).await.0, 204);
    assert_eq!(server.get_as(&ana.token, "/api/players/me").await.0, 401);
    let (status, body) = sign_in(&server, "ana", "correct horse").await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["id"], ana.id.as_str());
    server.finish().await;
}

#[tokio::test]
async fn a_player_without_an_account_cannot_sign_out_and_lose_themselves() {
    let server = TestServer::sqlite().await;
    let guest = server.player("Guest").await;
    let (status, body) = sign_out(&server, &guest.token).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["code"], "no_account");
    assert_eq!(server.get_as(&guest.token, "/api/players/me").await.0, 200);
    server.finish().await;
}

#[tokio::test]
async fn the_password_is_never_stored_in_clear() {
    let mut server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    assert_eq!(
        make_account(&server, &ana, "ana", "a very secret horse")
            .await
            .0,
        201
    );
    let path = server
        .database_url
        .trim_start_matches("sqlite://")
        .split('?')
        .next()
        .unwrap()
        .to_owned();
    server.stop().await;
    let mut bytes = std::fs::read(&path).unwrap();
    if let Ok(wal) = std::fs::read(format!("{path}-wal")) {
        bytes.extend(wal);
    }
    let text = String::from_utf8_lossy(&bytes);
    assert!(
        !text.contains("a very secret horse"),
        "the password is in the database file"
    );
    assert!(text.contains("$argon2id$"), "read the wrong file");
    drop(server);
}

/// `PATCH /api/account` with `token`.
async fn change_password(server: &TestServer, token: &str, body: Value) -> (StatusCode, Value) {
    server.patch_as(token, "/api/account", body).await
}

sqlite_and_postgres!(
    a_new_password_signs_the_other_devices_out_and_keeps_this_one,
    new_password_elsewhere_signed_out
);

async fn new_password_elsewhere_signed_out(server: TestServer) {
    let ana = server.player("Ana").await;
    assert_eq!(
        make_account(&server, &ana, "ana", "correct horse").await.0,
        201
    );
    let token_of = |body: Value| body["token"].as_str().unwrap().to_owned();
    let phone = token_of(sign_in(&server, "ana", "correct horse").await.1);
    let tablet = token_of(sign_in(&server, "ana", "correct horse").await.1);
    // Changed on the phone: the phone stays, the laptop (Ana's first token) and the tablet are out.
    let (status, body) = change_password(
        &server,
        &phone,
        json!({ "password": "correct horse", "new_password": "battery staple" }),
    )
    .await;
    assert_eq!(status, 204, "{body}");
    assert_eq!(server.get_as(&phone, "/api/players/me").await.0, 200);
    assert_eq!(server.get_as(&ana.token, "/api/players/me").await.0, 401);
    assert_eq!(server.get_as(&tablet, "/api/players/me").await.0, 401);
    assert_eq!(
        sign_in(&server, "ana", "correct horse").await.0,
        401,
        "the old password"
    );
    let (status, body) = sign_in(&server, "ana", "battery staple").await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["id"], ana.id.as_str());
    // Changed again from the first kind of token (the one the player was created with) keeps it too.
    let laptop = token_of(body);
    let (status, _) = change_password(
        &server,
        &laptop,
        json!({ "password": "battery staple", "new_password": "third horse!" }),
    )
    .await;
    assert_eq!(status, 204);
    assert_eq!(server.get_as(&laptop, "/api/players/me").await.0, 200);
    assert_eq!(server.get_as(&phone, "/api/players/me").await.0, 401);
    server.finish().await;
}

#[tokio::test]
async fn a_wrong_current_password_or_a_short_new_one_changes_nothing() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let guest = server.player("Guest").await;
    assert_eq!(
        make_account(&server, &ana, "ana", "correct horse").await.0,
        201
    );
    let phone = sign_in(&server, "ana", "correct horse").await.1["token"]
        .as_str()
        .unwrap()
        .to_owned();
    for (token, body, status, code) in [
        (
            &ana.token,
            json!({ "password": "wrong horse", "new_password": "battery staple" }),
            401,
            "wrong_credentials",
        ),
        (
            &ana.token,
            json!({ "password": "correct horse", "new_password": "short" }),
            422,
            "weak_password",
        ),
        (
            &guest.token,
            json!({ "password": "whatever!", "new_password": "battery staple" }),
            409,
            "no_account",
        ),
        (
            &ana.token,
            json!({ "password": "correct horse" }),
            422,
            "invalid_body",
        ),
    ] {
        let (got, answer) = change_password(&server, token, body.clone()).await;
        assert_eq!(got, status, "{body}: {answer}");
        assert_eq!(answer["code"], code, "{body}: {answer}");
    }
    assert_eq!(
        sign_in(&server, "ana", "correct horse").await.0,
        201,
        "the password stands"
    );
    assert_eq!(
        server.get_as(&phone, "/api/players/me").await.0,
        200,
        "no device signed out"
    );
    server.finish().await;
}

#[tokio::test]
async fn five_wrong_passwords_lock_a_username_for_a_while_even_for_the_right_one() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let bea = server.player("Bea").await;
    assert_eq!(
        make_account(&server, &ana, "ana", "correct horse").await.0,
        201
    );
    assert_eq!(
        make_account(&server, &bea, "bea", "correct horse").await.0,
        201
    );
    for i in 0..5 {
        let (status, body) = sign_in(&server, "ana", &format!("guess number {i}")).await;
        assert_eq!(status, 401, "{body}");
    }
    let resp = server
        .post("/api/sessions")
        .json(&json!({ "username": "ANA", "password": "correct horse" }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 429);
    let retry: u64 = resp.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=900).contains(&retry), "retry after {retry} s");
    let (_, body) = status_and_json(resp).await;
    assert_eq!(body["code"], "too_many_attempts");
    // Another username is not touched, and an unknown one is counted the same way (no hint).
    assert_eq!(sign_in(&server, "bea", "correct horse").await.0, 201);
    for _ in 0..5 {
        assert_eq!(sign_in(&server, "nobody", "guess").await.0, 401);
    }
    assert_eq!(sign_in(&server, "nobody", "guess").await.0, 429);
    server.finish().await;
}

#[tokio::test]
async fn a_token_buys_no_extra_guesses_at_the_current_password_when_changing_it() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    assert_eq!(
        make_account(&server, &ana, "ana", "correct horse").await.0,
        201
    );
    for i in 0..5 {
        let (status, body) = server
            .patch_as(
                &ana.token,
                "/api/account",
                json!({ "password": format!("guess number {i}"), "new_password": "battery staple" }),
            )
            .await;
        assert_eq!(status, 401, "{body}");
    }
    let (status, body) = server
        .patch_as(
            &ana.token,
            "/api/account",
            json!({ "password": "correct horse", "new_password": "battery staple" }),
        )
        .await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (429, Some("too_many_attempts"))
    );
    // The password was not changed, and the guesses count towards the username's (they slow signing in
    // as it from anywhere, without locking its owner out).
    assert_eq!(server.get_as(&ana.token, "/api/players/me").await.0, 200);
    server.finish().await;
}

/// Anyone who knows a username can lock signing in as it, by getting its password wrong five times. That
/// must not also stop its owner, signed in on a device, from changing the password (the very thing to do
/// when someone is guessing it): the current password given with a token is limited per device instead,
/// and still counts towards the username's limit for signing in.
#[tokio::test]
async fn a_stranger_locking_a_username_does_not_stop_its_owner_changing_the_password() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    assert_eq!(
        make_account(&server, &ana, "ana", "correct horse").await.0,
        201
    );
    for i in 0..5 {
        assert_eq!(
            sign_in(&server, "ana", &format!("guess number {i}"))
                .await
                .0,
            401
        );
    }
    let (status, body) = sign_in(&server, "ana", "correct horse").await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (429, Some("too_many_attempts"))
    );

    let (status, body) = server
        .patch_as(
            &ana.token,
            "/api/account",
            json!({ "password": "correct horse", "new_password": "battery staple" }),
        )
        .await;
    assert_eq!(status, 204, "{body}");
    // The right password starts the username's count again: the new one signs in.
    assert_eq!(sign_in(&server, "ana", "battery staple").await.0, 201);
    server.finish().await;
}

#[tokio::test]
async fn a_stranger_guessing_a_password_locks_out_only_their_own_address() {
    let server = TestServer::sqlite_with(|c| {
        c.trust_forwarded_for = true;
        c.http_writes_per_minute = 100;
    })
    .await;
    let ana = server.player("Ana").await;
    assert_eq!(
        make_account(&server, &ana, "ana", "correct horse").await.0,
        201
    );
    let from = |address: &'static str, password: &'static str| {
        server
            .post("/api/sessions")
            .header("x-forwarded-for", address)
            .json(&json!({ "username": "ana", "password": password }))
            .send()
    };
    for _ in 0..5 {
        assert_eq!(from("203.0.113.9", "guess").await.unwrap().status(), 401);
    }
    let (status, body) = status_and_json(from("203.0.113.9", "correct horse").await.unwrap()).await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (429, Some("too_many_attempts"))
    );
    // Ana, from her own address, is not locked out of her account.
    let (status, body) =
        status_and_json(from("198.51.100.7", "correct horse").await.unwrap()).await;
    assert_eq!(status, 201, "{body}");
    server.finish().await;
}

#[tokio::test]
async fn sign_ins_the_database_could_not_answer_do_not_lock_the_owner_out_afterwards() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    assert_eq!(
        make_account(&server, &ana, "ana", "correct horse").await.0,
        201
    );
    // The accounts cannot be read for a while (a broken disk, a database being restored)...
    common::execute_sql(
        &server.database_url,
        "ALTER TABLE accounts RENAME TO accounts_away",
    )
    .await;
    for attempt in 1..=6 {
        let (status, body) = sign_in(&server, "ana", "correct horse").await;
        assert!(
            status.is_server_error(),
            "attempt {attempt}: {status} {body}"
        );
    }
    // ...then can again: Ana signs in at once, none of those attempts counted as a wrong password.
    common::execute_sql(
        &server.database_url,
        "ALTER TABLE accounts_away RENAME TO accounts",
    )
    .await;
    let (status, body) = sign_in(&server, "ana", "correct horse").await;
    assert_eq!(status, 201, "{body}");
    server.finish().await;
}

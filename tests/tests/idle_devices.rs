//! `SESSION_IDLE_DAYS` (default 365): a device signed in to an account that nobody used for longer than
//! the host allows is signed out. Coming back, it is told `401 session_expired` once (and signs in again
//! with the password); the account's list of devices no longer shows it; a server starting after a long
//! stop signs such devices out before serving. A guest is never signed out: their token is the only key
//! to their player. A device left unused is made by moving its recorded last use back in the database.
mod common;

use common::databases::sqlite_and_postgres;
use common::{Player, TestServer, execute_sql, status_and_json, token_hash};
use parchis_server::Config;
use serde_json::Value;

const LAPTOP: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const PHONE: &str = "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0";
const TABLET: &str = "Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 \
    (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// Records the last use of the device holding `token` as `days` days ago, whether it is a signed-in
/// device (`sessions`) or the player's first token (`players`).
async fn left_unused(server: &TestServer, token: &str, days: i64) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let at = now - days * DAY_MS;
    let hash = token_hash(token);
    execute_sql(
        &server.database_url,
        &format!(
            "UPDATE sessions SET last_used_at = {at} WHERE token_hash = '{hash}';
             UPDATE players SET token_last_used_at = {at} WHERE token_hash = '{hash}';"
        ),
    )
    .await;
}

/// A server whose database got its idle limit long ago, as one upgraded years back (idle time counts
/// from 1970): `first` made the database and stays, stopped, to hold it; `now` serves it.
struct LongAgo {
    first: TestServer,
    now: TestServer,
}

impl LongAgo {
    async fn sqlite_with(tweak: impl FnOnce(&mut Config)) -> Self {
        Self::from(TestServer::sqlite().await, tweak).await
    }

    async fn sqlite() -> Self {
        Self::sqlite_with(|_| {}).await
    }

    async fn from(mut first: TestServer, tweak: impl FnOnce(&mut Config)) -> Self {
        first.stop().await;
        execute_sql(
            &first.database_url,
            "UPDATE session_expiry SET counted_from = 0",
        )
        .await;
        let now = TestServer::start_with(first.database_url.clone(), tweak).await;
        LongAgo { first, now }
    }

    async fn finish(self) {
        self.now.stop_only().await;
        self.first.finish().await;
    }
}

/// `GET /api/players/me` with `token`: status and error code (`None` when it works).
async fn me(server: &TestServer, token: &str) -> (u16, Option<String>, Value) {
    let (status, body) = server.get_as(token, "/api/players/me").await;
    let code = body["code"].as_str().map(str::to_owned);
    (status.as_u16(), code, body)
}

/// The devices `token` sees in its account's list, by what they are.
async fn devices_seen_by(server: &TestServer, token: &str) -> Vec<String> {
    let (status, body) = server.get_as(token, "/api/sessions").await;
    assert_eq!(status, 200, "{body}");
    body["devices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["device"].as_str().unwrap().to_owned())
        .collect()
}

/// Ana with an account, her first token on a laptop, then signed in on a phone: (laptop, phone).
async fn ana_on_two_devices(server: &TestServer) -> (Player, String) {
    let laptop = server.member_on("Ana", LAPTOP).await;
    let phone = server.sign_in_from("ana", PHONE).await;
    (laptop, phone)
}

sqlite_and_postgres!(
    a_device_unused_for_longer_than_the_host_allows_is_signed_out_when_it_comes_back,
    unused_device_comes_back
);

async fn unused_device_comes_back(first: TestServer) {
    let servers = LongAgo::from(first, |_| {}).await;
    let server = &servers.now;
    let (laptop, phone) = ana_on_two_devices(server).await;
    let (_, body) = server.get_as(&laptop.token, "/api/sessions").await;
    assert_eq!(
        body["signed_out_after_days"], 365,
        "the list says when: {body}"
    );
    // A day short of the year: still signed in, and listed.
    left_unused(server, &phone, 364).await;
    assert_eq!(me(server, &phone).await.0, 200);
    // Unused for more than a year: signed out, told why once, then unknown like any dead token.
    left_unused(server, &phone, 366).await;
    assert_eq!(
        devices_seen_by(server, &laptop.token).await,
        ["Firefox on Linux"],
        "an expired device is not listed"
    );
    let (status, code, body) = me(server, &phone).await;
    assert_eq!((status, code.as_deref()), (401, Some("session_expired")));
    assert!(
        body["message"].as_str().unwrap().contains("365 days"),
        "{body}"
    );
    let (status, code, _) = me(server, &phone).await;
    assert_eq!((status, code.as_deref()), (401, Some("invalid_token")));
    // The laptop, used, stays signed in; the phone signs in again with the password.
    assert_eq!(me(server, &laptop.token).await.0, 200);
    let phone_again = server.sign_in_from("ana", PHONE).await;
    assert_eq!(me(server, &phone_again).await.0, 200);
    // The first token expires the same way once the player has an account.
    left_unused(server, &laptop.token, 400).await;
    let (status, code, _) = me(server, &laptop.token).await;
    assert_eq!((status, code.as_deref()), (401, Some("session_expired")));
    assert_eq!(
        devices_seen_by(server, &phone_again).await,
        ["Firefox on Android"]
    );
    servers.finish().await;
}

#[tokio::test]
async fn an_expired_device_cannot_open_a_room_socket() {
    let servers = LongAgo::sqlite().await;
    let server = &servers.now;
    let (laptop, phone) = ana_on_two_devices(server).await;
    let room = server.room(&laptop, common::public_four()).await;
    let id = room["id"].as_str().unwrap();
    left_unused(server, &phone, 400).await;
    let (status, body) = status_and_json(
        server
            .get(&format!("/api/rooms/{id}/ws"))
            .bearer_auth(&phone)
            .header("connection", "upgrade")
            .header("upgrade", "websocket")
            .header("sec-websocket-version", "13")
            .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (401, Some("session_expired")),
        "{body}"
    );
    servers.finish().await;
}

sqlite_and_postgres!(
    a_server_starting_after_a_long_stop_signs_unused_devices_out_before_serving,
    started_after_a_long_stop
);

async fn started_after_a_long_stop(first: TestServer) {
    let mut servers = LongAgo::from(first, |_| {}).await;
    let server = &servers.now;
    let (laptop, phone) = ana_on_two_devices(server).await;
    let tablet = server.sign_in_from("ana", TABLET).await;
    let bea = server.player("Bea").await;
    left_unused(server, &laptop.token, 400).await;
    left_unused(server, &phone, 400).await;
    left_unused(server, &bea.token, 4000).await;
    servers.now.stop().await;
    let again = TestServer::start(servers.first.database_url.clone()).await;
    // Signed out already: their tokens are unknown, not "expired" (nothing is left to tell).
    for token in [&laptop.token, &phone] {
        let (status, code, _) = me(&again, token).await;
        assert_eq!((status, code.as_deref()), (401, Some("invalid_token")));
    }
    assert_eq!(devices_seen_by(&again, &tablet).await, ["Safari on iPad"]);
    let (status, export) = again.get_as(&tablet, "/api/players/me/export").await;
    assert_eq!(status, 200, "{export}");
    assert_eq!(export["account"]["signed_in_devices"], 1, "{export}");
    assert_eq!(export["devices"].as_array().unwrap().len(), 1, "{export}");
    // A guest unused for eleven years still plays.
    assert_eq!(me(&again, &bea.token).await.0, 200);
    // The host sees them counted (at least these two: the tests of this file share the counter).
    let metrics = again
        .get("/metrics")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let counted: u64 = metrics
        .lines()
        .find_map(|l| l.strip_prefix("parchis_devices_signed_out_idle_total "))
        .expect("the counter is exposed")
        .trim()
        .parse()
        .unwrap();
    assert!(counted >= 2, "{counted}");
    again.stop_only().await;
    servers.finish().await;
}

#[tokio::test]
async fn a_guest_is_never_signed_out_however_long_unused() {
    let servers = LongAgo::sqlite().await;
    let server = &servers.now;
    let guest = server.player_on("Cleo", PHONE).await;
    left_unused(server, &guest.token, 3650).await;
    assert_eq!(me(server, &guest.token).await.0, 200);
    let (status, export) = server.get_as(&guest.token, "/api/players/me/export").await;
    assert_eq!(status, 200, "{export}");
    assert_eq!(export["devices"].as_array().unwrap().len(), 1, "{export}");
    servers.finish().await;
}

#[tokio::test]
async fn the_host_chooses_how_long_and_zero_never_signs_out() {
    let month = LongAgo::sqlite_with(|c| c.session_idle_days = 30).await;
    let (laptop, phone) = ana_on_two_devices(&month.now).await;
    left_unused(&month.now, &phone, 29).await;
    assert_eq!(me(&month.now, &phone).await.0, 200);
    left_unused(&month.now, &phone, 31).await;
    let (status, code, body) = me(&month.now, &phone).await;
    assert_eq!((status, code.as_deref()), (401, Some("session_expired")));
    assert!(
        body["message"].as_str().unwrap().contains("30 days"),
        "{body}"
    );
    let (_, body) = month.now.get_as(&laptop.token, "/api/sessions").await;
    assert_eq!(
        body["signed_out_after_days"], 30,
        "the list says so: {body}"
    );
    month.finish().await;

    let never = LongAgo::sqlite_with(|c| c.session_idle_days = 0).await;
    let (laptop, phone) = ana_on_two_devices(&never.now).await;
    left_unused(&never.now, &phone, 3650).await;
    left_unused(&never.now, &laptop.token, 3650).await;
    assert_eq!(me(&never.now, &phone).await.0, 200);
    assert_eq!(me(&never.now, &laptop.token).await.0, 200);
    assert_eq!(devices_seen_by(&never.now, &phone).await.len(), 2);
    let (_, body) = never.now.get_as(&phone, "/api/sessions").await;
    assert_eq!(body["signed_out_after_days"], Value::Null, "{body}");
    never.finish().await;
}

sqlite_and_postgres!(
    an_upgrade_counts_idle_time_from_itself_not_from_last_uses_recorded_before,
    upgraded_devices_stay,
    upgraded_from(BEFORE_EXPIRY_VERSION, &ana_two_years_ago())
);

/// The last schema version before devices were signed out for going unused.
const BEFORE_EXPIRY_VERSION: i64 = 15;

/// Ana's account as the previous server left it: her first token and a phone, both last recorded in
/// use two years ago (1 000 000 ms after 1970, as migration 0014 wrote for tokens it found).
fn ana_two_years_ago() -> String {
    format!(
        "INSERT INTO players (id, display_name, token_hash, created_at, token_last_used_at)
             VALUES ('p-ana', 'Ana', '{}', 1000000, 1000000);
         INSERT INTO accounts (player_id, username, username_key, password_hash, created_at)
             VALUES ('p-ana', 'ana', 'ana', 'not-a-phc-string', 1000000);
         INSERT INTO sessions (token_hash, player_id, created_at, last_used_at)
             VALUES ('{}', 'p-ana', 2000000, 2000000);",
        token_hash("ana-laptop"),
        token_hash("ana-phone"),
    )
}

async fn upgraded_devices_stay(server: TestServer) {
    // Both still signed in, and listed: the year counts from the upgrade.
    assert_eq!(devices_seen_by(&server, "ana-phone").await.len(), 2);
    assert_eq!(me(&server, "ana-laptop").await.0, 200);
    server.finish().await;
}

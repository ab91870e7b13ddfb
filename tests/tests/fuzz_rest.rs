//! Seeded fuzz of the server's REST routes: random bodies, path parameters, content types and tokens on
//! every route that writes. The WebSocket fuzz is in `fuzz_ws.rs`, the generators both use in
//! `common/fuzzing.rs`. The seed is fixed, so a failure reproduces: each request is printed before it is
//! sent (the test harness shows the output of a failing test), and every assertion names the seed and the
//! request; `FUZZ_SEED=<decimal or 0x-hex>` replaces the seed to explore other sequences (see `seed()`).
mod common;

use std::time::Duration;

use common::databases::sqlite_and_postgres;
use common::fuzzing::{garbage, lit, random_string, random_value, render, seed};
use common::{TestServer, status_and_json};
use parchis_server::AppError;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use reqwest::Method;
use serde_json::{Value, json};

/// The seed of the REST fuzz (`FUZZ_SEED`, decimal or 0x-hex, replaces it for exploring: see `seed()`).
const REST_SEED: u64 = 0x5EED_0002;
/// Requests sent in it.
const REST_REQUESTS: usize = 600;

/// The REST routes that write, with `{}` for an id a test fills in.
const WRITE_ROUTES: &[(&str, &str)] = &[
    ("POST", "/api/players"),
    ("PATCH", "/api/players/me"),
    ("DELETE", "/api/players/me"),
    ("DELETE", "/api/admin/players/{player}"),
    ("DELETE", "/api/admin/reports/{room}/{seq}"),
    ("POST", "/api/rooms/{room}/chat/{seq}/report"),
    ("POST", "/api/account"),
    ("PATCH", "/api/account"),
    ("POST", "/api/sessions"),
    ("DELETE", "/api/sessions/current"),
    ("POST", "/api/rooms"),
    ("POST", "/api/quick-match"),
    ("POST", "/api/rooms/{room}/join"),
    ("POST", "/api/rooms/{room}/leave"),
    ("POST", "/api/rooms/{room}/start"),
    ("POST", "/api/rooms/{room}/rematch"),
    ("POST", "/api/rooms/{room}/local-players"),
    ("DELETE", "/api/rooms/{room}/local-players/{seq}"),
    ("PUT", "/api/rooms/{room}/seats/{seq}"),
    ("DELETE", "/api/rooms/{room}/seats/{seq}"),
];

/// Keys the REST bodies take somewhere, so that random bodies reach past the first check.
const BODY_KEYS: &[&str] = &[
    "display_name",
    "username",
    "password",
    "new_password",
    "current_password",
    "rules",
    "mode",
    "players",
    "bots",
    "turn_time_secs",
    "public",
    "preview_next_roll",
    "house_rules",
    "draw_seats",
    "join_code",
    "code",
    "seat",
    "preferred_colour",
    "colour",
    "bot",
    "reason",
    "name",
    "x",
];

/// A random value for a REST body: random JSON, or a plausible value of a key.
fn rest_value(rng: &mut StdRng, key: &str) -> String {
    if rng.random_bool(0.5) {
        return random_value(rng, 0);
    }
    match key {
        "rules" => lit(["ludoteka", "playgridia", "chess", ""][rng.random_range(0..4)]),
        "mode" => lit(["individual", "quick", "1v1", "pairs", "solo"][rng.random_range(0..5)]),
        "players" | "seat" => rng.random_range(-2..10i32).to_string(),
        "preferred_colour" | "colour" => {
            lit(["red", "blue", "yellow", "green", "pink", ""][rng.random_range(0..6)])
        }
        "bots" => format!(
            "[{}]",
            (0..rng.random_range(0..6))
                .map(|_| lit(["random", "greedy", "expert", "hard", "x"][rng.random_range(0..5)]))
                .collect::<Vec<_>>()
                .join(",")
        ),
        "turn_time_secs" => {
            ["null", "0", "5", "30", "86400", "-1", "1e9"][rng.random_range(0..7)].into()
        }
        "house_rules" => format!(
            "{{{}:{}}}",
            lit(["capture_bonus", "six", "three_sixes", "first_roll", "x"][rng.random_range(0..5)]),
            random_value(rng, 1)
        ),
        "password" | "new_password" | "current_password" => {
            lit(["correct horse", "", "x", "correct horse battery"][rng.random_range(0..4)])
        }
        "username" => lit(["ana", "ANA", "", "a b", "ñandú", "x"][rng.random_range(0..6)]),
        "bot" => ["\"random\"", "\"expert\"", "\"hard\"", "null", "\"x\"", "3"]
            [rng.random_range(0..6)]
        .into(),
        _ => lit(&random_string(rng)),
    }
}

/// A valid body of the route `template` (as `(key, JSON text)` fields), for the mutations to start from.
fn route_base(template: &str) -> Vec<(&'static str, String)> {
    let fields: &[(&'static str, &str)] = match template {
        "/api/players" | "/api/players/me" => &[("display_name", "\"Ana\"")],
        "/api/account" => &[
            ("username", "\"ana2\""),
            ("password", "\"correct horse\""),
            ("new_password", "\"correct horse battery\""),
        ],
        "/api/sessions" => &[("username", "\"ana\""), ("password", "\"correct horse\"")],
        "/api/rooms" => &[
            ("rules", "\"ludoteka\""),
            ("mode", "\"individual\""),
            ("players", "4"),
            ("bots", "[null,\"greedy\"]"),
            ("turn_time_secs", "30"),
            ("public", "true"),
            ("house_rules", "{\"capture_bonus\":10}"),
            ("draw_seats", "false"),
        ],
        "/api/quick-match" => &[
            ("rules", "\"playgridia\""),
            ("mode", "\"quick\""),
            ("players", "2"),
        ],
        "/api/rooms/{room}/join" => &[("preferred_colour", "\"red\""), ("code", "\"ABCDEF\"")],
        "/api/rooms/{room}/local-players" => &[("display_name", "\"Leo\""), ("seat", "1")],
        "/api/rooms/{room}/chat/{seq}/report" => &[("reason", "\"spam\"")],
        "/api/rooms/{room}/seats/{seq}" => &[("bot", "\"expert\"")],
        _ => &[("password", "\"correct horse\"")],
    };
    fields.iter().map(|(k, v)| (*k, (*v).to_owned())).collect()
}

/// A random body for the route `template`: its valid body with fields mutated, a JSON object of plausible
/// keys, other JSON, bytes that are not JSON, or nothing.
fn rest_body(rng: &mut StdRng, template: &str) -> Vec<u8> {
    match rng.random_range(0..14) {
        10..=13 => {
            let mut fields = route_base(template);
            for _ in 0..rng.random_range(0..3) {
                let i = rng.random_range(0..fields.len());
                match rng.random_range(0..4) {
                    0 => {
                        fields.remove(i);
                    }
                    1 => {
                        let key = BODY_KEYS[rng.random_range(0..BODY_KEYS.len())];
                        fields.push((key, rest_value(rng, key)));
                    }
                    _ => fields[i].1 = rest_value(rng, fields[i].0),
                }
                if fields.is_empty() {
                    break;
                }
            }
            let fields: Vec<(String, String)> =
                fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
            render(&fields).into_bytes()
        }
        0..=4 => {
            let fields: Vec<(String, String)> = (0..rng.random_range(0..6))
                .map(|_| {
                    let key = BODY_KEYS[rng.random_range(0..BODY_KEYS.len())];
                    (key.to_owned(), rest_value(rng, key))
                })
                .collect();
            render(&fields).into_bytes()
        }
        5 => random_value(rng, 0).into_bytes(),
        6 => garbage(rng).into_bytes(),
        7 => (0..rng.random_range(0..64))
            .map(|_| rng.random::<u8>())
            .collect(),
        8 => Vec::new(),
        _ => {
            // Large: past any sensible body limit.
            let n = [10_000, 100_000, 3_000_000][rng.random_range(0..3)];
            format!("{{\"display_name\":\"{}\"}}", "x".repeat(n)).into_bytes()
        }
    }
}

/// A random path parameter: a real one, or anything.
fn rest_param(rng: &mut StdRng, real: &str) -> String {
    match rng.random_range(0..6) {
        0..=2 => real.to_owned(),
        3 => [
            "0",
            "-1",
            "99999999999999999999",
            "%00",
            "%FF",
            "..",
            "x%20y",
            "%E2%80%AE",
        ][rng.random_range(0..8)]
        .to_owned(),
        4 => rng.random::<u64>().to_string(),
        _ => {
            let s: String = (0..rng.random_range(1..30))
                .map(|_| char::from(rng.random_range(b'a'..=b'z')))
                .collect();
            s
        }
    }
}

/// What the REST fuzz watches for changes: the room (as its owner sees it) and the member (as they see
/// themselves), each as `[status, body]`.
async fn rest_state(server: &TestServer, token: &str, room: &str) -> Value {
    let (room_status, room) = server.get_as(token, &format!("/api/rooms/{room}")).await;
    let (me_status, me) = server.get_as(token, "/api/players/me").await;
    json!([room, room_status.as_u16(), me, me_status.as_u16()])
}

sqlite_and_postgres!(
    /// Every REST route that writes, hit with seeded random bodies, content types and tokens: every answer is
    /// a 2xx or JSON `{code, message}` with a listed code, never a 5xx, within a few seconds; and the server
    /// keeps answering. On PostgreSQL too, which refuses what SQLite stores (a NUL byte in text, say).
    random_bodies_on_every_writing_route_get_a_listed_code_and_never_a_5xx,
    rest_fuzz,
    with_admin
);

/// The admin token the REST fuzz sends.
fn with_admin(config: &mut parchis_server::Config) {
    config.admin_token = Some("an-admin-token-long-enough".into());
}

/// The REST fuzz on `server` (started with [`with_admin`]), which it finishes.
async fn rest_fuzz(server: TestServer) {
    let started = std::time::Instant::now();
    let member = server.member("Ana").await;
    let stranger = server.player("Sam").await;
    let room = server.room(&member, common::public_four()).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let rest_seed = seed(REST_SEED);
    let mut rng = StdRng::seed_from_u64(rest_seed);
    let mut heard = std::collections::BTreeMap::<String, usize>::new();
    for n in 0..REST_REQUESTS {
        let (method, template) = WRITE_ROUTES[rng.random_range(0..WRITE_ROUTES.len())];
        // The admin erases whom it is given: a guest made for it, not the member.
        let victim = if template.contains("{player}") {
            server.player("Victim").await.id
        } else {
            String::new()
        };
        let path = template
            .replace("{player}", &rest_param(&mut rng, &victim))
            .replace("{room}", &rest_param(&mut rng, &room))
            .replace("{seq}", &rest_param(&mut rng, "1"));
        // A token: none, garbage, the admin's, or a valid player's (a fresh guest's for the routes that
        // erase or sign out, so that the member stays).
        let token = match rng.random_range(0..7) {
            0 => None,
            1 => Some(random_string(&mut rng)),
            2 => Some("an-admin-token-long-enough".to_owned()),
            // A valid token of someone else than the owner (who may sit down, but not act for others).
            3 if !path.ends_with("/me") && !path.ends_with("/current") => {
                Some(stranger.token.clone())
            }
            _ if path.ends_with("/me") || path.ends_with("/current") => {
                Some(server.player("Tmp").await.token)
            }
            _ => Some(member.token.clone()),
        };
        let body = rest_body(&mut rng, template);
        let content_type = [
            Some("application/json"),
            Some("application/json"),
            Some("application/json"),
            None,
            Some("text/plain"),
            Some("application/json; charset=utf-16"),
            Some("application/x-www-form-urlencoded"),
            Some("multipart/form-data; boundary=x"),
            Some("application/json\u{0}"),
        ][rng.random_range(0..9)];
        let shown_body = String::from_utf8_lossy(&body[..body.len().min(300)]).into_owned();
        let ctx = format!(
            "seed {rest_seed:#x}, request #{n}: {method} {path} token {token:?} \
             content-type {content_type:?} body ({} bytes) {shown_body:?}",
            body.len()
        );
        println!("{ctx}");
        let mut request = client.request(
            Method::from_bytes(method.as_bytes()).unwrap(),
            server.url(&path),
        );
        if let Some(token) = &token {
            // A token no header can carry is sent as garbage a header can.
            let value = format!("Bearer {token}");
            if reqwest::header::HeaderValue::from_str(&value).is_ok() {
                request = request.header("authorization", value);
            } else {
                request = request.header("authorization", "Bearer \u{7f}x".replace('\u{7f}', "~"));
            }
        }
        if let Some(content_type) = content_type
            && reqwest::header::HeaderValue::from_str(content_type).is_ok()
        {
            request = request.header("content-type", content_type);
        }
        let before = rest_state(&server, &member.token, &room).await;
        let response = request
            .body(body)
            .send()
            .await
            .unwrap_or_else(|e| panic!("{ctx}: no answer: {e}"));
        let (status, answer) = status_and_json(response).await;
        assert!(!status.is_server_error(), "{ctx}: {status} {answer}");
        if status.is_success() {
            *heard.entry(status.to_string()).or_default() += 1;
            continue;
        }
        let code = answer["code"]
            .as_str()
            .unwrap_or_else(|| panic!("{ctx}: {status} {answer}"));
        *heard.entry(code.to_owned()).or_default() += 1;
        // A refused request changes nothing (a room being played by bots may finish meanwhile: then only
        // the member is compared).
        let mut after = rest_state(&server, &member.token, &room).await;
        let mut before = before;
        if before[0]["status"] == "playing" {
            (before[0], after[0]) = (Value::Null, Value::Null);
        }
        assert_eq!(
            after, before,
            "{ctx}: a refused request ({code}) changed the state"
        );
        assert!(
            AppError::codes().any(|c| c == code),
            "{ctx}: undocumented code: {status} {answer}"
        );
        assert!(
            answer["message"]
                .as_str()
                .is_some_and(|m| !m.trim().is_empty()),
            "{ctx}: an error without a sentence: {status} {answer}"
        );
    }
    println!("seed {rest_seed:#x}: answers heard {heard:?}");
    // The server still answers, and the member's token still works.
    let (status, me) = server.get_as(&member.token, "/api/players/me").await;
    assert!(status == 200 || status == 401, "{status} {me}");
    let fresh = server.player("Zoe").await;
    assert!(!fresh.token.is_empty());
    println!("took {:?}", started.elapsed());
    server.finish().await;
}

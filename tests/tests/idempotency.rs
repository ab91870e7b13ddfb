//! Issue 35, point 2: a refused create changes nothing (a create in flight when the server stops is
//! either answered with its room or leaves none), and a create sent again with the same
//! `Idempotency-Key` is answered the same, without a second room or player.
mod common;

use common::databases::sqlite_and_postgres;
use common::{Player, TestServer, public_four, status_and_json};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// The rooms `player` sits in, as the server has them stored.
async fn rooms_of(server: &TestServer, player: &Player) -> Vec<String> {
    let (status, body) = server.get_as(&player.token, "/api/players/me/rooms").await;
    assert_eq!(status, 200, "{body}");
    body["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["room_id"].as_str().unwrap().to_owned())
        .collect()
}

/// How many creates are in flight when the server is told to stop.
const CREATES: usize = 120;

sqlite_and_postgres!(
    creates_in_flight_at_shutdown_either_answer_their_room_or_leave_none,
    creates_in_flight_at_shutdown
);

/// Every player sends one create; the server is stopped once the first are answered, with the rest in
/// flight. After a restart on the same database, a player whose create was refused (or never answered)
/// has no room, and one answered `201` has exactly the room of the answer.
async fn creates_in_flight_at_shutdown(mut server: TestServer) {
    let mut players = Vec::new();
    for i in 0..CREATES {
        players.push(server.player(&format!("P{i}")).await);
    }
    let (first_answer, answered) = tokio::sync::mpsc::channel::<()>(CREATES);
    // Set as the server is told to stop: the answers that come after it were in flight at the stop.
    let stopping = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut creates = Vec::new();
    for (i, player) in players.iter().enumerate() {
        // A connection each, so that none waits behind another's answer.
        let client = reqwest::Client::new();
        let url = server.url(if i % 2 == 0 {
            "/api/rooms"
        } else {
            "/api/quick-match"
        });
        let body = if i % 2 == 0 {
            public_four()
        } else {
            json!({ "rules": "ludoteka", "mode": "individual", "players": 4 })
        };
        let token = player.token.clone();
        let first_answer = first_answer.clone();
        let stopping = stopping.clone();
        creates.push(tokio::spawn(async move {
            let answer = client.post(url).bearer_auth(token).json(&body).send().await;
            let after_stop = stopping.load(std::sync::atomic::Ordering::SeqCst);
            let _ = first_answer.try_send(());
            match answer {
                Ok(resp) => (Some(status_and_json(resp).await), after_stop),
                Err(_) => (None, after_stop), // the server stopped before answering
            }
        }));
    }
    let mut answered = answered;
    answered.recv().await;
    stopping.store(true, std::sync::atomic::Ordering::SeqCst);
    server.stop().await;
    let mut outcomes = Vec::new();
    for create in creates {
        outcomes.push(create.await.unwrap());
    }

    let again = TestServer::start(server.database_url.clone()).await;
    let (mut created, mut refused, mut in_flight) = (0, 0, 0);
    for (player, (outcome, after_stop)) in players.iter().zip(&outcomes) {
        in_flight += usize::from(*after_stop);
        let stored = rooms_of(&again, player).await;
        match outcome {
            Some((status, body)) if status.is_success() => {
                created += 1;
                assert_eq!(
                    stored,
                    vec![body["id"].as_str().unwrap().to_owned()],
                    "a create answered {status} left exactly its room: {body}"
                );
            }
            _ => {
                refused += 1;
                assert_eq!(
                    stored,
                    Vec::<String>::new(),
                    "a create answered {outcome:?} left a room all the same"
                );
            }
        }
    }
    assert!(
        in_flight > 0,
        "the stop came with creates in flight ({created} created, {refused} refused)"
    );
    again.stop_only().await;
    server.finish().await;
}

/// Sends `body` to `path` as `player` (or nobody) with `key` as its `Idempotency-Key` header value.
async fn keyed(
    server: &TestServer,
    player: Option<&Player>,
    path: &str,
    key: &str,
    body: &Value,
) -> (StatusCode, Value, bool) {
    let mut request = server.post(path).header("idempotency-key", key).json(body);
    if let Some(player) = player {
        request = request.bearer_auth(&player.token);
    }
    let resp = request.send().await.expect("request");
    let replayed = resp
        .headers()
        .get("idempotent-replayed")
        .is_some_and(|v| v == "true");
    let (status, body) = status_and_json(resp).await;
    (status, body, replayed)
}

sqlite_and_postgres!(
    a_create_sent_again_with_its_idempotency_key_is_answered_the_same_even_after_a_restart,
    retried_creates
);

async fn retried_creates(mut server: TestServer) {
    let ana = server.player("Ana").await;
    let key = "\"0b9ad3d4-5bb2-4a4c-8d4e-0b5c2a7f11aa\"";
    let (status, first, replayed) =
        keyed(&server, Some(&ana), "/api/rooms", key, &public_four()).await;
    assert_eq!(status, 201, "{first}");
    assert!(!replayed);
    let (status, again, replayed) =
        keyed(&server, Some(&ana), "/api/rooms", key, &public_four()).await;
    assert_eq!((status, &again), (StatusCode::CREATED, &first));
    assert!(replayed, "the answer says it is the first one again");
    assert_eq!(
        rooms_of(&server, &ana).await,
        vec![first["id"].as_str().unwrap().to_owned()]
    );

    // Another player's same key is another request altogether.
    let bea = server.player("Bea").await;
    let (status, theirs, replayed) =
        keyed(&server, Some(&bea), "/api/rooms", key, &public_four()).await;
    assert_eq!(status, 201, "{theirs}");
    assert!(!replayed);
    assert_ne!(theirs["id"], first["id"]);

    // The same key for another body, or another route: refused, nothing made.
    let other =
        json!({ "rules": "playgridia", "mode": "individual", "players": 4, "public": true });
    let (status, body, _) = keyed(&server, Some(&ana), "/api/rooms", key, &other).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            Some("idempotency_key_reused")
        ),
        "{body}"
    );
    let (status, body, _) =
        keyed(&server, Some(&ana), "/api/quick-match", key, &public_four()).await;
    assert_eq!(body["code"], "idempotency_key_reused", "{status} {body}");
    assert_eq!(rooms_of(&server, &ana).await.len(), 1);

    // A player made without a token: the key alone is the caller; the token comes back the same.
    let player_key = "5e7c2b1a-unauthenticated";
    let name = json!({ "display_name": "Cy" });
    let (status, cy, _) = keyed(&server, None, "/api/players", player_key, &name).await;
    assert_eq!(status, 201, "{cy}");
    let (status, cy_again, replayed) =
        keyed(&server, None, "/api/players", player_key, &name).await;
    assert_eq!(
        (status, &cy_again, replayed),
        (StatusCode::CREATED, &cy, true)
    );

    // That key sent without a token to a route that needs one: refused for the token, not the key
    // (and neither a wrong token's request).
    for token in [None, Some("not-a-token")] {
        let mut request = server
            .post("/api/quick-match")
            .header("idempotency-key", player_key)
            .json(&public_four());
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let (status, body) = status_and_json(request.send().await.unwrap()).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (
                StatusCode::UNAUTHORIZED,
                Some(if token.is_some() {
                    "invalid_token"
                } else {
                    "missing_token"
                })
            ),
            "{body}"
        );
    }

    // A refusal changes nothing and is not kept: the same key is answered afresh.
    let refused_key = "refused-then-fine";
    let bad = json!({ "rules": "ludoteka", "mode": "individual", "players": 9 });
    let (status, _, _) = keyed(&server, Some(&ana), "/api/quick-match", refused_key, &bad).await;
    assert_eq!(status, 422);
    let (status, _, replayed) =
        keyed(&server, Some(&ana), "/api/quick-match", refused_key, &bad).await;
    assert_eq!(
        (status, replayed),
        (StatusCode::UNPROCESSABLE_ENTITY, false)
    );

    // After a restart (on any node: the keys are stored), the same answers.
    server.stop().await;
    let restarted = TestServer::start(server.database_url.clone()).await;
    let (status, after, replayed) =
        keyed(&restarted, Some(&ana), "/api/rooms", key, &public_four()).await;
    assert_eq!(
        (status, &after, replayed),
        (StatusCode::CREATED, &first, true)
    );
    let (status, cy_after, replayed) =
        keyed(&restarted, None, "/api/players", player_key, &name).await;
    assert_eq!(
        (status, &cy_after, replayed),
        (StatusCode::CREATED, &cy, true)
    );
    assert_eq!(rooms_of(&restarted, &ana).await.len(), 1, "still one room");
    restarted.stop_only().await;
    server.finish().await;
}

sqlite_and_postgres!(
    malformed_idempotency_keys_are_refused_and_make_nothing,
    malformed_keys
);

async fn malformed_keys(server: TestServer) {
    let ana = server.player("Ana").await;
    let long = "k".repeat(256);
    for bad in ["", "\"\"", long.as_str(), "tab\tinside", "\"unterminated"] {
        let (status, body, _) = keyed(&server, Some(&ana), "/api/rooms", bad, &public_four()).await;
        assert_eq!(status, 400, "{bad:?}: {body}");
        assert_eq!(body["code"], "invalid_idempotency_key", "{bad:?}: {body}");
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .contains("Idempotency-Key")
        );
    }
    let resp = server
        .post("/api/rooms")
        .bearer_auth(&ana.token)
        .header("idempotency-key", "one")
        .header("idempotency-key", "two")
        .json(&public_four())
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(resp).await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (400, Some("invalid_idempotency_key"))
    );
    assert!(rooms_of(&server, &ana).await.is_empty());
    // The OpenAPI document offers the header on each route that creates something.
    let doc = server.get_ok("/api-docs/openapi.json").await;
    for path in [
        "/api/players",
        "/api/rooms",
        "/api/quick-match",
        "/api/rooms/{id}/rematch",
        "/api/rooms/{id}/local-players",
    ] {
        let post = &doc["paths"][path]["post"];
        let header = post["parameters"]
            .as_array()
            .and_then(|ps| ps.iter().find(|p| p["name"] == "Idempotency-Key"))
            .unwrap_or_else(|| panic!("{path}: no Idempotency-Key in {post}"));
        assert_eq!(header["in"], "header");
        assert_eq!(header["schema"]["maxLength"], 255);
        assert!(
            post["responses"]["409"]["description"]
                .as_str()
                .unwrap()
                .contains("idempotency_key_in_flight")
        );
    }
    server.finish().await;
}

sqlite_and_postgres!(
    retries_while_the_first_request_is_answered_are_told_to_wait,
    in_flight_retries
);

/// Copies of one request with one key, sent at once: one creates the room, the others are told that it
/// is being answered (`409`) or get its answer again; never a second room.
async fn in_flight_retries(server: TestServer) {
    let ana = server.player("Ana").await;
    let mut told_to_wait = 0;
    for attempt in 0..5 {
        let key = format!("at-once-{attempt}");
        let mut copies = Vec::new();
        for _ in 0..16 {
            let client = reqwest::Client::new();
            let request = client
                .post(server.url("/api/rooms"))
                .bearer_auth(&ana.token)
                .header("idempotency-key", &key)
                .json(&public_four());
            copies.push(tokio::spawn(async move {
                status_and_json(request.send().await.unwrap()).await
            }));
        }
        let mut rooms = std::collections::HashSet::new();
        for copy in copies {
            let (status, body) = copy.await.unwrap();
            match status {
                StatusCode::CREATED => {
                    rooms.insert(body["id"].as_str().unwrap().to_owned());
                }
                StatusCode::CONFLICT => {
                    assert_eq!(body["code"], "idempotency_key_in_flight", "{body}");
                    told_to_wait += 1;
                }
                other => panic!("{other}: {body}"),
            }
        }
        assert_eq!(rooms.len(), 1, "one room for one key: {rooms:?}");
        assert_eq!(rooms_of(&server, &ana).await.len(), attempt + 1);
        if told_to_wait > 0 {
            break;
        }
    }
    assert!(told_to_wait > 0, "a copy came while the first was answered");
    server.finish().await;
}

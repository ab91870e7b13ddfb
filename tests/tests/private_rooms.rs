//! A private room is for whoever has its code and for its members: anyone else looking it up by its bare
//! id, or reading the record of its running game, gets `403 wrong_join_code`; and one address cannot
//! guess codes quickly, since lookups that find no room are limited per address.
mod common;

use common::{Player, TestServer, private_duel, public_four, status_and_json};
use parchis_server::db::{Db, now_ms};
use parchis_server::rate_limit::LOOKUP_MISSES_PER_MINUTE;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A private duel owned by Ana, with Luis seated by its code: `(room, ana, luis, code)`.
async fn private_room_with_two(server: &TestServer) -> (String, Player, Player, String) {
    let ana = server.player("Ana").await;
    let luis = server.player("Luis").await;
    let room = server.room(&ana, private_duel()).await;
    let id = room["id"].as_str().unwrap().to_owned();
    let code = room["join_code"].as_str().unwrap().to_owned();
    let (status, body) = server
        .post_as(&luis, &format!("/api/rooms/{code}/join"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    (id, ana, luis, code)
}

/// GETs `path` from the forwarded address `ip`, with `token` if any.
async fn get_from(
    server: &TestServer,
    ip: &str,
    token: Option<&str>,
    path: &str,
) -> reqwest::Response {
    let mut request = server.get(path).header("x-forwarded-for", ip);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

/// GETs `path` with `token` if any: status and body.
async fn get_with(server: &TestServer, token: Option<&str>, path: &str) -> (StatusCode, Value) {
    let mut request = server.get(path);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    status_and_json(request.send().await.unwrap()).await
}

/// `n` join codes other than `taken`, all well-formed.
fn other_codes(taken: &str, n: usize) -> Vec<String> {
    let alphabet = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
    (0..)
        .map(|i: usize| {
            (0..6)
                .map(|d| alphabet[(i / alphabet.len().pow(d)) % alphabet.len()] as char)
                .collect::<String>()
        })
        .filter(|code| code != taken)
        .take(n)
        .collect()
}

#[tokio::test]
async fn an_address_guessing_join_codes_is_refused_after_its_misses_while_other_addresses_still_open_rooms()
 {
    let server = TestServer::sqlite_with(|c| {
        c.http_writes_per_minute = 100;
        c.trust_forwarded_for = true;
    })
    .await;
    let (id, ana, _luis, code) = private_room_with_two(&server).await;
    let guesser = "203.0.113.66";
    let misses = usize::try_from(LOOKUP_MISSES_PER_MINUTE).unwrap();
    let guesses = other_codes(&code, misses + 1);
    for (i, guess) in guesses[..misses].iter().enumerate() {
        // Half of them through the WebSocket's URL: its lookups count the same.
        let path = if i % 2 == 0 {
            format!("/api/rooms/{guess}")
        } else {
            format!("/api/rooms/{guess}/ws")
        };
        let (status, body) = status_and_json(get_from(&server, guesser, None, &path).await).await;
        assert_eq!(status, 404, "guess {i}: {body}");
        assert_eq!(body["code"], "room_not_found");
    }
    let refused = get_from(
        &server,
        guesser,
        None,
        &format!("/api/rooms/{}", guesses[misses]),
    )
    .await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "retry after {retry} s");
    let (_, body) = status_and_json(refused).await;
    assert_eq!(body["code"], "rate_limited");
    // Even the right code is refused now (an answer would tell the guesser it is right), on both paths.
    for path in [
        format!("/api/rooms/{code}"),
        format!("/api/rooms/{code}/ws"),
    ] {
        let (status, body) = status_and_json(get_from(&server, guesser, None, &path).await).await;
        assert_eq!(status, 429, "{path}: {body}");
        assert_eq!(body["code"], "rate_limited");
    }
    // Everyone else is served as before.
    let (status, body) = status_and_json(
        get_from(
            &server,
            "203.0.113.7",
            Some(&ana.token),
            &format!("/api/rooms/{id}"),
        )
        .await,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["join_code"], code.as_str());
    let (status, body) = status_and_json(
        get_from(&server, "203.0.113.8", None, &format!("/api/rooms/{code}")).await,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["id"], id.as_str());
    server.finish().await;
}

#[tokio::test]
async fn opening_rooms_that_exist_is_never_counted_against_an_address() {
    let server = TestServer::sqlite_with(|c| c.http_writes_per_minute = 100).await;
    let (id, ana, _luis, code) = private_room_with_two(&server).await;
    let public = server.room(&ana, public_four()).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for _ in 0..LOOKUP_MISSES_PER_MINUTE + 10 {
        for (token, path) in [
            (None, format!("/api/rooms/{code}")),
            (Some(ana.token.as_str()), format!("/api/rooms/{id}")),
            (None, format!("/api/rooms/{public}")),
        ] {
            let (status, body) = get_with(&server, token, &path).await;
            assert_eq!(status, 200, "{path}: {body}");
        }
    }
    server.finish().await;
}

#[tokio::test]
async fn a_private_room_by_its_bare_id_is_shown_only_to_its_owner_and_seated_players() {
    let server = TestServer::sqlite().await;
    let (id, ana, luis, code) = private_room_with_two(&server).await;
    let eva = server.player("Eva").await;
    let by_id = format!("/api/rooms/{id}");
    for (who, token) in [("no token", None), ("a stranger", Some(eva.token.as_str()))] {
        let (status, body) = get_with(&server, token, &by_id).await;
        assert_eq!(status, 403, "{who}: {body}");
        assert_eq!(body["code"], "wrong_join_code", "{who}");
        assert_eq!(
            body["seats"],
            Value::Null,
            "{who} learns nothing of the room"
        );
    }
    for (who, token) in [("the owner", &ana.token), ("a seated player", &luis.token)] {
        let (status, body) = get_with(&server, Some(token), &by_id).await;
        assert_eq!(status, 200, "{who}: {body}");
        assert_eq!(body["join_code"], code.as_str(), "{who}");
    }
    // By its code, anyone finds it.
    for token in [None, Some(eva.token.as_str())] {
        let (status, body) = get_with(&server, token, &format!("/api/rooms/{code}")).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["id"], id.as_str());
    }
    // A public room stays open to all by its id.
    let public = server.room(&ana, public_four()).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = get_with(&server, None, &format!("/api/rooms/{public}")).await;
    assert_eq!(status, 200, "{body}");
    server.finish().await;
}

#[tokio::test]
async fn the_record_of_a_running_private_game_is_only_for_its_players_and_a_finished_one_is_public()
{
    let server = TestServer::sqlite().await;
    let (id, ana, luis, _code) = private_room_with_two(&server).await;
    let eva = server.player("Eva").await;
    let (status, room) = server
        .post_as(&ana, &format!("/api/rooms/{id}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{room}");
    let game_id = room["game_id"].as_str().unwrap().to_owned();
    let path = format!("/api/games/{game_id}/record");
    for (who, token) in [("no token", None), ("a stranger", Some(eva.token.as_str()))] {
        let (status, body) = get_with(&server, token, &path).await;
        assert_eq!(status, 403, "{who}: {body}");
        assert_eq!(body["code"], "wrong_join_code", "{who}");
        assert_eq!(body["log"], Value::Null, "{who} sees no moves");
    }
    for (who, token) in [("the owner", &ana.token), ("a seated player", &luis.token)] {
        let (status, body) = get_with(&server, Some(token), &path).await;
        assert_eq!(status, 200, "{who}: {body}");
        assert_eq!(body["game_id"], game_id.as_str());
        assert_eq!(
            body["seed"],
            Value::Null,
            "the seed stays secret while it runs"
        );
    }

    let db = Db::connect(&server.database_url).await.unwrap();
    db.finish_game(
        &game_id,
        json!({ "winner": 0 }),
        now_ms(),
        "playgridia",
        false,
        &[0, 1],
        0,
        &[],
    )
    .await
    .unwrap();
    db.close().await;
    // Finished, it is anyone's to verify.
    for token in [None, Some(eva.token.as_str())] {
        let (status, body) = get_with(&server, token, &path).await;
        assert_eq!(status, 200, "{body}");
        assert!(body["seed"].is_string(), "the seed is revealed");
    }
    server.finish().await;
}

#[tokio::test]
async fn every_route_that_finds_a_room_by_its_code_counts_its_misses() {
    let server = TestServer::sqlite_with(|c| {
        c.http_writes_per_minute = 1000;
        c.trust_forwarded_for = true;
    })
    .await;
    let (_id, _ana, luis, code) = private_room_with_two(&server).await;
    let misses = usize::try_from(LOOKUP_MISSES_PER_MINUTE).unwrap();
    let guesses = other_codes(&code, misses + 1);
    let routes: [(&str, &str, Value); 9] = [
        ("POST", "join", json!({})),
        ("POST", "leave", json!({})),
        ("POST", "start", json!({})),
        ("POST", "rematch", json!({})),
        ("POST", "local-players", json!({ "display_name": "Abuela" })),
        ("DELETE", "local-players/1", Value::Null),
        ("PUT", "seats/1", json!({ "bot": "easy" })),
        ("DELETE", "seats/1", Value::Null),
        ("POST", "chat/1/report", json!({ "reason": "rude" })),
    ];
    for (n, (method, route, body)) in routes.iter().enumerate() {
        // An address of its own for each route: its misses alone use up the allowance.
        let guesser = format!("203.0.113.{}", 100 + n);
        for (i, guess) in guesses.iter().enumerate() {
            let path = server.url(&format!("/api/rooms/{guess}/{route}"));
            let mut request = server
                .client
                .request(method.parse().unwrap(), path)
                .header("x-forwarded-for", &guesser)
                .bearer_auth(&luis.token);
            if !body.is_null() {
                request = request.json(body);
            }
            let (status, answer) = status_and_json(request.send().await.unwrap()).await;
            if i < misses {
                // Reporting a message answers a room that does not exist as a message that does not.
                let code = if route.contains("report") {
                    "message_not_found"
                } else {
                    "room_not_found"
                };
                assert_eq!(status, 404, "{method} {route}: {answer}");
                assert_eq!(answer["code"], code, "{method} {route}");
            } else {
                assert_eq!(
                    status, 429,
                    "{method} {route}: misses not counted: {answer}"
                );
                assert_eq!(answer["code"], "rate_limited");
            }
        }
        // The room that exists is not shown to the guesser either.
        let (status, answer) =
            status_and_json(get_from(&server, &guesser, None, &format!("/api/rooms/{code}")).await)
                .await;
        assert_eq!(status, 429, "{method} {route}: {answer}");
        assert_eq!(answer["code"], "rate_limited");
    }
    server.finish().await;
}

#[tokio::test]
async fn a_finished_private_room_is_shown_by_its_bare_id_to_anyone_without_its_code_so_its_link_leads_to_the_replay()
 {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let eva = server.player("Eva").await;
    let room = server.room(&ana, private_duel()).await;
    let id = room["id"].as_str().unwrap().to_owned();
    common::game::play_through(&server, &ana, &id).await;
    // The result is stored just after the winning move.
    for _ in 0..100 {
        let (_, body) = get_with(&server, Some(&ana.token), &format!("/api/rooms/{id}")).await;
        if body["status"] == "finished" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    for (who, token) in [("no token", None), ("a stranger", Some(eva.token.as_str()))] {
        let (status, body) = get_with(&server, token, &format!("/api/rooms/{id}")).await;
        assert_eq!(status, 200, "{who}: {body}");
        assert_eq!(body["status"], "finished", "{who}");
        assert!(
            body["game_id"].is_string(),
            "{who}: the game, for its replay"
        );
        assert_eq!(body["join_code"], Value::Null, "{who}: never the code");
    }
    // Its chat stays its members': the WebSocket by the bare id is still refused.
    let response = server
        .get(&format!("/api/rooms/{id}/ws"))
        .header("connection", "upgrade")
        .header("upgrade", "websocket")
        .header("sec-websocket-version", "13")
        .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(response).await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (403, Some("wrong_join_code"))
    );
    server.finish().await;
}

//! The documents clients build on say what the server does: PROTOCOL.md's tables of WebSocket error and
//! close codes list exactly the codes the server can send, the OpenAPI document lists exactly the routes the
//! router serves (with their methods), and its error schema every REST error code.
//!
//! A new code or route fails here until it is documented: add its row to PROTOCOL.md (WebSocket) or its
//! `#[utoipa::path]` to `openapi.rs` (REST); a REST code is one entry of `app_errors!` in `error.rs`.

mod common;

use std::collections::BTreeSet;

use common::{TestServer, status_and_json};
use parchis_server::AppError;
use parchis_server::rooms::protocol::{Close, ErrorCode};
use serde_json::Value;

/// A file of the repository, read as text.
fn repo_file(path: &str) -> String {
    let full = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// The rows of the first Markdown table after the line `heading`, as their cells (without the header
/// and its separator).
fn table_after(doc: &str, heading: &str) -> Vec<Vec<String>> {
    let mut lines = doc.lines().skip_while(|l| l.trim() != heading).skip(1);
    let rows: Vec<Vec<String>> = lines
        .by_ref()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_owned())
                .collect()
        })
        .collect();
    assert!(rows.len() > 2, "no table after {heading:?}");
    rows.into_iter().skip(2).collect()
}

/// `` `code` `` → `code`.
fn unquote(cell: &str) -> String {
    cell.trim_matches('`').to_owned()
}

#[test]
fn every_websocket_error_code_is_in_the_protocol_table_and_every_row_is_a_code() {
    let doc = repo_file("PROTOCOL.md");
    let table = table_after(&doc, "### `error`");
    let documented: BTreeSet<String> = table.iter().map(|row| unquote(&row[0])).collect();
    assert_eq!(documented.len(), table.len(), "a code has two rows");
    for row in &table {
        assert!(
            row.get(1).is_some_and(|when| !when.is_empty()),
            "{row:?} says nothing"
        );
    }
    let sent: BTreeSet<String> = ErrorCode::ALL
        .iter()
        .map(|c| c.as_str().to_owned())
        .collect();
    assert_eq!(
        documented, sent,
        "PROTOCOL.md §2 `error` table (left) and the codes the server sends (ErrorCode, right) differ"
    );
}

#[test]
fn every_close_the_server_sends_is_in_the_close_codes_table() {
    let doc = repo_file("PROTOCOL.md");
    let documented: BTreeSet<(u16, String)> = table_after(&doc, "### Close codes")
        .iter()
        .map(|row| (row[0].parse().expect("a close code"), unquote(&row[1])))
        .collect();
    let sent: BTreeSet<(u16, String)> = Close::ALL
        .iter()
        .map(|c| (c.code(), c.reason().to_owned()))
        .collect();
    assert_eq!(
        documented, sent,
        "PROTOCOL.md close codes (left) and the closes the server sends (right) differ"
    );
}

/// The paths the router serves, read from its source: every `.route("…"` of `routes/mod.rs` (the
/// documentation's own routes, `/docs` and `/api-docs/…`, are in `docs.rs` and not described).
fn routed_paths() -> BTreeSet<String> {
    let source = repo_file("crates/server/src/routes/mod.rs");
    let paths: BTreeSet<String> = source
        .split(".route(")
        .skip(1)
        .map(|rest| {
            let rest = rest.trim_start();
            let rest = rest.strip_prefix('"').expect("a route's path is a literal");
            rest[..rest.find('"').unwrap()].to_owned()
        })
        .collect();
    assert!(paths.len() > 20, "{paths:?}");
    paths
}

/// `path` with every `{param}` replaced by a value that names nothing.
fn concrete(path: &str) -> String {
    let mut out = String::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = rest[open..].find('}').unwrap() + open;
        out.push_str(
            if rest[open..close].contains("seq") || rest[open..close].contains("seat") {
                "1"
            } else {
                "nobody"
            },
        );
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

#[tokio::test]
async fn the_openapi_document_describes_exactly_the_routes_served_with_their_methods() {
    let server = TestServer::sqlite_with(|c| {
        // The admin routes answer 404 without a token; with one they are served as documented.
        c.admin_token = Some("an-admin-token-long-enough".into());
        c.http_writes_per_minute = 0;
    })
    .await;
    let (status, doc) =
        status_and_json(server.get("/api-docs/openapi.json").send().await.unwrap()).await;
    assert_eq!(status, 200);
    // The WebSocket's description names every close too.
    let ws = doc["paths"]["/api/rooms/{id_or_code}/ws"]["get"]["description"]
        .as_str()
        .unwrap();
    for close in Close::ALL {
        assert!(
            ws.contains(&close.code().to_string()) && ws.contains(&format!("`{}`", close.reason())),
            "the WebSocket's description does not name {close:?}"
        );
    }
    let described: BTreeSet<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| {
            METHODS
                .iter()
                .filter(|m| item.get(**m).is_some())
                .map(move |m| (path.clone(), m.to_string()))
        })
        .collect();
    let described_paths: BTreeSet<String> = described.iter().map(|(p, _)| p.clone()).collect();
    // Each operation documents the parameters of its path, by their names.
    for (path, method) in &described {
        let placeholders: BTreeSet<&str> = path
            .split('{')
            .skip(1)
            .map(|rest| &rest[..rest.find('}').unwrap()])
            .collect();
        let operation = &doc["paths"][path][method];
        let in_path: BTreeSet<&str> = operation["parameters"]
            .as_array()
            .map(|params| {
                params
                    .iter()
                    .filter(|p| p["in"] == "path")
                    .map(|p| p["name"].as_str().unwrap())
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(in_path, placeholders, "{method} {path}: path parameters");
    }
    let routed = routed_paths();
    assert_eq!(
        (
            described_paths.difference(&routed).collect::<Vec<_>>(),
            routed.difference(&described_paths).collect::<Vec<_>>()
        ),
        (vec![], vec![]),
        "(paths only the document has, paths only the router has)"
    );
    // Which methods each path takes: anything but the router's own `405 method_not_allowed`.
    let mut served = BTreeSet::new();
    for path in routed_paths() {
        for method in METHODS {
            let resp = server
                .client
                .request(
                    method.to_uppercase().parse().unwrap(),
                    server.url(&concrete(&path)),
                )
                .send()
                .await
                .unwrap();
            let (status, body) = status_and_json(resp).await;
            if body["code"] == "method_not_allowed" {
                assert_eq!(status, 405);
            } else {
                assert_ne!(body["code"], "not_found", "{method} {path}: {body}");
                served.insert((path.clone(), method.to_owned()));
            }
        }
    }
    assert_eq!(
        (
            described.difference(&served).collect::<Vec<_>>(),
            served.difference(&described).collect::<Vec<_>>()
        ),
        (vec![], vec![]),
        "(methods only the document has, methods only the server takes)"
    );
    server.finish().await;
}

#[tokio::test]
async fn the_openapi_error_schema_lists_every_rest_error_code() {
    let server = TestServer::sqlite().await;
    let (_, doc) =
        status_and_json(server.get("/api-docs/openapi.json").send().await.unwrap()).await;
    let code = &doc["components"]["schemas"]["ErrorBody"]["properties"]["code"];
    let listed: BTreeSet<&str> = code["enum"]
        .as_array()
        .unwrap_or_else(|| panic!("ErrorBody.code has no enum: {code}"))
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let codes: BTreeSet<&str> = AppError::codes().collect();
    assert_eq!(listed, codes);
    // And every code of a route's documented answers, or of PROTOCOL.md's, is one of them: a sentence
    // naming `404 room_gone` would send clients after a code that does not exist.
    let mut mentioned = BTreeSet::new();
    let mut texts = vec![repo_file("PROTOCOL.md")];
    collect_descriptions(&doc["paths"], &mut texts);
    for text in &texts {
        for (i, _) in text.match_indices('`') {
            // `NNN code`, as PROTOCOL.md names a REST error.
            let after = &text[i + 1..];
            let Some(end) = after.find('`') else { continue };
            let quoted = &after[..end];
            let status_first = quoted
                .split_once(char::is_whitespace)
                .filter(|(n, c)| {
                    n.len() == 3
                        && n.chars().all(|d| d.is_ascii_digit())
                        && c.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_')
                })
                .map(|(_, c)| c);
            if let Some(code) = status_first {
                mentioned.insert(code.to_owned());
            }
        }
    }
    assert!(mentioned.len() > 20, "{mentioned:?}");
    let unknown: Vec<&String> = mentioned
        .iter()
        .filter(|c| !codes.contains(c.as_str()))
        .collect();
    assert!(
        unknown.is_empty(),
        "documented as `<status> <code>` but no such REST code: {unknown:?}"
    );
    server.finish().await;
}

/// Every `description` under `value`.
fn collect_descriptions(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                if key == "description"
                    && let Some(text) = v.as_str()
                {
                    out.push(text.to_owned());
                }
                collect_descriptions(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_descriptions(v, out)),
        _ => {}
    }
}

/// The keys of a JSON object.
fn keys(value: &Value) -> BTreeSet<&str> {
    value
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {value}"))
        .keys()
        .map(String::as_str)
        .collect()
}

/// Asserts that `value` has exactly the fields PROTOCOL.md §2 gives it.
#[track_caller]
fn has_fields(what: &str, value: &Value, documented: &[&str]) {
    let documented: BTreeSet<&str> = documented.iter().copied().collect();
    assert_eq!(keys(value), documented, "{what}: {value}");
}

#[tokio::test]
async fn the_messages_of_a_game_have_the_fields_protocol_md_gives_them() {
    let server = TestServer::sqlite().await;
    let started = common::game::start_room(
        &server,
        serde_json::json!({ "rules": "playgridia", "mode": "quick", "players": 2,
            "turn_time_secs": null, "public": true, "preview_next_roll": true }),
    )
    .await;
    let mut ana =
        common::ws::WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    let mut watcher = common::ws::WsClient::connect(&server, &started.room, None).await;

    // On connecting: `snapshot`, `hello`, `chat_history`.
    let hello = ana.private.iter().find(|m| m["type"] == "hello").unwrap();
    has_fields(
        "hello",
        hello,
        &["type", "player_id", "seat", "role", "removed"],
    );
    assert_eq!(hello["role"], "player");
    let hello = watcher
        .private
        .iter()
        .find(|m| m["type"] == "hello")
        .unwrap();
    assert_eq!(
        (&hello["seat"], &hello["role"]),
        (&Value::Null, &"spectator".into())
    );
    let state = &ana.first_snapshot;
    has_fields("state", state, &["room", "seats", "spectators", "game"]);
    has_fields(
        "room",
        &state["room"],
        &["id", "status", "owner_id", "settings"],
    );
    has_fields(
        "room.settings",
        &state["room"]["settings"],
        &[
            "rules",
            "mode",
            "players",
            "bots",
            "turn_time_secs",
            "preview_next_roll",
            "public",
            "quick_match",
            "house_rules",
            "draw_seats",
            "bot_pace",
        ],
    );
    for seat in state["seats"].as_array().unwrap() {
        has_fields(
            "seat",
            seat,
            &[
                "seat",
                "player_id",
                "display_name",
                "local_of",
                "rating",
                "bot",
                "status",
                "bot_playing",
                "label",
            ],
        );
    }
    let game = &state["game"];
    has_fields(
        "game",
        game,
        &[
            "id",
            "seed_hash",
            "seed",
            "rolls",
            "last_roll",
            "deadline_ms",
            "result",
            "view",
        ],
    );
    has_fields(
        "game.view",
        &game["view"],
        &[
            "rules",
            "mode",
            "board",
            "options",
            "seats",
            "pieces",
            "turn",
            "legal_moves",
            "notation",
        ],
    );
    has_fields(
        "view.seats[0]",
        &game["view"]["seats"][0],
        &["seat", "side", "colours"],
    );
    has_fields(
        "view.pieces[0]",
        &game["view"]["pieces"][0],
        &[
            "id",
            "colour",
            "path_slot",
            "place",
            "last_arrived",
            "in_blockade",
        ],
    );
    // (`connect` reads up to the `hello`.)
    let chat_history = ana.until(|m| m["type"] == "chat_history").await;
    has_fields("chat_history", &chat_history, &["type", "messages"]);

    // `chat`, then its `ack`.
    let ack = ana
        .request(serde_json::json!({ "type": "chat", "text": "hola" }))
        .await;
    has_fields("ack", &ack, &["type", "id", "version"]);
    let chat = watcher.until(|m| m["type"] == "chat").await;
    has_fields("chat", &chat, &["type", "message"]);
    has_fields(
        "chat.message",
        &chat["message"],
        &["seq", "seat", "player_id", "name", "text", "at_ms"],
    );
    // A refusal without a reason, then (below) one with.
    let error = watcher.request(serde_json::json!({ "type": "roll" })).await;
    has_fields("error", &error, &["type", "id", "code", "message"]);

    // Play on: a `preview` when Ana is to roll, an `update` with each change, an `illegal_move` with its
    // `reason`, the last roll and a turn of each phase, and at the end the result.
    let mut refused_a_move = false;
    let mut turns: BTreeSet<String> = BTreeSet::new();
    while !ana.over() {
        let turn = &ana.game()["view"]["turn"];
        let phase = turn["phase"].as_str().unwrap().to_owned();
        let mut fields = vec![
            "seat",
            "phase",
            "queued_counts",
            "sixes_in_a_row",
            "first_roll",
            "winner_side",
        ];
        fields.extend(match phase.as_str() {
            "move" => Some("die"),
            "count" => Some("amount"),
            "over" => Some("side"),
            _ => None,
        });
        if turns.insert(phase) {
            has_fields("view.turn", turn, &fields);
        }
        if !ana.game()["last_roll"].is_null() {
            has_fields("game.last_roll", &ana.game()["last_roll"], &["seat", "die"]);
        }
        if ana.my_turn() {
            if ana.game()["view"]["turn"]["phase"] == "move" && !refused_a_move {
                let legal = &ana.game()["view"]["legal_moves"][0];
                has_fields(
                    "legal_moves[0]",
                    legal,
                    &["text", "piece", "from", "to", "captures"],
                );
                let version = ana.version;
                let error = ana
                    .request(serde_json::json!({ "type": "move", "move": "y1:no-where", "version": version }))
                    .await;
                has_fields(
                    "error",
                    &error,
                    &["type", "id", "code", "reason", "message"],
                );
                assert_eq!(error["code"], "illegal_move", "{error}");
                refused_a_move = true;
            }
            ana.act().await;
        } else {
            let message = ana.next().await;
            if message["type"] == "update" {
                has_fields("update", &message, &["type", "version", "events", "patch"]);
            }
        }
    }
    assert!(refused_a_move, "Ana never had a move to make");
    let preview = ana
        .private
        .iter()
        .find(|m| m["type"] == "preview")
        .expect("a preview in a room that shows the next roll");
    has_fields("preview", preview, &["type", "roll", "die"]);
    ana.until_state(|s| !s["game"]["result"].is_null()).await;
    let result = &ana.state["game"]["result"];
    let mut expected = vec!["winner_side", "winner_seats", "seats"];
    if result.get("ratings").is_some() {
        expected.push("ratings");
    }
    has_fields("game.result", result, &expected);
    has_fields(
        "result.seats[0]",
        &result["seats"][0],
        &["seat", "home", "captures", "captured", "sixes"],
    );
    server.finish().await;
}

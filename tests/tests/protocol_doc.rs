//! The documents clients build on say what the server does: PROTOCOL.md's tables of WebSocket error and
//! close codes list exactly the codes the server can send, the OpenAPI document lists exactly the routes the
//! router serves (with their methods), and its error schema every REST error code.
//!
//! A new code or route fails here until it is documented: add its row to PROTOCOL.md (WebSocket) or its
//! `#[utoipa::path]` to `openapi.rs` (REST); a REST code is one entry of `app_errors!` in `error.rs`.
//!
//! The JSON PROTOCOL.md shows of the game (every event, place and turn phase) is the JSON the rules crate
//! writes, field for field, and every kind of each is shown; its move texts are moves the rules crate reads;
//! its limits and defaults are the server's.

mod common;

use std::collections::BTreeSet;

use common::{TestServer, status_and_json};
use parchis_rules::{Event, Game, MoveParseError, Phase, Place};
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

/// `$value` read as a `$type` and written again, unchanged: PROTOCOL.md shows exactly what the server
/// writes. (A macro: the tests do not depend on `serde` itself.)
macro_rules! written_as_documented {
    ($type:ty, $value:expr) => {{
        let value: &Value = $value;
        let read: $type = serde_json::from_value(value.clone()).unwrap_or_else(|e| {
            panic!("PROTOCOL.md shows {value}, which the server cannot write: {e}")
        });
        assert_eq!(
            &serde_json::to_value(read).unwrap(),
            value,
            "PROTOCOL.md's JSON and what the server writes differ"
        );
        read
    }};
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
    let events = documented_events(&repo_file("PROTOCOL.md"));
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
                    &[
                        "text", "piece", "from", "to", "captures", "goal", "safe", "blockade",
                        "bonus",
                    ],
                );
                // `from` and `to` are places as §2 shows them.
                written_as_documented!(Place, &legal["from"]);
                written_as_documented!(Place, &legal["to"]);
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
                // `acted` with the update of a roll or move, and only then (a bot's, here).
                let acts = message["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|e| e["type"] == "rolled" || e["type"] == "moved");
                let mut fields = vec!["type", "version", "events", "patch"];
                if acts {
                    fields.push("acted");
                    has_fields("update.acted", &message["acted"], &["seat", "by"]);
                    assert_eq!(message["acted"]["by"], "bot", "{message}");
                }
                has_fields("update", &message, &fields);
                for event in message["events"].as_array().unwrap() {
                    let (_, example) = events
                        .iter()
                        .find(|(kind, _)| event["type"] == kind.as_str())
                        .unwrap_or_else(|| panic!("an event PROTOCOL.md does not show: {event}"));
                    has_fields(
                        "event",
                        event,
                        &keys(example).into_iter().collect::<Vec<_>>(),
                    );
                }
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

/// The JSON of a table cell (`` `{…}` ``), parsed.
#[track_caller]
fn cell_json(cell: &str) -> Value {
    serde_json::from_str(&unquote(cell)).unwrap_or_else(|e| panic!("{cell}: {e}"))
}

/// Every kind of event, by its `type` (a new `Event` fails to compile in `event_type` until it is here).
const EVENT_TYPES: [&str; 14] = [
    "rolled",
    "no_legal_move",
    "moved",
    "captured",
    "reached_goal",
    "blockade_formed",
    "blockade_opened",
    "bonus_granted",
    "bonus_lost",
    "reroll_lost",
    "three_sixes",
    "extra_roll",
    "turn_passed",
    "game_won",
];

fn event_type(event: &Event) -> &'static str {
    match event {
        Event::Rolled { .. } => "rolled",
        Event::NoLegalMove { .. } => "no_legal_move",
        Event::Moved { .. } => "moved",
        Event::Captured { .. } => "captured",
        Event::ReachedGoal { .. } => "reached_goal",
        Event::BlockadeFormed { .. } => "blockade_formed",
        Event::BlockadeOpened { .. } => "blockade_opened",
        Event::BonusGranted { .. } => "bonus_granted",
        Event::BonusLost { .. } => "bonus_lost",
        Event::RerollLost { .. } => "reroll_lost",
        Event::ThreeSixes { .. } => "three_sixes",
        Event::ExtraRoll { .. } => "extra_roll",
        Event::TurnPassed { .. } => "turn_passed",
        Event::GameWon { .. } => "game_won",
    }
}

/// PROTOCOL.md's events table: each documented event's JSON by its type (the last row of a type).
fn documented_events(doc: &str) -> Vec<(String, Value)> {
    table_after(doc, "#### Events")
        .iter()
        .map(|row| (unquote(&row[0]), cell_json(&row[1])))
        .collect()
}

#[test]
fn every_event_is_in_the_events_table_with_the_json_the_server_writes() {
    let doc = repo_file("PROTOCOL.md");
    let mut documented = BTreeSet::new();
    for (kind, json) in documented_events(&doc) {
        let event = written_as_documented!(Event, &json);
        assert_eq!(event_type(&event), kind, "the row of {kind} shows {json}");
        documented.insert(kind);
    }
    let every: BTreeSet<String> = EVENT_TYPES.iter().map(|t| t.to_string()).collect();
    assert_eq!(
        documented, every,
        "PROTOCOL.md's events (left) and the rules crate's (right) differ"
    );
}

#[test]
fn every_place_and_turn_phase_is_documented_as_the_server_writes_it() {
    let doc = repo_file("PROTOCOL.md");
    let mut kinds = BTreeSet::new();
    for row in table_after(&doc, "#### Pieces, colours and places") {
        let place = written_as_documented!(Place, &cell_json(&row[1]));
        // The same place as move texts write it.
        assert_eq!(unquote(&row[2]), place.to_string(), "{row:?}");
        assert_eq!(unquote(&row[2]).parse::<Place>(), Ok(place), "{row:?}");
        kinds.insert(match place {
            Place::Home => "home",
            Place::Square(_) => "square",
            Place::Lane(_) => "lane",
            Place::Goal => "goal",
        });
    }
    assert_eq!(
        kinds.len(),
        4,
        "every kind of place is documented: {kinds:?}"
    );
    let mut phases = BTreeSet::new();
    for row in table_after(&doc, "#### The turn") {
        let phase = written_as_documented!(Phase, &cell_json(&row[1]));
        let name = match phase {
            Phase::Roll => "roll",
            Phase::Move { .. } => "move",
            Phase::Count { .. } => "count",
            Phase::Over { .. } => "over",
        };
        assert_eq!(row[0], name, "{row:?}");
        phases.insert(name);
    }
    assert_eq!(phases.len(), 4, "every phase is documented: {phases:?}");
}

/// A position where each move text of PROTOCOL.md's examples is legal.
fn position_for(text: &str) -> &'static str {
    match text {
        "y1:5-12" => {
            "playgridia individual/4 y:5,20,30,40/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 move:6 sixes=0,last=-,six=-,extra=0,first=-"
        }
        "y3:h-5" => {
            "playgridia individual/4 y:20,30,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 move:5 sixes=0,last=-,six=-,extra=0,first=-"
        }
        "y1" => {
            "playgridia individual/4 y:20,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 move:3 sixes=0,last=-,six=-,extra=0,first=-"
        }
        "y1:66-l2" => {
            "playgridia individual/4 y:66,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 move:4 sixes=0,last=-,six=-,extra=0,first=-"
        }
        "y1:l5-goal" => {
            "playgridia individual/4 y:l5,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 move:3 sixes=0,last=-,six=-,extra=0,first=-"
        }
        "b1:h-5+b2:h-10" => {
            "morocco individual/4 b:h,h,h,h/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h 0 move:5 sixes=0,last=-,six=-,extra=0,first=0123"
        }
        other => panic!("PROTOCOL.md shows the move text {other}: give it a position here"),
    }
}

#[test]
fn the_move_texts_protocol_md_shows_are_legal_moves_and_its_refusals_are_the_rules_crates() {
    let doc = repo_file("PROTOCOL.md");
    for row in table_after(&doc, "### Move texts") {
        let text = unquote(&row[0]);
        let game: Game = position_for(&text).parse().expect("a position");
        let mv = game
            .parse_move(&text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(game.legal_moves().iter().any(|m| m.same_as(&mv)), "{text}");
    }
    // Every reason a move text is refused for is named in the section.
    let section = &doc[doc.find("### Move texts").unwrap()..doc.find("## 4.").unwrap()];
    let refusals = [
        MoveParseError::Syntax(String::new()),
        MoveParseError::NoSuchPiece(String::new()),
        MoveParseError::NoLegalMoveForPiece(String::new()),
        MoveParseError::PieceNotThere {
            piece: String::new(),
            at: String::new(),
            said: String::new(),
        },
        MoveParseError::Ambiguous(String::new()),
    ];
    for refusal in &refusals {
        // (A new refusal fails to compile here until it is in the list above.)
        match refusal {
            MoveParseError::Syntax(_)
            | MoveParseError::NoSuchPiece(_)
            | MoveParseError::NoLegalMoveForPiece(_)
            | MoveParseError::PieceNotThere { .. }
            | MoveParseError::Ambiguous(_) => {}
        }
        let code = format!("`{}`", refusal.code());
        assert!(
            section.contains(&code),
            "PROTOCOL.md §3 Move texts does not name {code}"
        );
    }
}

#[test]
fn the_documented_flood_limit_is_the_servers_default() {
    let doc = repo_file("PROTOCOL.md");
    let documented: u32 = doc
        .split("more than **")
        .nth(1)
        .and_then(|rest| rest.split(" messages per second**").next())
        .and_then(|n| n.parse().ok())
        .expect("PROTOCOL.md §1 says `more than **N messages per second**`");
    let config = repo_file("crates/server/src/config.rs");
    let default: u32 = config
        .split("env = \"WS_MESSAGES_PER_SECOND\", default_value_t = ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .and_then(|n| n.parse().ok())
        .expect("the default of WS_MESSAGES_PER_SECOND in config.rs");
    assert_eq!(documented, default);
    // And the refill PROTOCOL.md gives follows from it.
    assert!(doc.contains(&format!("one back every {} ms", 1000 / default)));
}

#[tokio::test]
async fn a_room_is_private_unless_created_public_as_protocol_md_says() {
    let doc = repo_file("PROTOCOL.md");
    assert!(
        doc.contains(r#""public": false,"#),
        "§2's state shows the default"
    );
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let room = server
        .room(
            &ana,
            serde_json::json!({ "rules": "playgridia", "mode": "individual", "players": 4 }),
        )
        .await;
    assert_eq!(room["settings"]["public"], false, "{room}");
    assert!(
        room["join_code"].is_string(),
        "a private room has a code: {room}"
    );
    server.finish().await;
}

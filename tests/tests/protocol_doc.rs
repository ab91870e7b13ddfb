//! The documents clients build on say what the server does: PROTOCOL.md's tables of WebSocket error and
//! close codes list exactly the codes the server can send, the OpenAPI document lists exactly the routes the
//! router serves (with their methods), and its error schema every REST error code.
//!
//! A new code or route fails here until it is documented: add its row to PROTOCOL.md (WebSocket) or its
//! `#[utoipa::path]` to `openapi.rs` (REST); a REST code joins `AppError::CODES`.

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
    let codes: BTreeSet<&str> = AppError::CODES.iter().copied().collect();
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

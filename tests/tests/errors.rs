mod common;

use common::{TestServer, public_four, status_and_json};

#[tokio::test]
async fn malformed_json_gets_a_400_with_a_code() {
    let server = TestServer::sqlite().await;
    let resp = server
        .post("/api/players")
        .header("content-type", "application/json")
        .body("{\"display_name\": ")
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(resp).await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], "malformed_json");
    assert!(body["message"].as_str().unwrap().ends_with('.') || !body["message"].is_null());
    server.finish().await;
}

#[tokio::test]
async fn a_body_of_the_wrong_shape_gets_a_422() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    let (status, body) = server
        .post_as(
            &owner,
            "/api/rooms",
            serde_json::json!({ "rules": "chess" }),
        )
        .await;
    assert_eq!(status, 422);
    assert_eq!(body["code"], "invalid_body");
    server.finish().await;
}

#[tokio::test]
async fn json_with_a_value_of_the_wrong_type_gets_a_422_not_a_400() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    for body in [
        serde_json::json!({ "rules": 5, "mode": "individual", "players": 4 }),
        serde_json::json!({ "rules": "playgridia", "mode": 5, "players": 4 }),
        serde_json::json!({ "rules": null, "mode": "individual", "players": 4 }),
    ] {
        let (status, reply) = server.post_as(&owner, "/api/rooms", body.clone()).await;
        assert_eq!(
            (status.as_u16(), reply["code"].as_str()),
            (422, Some("invalid_body")),
            "{body}: {reply}"
        );
        assert!(
            reply["message"].as_str().unwrap().contains("rules")
                || reply["message"].as_str().unwrap().contains("mode"),
            "the message names the field: {reply}"
        );
    }
    server.finish().await;
}

#[tokio::test]
async fn a_path_segment_that_is_not_utf8_is_a_json_404() {
    let server = TestServer::sqlite().await;
    for path in [
        "/api/rooms/%FF",
        "/api/rooms/%FF/ws",
        "/api/games/%FF/record",
        "/api/accounts/%FF/stats",
    ] {
        let (status, body) = status_and_json(server.get(path).send().await.unwrap()).await;
        assert_eq!(
            (status.as_u16(), body["code"].as_str()),
            (404, Some("not_found")),
            "{path}: {body}"
        );
    }
    let owner = server.player("Ana").await;
    let (status, body) = server
        .post_as(&owner, "/api/rooms/%FF/join", serde_json::json!({}))
        .await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (404, Some("not_found")),
        "{body}"
    );
    server.finish().await;
}

#[tokio::test]
async fn a_method_an_address_does_not_take_gets_a_json_405() {
    let server = TestServer::sqlite().await;
    for (method, path) in [
        ("PUT", "/api/rooms"),
        ("DELETE", "/api/players"),
        ("PATCH", "/healthz"),
    ] {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let resp = server
            .client
            .request(method.clone(), server.url(path))
            .send()
            .await
            .unwrap();
        let (status, body) = status_and_json(resp).await;
        assert_eq!(
            (status.as_u16(), body["code"].as_str()),
            (405, Some("method_not_allowed")),
            "{method} {path}: {body}"
        );
    }
    server.finish().await;
}

#[tokio::test]
async fn json_without_a_content_type_gets_a_415() {
    let server = TestServer::sqlite().await;
    let resp = server
        .post("/api/players")
        .body("{\"display_name\": \"x\"}")
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(resp).await;
    assert_eq!(status, 415);
    assert_eq!(body["code"], "unsupported_media_type");
    server.finish().await;
}

#[tokio::test]
async fn unknown_room_is_404() {
    let server = TestServer::sqlite().await;
    let resp = server.get("/api/rooms/no-such-room").send().await.unwrap();
    let (status, body) = status_and_json(resp).await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], "room_not_found");
    server.finish().await;
}

#[tokio::test]
async fn unknown_game_is_404() {
    let server = TestServer::sqlite().await;
    let resp = server.get("/api/games/nope/record").send().await.unwrap();
    let (status, body) = status_and_json(resp).await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], "game_not_found");
    server.finish().await;
}

#[tokio::test]
async fn unknown_paths_get_a_json_404() {
    let server = TestServer::sqlite().await;
    let resp = server.get("/api/nothing-here").send().await.unwrap();
    let (status, body) = status_and_json(resp).await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], "not_found");
    server.finish().await;
}

#[tokio::test]
async fn a_bad_token_is_401() {
    let server = TestServer::sqlite().await;
    let resp = server
        .post("/api/rooms")
        .bearer_auth("deadbeef")
        .json(&public_four())
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(resp).await;
    assert_eq!(status, 401);
    assert_eq!(body["code"], "invalid_token");
    server.finish().await;
}

#[tokio::test]
async fn a_missing_token_is_401() {
    let server = TestServer::sqlite().await;
    let resp = server
        .post("/api/rooms")
        .json(&public_four())
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(resp).await;
    assert_eq!(status, 401);
    assert_eq!(body["code"], "missing_token");
    server.finish().await;
}

#[tokio::test]
async fn garbage_input_never_causes_a_5xx() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    let bodies = [
        "",
        "null",
        "[]",
        "{}",
        "\"x\"",
        "{\"players\": -1}",
        "{\"display_name\": 7}",
        "{\"rules\":\"ludoteka\",\"mode\":\"individual\",\"players\":300}",
        "\u{0}\u{1}",
        "{\"preferred_colour\": \"pink\"}",
    ];
    let paths = [
        "/api/players",
        "/api/rooms",
        "/api/rooms/XXXXXX/join",
        "/api/rooms/%00/start",
        "/api/rooms/../leave",
    ];
    for path in paths {
        for body in bodies {
            let resp = server
                .post(path)
                .bearer_auth(&owner.token)
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await
                .unwrap();
            let status = resp.status();
            assert!(status.is_client_error(), "{path} {body:?} -> {status}");
        }
    }
    server.finish().await;
}

#[tokio::test]
async fn a_json_array_or_any_value_but_an_object_is_refused_422_and_makes_nothing() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    for body in [
        serde_json::json!(["playgridia", "individual", 4]),
        serde_json::json!("playgridia"),
        serde_json::json!(4),
        serde_json::Value::Null,
    ] {
        let (status, answer) = server.post_as(&owner, "/api/rooms", body.clone()).await;
        assert_eq!(status, 422, "{body}: {answer}");
        assert_eq!(answer["code"], "invalid_body", "{body}");
        let (status, answer) = status_and_json(
            server
                .post("/api/players")
                .json(&serde_json::json!(["Mallory"]))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, 422, "{answer}");
        assert_eq!(answer["code"], "invalid_body");
    }
    let (status, mine) = status_and_json(
        server
            .get("/api/players/me/rooms")
            .bearer_auth(&owner.token)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        mine["rooms"].as_array().map(Vec::len),
        Some(0),
        "no room was made: {mine}"
    );
    server.finish().await;
}

/// Writes `request` on a new connection and reads the answer: its head (lower-cased) and body.
async fn raw(server: &TestServer, request: &[u8]) -> (String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    let mut chunk = [0u8; 4096];
    // Read until the answer is whole (its head and `content-length` bytes of body), or 5 s have passed.
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        loop {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => answer.extend_from_slice(&chunk[..n]),
            }
            let text = String::from_utf8_lossy(&answer).to_lowercase();
            if let Some((head, body)) = text.split_once("\r\n\r\n")
                && let Some(length) = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length: "))
                    .and_then(|l| l.trim().parse::<usize>().ok())
                && body.len() >= length
            {
                break;
            }
        }
    })
    .await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    (head.to_lowercase(), body.to_owned())
}

#[tokio::test]
async fn a_body_announced_over_the_limit_is_refused_413_at_once_not_waited_for() {
    let server = TestServer::sqlite().await;
    let started = std::time::Instant::now();
    let (head, body) = raw(
        &server,
        b"POST /api/players HTTP/1.1\r\nHost: p\r\nContent-Type: application/json\r\n\
          Content-Length: 1000000000000\r\n\r\n{\"display_name\":",
    )
    .await;
    assert!(
        started.elapsed() < std::time::Duration::from_secs(2),
        "held {:?}",
        started.elapsed()
    );
    assert!(head.starts_with("http/1.1 413"), "{head}");
    assert!(head.contains("x-content-type-options: nosniff"), "{head}");
    let body: serde_json::Value = serde_json::from_str(&body).expect("a JSON body");
    assert_eq!(body["code"], "payload_too_large");
    server.finish().await;
}

/// What hyper's parser answers before any route sees the request (PROTOCOL.md §1 says it as is): a status
/// line with an empty body, and the connection closed.
#[tokio::test]
async fn requests_the_http_parser_refuses_get_the_json_error_with_the_usual_headers() {
    let server = TestServer::sqlite().await;
    let huge_header = format!(
        "GET /healthz HTTP/1.1\r\nHost: p\r\nX-Big: {}\r\n\r\n",
        "a".repeat(1 << 20)
    );
    let many_headers = format!(
        "GET /healthz HTTP/1.1\r\nHost: p\r\n{}\r\n",
        (0..500)
            .map(|i| format!("X-H{i}: v\r\n"))
            .collect::<String>()
    );
    let long_address = format!("GET /{} HTTP/1.1\r\nHost: p\r\n\r\n", "a".repeat(70_000));
    for (what, request, status, code) in [
        (
            "a garbage request line",
            b"HELLO\r\n\r\n".to_vec(),
            "400",
            "malformed_request",
        ),
        (
            "two Content-Lengths",
            b"POST /api/players HTTP/1.1\r\nHost: p\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"
                .to_vec(),
            "400",
            "malformed_request",
        ),
        (
            "a Content-Length of 2^64",
            b"POST /api/players HTTP/1.1\r\nHost: p\r\nContent-Length: 18446744073709551616\r\n\r\n{}"
                .to_vec(),
            "400",
            "malformed_request",
        ),
        (
            "a 70 KB address",
            long_address.into_bytes(),
            "414",
            "uri_too_long",
        ),
        (
            "a 1 MB header",
            huge_header.into_bytes(),
            "431",
            "headers_too_large",
        ),
        (
            "500 headers",
            many_headers.into_bytes(),
            "431",
            "headers_too_large",
        ),
    ] {
        let (head, body) = raw(&server, &request).await;
        assert!(
            head.starts_with(&format!("http/1.1 {status}")),
            "{what}: {head}"
        );
        for header in [
            "content-type: application/json",
            "x-content-type-options: nosniff",
            "x-frame-options: deny",
            "connection: close",
        ] {
            assert!(head.contains(header), "{what}: no {header} in {head}");
        }
        let error: serde_json::Value = serde_json::from_str(&body)
            .unwrap_or_else(|e| panic!("{what}: the body is not JSON ({e}): {body:?}"));
        assert_eq!(error["code"], code, "{what}: {body}");
        assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()), "{what}: {body}");
    }
    // The server goes on serving.
    let (head, _) = raw(
        &server,
        b"GET /healthz HTTP/1.1\r\nHost: p\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    server.finish().await;
}

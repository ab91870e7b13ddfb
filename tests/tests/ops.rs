mod common;

use common::{TestServer, status_and_json};

#[tokio::test]
async fn healthz_is_ok() {
    let server = TestServer::sqlite().await;
    let resp = server.get("/healthz").send().await.unwrap();
    assert_eq!(resp.status(), 200);
    server.finish().await;
}

#[tokio::test]
async fn readyz_is_ok_with_sqlite() {
    let server = TestServer::sqlite().await;
    let (status, body) = status_and_json(server.get("/readyz").send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(body["status"], "ok");
    server.finish().await;
}

#[tokio::test]
async fn metrics_are_in_prometheus_text_format() {
    let server = TestServer::sqlite().await;
    server.get("/healthz").send().await.unwrap();
    let resp = server.get("/metrics").send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert!(
        resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    let text = resp.text().await.unwrap();
    assert!(text.contains("parchis_http_requests_total"), "{text}");
    assert!(text.contains("parchis_rooms_live"), "{text}");
    assert!(text.contains("parchis_connections"), "{text}");
    server.finish().await;
}

#[tokio::test]
async fn requests_with_made_up_methods_share_one_metrics_label() {
    let server = TestServer::sqlite().await;
    for method in ["QWERTY", "ZZZTOP"] {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let resp = server
            .client
            .request(method, server.url("/api/rooms"))
            .send()
            .await
            .unwrap();
        assert!(resp.status().is_client_error(), "{}", resp.status());
    }
    let text = server
        .get("/metrics")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(text.contains(r#"method="OTHER""#), "{text}");
    assert!(
        !text.contains("QWERTY") && !text.contains("ZZZTOP"),
        "{text}"
    );
    server.finish().await;
}

#[tokio::test]
async fn openapi_document_lists_room_endpoints() {
    let server = TestServer::sqlite().await;
    let (status, doc) =
        status_and_json(server.get("/api-docs/openapi.json").send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert!(doc["openapi"].as_str().unwrap().starts_with('3'));
    let paths = doc["paths"].as_object().unwrap();
    for path in [
        "/api/players",
        "/api/players/me",
        "/api/players/me/rooms",
        "/api/players/me/stats",
        "/api/accounts/{username}/stats",
        "/api/admin/players/{id}",
        "/api/account",
        "/api/sessions",
        "/api/sessions/current",
        "/api/sessions/others",
        "/api/leaderboard",
        "/api/rooms",
        "/api/rooms/{id_or_code}",
        "/api/rooms/{id}/join",
        "/api/rooms/{id}/leave",
        "/api/rooms/{id}/start",
        "/api/rooms/{id}/rematch",
        "/api/quick-match",
        "/api/games/{id}/record",
        "/api/games/{id}/replay",
        "/api/games/{id}/analysis",
        "/api/rules",
        "/api/rooms/{id}/chat/{seq}/report",
        "/api/admin/reports",
        "/api/admin/reports/{room_id}/{seq}",
        "/api/rooms/{id_or_code}/ws",
        "/healthz",
        "/readyz",
    ] {
        assert!(paths.contains_key(path), "missing {path}");
    }
    assert!(
        doc["paths"]["/api/players/me"]["patch"].is_object(),
        "renaming is documented"
    );
    assert!(
        doc["paths"]["/api/players/me"]["delete"].is_object(),
        "deleting your data is documented"
    );
    assert!(
        doc["paths"]["/api/account"]["patch"].is_object(),
        "changing the password is documented"
    );
    assert!(doc["components"]["securitySchemes"]["bearer"].is_object());
    let quick = &doc["paths"]["/api/quick-match"]["post"];
    assert!(quick["responses"]["201"].is_object(), "{quick}");
    assert!(doc["components"]["schemas"]["QuickMatchRequest"].is_object());
    server.finish().await;
}

#[tokio::test]
async fn the_openapi_document_describes_the_websocket_upgrade_and_points_to_protocol_md() {
    let server = TestServer::sqlite().await;
    let (_, doc) =
        status_and_json(server.get("/api-docs/openapi.json").send().await.unwrap()).await;
    let ws = &doc["paths"]["/api/rooms/{id_or_code}/ws"]["get"];
    assert!(
        ws["description"].as_str().unwrap().contains("PROTOCOL.md"),
        "{ws}"
    );
    let params: Vec<(&str, &str)> = ws["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap(), p["in"].as_str().unwrap()))
        .collect();
    for expected in [
        ("id_or_code", "path"),
        ("token", "query"),
        ("since", "query"),
        ("epoch", "query"),
    ] {
        assert!(params.contains(&expected), "{expected:?} in {params:?}");
    }
    for status in ["101", "401", "403", "404", "426"] {
        assert!(ws["responses"][status].is_object(), "response {status}");
    }
    server.finish().await;
}

#[tokio::test]
async fn the_openapi_document_tells_a_database_outage_from_a_fault_of_the_server() {
    let server = TestServer::sqlite().await;
    let (_, doc) =
        status_and_json(server.get("/api-docs/openapi.json").send().await.unwrap()).await;
    let info = doc["info"]["description"].as_str().unwrap();
    for said in [
        "`503` with code `storage_unavailable` and `Retry-After: 5`",
        "`maybe_stored`",
        "`500` with code `internal_error`",
    ] {
        assert!(info.contains(said), "{said} in {info}");
    }
    let ws = &doc["paths"]["/api/rooms/{id_or_code}/ws"]["get"];
    let busy = ws["responses"]["503"]["description"].as_str().unwrap();
    assert!(busy.contains("storage_unavailable"), "{busy}");
    server.finish().await;
}

#[tokio::test]
async fn docs_page_is_served_offline() {
    let server = TestServer::sqlite().await;
    let resp = server.get("/docs").send().await.unwrap();
    assert_eq!(resp.status(), 200);
    let html = resp.text().await.unwrap();
    assert!(html.contains("/docs/swagger-ui-bundle.js"));
    // Its start-up script (a file of its own, for the Content-Security-Policy) points at the description.
    assert!(html.contains("/docs/swagger-init.js"));
    let init = server.get("/docs/swagger-init.js").send().await.unwrap();
    assert!(
        init.text()
            .await
            .unwrap()
            .contains("/api-docs/openapi.json")
    );
    assert!(
        !html.contains("https://"),
        "the page must not load anything from the internet"
    );
    for (asset, kind) in [
        ("/docs/swagger-ui-bundle.js", "javascript"),
        ("/docs/swagger-ui.css", "css"),
    ] {
        let resp = server.get(asset).send().await.unwrap();
        assert_eq!(resp.status(), 200, "{asset}");
        assert!(
            resp.headers()["content-type"]
                .to_str()
                .unwrap()
                .contains(kind)
        );
        assert!(
            resp.bytes().await.unwrap().len() > 100_000,
            "{asset} looks truncated"
        );
    }
    server.finish().await;
}

#[tokio::test]
async fn a_sqlite_database_file_is_created_on_first_start() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fresh.db");
    assert!(!file.exists());
    let server = TestServer::start(format!("sqlite://{}?mode=rwc", file.display())).await;
    assert!(file.exists());
    server.finish().await;
}

/// What `run` says when it refuses to start with `config` (it must refuse).
async fn refusal(tweak: impl FnOnce(&mut parchis_server::Config)) -> String {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("p.db").display());
    refusal_on(&url, tweak).await
}

/// What `run` says when it refuses to start on `database_url` (it must refuse).
async fn refusal_on(database_url: &str, tweak: impl FnOnce(&mut parchis_server::Config)) -> String {
    let mut config = parchis_server::Config::for_database(database_url);
    tweak(&mut config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let started = tokio::time::timeout(
        std::time::Duration::from_secs(10),
        parchis_server::run(listener, config, std::future::pending()),
    )
    .await
    .expect("the server refuses to start instead of serving");
    started.unwrap_err().to_string()
}

#[tokio::test]
async fn a_default_turn_timer_no_room_could_ask_for_is_refused_at_start() {
    // Every room made without `turn_time_secs` (and every quick match) would be refused with a
    // message about a field the player never sent.
    for secs in [0, 4, 3601] {
        let said = refusal(|c| c.turn_timeout_secs = secs).await;
        assert!(
            said.contains("TURN_TIMEOUT_SECS must be between 5 and 3600"),
            "{secs}: {said}"
        );
    }
}

#[tokio::test]
async fn a_flood_limit_of_zero_is_refused_at_start() {
    // Zero would not turn the limit off: every connection would be closed as a flood at its
    // second command in a second.
    let said = refusal(|c| c.ws_messages_per_second = 0).await;
    assert!(
        said.contains("WS_MESSAGES_PER_SECOND must be at least 1"),
        "{said}"
    );
}

#[tokio::test]
async fn durations_too_long_to_add_to_a_clock_are_refused_at_start() {
    // u64::MAX seconds overflowed the clock in every room task (a panic, and a 500 for every room).
    let said = refusal(|c| c.room_idle_secs = u64::MAX).await;
    assert!(said.contains("ROOM_IDLE_SECS must be at most"), "{said}");
    let said = refusal(|c| c.away_grace_secs = u64::MAX).await;
    assert!(said.contains("AWAY_GRACE_SECS must be at most"), "{said}");
    let said = refusal(|c| c.ws_ping_secs = u64::MAX).await;
    assert!(said.contains("WS_PING_SECS must be at most"), "{said}");
    let said = refusal(|c| c.bot_delay_ms = u64::MAX).await;
    assert!(said.contains("BOT_DELAY_MS must be at most"), "{said}");
}

#[tokio::test]
async fn a_request_deadline_of_zero_or_over_an_hour_and_an_endless_grace_are_refused_at_start() {
    // Zero would answer every request 408 before it is read.
    for secs in [0, 3601] {
        let said = refusal(|c| c.http_request_timeout_secs = secs).await;
        assert!(
            said.contains("HTTP_REQUEST_TIMEOUT_SECS must be between 1 and 3600"),
            "{secs}: {said}"
        );
    }
    let said = refusal(|c| c.shutdown_grace_secs = u64::MAX).await;
    assert!(
        said.contains("SHUTDOWN_GRACE_SECS must be at most"),
        "{said}"
    );
}

#[tokio::test]
async fn the_longest_durations_allowed_serve() {
    let server = TestServer::sqlite_with(|c| {
        c.room_idle_secs = parchis_server::config::MAX_SECS;
        c.away_grace_secs = parchis_server::config::MAX_SECS;
        c.ws_ping_secs = parchis_server::config::MAX_SECS;
        c.bot_delay_ms = parchis_server::config::MAX_SECS * 1000;
    })
    .await;
    let ana = server.player("Ana").await;
    let room = server
        .room(
            &ana,
            serde_json::json!({"rules": "playgridia", "mode": "individual", "players": 2, "bots": [null, "greedy"]}),
        )
        .await;
    let id = room["id"].as_str().unwrap();
    let (status, body) = server
        .post_as(
            &ana,
            &format!("/api/rooms/{id}/start"),
            serde_json::json!({}),
        )
        .await;
    assert!(status.is_success(), "{body}");
    let (status, body) = server.get_as(&ana.token, &format!("/api/rooms/{id}")).await;
    assert_eq!(
        (status.as_u16(), body["status"].as_str()),
        (200, Some("playing")),
        "{body}"
    );
    server.finish().await;
}

#[tokio::test]
async fn a_sqlite_database_that_cannot_be_opened_is_named_in_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("no-such-folder").join("parchis.db");
    let said = refusal_on(&format!("sqlite://{}?mode=rwc", file.display()), |_| {}).await;
    assert!(
        said.contains(&format!(
            "cannot open the SQLite database {}",
            file.display()
        )),
        "{said}"
    );
    assert!(said.contains("unable to open database file"), "{said}");
}

#[tokio::test]
async fn a_sqlite_database_url_without_a_file_is_refused() {
    // `sqlite://` (say `sqlite://$DB` with DB unset) opened a private, empty database per connection:
    // the start failed with `no such table: rooms`.
    for url in ["sqlite://", "sqlite:", "sqlite://?mode=rwc"] {
        let said = refusal_on(url, |_| {}).await;
        assert!(said.contains("names no database file"), "{url}: {said}");
    }
}

#[tokio::test]
async fn a_sqlite_database_the_server_cannot_write_is_refused_at_start() {
    // A file the server's user may read but not write (restored by root with `cp`, say) opened
    // read-only: the server started, `/readyz` said ok, and every write was a 500. Root writes any
    // file, so the test makes it read-only with SQLite's `immutable` flag instead of permissions.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("parchis.db");
    TestServer::start(format!("sqlite://{}?mode=rwc", file.display()))
        .await
        .stop_only()
        .await;
    let said = refusal_on(
        &format!("sqlite://{}?immutable=true", file.display()),
        |_| {},
    )
    .await;
    assert!(
        said.contains(&format!(
            "the SQLite database {} cannot be written",
            file.display()
        )),
        "{said}"
    );
}

#[tokio::test]
async fn an_unreachable_postgresql_says_why_at_start() {
    // Nothing listens on port 1: the start said only `pool timed out while waiting for an open
    // connection`, five seconds later.
    let said = refusal_on("postgres://parchis:secret@127.0.0.1:1/parchis", |_| {}).await;
    assert!(
        said.contains("cannot connect to PostgreSQL at 127.0.0.1:1"),
        "{said}"
    );
    assert!(said.contains("onnection refused"), "{said}");
    assert!(!said.contains("secret"), "{said}");
}

#[tokio::test]
async fn a_session_idle_limit_past_ten_years_is_refused_at_start() {
    let said = refusal(|c| c.session_idle_days = 3651).await;
    assert!(
        said.contains("SESSION_IDLE_DAYS must be at most 3650 (0: never), not 3651"),
        "{said}"
    );
}

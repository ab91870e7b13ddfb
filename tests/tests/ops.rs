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
async fn docs_page_is_served_offline() {
    let server = TestServer::sqlite().await;
    let resp = server.get("/docs").send().await.unwrap();
    assert_eq!(resp.status(), 200);
    let html = resp.text().await.unwrap();
    assert!(html.contains("/docs/swagger-ui-bundle.js"));
    assert!(html.contains("/api-docs/openapi.json"));
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

//! The embedded browser client: `/` and client routes get `index.html`; API paths stay JSON.
mod common;

use common::{TestServer, status_and_json};

#[tokio::test]
async fn the_web_client_is_served_at_the_root_and_for_client_routes() {
    let server = TestServer::sqlite().await;
    let resp = server.get("/").send().await.unwrap();
    assert_eq!(resp.status(), 200);
    assert!(
        resp.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let index = resp.text().await.unwrap();

    let resp = server
        .get("/room/some-room-id")
        .header("accept", "text/html,application/xhtml+xml")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(
        resp.text().await.unwrap(),
        index,
        "SPA fallback serves index.html"
    );

    let (status, body) = status_and_json(
        server
            .get("/api/nothing-here")
            .header("accept", "text/html")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], "not_found");
    server.finish().await;
}

#[tokio::test]
async fn client_pages_and_files_carry_a_strict_content_security_policy() {
    let server = TestServer::sqlite().await;
    for path in ["/", "/js/app.js", "/css/app.css"] {
        let resp = server.get(path).send().await.unwrap();
        assert_eq!(resp.status(), 200, "{path}");
        let headers = resp.headers();
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert!(
            !csp.contains("script-src 'self' 'unsafe-inline'"),
            "no inline scripts"
        );
        assert!(
            csp.contains("frame-ancestors 'none'"),
            "not framed by other sites"
        );
        assert_eq!(headers["x-content-type-options"], "nosniff");
    }
    server.finish().await;
}

#[tokio::test]
async fn the_web_app_manifest_is_served_as_a_manifest_under_the_same_policy() {
    let server = TestServer::sqlite().await;
    let resp = server.get("/manifest.webmanifest").send().await.unwrap();
    assert_eq!(resp.status(), 200);
    let headers = resp.headers();
    // Browsers ignore a manifest served under another type, and the phone offers no install.
    assert_eq!(headers["content-type"], "application/manifest+json");
    let csp = headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("manifest-src 'self'"), "{csp}");
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    let manifest: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(manifest["start_url"], "/");
    assert_eq!(manifest["display"], "standalone");

    // The page itself links it, under a policy that lets it load.
    let page = server.get("/").send().await.unwrap();
    let csp = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(csp.contains("manifest-src 'self'"), "{csp}");
    assert!(
        page.text()
            .await
            .unwrap()
            .contains(r#"<link rel="manifest" href="/manifest.webmanifest">"#)
    );
    server.finish().await;
}

#[tokio::test]
async fn a_browser_that_already_has_a_client_file_gets_an_empty_304_instead_of_the_file_again() {
    let server = TestServer::sqlite().await;
    for path in ["/", "/js/app.js", "/css/app.css"] {
        let first = server.get(path).send().await.unwrap();
        assert_eq!(first.status(), 200, "{path}");
        let etag = first.headers()["etag"].to_str().unwrap().to_owned();
        assert!(!first.bytes().await.unwrap().is_empty(), "{path}");

        let again = server
            .get(path)
            .header("if-none-match", &etag)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), 304, "{path}");
        assert_eq!(again.headers()["etag"], etag.as_str(), "{path}");
        assert!(again.bytes().await.unwrap().is_empty(), "{path}");

        // A file the browser does not have (an older version, say) is sent whole.
        let other = server
            .get(path)
            .header("if-none-match", "W/\"0123456789abcdef\"")
            .send()
            .await
            .unwrap();
        assert_eq!(other.status(), 200, "{path}");
        assert!(!other.bytes().await.unwrap().is_empty(), "{path}");
    }
    // Different files, different tags.
    let tag = |path: &'static str| {
        let request = server.get(path).send();
        async move { request.await.unwrap().headers()["etag"].clone() }
    };
    assert_ne!(tag("/js/app.js").await, tag("/css/app.css").await);
    server.finish().await;
}

#[tokio::test]
async fn the_client_and_the_api_are_sent_gzipped_to_a_browser_that_accepts_it() {
    let server = TestServer::sqlite().await;
    for path in ["/js/app.js", "/css/app.css", "/api/rules"] {
        let plain = server.get(path).send().await.unwrap();
        assert_eq!(plain.headers().get("content-encoding"), None, "{path}");
        let plain = plain.bytes().await.unwrap();
        let gzipped = server
            .get(path)
            .header("accept-encoding", "gzip")
            .send()
            .await
            .unwrap();
        assert_eq!(gzipped.status(), 200, "{path}");
        assert_eq!(gzipped.headers()["content-encoding"], "gzip", "{path}");
        let gzipped = gzipped.bytes().await.unwrap();
        assert!(
            gzipped.len() * 2 < plain.len(),
            "{path}: {} bytes gzipped, {} plain",
            gzipped.len(),
            plain.len()
        );
    }
    server.finish().await;
}

/// `/docs` is served from the same origin as the game, whose tokens live in the browser's storage: a
/// script slipped into it could read them. It gets the client's protections: only its own scripts (no
/// inline ones), never inside another site's frame, no sniffing, no referrer to other sites.
#[tokio::test]
async fn the_api_documentation_page_carries_a_strict_content_security_policy() {
    let server = TestServer::sqlite().await;
    for path in [
        "/docs",
        "/docs/index.html",
        "/docs/swagger-ui-bundle.js",
        "/docs/swagger-ui.css",
    ] {
        let resp = server.get(path).send().await.unwrap();
        assert_eq!(resp.status(), 200, "{path}");
        let headers = resp.headers();
        let csp = headers
            .get("content-security-policy")
            .unwrap_or_else(|| panic!("{path}: no Content-Security-Policy"))
            .to_str()
            .unwrap();
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert!(
            !csp.split(';')
                .any(|d| d.trim().starts_with("script-src") && d.contains("unsafe")),
            "{path}: no inline or eval'd scripts: {csp}"
        );
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["x-frame-options"], "DENY", "{path}");
        assert!(headers.contains_key("referrer-policy"), "{path}");
    }
    // The page itself has no inline script left for the policy to block: it loads its start-up script.
    let page = server
        .get("/docs")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!page.contains("<script>"), "{page}");
    let start = page
        .split("<script src=\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap().to_owned())
        .collect::<Vec<_>>();
    assert!(start.len() >= 2, "{page}");
    for src in start {
        let resp = server.get(&src).send().await.unwrap();
        assert_eq!(resp.status(), 200, "{src}");
        assert!(
            resp.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/javascript"),
            "{src}"
        );
    }
    server.finish().await;
}

/// Every answer, JSON included, says it is exactly the type it claims (no sniffing it into HTML), and
/// the client's page cannot be framed by browsers that predate `frame-ancestors`.
#[tokio::test]
async fn every_response_forbids_content_sniffing_and_framing() {
    let server = TestServer::sqlite().await;
    for path in [
        "/api/rules",
        "/api/nothing-here",
        "/healthz",
        "/api-docs/openapi.json",
        "/",
    ] {
        let resp = server.get(path).send().await.unwrap();
        assert_eq!(
            resp.headers()
                .get("x-content-type-options")
                .map(|v| v.to_str().unwrap()),
            Some("nosniff"),
            "{path}"
        );
    }
    let resp = server.get("/").send().await.unwrap();
    assert_eq!(resp.headers()["x-frame-options"], "DENY");
    server.finish().await;
}

/// The `'./…'` modules a JavaScript file imports (`from './x.js'`, `import('./x.js')`), as paths
/// from the site's root.
fn relative_imports(path: &str, source: &str) -> Vec<String> {
    let dir = &path[..=path.rfind('/').unwrap()];
    let mut found = Vec::new();
    for quote in ['\'', '"'] {
        for (at, _) in source.match_indices(&format!("{quote}./")) {
            let rest = &source[at + 1..];
            let Some(end) = rest.find(quote) else {
                continue;
            };
            let before = source[..at].trim_end();
            if before.ends_with("from") || before.ends_with("import(") || before.ends_with("import")
            {
                found.push(format!("{dir}{}", &rest[2..end]));
            }
        }
    }
    found
}

#[tokio::test]
async fn every_module_the_client_imports_is_served_as_javascript() {
    let server = TestServer::sqlite().await;
    let mut seen = std::collections::BTreeSet::new();
    let mut queue = vec!["/js/app.js".to_string()];
    while let Some(path) = queue.pop() {
        if !seen.insert(path.clone()) {
            continue;
        }
        let resp = server.get(&path).send().await.unwrap();
        assert_eq!(resp.status(), 200, "{path}");
        let kind = resp.headers()["content-type"].to_str().unwrap().to_owned();
        assert!(kind.contains("javascript"), "{path}: {kind}");
        queue.extend(relative_imports(&path, &resp.text().await.unwrap()));
    }
    // The texts of every language, one file each (js/i18n/), come with the page.
    for lang in ["en", "es", "fr", "ar"] {
        assert!(seen.contains(&format!("/js/i18n/{lang}.js")), "{seen:?}");
    }
    assert!(seen.len() > 15, "{seen:?}");
    server.finish().await;
}

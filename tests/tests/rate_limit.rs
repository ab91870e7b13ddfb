//! One address may not flood the API with writes: past its allowance a POST or PATCH gets `429 rate_limited`
//! with `Retry-After` and changes nothing, while reads go on; behind a trusted proxy each forwarded
//! address has its own allowance, and without that trust the header cannot be used to dodge it.
mod common;

use common::{TestServer, status_and_json};
use reqwest::StatusCode;
use serde_json::json;

async fn register(server: &TestServer, name: &str, forwarded: Option<&str>) -> reqwest::Response {
    let mut request = server
        .post("/api/players")
        .json(&json!({ "display_name": name }));
    if let Some(ip) = forwarded {
        request = request.header("x-forwarded-for", ip);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn past_its_allowance_an_address_gets_429_with_retry_after_and_reads_still_work() {
    let server = TestServer::sqlite_with(|c| c.http_writes_per_minute = 3).await;
    for i in 0..3 {
        assert_eq!(
            register(&server, &format!("P{i}"), None).await.status(),
            StatusCode::CREATED
        );
    }
    let refused = register(&server, "One too many", None).await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "retry after {retry} s");
    let (_, body) = status_and_json(refused).await;
    assert_eq!(body["code"], "rate_limited");
    assert!(body["message"].as_str().unwrap().contains("try again"));
    // Reads are not writes.
    let (status, _) = status_and_json(server.get("/api/rooms").send().await.unwrap()).await;
    assert_eq!(status, 200);
    // Spoofing a forwarded address does not help when the server does not trust the header.
    assert_eq!(
        register(&server, "Sneaky", Some("203.0.113.9"))
            .await
            .status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    server.finish().await;
}

/// At the default 60 writes a minute the next write is allowed within a second: the refusal's message
/// must name the same wait as its `Retry-After` (it said "try again in 0 s" beside `Retry-After: 1`).
#[tokio::test]
async fn the_refusal_message_names_the_wait_of_retry_after() {
    let server = TestServer::sqlite_with(|c| c.http_writes_per_minute = 60).await;
    let mut refused = None;
    for i in 0..80 {
        let resp = register(&server, &format!("P{i}"), None).await;
        if resp.status() == StatusCode::TOO_MANY_REQUESTS {
            refused = Some(resp);
            break;
        }
    }
    let refused = refused.expect("refused within 80 writes");
    let retry: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry >= 1, "retry after {retry} s");
    let (_, body) = status_and_json(refused).await;
    assert_eq!(
        body["message"],
        format!("Too many requests from your address; try again in {retry} s."),
        "{body}"
    );
    server.finish().await;
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_address_has_its_own_allowance() {
    let server = TestServer::sqlite_with(|c| {
        c.http_writes_per_minute = 2;
        c.trust_forwarded_for = true;
    })
    .await;
    for i in 0..2 {
        let resp = register(&server, &format!("A{i}"), Some("203.0.113.1")).await;
        assert_eq!(resp.status(), StatusCode::CREATED);
    }
    assert_eq!(
        register(&server, "A again", Some("203.0.113.1"))
            .await
            .status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(
        register(&server, "B", Some("203.0.113.2")).await.status(),
        StatusCode::CREATED,
        "another player behind the same proxy"
    );
    // A proxy that appends (nginx's `$proxy_add_x_forwarded_for`) leaves what the client wrote first:
    // only the address the proxy saw counts, so made-up ones in front of it buy nothing.
    for forged in ["198.51.100.7", "198.51.100.8, 10.9.9.9"] {
        assert_eq!(
            register(&server, "C", Some(&format!("{forged}, 203.0.113.1")))
                .await
                .status(),
            StatusCode::TOO_MANY_REQUESTS,
            "{forged} written by the client"
        );
    }
    server.finish().await;
}

#[tokio::test]
async fn an_ipv6_client_is_counted_by_its_64_network_so_fresh_addresses_do_not_dodge_the_limit() {
    let server = TestServer::sqlite_with(|c| {
        c.http_writes_per_minute = 2;
        c.trust_forwarded_for = true;
    })
    .await;
    // One subscriber's network hands out as many addresses as they like: all count as one client.
    for i in 1..=2 {
        let ip = format!("2001:db8:1:2::{i}");
        assert_eq!(
            register(&server, "V6", Some(&ip)).await.status(),
            StatusCode::CREATED
        );
    }
    assert_eq!(
        register(&server, "V6 again", Some("2001:db8:1:2:ffff::3"))
            .await
            .status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    // Another network is another client.
    assert_eq!(
        register(&server, "Neighbour", Some("2001:db8:1:3::1"))
            .await
            .status(),
        StatusCode::CREATED
    );
    server.finish().await;
}

#[tokio::test]
async fn renaming_counts_as_a_write_and_a_refused_rename_changes_nothing() {
    let server = TestServer::sqlite_with(|c| c.http_writes_per_minute = 2).await;
    let player = register(&server, "Lola", None).await;
    let (_, body) = status_and_json(player).await;
    let token = body["token"].as_str().unwrap().to_owned();
    let rename = |name: &'static str| {
        server
            .client
            .patch(server.url("/api/players/me"))
            .bearer_auth(&token)
            .json(&json!({ "display_name": name }))
            .send()
    };
    assert_eq!(rename("Lolita").await.unwrap().status(), StatusCode::OK);
    let refused = rename("Dolores").await.unwrap();
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let resp = server
        .get("/api/players/me")
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    let (_, me) = status_and_json(resp).await;
    assert_eq!(me["display_name"], "Lolita");
    server.finish().await;
}

#[tokio::test]
async fn analyses_of_finished_games_have_their_own_allowance_per_address() {
    let server = TestServer::sqlite_with(|c| c.http_writes_per_minute = 2).await;
    let analyse = || async {
        server
            .get("/api/games/nope/analysis?seq=1")
            .send()
            .await
            .unwrap()
    };
    // Counted before the game is even looked up: each one may cost an expert bot's search.
    for _ in 0..2 {
        assert_eq!(analyse().await.status(), StatusCode::NOT_FOUND);
    }
    let refused = analyse().await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(refused.headers().contains_key("retry-after"));
    let (_, body) = status_and_json(refused).await;
    assert_eq!(body["code"], "rate_limited");
    // A bucket of its own: writes and other reads go on.
    assert_eq!(
        register(&server, "Still welcome", None).await.status(),
        StatusCode::CREATED
    );
    let (status, _) =
        status_and_json(server.get("/api/games/nope/replay").send().await.unwrap()).await;
    assert_eq!(status, 404);
    server.finish().await;
}

//! Cluster mode (issue 32): the per-address limits that guard secrets count on every node together. An
//! address that guesses join codes or passwords through several nodes behind a load balancer gets the
//! budget of one server, not one per node.

mod common;

use common::cluster::{Node, cluster_with, drop_schema};
use common::status_and_json;
use serde_json::{Value, json};

/// Nodes that take the client's address from `X-Forwarded-For` (as behind the load balancer), with a
/// write limit high enough never to be what refuses (it also switches the lookup limit on).
const SETTINGS: &[(&str, &str)] = &[
    ("PARCHIS_TEST_HTTP_WRITES_PER_MINUTE", "1000"),
    ("PARCHIS_TEST_TRUST_FORWARDED_FOR", "true"),
];

/// The guesser's address, and someone else's.
const GUESSER: &str = "203.0.113.9";
const OWNER: &str = "198.51.100.7";

/// Misses per address and minute before lookups are refused (`LOOKUP_MISSES_PER_MINUTE`).
const MISSES: usize = 30;
/// Wrong passwords per username and address before it is locked (`sign_in_guard::MAX_FAILURES`).
const FAILURES: usize = 5;

/// `GET path` on `node` from `address`: `(status, Retry-After, body)`.
async fn get_from(node: &Node, address: &str, path: &str) -> (u16, Option<u64>, Value) {
    let resp = reqwest::Client::new()
        .get(node.url(path))
        .header("x-forwarded-for", address)
        .send()
        .await
        .expect("request");
    answer(resp).await
}

/// `POST path` with `body` on `node` from `address`: `(status, Retry-After, body)`.
async fn post_from(
    node: &Node,
    address: &str,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> (u16, Option<u64>, Value) {
    let mut request = reqwest::Client::new()
        .post(node.url(path))
        .header("x-forwarded-for", address)
        .json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    answer(request.send().await.expect("request")).await
}

async fn answer(resp: reqwest::Response) -> (u16, Option<u64>, Value) {
    let retry = resp
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().parse().expect("Retry-After in seconds"));
    let (status, body) = status_and_json(resp).await;
    (status.as_u16(), retry, body)
}

#[test]
#[ignore = "a cluster node process, started by the tests of this file"]
fn node_process() {
    common::cluster::node_process();
}

#[tokio::test]
#[ignore = "needs PostgreSQL and NATS"]
async fn join_code_misses_spread_over_two_nodes_share_one_budget() {
    let (schema, nodes) = cluster_with(2, SETTINGS).await;
    // Half the misses on each node: each alone has used only half its budget.
    for i in 0..MISSES {
        let node = &nodes[i % 2];
        let (status, _, body) = get_from(node, GUESSER, &format!("/api/rooms/ZZZZ{i:02}")).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (404, Some("room_not_found")),
            "miss {i}"
        );
    }
    for node in &nodes {
        let (status, retry, body) = get_from(node, GUESSER, "/api/rooms/ZZZZZZ").await;
        assert_eq!(status, 429, "{body}");
        assert_eq!(body["code"], "rate_limited");
        assert!(body["message"].is_string(), "{body}");
        let retry = retry.expect("Retry-After");
        assert!((1..=60).contains(&retry), "retry after {retry} s");
    }
    // Another address is not refused.
    let (status, _, body) = get_from(&nodes[1], OWNER, "/api/rooms/ZZZZZZ").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (404, Some("room_not_found"))
    );
    drop(nodes);
    drop_schema(schema).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL and NATS"]
async fn wrong_passwords_spread_over_two_nodes_lock_the_username_from_that_address() {
    let (schema, nodes) = cluster_with(2, SETTINGS).await;
    let (_, ana) = nodes[0].player("Ana").await;
    let (status, _, body) = post_from(
        &nodes[0],
        OWNER,
        "/api/account",
        Some(&ana),
        json!({ "username": "ana", "password": "correct horse" }),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let sign_in = |node: usize, address: &'static str, password: &'static str| {
        post_from(
            &nodes[node],
            address,
            "/api/sessions",
            None,
            json!({ "username": "ana", "password": password }),
        )
    };
    // The guesses alternate between the nodes: neither alone sees five.
    for i in 0..FAILURES {
        let (status, _, body) = sign_in(i % 2, GUESSER, "guess").await;
        assert_eq!(
            (status, body["code"].as_str()),
            (401, Some("wrong_credentials")),
            "guess {i}"
        );
    }
    for node in 0..2 {
        let (status, retry, body) = sign_in(node, GUESSER, "correct horse").await;
        assert_eq!(status, 429, "{body}");
        assert_eq!(body["code"], "too_many_attempts");
        assert!(body["message"].is_string(), "{body}");
        let retry = retry.expect("Retry-After");
        assert!((1..=900).contains(&retry), "retry after {retry} s");
    }
    // Ana, from her own address, still signs in, on either node.
    let (status, _, body) = sign_in(1, OWNER, "correct horse").await;
    assert_eq!(status, 201, "{body}");
    drop(nodes);
    drop_schema(schema).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL and NATS"]
async fn a_burst_of_guesses_on_two_nodes_at_once_gets_five_between_them() {
    let (schema, nodes) = cluster_with(2, SETTINGS).await;
    // Twenty guesses sent together, half to each node, none of them checked before the others arrive
    // (an unknown username is counted as a known one is).
    let guesses = (0..20).map(|i| {
        post_from(
            &nodes[i % 2],
            GUESSER,
            "/api/sessions",
            None,
            json!({ "username": "nobody", "password": "guess" }),
        )
    });
    let answers = futures_util::future::join_all(guesses).await;
    let checked = answers.iter().filter(|(status, ..)| *status == 401).count();
    let refused = answers
        .iter()
        .filter(|(status, _, body)| *status == 429 && body["code"] == "too_many_attempts")
        .count();
    assert_eq!((checked, refused), (FAILURES, 20 - FAILURES), "{answers:?}");
    drop(nodes);
    drop_schema(schema).await;
}

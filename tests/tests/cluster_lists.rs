//! Cluster mode (issue 32): what is cluster-wide on purpose works from every node: quick match, join
//! codes, the lists of public rooms and games, signing a device out. Nodes are processes of this test
//! binary (`common::cluster`).

mod common;

use common::cluster::{cluster, drop_schema};
use common::status_and_json;
use common::ws::WsClient;
use serde_json::json;

/// Not a test: a cluster node, when this binary is started again by the tests (`PARCHIS_TEST_NODE`).
#[test]
#[ignore = "a cluster node process, started by the tests of this file"]
fn node_process() {
    common::cluster::node_process();
}

#[tokio::test]
#[ignore = "needs PostgreSQL and NATS"]
async fn matches_codes_lists_and_signing_out_work_across_nodes() {
    let (schema, nodes) = cluster(3).await;
    // Quick match: Pia waits on node 1, Quim presses on node 2 and joins her.
    let (_, pia) = nodes[0].player("Pia").await;
    let (_, quim) = nodes[1].player("Quim").await;
    let ask = json!({ "rules": "ludoteka", "mode": "individual", "players": 2 });
    let (status, made) = nodes[0].post(&pia, "/api/quick-match", ask.clone()).await;
    assert_eq!(status, 201, "{made}");
    let matched_room = made["id"].as_str().unwrap().to_owned();
    let mut pia_ws = WsClient::connect_url(&nodes[0].ws(&matched_room, Some(&pia))).await;
    let (status, joined) = nodes[1].post(&quim, "/api/quick-match", ask).await;
    assert_eq!(status, 200, "{joined}");
    assert_eq!(joined["id"], made["id"], "matched across nodes");
    pia_ws
        .until_state(|s| s["room"]["status"] == "playing")
        .await;

    // Ana (an account) makes a public room on node 1; its join code works on every node.
    let (_, ana) = nodes[0].player("Ana").await;
    let (status, body) = nodes[0]
        .post(
            &ana,
            "/api/account",
            json!({ "username": "ana", "password": "correct horse" }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let body = json!({ "rules": "ludoteka", "mode": "individual", "players": 4, "public": true });
    let (status, room) = nodes[0].post(&ana, "/api/rooms", body).await;
    assert_eq!(status, 201, "{room}");
    let room_id = room["id"].as_str().unwrap().to_owned();
    let code = room["join_code"].as_str().unwrap().to_owned();
    for node in &nodes {
        let found = node.get(&format!("/api/rooms/{code}")).await;
        assert_eq!(found["id"].as_str(), Some(room_id.as_str()));
    }
    // Ana's phone (a second device) opens sockets through nodes 2 and 3, and watches Pia's game.
    let resp = reqwest::Client::new()
        .post(nodes[1].url("/api/sessions"))
        .json(&json!({ "username": "ana", "password": "correct horse" }))
        .send()
        .await
        .unwrap();
    let (status, body) = status_and_json(resp).await;
    assert_eq!(status, 201, "{body}");
    let phone = body["token"].as_str().unwrap().to_owned();
    let mut on_two = WsClient::connect_url(&nodes[1].ws(&room_id, Some(&phone))).await;
    let mut on_three = WsClient::connect_url(&nodes[2].ws(&room_id, Some(&phone))).await;
    let mut watching = WsClient::connect_url(&nodes[2].ws(&matched_room, Some(&phone))).await;
    // The public rooms are in every node's lists: Ana's waiting room, Pia's game.
    for node in &nodes {
        let waiting = node.get("/api/rooms").await;
        assert!(
            waiting["rooms"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["id"] == room["id"]),
            "{waiting}"
        );
        let playing = node.get("/api/rooms?status=playing").await;
        assert!(
            playing["rooms"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["id"] == made["id"]),
            "{playing}"
        );
    }
    // Ana signs her other devices out on node 2, which neither runs Pia's game nor holds the socket
    // watching it: the phone's sockets close on every node all the same.
    let resp = reqwest::Client::new()
        .delete(nodes[1].url("/api/sessions/others"))
        .bearer_auth(&ana)
        .send()
        .await
        .unwrap();
    assert!(resp.status().is_success(), "{:?}", resp.text().await);
    on_two.assert_revoked().await;
    on_three.assert_revoked().await;
    watching.assert_revoked().await;
    drop(nodes);
    drop_schema(schema).await;
}

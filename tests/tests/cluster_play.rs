//! Cluster mode (issue 32): two players on two nodes play a whole game of every mode, watched from a
//! third node. Nodes are processes of this test binary (`common::cluster`).

mod common;

use std::sync::Arc;
use std::time::Instant;

use common::cluster::{
    Node, catch_up, cluster, drop_schema, play, record_replays_to, two_humans_two_bots,
    without_spectators,
};
use common::ws::WsClient;
use serde_json::{Value, json};

/// Not a test: a cluster node, when this binary is started again by the tests (`PARCHIS_TEST_NODE`).
#[test]
#[ignore = "a cluster node process, started by the tests of this file"]
fn node_process() {
    common::cluster::node_process();
}

/// Every rule set × mode the server offers (`GET /api/rules`), at its usual player count.
async fn every_rule_set_and_mode(node: &Node) -> Vec<(String, String, usize)> {
    let catalogue = node.get("/api/rules").await;
    let mut games = Vec::new();
    for rule_set in catalogue["rule_sets"].as_array().expect("rule sets") {
        for mode in rule_set["modes"].as_array().expect("modes") {
            let players = mode["players"].as_array().expect("player counts");
            let most = players
                .iter()
                .filter_map(Value::as_u64)
                .max()
                .expect("a count");
            games.push((
                rule_set["name"].as_str().unwrap().to_owned(),
                mode["name"].as_str().unwrap().to_owned(),
                most as usize,
            ));
        }
    }
    games
}

/// Ana on node 1 and Bea on node 2 play a whole game of `rules` `mode` in a room of its own, watched on
/// node 3; everyone's state then equals a fresh snapshot on every node, and the stored record replays
/// to it.
async fn a_whole_game(nodes: &[Node], rules: &str, mode: &str, players: usize, began: Instant) {
    // Ana and Bea in the first two seats (not drawn), bots in the others.
    let mut bots = vec![Value::Null; players];
    bots[2..].fill(json!("random"));
    let settings = json!({ "rules": rules, "mode": mode, "players": players,
        "bots": bots, "draw_seats": false });
    let (room, game, ana, bea) = two_humans_two_bots(&nodes[0], &nodes[1], settings).await;
    // Ana plays on node 1, Bea on node 2; someone watches on node 3.
    let mut a = WsClient::connect_url(&nodes[0].ws(&room, Some(&ana))).await;
    let mut b = WsClient::connect_url(&nodes[1].ws(&room, Some(&bea))).await;
    let mut watcher = WsClient::connect_url(&nodes[2].ws(&room, None)).await;
    assert_eq!((a.seat, b.seat), (Some(0), Some(1)), "{rules} {mode}");
    // The watcher reads along (a reader that falls a whole long game behind is cut off).
    let watching = tokio::spawn(async move {
        watcher
            .until_state(|s| s["room"]["status"] == "finished")
            .await;
        watcher
    });
    play(&mut a, &mut b, |_| false).await;
    a.until_state(|s| s["room"]["status"] == "finished").await;
    let mut watcher = watching.await.expect("the watcher saw the game end");
    // Everyone's patched state is the room's state: the same as a fresh snapshot, on any node.
    for node in nodes {
        let fresh = WsClient::connect_url(&node.ws(&room, None)).await;
        for client in [&mut a, &mut b, &mut watcher] {
            catch_up(client, fresh.version).await;
            assert_eq!(
                without_spectators(&client.state),
                without_spectators(&fresh.state),
                "{rules} {mode}"
            );
        }
    }
    record_replays_to(&nodes[2], &game, &a).await;
    eprintln!("{rules} {mode}: played by {:?}", began.elapsed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL and NATS"]
async fn two_players_on_two_nodes_play_a_whole_game_of_every_mode_watched_from_a_third() {
    let (schema, nodes) = cluster(3).await;
    let games = every_rule_set_and_mode(&nodes[0]).await;
    // Three rule sets, and pairs, 1v1, 6-piece and 3v3 among their modes.
    assert!(games.len() >= 9, "{games:?}");
    let began = Instant::now();
    // Every game at once, each in its own room: the test takes about its longest game, not their sum.
    let nodes = Arc::new(nodes);
    let played: Vec<_> = games
        .into_iter()
        .map(|(rules, mode, players)| {
            let nodes = Arc::clone(&nodes);
            tokio::spawn(async move { a_whole_game(&nodes, &rules, &mode, players, began).await })
        })
        .collect();
    for game in played {
        game.await.expect("a whole game");
    }
    eprintln!("every mode played by {:?}", began.elapsed());
    drop(nodes);
    drop_schema(schema).await;
}

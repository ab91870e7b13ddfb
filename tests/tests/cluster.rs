//! Cluster mode (issue 32): several server processes on one PostgreSQL and one NATS share the rooms.
//!
//! Each node is a real process (this test binary started again as `node_process`, so that it can be
//! killed with `kill -9` or stopped with SIGSTOP); each test has its own PostgreSQL schema and its own
//! NATS subject prefix, so tests run side by side.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::ws::WsClient;
use common::{PgSchema, status_and_json};
use serde_json::{Value, json};

/// The NATS server of the machine (`.ci/run` starts it).
const NATS_URL: &str = "nats://127.0.0.1:4222";

/// One cluster node as a child process; killed when dropped.
struct Node {
    child: Child,
    /// `127.0.0.1:PORT`.
    addr: String,
}

impl Node {
    /// Starts a node on `database_url` with subject prefix `prefix`.
    fn start(database_url: &str, prefix: &str, name: &str) -> Node {
        let mut child = Command::new(std::env::current_exe().expect("test binary"))
            .args([
                "node_process",
                "--exact",
                "--include-ignored",
                "--nocapture",
            ])
            .env("PARCHIS_TEST_NODE", name)
            .env("DATABASE_URL", database_url)
            .env("NATS_URL", NATS_URL)
            .env("NATS_PREFIX", prefix)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start a node");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if !sent && let Some(addr) = line.strip_prefix("node listening on ") {
                    let _ = tx.send(addr.trim().to_owned());
                    sent = true;
                }
            }
        });
        let addr = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the node says where it listens");
        Node { child, addr }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn ws(&self, room: &str, token: Option<&str>) -> String {
        match token {
            Some(token) => format!("ws://{}/api/rooms/{room}/ws?token={token}", self.addr),
            None => format!("ws://{}/api/rooms/{room}/ws", self.addr),
        }
    }

    /// Waits until the node answers `/readyz`.
    async fn ready(&self) {
        for _ in 0..300 {
            if let Ok(resp) = reqwest::get(self.url("/readyz")).await
                && resp.status() == 200
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("node {} never got ready", self.addr);
    }

    /// Sends `signal` (`KILL`, `STOP`, `CONT`, `TERM`) to the node.
    fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([format!("-{signal}"), self.child.id().to_string()])
            .status()
            .expect("kill");
        assert!(status.success());
    }

    async fn post(&self, token: &str, path: &str, body: Value) -> (u16, Value) {
        let resp = reqwest::Client::new()
            .post(self.url(path))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .expect("request");
        let (status, body) = status_and_json(resp).await;
        (status.as_u16(), body)
    }

    async fn get(&self, path: &str) -> Value {
        let (status, body) =
            status_and_json(reqwest::get(self.url(path)).await.expect("request")).await;
        assert_eq!(status, 200, "{path}: {body}");
        body
    }

    /// A new guest player: `(id, token)`.
    async fn player(&self, name: &str) -> (String, String) {
        let resp = reqwest::Client::new()
            .post(self.url("/api/players"))
            .json(&json!({ "display_name": name }))
            .send()
            .await
            .expect("request");
        let (status, body) = status_and_json(resp).await;
        assert_eq!(status, 201, "{body}");
        (
            body["id"].as_str().unwrap().to_owned(),
            body["token"].as_str().unwrap().to_owned(),
        )
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A cluster of `n` nodes on a fresh schema, with a prefix of its own.
async fn cluster(n: usize) -> (PgSchema, Vec<Node>) {
    let schema = PgSchema::new().await;
    let prefix = format!("t{}", uuid::Uuid::new_v4().simple());
    // The first node migrates the schema; the others start once it is ready.
    let first = Node::start(&schema.url, &prefix, "n1");
    first.ready().await;
    let mut nodes = vec![first];
    for i in 2..=n {
        nodes.push(Node::start(&schema.url, &prefix, &format!("n{i}")));
    }
    for node in &nodes {
        node.ready().await;
    }
    (schema, nodes)
}

/// Drops the test's schema.
async fn drop_schema(schema: PgSchema) {
    let pool = sqlx::PgPool::connect(&schema.base).await.expect("connect");
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "DROP SCHEMA {} CASCADE",
        schema.name
    )))
    .execute(&pool)
    .await
    .expect("drop schema");
}

/// Ana makes a four-seat room on `made_on` (two bot seats; `settings` may change any of it), Bea
/// joins on `joins_on` with the join code, Ana starts it: `(room, game, ana token, bea token)`.
async fn two_humans_two_bots(
    made_on: &Node,
    joins_on: &Node,
    settings: Value,
) -> (String, String, String, String) {
    let (_, ana) = made_on.player("Ana").await;
    let (_, bea) = joins_on.player("Bea").await;
    let mut body = json!({ "rules": "ludoteka", "mode": "individual", "players": 4,
        "bots": [null, null, "random", "random"], "turn_time_secs": null, "public": true });
    if let (Value::Object(body), Value::Object(more)) = (&mut body, settings) {
        body.extend(more);
    }
    let (status, room) = made_on.post(&ana, "/api/rooms", body).await;
    assert_eq!(status, 201, "{room}");
    let id = room["id"].as_str().unwrap().to_owned();
    let code = room["join_code"].as_str().unwrap().to_owned();
    let (status, joined) = joins_on
        .post(&bea, &format!("/api/rooms/{code}/join"), json!({}))
        .await;
    assert_eq!(status, 200, "{joined}");
    let (status, started) = made_on
        .post(&ana, &format!("/api/rooms/{id}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{started}");
    let game = started["game_id"].as_str().unwrap().to_owned();
    (id, game, ana, bea)
}

/// Reads until the client has seen `version`.
async fn catch_up(client: &mut WsClient, version: u64) {
    while client.version < version {
        client.next().await;
    }
}

/// Plays both humans' seats (the bots play the others) until the game is over or `stop` says so.
async fn play(a: &mut WsClient, b: &mut WsClient, stop: impl Fn(&WsClient) -> bool) {
    loop {
        let latest = a.version.max(b.version);
        catch_up(a, latest).await;
        catch_up(b, latest).await;
        if a.over() || stop(a) {
            return;
        }
        if a.my_turn() {
            a.act().await;
        } else if b.my_turn() {
            b.act().await;
        } else {
            a.next().await;
        }
    }
}

/// The state without the spectator count (a new connection changes it).
fn without_spectators(state: &Value) -> Value {
    let mut state = state.clone();
    state["spectators"] = Value::Null;
    state
}

/// Checks the stored record of `game` replays to what `client` shows.
async fn record_replays_to(node: &Node, game: &str, client: &WsClient) {
    let record = node.get(&format!("/api/games/{game}/record")).await;
    let verified = parchis_proof::verify_record(&record).expect("honest record");
    assert_eq!(
        client.game()["view"],
        serde_json::to_value(verified.game.view()).unwrap()
    );
}

/// Not a test: a cluster node, when this binary is started again by the tests (`PARCHIS_TEST_NODE`).
#[test]
#[ignore = "a cluster node process, started by the tests of this file"]
fn node_process() {
    let Ok(name) = std::env::var("PARCHIS_TEST_NODE") else {
        return;
    };
    let env = |key: &str| std::env::var(key).expect(key);
    let mut config = parchis_server::Config::for_database(env("DATABASE_URL"));
    config.nats_url = Some(env("NATS_URL"));
    config.nats_prefix = env("NATS_PREFIX");
    config.node_name = Some(name);
    config.bot_delay_ms = 20;
    // Nobody is played for while a test moves its players between nodes.
    config.away_grace_secs = 3600;
    config.ws_messages_per_second = 10_000;
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        println!("node listening on {}", listener.local_addr().expect("addr"));
        let shutdown = async {
            let mut term =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
                    .expect("SIGTERM");
            term.recv().await;
        };
        if let Err(err) = parchis_server::run(listener, config, shutdown).await {
            eprintln!("node failed: {err}");
            std::process::exit(1);
        }
    });
    std::process::exit(0);
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

#[tokio::test]
#[ignore = "needs PostgreSQL and NATS"]
async fn two_players_on_two_nodes_play_a_whole_game_of_every_mode_watched_from_a_third() {
    let (schema, nodes) = cluster(3).await;
    let games = every_rule_set_and_mode(&nodes[0]).await;
    // Three rule sets, and pairs, 1v1, 6-piece and 3v3 among their modes.
    assert!(games.len() >= 9, "{games:?}");
    let began = Instant::now();
    for (rules, mode, players) in games {
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
        for node in &nodes {
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
    drop(nodes);
    drop_schema(schema).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL and NATS"]
async fn a_killed_owner_loses_no_acknowledged_move_and_its_rooms_run_on_elsewhere() {
    let (schema, nodes) = cluster(3).await;
    // Made and started on node 1, which runs the room; both players are on other nodes.
    let (room, game, ana, bea) = two_humans_two_bots(&nodes[0], &nodes[1], json!({})).await;
    let mut a = WsClient::connect_url(&nodes[1].ws(&room, Some(&ana))).await;
    let mut b = WsClient::connect_url(&nodes[2].ws(&room, Some(&bea))).await;
    // A spectator on the node that dies: it reconnects through another node.
    let mut doomed = WsClient::connect_url(&nodes[0].ws(&room, None)).await;
    play(&mut a, &mut b, |a| a.game()["rolls"].as_u64() >= Some(12)).await;
    let acked_rolls = a.game()["rolls"].as_u64().unwrap();
    let epoch = a.epoch.clone();
    let killed = Instant::now();
    nodes[0].signal("KILL");
    // The players on the other nodes get the room's new life without reconnecting.
    a.until(|m| m["type"] == "snapshot").await;
    let resumed = killed.elapsed();
    assert_ne!(a.epoch, epoch, "a new epoch after the takeover");
    assert!(
        resumed < Duration::from_secs(10),
        "the room ran again after {resumed:?}"
    );
    // Every action acknowledged before the kill is in the room's new life.
    assert!(a.game()["rolls"].as_u64().unwrap() >= acked_rolls);
    b.until(|m| m["type"] == "snapshot").await;
    // The dead node's client reconnects through another node and resumes.
    doomed.closed().await;
    let mut back = WsClient::connect_url(&nodes[2].ws(&room, None)).await;
    play(&mut a, &mut b, |_| false).await;
    catch_up(&mut back, a.version).await;
    assert_eq!(
        without_spectators(&back.state),
        without_spectators(&a.state)
    );
    record_replays_to(&nodes[1], &game, &a).await;
    drop(nodes);
    drop_schema(schema).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL and NATS"]
async fn a_paused_owner_that_wakes_after_its_rooms_moved_writes_nothing_more() {
    let (schema, nodes) = cluster(2).await;
    let (room, game, ana, bea) = two_humans_two_bots(&nodes[0], &nodes[1], json!({})).await;
    // Ana plays on node 1, which runs the room; Bea and a spectator are on node 2.
    let mut a = WsClient::connect_url(&nodes[0].ws(&room, Some(&ana))).await;
    let mut b = WsClient::connect_url(&nodes[1].ws(&room, Some(&bea))).await;
    let mut watcher = WsClient::connect_url(&nodes[1].ws(&room, None)).await;
    // Until Ana is to roll (nobody plays for her while she is away: the room waits for her).
    play(&mut a, &mut b, |a| {
        a.game()["rolls"].as_u64() >= Some(4)
            && a.my_turn()
            && a.game()["view"]["turn"]["phase"] == "roll"
    })
    .await;
    assert!(!a.over(), "the game ended too soon for this test");
    let epoch = watcher.epoch.clone();
    nodes[0].signal("STOP");
    // Node 2 takes the room over: its clients see the room's new life.
    watcher.until(|m| m["type"] == "snapshot").await;
    assert_ne!(watcher.epoch, epoch);
    let rolls = watcher.game()["rolls"].as_u64().unwrap();
    // Ana's roll and chat reach the paused node, which acts on them when it wakes up.
    a.send_text(r#"{"type":"roll","id":1}"#).await;
    a.send_text(r#"{"type":"chat","id":2,"text":"late"}"#).await;
    nodes[0].signal("CONT");
    tokio::time::sleep(Duration::from_secs(3)).await;
    // Nothing it did then was stored: the log and the chat are what node 2's room shows.
    let pool = sqlx::PgPool::connect(&schema.url).await.expect("connect");
    let stored_rolls: i64 =
        sqlx::query_scalar("SELECT count(*) FROM game_log WHERE game_id = $1 AND kind = 'roll'")
            .bind(&game)
            .fetch_one(&pool)
            .await
            .unwrap();
    let chats: i64 = sqlx::query_scalar("SELECT count(*) FROM chat_messages WHERE room_id = $1")
        .bind(&room)
        .fetch_one(&pool)
        .await
        .unwrap();
    // The database itself refuses a write of the room from node 1, however late it comes.
    let old: String = sqlx::query_scalar("SELECT node_id FROM cluster_nodes WHERE name = 'n1'")
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    let as_old = sqlx::PgPool::connect(&parchis_server::cluster::fenced_url(&schema.url, &old))
        .await
        .expect("connect as node 1");
    let refused = sqlx::query("UPDATE rooms SET status = status WHERE id = $1")
        .bind(&room)
        .execute(&as_old)
        .await
        .expect_err("node 1 no longer owns the room");
    assert_eq!(
        refused
            .as_database_error()
            .and_then(|e| e.code())
            .as_deref(),
        Some("PXF01"),
        "{refused}"
    );
    as_old.close().await;
    let fresh = WsClient::connect_url(&nodes[1].ws(&room, None)).await;
    assert_eq!(
        fresh.game()["rolls"].as_u64(),
        Some(rolls),
        "no roll after the takeover"
    );
    assert_eq!(
        stored_rolls as u64, rolls,
        "the paused node's roll was refused"
    );
    assert_eq!(chats, 0, "the paused node's chat message was refused");
    // Ana comes back through node 2 and the game goes on there.
    let mut a = WsClient::connect_url(&nodes[1].ws(&room, Some(&ana))).await;
    b.until(|m| m["type"] == "snapshot").await;
    play(&mut a, &mut b, |_| false).await;
    drop(nodes);
    drop_schema(schema).await;
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

#[tokio::test]
#[ignore = "needs PostgreSQL and NATS"]
async fn a_node_stopped_with_sigterm_hands_its_rooms_over_without_an_error() {
    let (schema, mut nodes) = cluster(3).await;
    let (room, game, ana, bea) = two_humans_two_bots(&nodes[0], &nodes[1], json!({})).await;
    let mut a = WsClient::connect_url(&nodes[1].ws(&room, Some(&ana))).await;
    let mut b = WsClient::connect_url(&nodes[2].ws(&room, Some(&bea))).await;
    play(&mut a, &mut b, |a| a.game()["rolls"].as_u64() >= Some(8)).await;
    let rolls = a.game()["rolls"].as_u64().unwrap();
    let epoch = a.epoch.clone();
    nodes[0].signal("TERM");
    let status = nodes[0].child.wait().expect("node 1 stops");
    assert!(status.success(), "node 1 stopped cleanly: {status}");
    // Its room goes on elsewhere; its players just get the room's new state, with no error and no close.
    for client in [&mut a, &mut b] {
        let message = client
            .until(|m| m["type"] == "snapshot" || m["type"] == "error")
            .await;
        assert_eq!(message["type"], "snapshot", "{message}");
        assert_ne!(client.epoch, epoch);
        assert!(client.game()["rolls"].as_u64().unwrap() >= rolls);
    }
    play(&mut a, &mut b, |_| false).await;
    record_replays_to(&nodes[1], &game, &a).await;
    nodes.remove(0);
    drop(nodes);
    drop_schema(schema).await;
}

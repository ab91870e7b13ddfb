//! Cluster nodes for the black-box tests of cluster mode (issue 32): several server processes on one
//! PostgreSQL and one NATS.
//!
//! Each node is a real process (the test binary started again as its `node_process` test, so that it
//! can be killed with `kill -9` or stopped with SIGSTOP); each test has its own PostgreSQL schema and
//! its own NATS subject prefix, so tests run side by side. A file that starts nodes has the test
//!
//! ```ignore
//! #[test]
//! #[ignore = "a cluster node process, started by the tests of this file"]
//! fn node_process() {
//!     common::cluster::node_process();
//! }
//! ```

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

use super::ws::WsClient;
use super::{PgSchema, status_and_json};

/// The NATS server of the machine (`.ci/run` starts it).
pub const NATS_URL: &str = "nats://127.0.0.1:4222";

/// One cluster node as a child process; killed when dropped.
pub struct Node {
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Node {
    /// Starts a node on `database_url` with subject prefix `prefix`.
    pub fn start(database_url: &str, prefix: &str, name: &str) -> Node {
        Node::start_with(database_url, prefix, name, &[])
    }

    /// [`Node::start`] with settings of [`node_process`] (`PARCHIS_TEST_…` variables) set in its
    /// environment.
    pub fn start_with(
        database_url: &str,
        prefix: &str,
        name: &str,
        settings: &[(&str, &str)],
    ) -> Node {
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
            .envs(settings.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start a node");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        // `PARCHIS_TEST_NODE_LOGS=1`: the nodes' logs go to the test's output.
        let logs = std::env::var_os("PARCHIS_TEST_NODE_LOGS").is_some();
        let node = name.to_owned();
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if logs {
                    eprintln!("[{node}] {line}");
                }
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

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn ws(&self, room: &str, token: Option<&str>) -> String {
        match token {
            Some(token) => format!("ws://{}/api/rooms/{room}/ws?token={token}", self.addr),
            None => format!("ws://{}/api/rooms/{room}/ws", self.addr),
        }
    }

    /// Waits until the node answers `/readyz`.
    pub async fn ready(&self) {
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
    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([format!("-{signal}"), self.child.id().to_string()])
            .status()
            .expect("kill");
        assert!(status.success());
    }

    pub async fn post(&self, token: &str, path: &str, body: Value) -> (u16, Value) {
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

    pub async fn get(&self, path: &str) -> Value {
        let (status, body) =
            status_and_json(reqwest::get(self.url(path)).await.expect("request")).await;
        assert_eq!(status, 200, "{path}: {body}");
        body
    }

    /// A new guest player: `(id, token)`.
    pub async fn player(&self, name: &str) -> (String, String) {
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
pub async fn cluster(n: usize) -> (PgSchema, Vec<Node>) {
    cluster_with(n, &[]).await
}

/// [`cluster`] whose nodes start with `settings` (see [`Node::start_with`]).
pub async fn cluster_with(n: usize, settings: &[(&str, &str)]) -> (PgSchema, Vec<Node>) {
    let schema = PgSchema::new().await;
    let prefix = format!("t{}", uuid::Uuid::new_v4().simple());
    // The first node migrates the schema; the others start once it is ready.
    let first = Node::start_with(&schema.url, &prefix, "n1", settings);
    first.ready().await;
    let mut nodes = vec![first];
    for i in 2..=n {
        nodes.push(Node::start_with(
            &schema.url,
            &prefix,
            &format!("n{i}"),
            settings,
        ));
    }
    for node in &nodes {
        node.ready().await;
    }
    (schema, nodes)
}

/// Drops the test's schema.
pub async fn drop_schema(schema: PgSchema) {
    let pool = sqlx::PgPool::connect(&schema.base).await.expect("connect");
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "DROP SCHEMA {} CASCADE",
        schema.name
    )))
    .execute(&pool)
    .await
    .expect("drop schema");
}

/// A cluster node, when the test binary is started again by [`Node::start`] (`PARCHIS_TEST_NODE`):
/// the body of the `node_process` test that every file starting nodes has (nothing otherwise).
/// `PARCHIS_TEST_HTTP_WRITES_PER_MINUTE`, `PARCHIS_TEST_DB_POOL_SIZE` and
/// `PARCHIS_TEST_TRUST_FORWARDED_FOR`, when set, override
/// the test configuration's (no limits, peer addresses).
pub fn node_process() {
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
    if let Ok(writes) = std::env::var("PARCHIS_TEST_HTTP_WRITES_PER_MINUTE") {
        config.http_writes_per_minute = writes.parse().expect("writes per minute");
    }
    if let Ok(size) = std::env::var("PARCHIS_TEST_DB_POOL_SIZE") {
        config.db_pool_size = size.parse().expect("a pool size");
    }
    if let Ok(trust) = std::env::var("PARCHIS_TEST_TRUST_FORWARDED_FOR") {
        config.trust_forwarded_for = trust.parse().expect("true or false");
    }
    if std::env::var_os("PARCHIS_TEST_NODE_LOGS").is_some() {
        tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new(
                std::env::var("RUST_LOG").unwrap_or_else(|_| "warn".into()),
            ))
            .with_ansi(false)
            .init();
    }
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

/// Ana makes a four-seat room on `made_on`, which runs it (two bot seats; `settings` may change any of
/// it), Bea joins on `joins_on` with the join code, Ana starts it: `(room, game, ana token, bea token)`.
pub async fn two_humans_two_bots(
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
    // A stored room runs where it is first used: on `made_on`, which the tests rely on.
    made_on.get(&format!("/api/rooms/{id}")).await;
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
pub async fn catch_up(client: &mut WsClient, version: u64) {
    while client.version < version {
        client.next().await;
    }
}

/// Plays both humans' seats (the bots play the others) until the game is over or `stop` says so.
pub async fn play(a: &mut WsClient, b: &mut WsClient, stop: impl Fn(&WsClient) -> bool) {
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
pub fn without_spectators(state: &Value) -> Value {
    let mut state = state.clone();
    state["spectators"] = Value::Null;
    state
}

/// Checks the stored record of `game` replays to what `client` shows.
pub async fn record_replays_to(node: &Node, game: &str, client: &WsClient) {
    let record = node.get(&format!("/api/games/{game}/record")).await;
    let verified = parchis_proof::verify_record(&record).expect("honest record");
    assert_eq!(
        client.game()["view"],
        serde_json::to_value(verified.game.view()).unwrap()
    );
}

//! Crash safety: a `kill -9` at any moment loses no acknowledged move.
//!
//! These tests start the real `parchis-server` binary (not the library in-process), play acknowledged
//! rolls and moves over the WebSocket, SIGKILL the process right after an ack, start it again on the
//! same database and check that every acknowledged action is there, then play on.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long to wait for the server to start, or for any one message.
const PATIENCE: Duration = Duration::from_secs(20);

/// The real binary, running.
struct Server {
    child: Child,
    /// `127.0.0.1:PORT`, from its `listening on …` log line.
    addr: String,
    /// Every log line so far, for the tests that read what the host is told.
    log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Server {
    /// Starts the binary on `database_url` with port 0 and waits for its `listening on` line.
    async fn start(database_url: &str) -> Server {
        Self::start_with(database_url, &[]).await
    }

    /// [`Server::start`] with more settings in the environment.
    async fn start_with(database_url: &str, settings: &[(&str, &str)]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_parchis-server"))
            .env("PORT", "0")
            .env("BIND", "127.0.0.1")
            .env("DATABASE_URL", database_url)
            .env("BOT_DELAY_MS", "0")
            // Nobody is played for while the test reconnects after a restart.
            .env("AWAY_GRACE_SECS", "3600")
            .env("WS_MESSAGES_PER_SECOND", "100000")
            .env("RUST_LOG", "info,sqlx=warn")
            .env("NO_COLOR", "1")
            .envs(settings.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start parchis-server");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel::<String>();
        let log: std::sync::Arc<std::sync::Mutex<Vec<String>>> = std::sync::Arc::default();
        let kept = std::sync::Arc::clone(&log);
        // Keep draining the log so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                kept.lock().unwrap().push(line.clone());
                if !sent && let Some(rest) = line.split("listening on ").nth(1) {
                    let addr: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ':')
                        .collect();
                    let _ = tx.send(addr);
                    sent = true;
                }
            }
        });
        let addr = tokio::task::spawn_blocking(move || rx.recv_timeout(PATIENCE))
            .await
            .unwrap()
            .expect("the server logs `listening on ADDR`");
        let server = Server { child, addr, log };
        for _ in 0..200 {
            if let Ok(resp) = reqwest::get(server.url("/readyz")).await
                && resp.status() == 200
            {
                return server;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the server never became ready");
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// `kill -9`: no shutdown, no flushing, nothing.
    fn kill_9(mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reap");
    }

    /// Sends SIGTERM, as `systemctl stop` and `docker stop` do.
    fn send_sigterm(&self) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status();
        assert!(sent.expect("run kill").success(), "kill -TERM {pid}");
    }

    /// SIGTERM: waits for the exit and returns its status.
    async fn terminate(mut self) -> std::process::ExitStatus {
        self.send_sigterm();
        for _ in 0..400 {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the server was still running 20 s after SIGTERM");
    }

    async fn post(&self, path: &str, token: &str, body: Value) -> Value {
        let resp = reqwest::Client::new()
            .post(self.url(path))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .expect("request");
        assert!(resp.status().is_success(), "{path}: {}", resp.status());
        resp.json().await.expect("json")
    }

    async fn get(&self, path: &str) -> Value {
        let resp = reqwest::get(self.url(path)).await.expect("request");
        assert_eq!(resp.status(), 200, "{path}");
        resp.json().await.expect("json")
    }

    async fn player(&self, name: &str) -> String {
        let resp = reqwest::Client::new()
            .post(self.url("/api/players"))
            .json(&json!({ "display_name": name }))
            .send()
            .await
            .expect("request");
        let body: Value = resp.json().await.expect("json");
        body["token"].as_str().expect("token").to_owned()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A player's realtime connection, keeping the public state up to date.
struct Seat {
    stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
    state: Value,
    version: u64,
    seat: u64,
    next_id: u64,
}

impl Seat {
    async fn connect(server: &Server, room: &str, token: &str) -> Seat {
        let url = format!("ws://{}/api/rooms/{room}/ws?token={token}", server.addr);
        let (stream, _) = tokio_tungstenite::connect_async(&url)
            .await
            .expect("connect");
        let mut seat = Seat {
            stream,
            state: Value::Null,
            version: 0,
            seat: u64::MAX,
            next_id: 1,
        };
        let hello = seat.until(|m| m["type"] == "hello").await;
        seat.seat = hello["seat"].as_u64().expect("seated");
        seat
    }

    async fn next(&mut self) -> Value {
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.stream.next())
                .await
                .expect("timed out waiting for a message")
                .expect("connection ended")
                .expect("socket error");
            let Message::Text(text) = frame else { continue };
            let m: Value = serde_json::from_str(&text).expect("JSON");
            match m["type"].as_str() {
                Some("snapshot") => {
                    self.state = m["state"].clone();
                    self.version = m["version"].as_u64().unwrap();
                }
                Some("update") => {
                    let patch: json_patch::Patch =
                        serde_json::from_value(m["patch"].clone()).expect("patch");
                    json_patch::patch(&mut self.state, &patch).expect("the patch applies");
                    self.version = m["version"].as_u64().unwrap();
                }
                _ => {}
            }
            return m;
        }
    }

    async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self.next().await;
            if pred(&m) {
                return m;
            }
        }
    }

    /// Sends our one decision (roll, or the first legal move) without waiting; returns its id.
    async fn send_decision(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let turn = &self.state["game"]["view"]["turn"];
        let command = if turn["phase"] == "roll" {
            json!({ "type": "roll", "id": id })
        } else {
            let text = self.state["game"]["view"]["legal_moves"][0]["text"].clone();
            json!({ "type": "move", "move": text, "version": self.version, "id": id })
        };
        self.stream
            .send(Message::Text(command.to_string().into()))
            .await
            .expect("send");
        id
    }

    /// Makes our decision and waits for its `ack`.
    async fn decide(&mut self) {
        let id = self.send_decision().await;
        let reply = self
            .until(|m| (m["type"] == "ack" || m["type"] == "error") && m["id"] == json!(id))
            .await;
        assert_eq!(reply["type"], "ack", "{reply}");
    }

    fn game(&self) -> &Value {
        &self.state["game"]
    }

    /// Reads until the server's close frame: its code and reason.
    async fn closed(&mut self) -> (u16, String) {
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.stream.next())
                .await
                .expect("timed out waiting for the close frame")
                .expect("the connection ended without a close frame")
                .expect("socket error before the close frame");
            if let Message::Close(frame) = frame {
                let frame = frame.expect("a close code");
                return (u16::from(frame.code), frame.reason.to_string());
            }
        }
    }
}

/// What the players have been told so far.
#[derive(Debug, Clone, PartialEq)]
struct Acked {
    /// Actions (rolls + moves) acknowledged.
    actions: usize,
    /// `game.rolls` after the last ack.
    rolls: Value,
    /// `game.view` after the last ack.
    view: Value,
}

/// A two-player game, both seats played by the test (no bots, no timer: nothing moves unless we act).
struct Table {
    room: String,
    game: String,
    tokens: [String; 2],
    seats: Vec<Seat>,
    acked: Acked,
}

impl Table {
    async fn start(server: &Server) -> Table {
        let ana = server.player("Ana").await;
        let bea = server.player("Bea").await;
        let room = server
            .post(
                "/api/rooms",
                &ana,
                json!({ "rules": "playgridia", "mode": "quick", "players": 2,
                        "turn_time_secs": null, "public": true }),
            )
            .await;
        let room = room["id"].as_str().unwrap().to_owned();
        server
            .post(&format!("/api/rooms/{room}/join"), &bea, json!({}))
            .await;
        let started = server
            .post(&format!("/api/rooms/{room}/start"), &ana, json!({}))
            .await;
        let game = started["game_id"].as_str().unwrap().to_owned();
        let mut table = Table {
            room,
            game,
            tokens: [ana, bea],
            seats: Vec::new(),
            acked: Acked {
                actions: 0,
                rolls: json!(0),
                view: Value::Null,
            },
        };
        table.connect(server).await;
        table.acked.view = table.seats[0].game()["view"].clone();
        table
    }

    /// (Re)connects both players.
    async fn connect(&mut self, server: &Server) {
        self.seats.clear();
        for token in &self.tokens {
            self.seats
                .push(Seat::connect(server, &self.room, token).await);
        }
    }

    /// The connection of the seat to act, once it has seen every acked action.
    async fn seat_to_act(&mut self) -> &mut Seat {
        let seat = self.acked.view["turn"]["seat"]
            .as_u64()
            .expect("a seat to act");
        let acked = self.acked.view.clone();
        let conn = self
            .seats
            .iter_mut()
            .find(|s| s.seat == seat)
            .expect("a connection for the seat");
        while conn.game()["view"] != acked {
            conn.next().await;
        }
        conn
    }

    fn over(&self) -> bool {
        self.acked.view["turn"]["phase"] == "over"
    }

    /// Plays `n` acknowledged actions (fewer if the game ends); stops right after the last ack.
    async fn play(&mut self, n: usize) {
        for _ in 0..n {
            if self.over() {
                return;
            }
            let seat = self.seat_to_act().await;
            seat.decide().await;
            let (rolls, view) = (seat.game()["rolls"].clone(), seat.game()["view"].clone());
            self.acked.actions += 1;
            self.acked.rolls = rolls;
            self.acked.view = view;
        }
    }

    /// Plays until the next acked action is a move (so the kill lands right after a move ack).
    async fn play_until_a_move(&mut self) {
        while !self.over() {
            let is_move = self.acked.view["turn"]["phase"] != "roll";
            self.play(1).await;
            if is_move {
                return;
            }
        }
    }

    /// After a restart: the game is exactly as acknowledged, in the log and in what clients see.
    async fn assert_nothing_lost(&mut self, server: &Server, when: &str) {
        let record = server
            .get(&format!("/api/games/{}/record", self.game))
            .await;
        let log = record["log"].as_array().unwrap();
        assert_eq!(
            log.len(),
            self.acked.actions,
            "{when}: the log holds every acked action, no more"
        );
        self.connect(server).await;
        for seat in &self.seats {
            assert_eq!(seat.game()["rolls"], self.acked.rolls, "{when}: roll count");
            assert_eq!(
                seat.game()["view"],
                self.acked.view,
                "{when}: same position"
            );
        }
    }
}

/// The whole scenario on one database: kills after a roll ack, after a move ack, mid-game, with a
/// command in flight, and finally plays the game to its end and verifies the record.
async fn kill_9_loses_no_acked_action(database_url: &str) {
    let mut server = Server::start(database_url).await;
    let mut table = Table::start(&server).await;

    // 1. Right after the very first ack (a roll).
    table.play(1).await;
    assert_eq!(table.acked.rolls, 1);
    server.kill_9();
    server = Server::start(database_url).await;
    table.assert_nothing_lost(&server, "after a roll ack").await;

    // 2. Right after a move ack.
    table.play_until_a_move().await;
    server.kill_9();
    server = Server::start(database_url).await;
    table.assert_nothing_lost(&server, "after a move ack").await;

    // 3. Several times mid-game, after bursts of different lengths.
    for burst in [7, 12, 3] {
        table.play(burst).await;
        server.kill_9();
        server = Server::start(database_url).await;
        table
            .assert_nothing_lost(&server, &format!("after a burst of {burst}"))
            .await;
    }

    // 4. With a command in flight: it may or may not have been stored (it was never acked),
    //    but everything acked before it is there, and the game goes on from whichever it is.
    if !table.over() {
        table.seat_to_act().await.send_decision().await;
        server.kill_9();
        server = Server::start(database_url).await;
        let record = server
            .get(&format!("/api/games/{}/record", table.game))
            .await;
        let logged = record["log"].as_array().unwrap().len();
        assert!(
            logged == table.acked.actions || logged == table.acked.actions + 1,
            "the log has {logged} entries after {} acks",
            table.acked.actions
        );
        table.connect(&server).await;
        if logged > table.acked.actions {
            table.acked.actions = logged;
            table.acked.rolls = table.seats[0].game()["rolls"].clone();
            table.acked.view = table.seats[0].game()["view"].clone();
        }
        table
            .assert_nothing_lost(&server, "after an unacked command")
            .await;
    }

    // 5. Play on to the end: the record is honest and matches what was acked.
    while !table.over() {
        table.play(50).await;
    }
    let record = server
        .get(&format!("/api/games/{}/record", table.game))
        .await;
    let verified = parchis_proof::verify_record(&record).expect("an honest record");
    assert_eq!(
        serde_json::to_value(verified.game.view()).unwrap(),
        table.acked.view
    );
    assert_eq!(record["log"].as_array().unwrap().len(), table.acked.actions);
    server.kill_9();
}

#[tokio::test]
async fn a_sigterm_mid_game_stops_cleanly_and_the_game_resumes_where_it_was() {
    // What DEPLOY.md promises of `systemctl stop` / `docker stop`: the sockets are closed with 1011
    // `room_closed` (the web client reconnects on it), the process exits 0, and the next start
    // rebuilds the game as it was.
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("parchis.db");
    let url = format!("sqlite://{}?mode=rwc", file.display());
    let server = Server::start(&url).await;
    let mut table = Table::start(&server).await;
    table.play(9).await;
    let status = server.terminate().await;
    assert!(status.success(), "exit status after SIGTERM: {status}");
    for seat in &mut table.seats {
        assert_eq!(seat.closed().await, (1011, "room_closed".to_owned()));
    }
    // A clean stop checkpoints the write-ahead log into the database file and removes it.
    assert!(!dir.path().join("parchis.db-wal").exists());
    let server = Server::start(&url).await;
    table.assert_nothing_lost(&server, "after SIGTERM").await;
    table.play(5).await;
    assert!(server.terminate().await.success());
}

#[tokio::test]
async fn a_second_sigterm_stops_a_server_still_waiting_on_a_stalled_request() {
    use tokio::io::AsyncWriteExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("parchis.db").display()
    );
    let settings = [
        ("HTTP_REQUEST_TIMEOUT_SECS", "3600"),
        ("SHUTDOWN_GRACE_SECS", "3600"),
    ];
    let mut server = Server::start_with(&url, &settings).await;
    // A request whose body never comes: the stop waits for it (up to the grace, an hour here).
    let mut stalled = TcpStream::connect(&server.addr).await.expect("connect");
    stalled
        .write_all(b"POST /api/players HTTP/1.1\r\nHost: p\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{")
        .await
        .expect("write");
    tokio::time::sleep(Duration::from_millis(300)).await;
    server.send_sigterm();
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(
        server.child.try_wait().expect("wait").is_none(),
        "the first SIGTERM waits for the request in flight"
    );
    let status = server.terminate().await;
    assert_eq!(
        status.code(),
        Some(1),
        "a forced stop is not a clean one: {status}"
    );
}

#[tokio::test]
async fn refused_connections_tell_the_host_which_setting_once_a_minute_not_once_each() {
    // A host whose clients all arrive from one address (a proxy or NAT it did not declare) would see
    // players refused with nothing in the log to say why.
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("parchis.db").display()
    );
    let server = Server::start_with(&url, &[("CONNECTIONS_PER_ADDRESS", "2")]).await;
    let mut held = Vec::new();
    for _ in 0..6 {
        held.push(TcpStream::connect(&server.addr).await.expect("connect"));
    }
    let said = |server: &Server| {
        let log = server.log.lock().unwrap();
        log.iter()
            .filter(|line| line.contains("CONNECTIONS_PER_ADDRESS"))
            .cloned()
            .collect::<Vec<_>>()
    };
    for _ in 0..100 {
        if !said(&server).is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let lines = said(&server);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("WARN"), "{}", lines[0]);
    assert!(lines[0].contains("peer=127.0.0.1"), "{}", lines[0]);
    assert!(lines[0].contains("TRUST_FORWARDED_FOR"), "{}", lines[0]);
    drop(held);
    assert!(server.terminate().await.success());
}

#[tokio::test]
async fn a_kill_9_at_any_moment_loses_no_acknowledged_move_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("parchis.db").display()
    );
    kill_9_loses_no_acked_action(&url).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL at 127.0.0.1:5432 (run by .ci/run)"]
async fn a_kill_9_at_any_moment_loses_no_acknowledged_move_on_postgresql() {
    let base = std::env::var("DATABASE_URL")
        .ok()
        .filter(|u| u.starts_with("postgres"))
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/test".to_owned());
    let schema = format!("parchis_crash_{}", uuid::Uuid::new_v4().simple());
    let admin = sqlx::PgPool::connect(&base)
        .await
        .expect("connect to PostgreSQL");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
        .execute(&admin)
        .await
        .expect("create schema");
    let sep = if base.contains('?') { '&' } else { '?' };
    let url = format!("{base}{sep}options=-c%20search_path%3D{schema}");
    kill_9_loses_no_acked_action(&url).await;
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
        .execute(&admin)
        .await
        .expect("drop schema");
    admin.close().await;
}

/// A stop while bots play as fast as they can: rooms write the game as the server stops. They finish
/// (or refuse cleanly) before the database closes, so the host's log has no ERROR line.
#[tokio::test]
async fn a_sigterm_while_bots_play_logs_no_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("parchis.db").display()
    );
    // Ana's seat is covered at once: with no bot delay, every seat plays without pause.
    let server = Server::start_with(&url, &[("AWAY_GRACE_SECS", "0")]).await;
    for _ in 0..3 {
        let ana = server.player("Ana").await;
        let room = server
            .post(
                "/api/rooms",
                &ana,
                json!({ "rules": "playgridia", "mode": "individual", "players": 4,
                        "bots": [null, "easy", "easy", "easy"], "turn_time_secs": null }),
            )
            .await;
        let room = room["id"].as_str().unwrap().to_owned();
        server
            .post(&format!("/api/rooms/{room}/start"), &ana, json!({}))
            .await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let log = std::sync::Arc::clone(&server.log);
    let status = server.terminate().await;
    assert!(status.success(), "exit status after SIGTERM: {status}");
    let log = log.lock().unwrap();
    assert!(log.iter().any(|line| line.contains("stopped")), "{log:#?}");
    let errors: Vec<_> = log.iter().filter(|line| line.contains("ERROR")).collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

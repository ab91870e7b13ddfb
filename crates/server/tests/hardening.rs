//! What an attack run on the real binary found (issue 35), each checked from outside:
//! - the server-wide connection cap (`MAX_CONNECTIONS`, derived from the open-file limit): a flood of idle
//!   sockets from many addresses, each under `CONNECTIONS_PER_ADDRESS`, gets `503 server_full` at once
//!   instead of running the process out of file descriptors, and the health checks stay answered. The
//!   binary runs under `prlimit --nofile=N:N`; the flood comes from loopback addresses 127.0.0.2 …
//!   127.0.0.11 (all of 127.0.0.0/8 reaches the loopback interface on Linux);
//! - `/metrics` on an address of its own (`METRICS_ADDR`).

use std::io::{BufRead, BufReader};
use std::net::{Ipv4Addr, SocketAddr};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// The open-file limit the server runs under: 64 files kept for itself and 8 for the health reserve
/// leave it 88 connections.
const OPEN_FILES: u64 = 160;
const CAP: usize = 88;

struct Server {
    child: Child,
    addr: SocketAddr,
    log: Arc<Mutex<Vec<String>>>,
}

/// The address in a log line's `… on ADDR`.
fn address_after(line: &str, words: &str) -> Option<String> {
    let rest = line.split(words).nth(1)?;
    Some(
        rest.chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ':')
            .collect(),
    )
}

impl Server {
    /// The binary under an open-file limit of [`OPEN_FILES`], with `settings` in its environment.
    async fn start(dir: &tempfile::TempDir, settings: &[(&str, &str)]) -> Server {
        let url = format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("parchis.db").display()
        );
        let mut child = Command::new("prlimit")
            .arg(format!("--nofile={OPEN_FILES}:{OPEN_FILES}"))
            .arg("--")
            .arg(env!("CARGO_BIN_EXE_parchis-server"))
            .env("PORT", "0")
            .env("BIND", "127.0.0.1")
            .env("DATABASE_URL", url)
            .env("RUST_LOG", "info,sqlx=warn")
            .env("NO_COLOR", "1")
            .envs(settings.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start prlimit parchis-server");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel::<String>();
        let log: Arc<Mutex<Vec<String>>> = Arc::default();
        let kept = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                kept.lock().unwrap().push(line.clone());
                if line.contains("INFO")
                    && !line.contains("metrics listening on")
                    && let Some(addr) = address_after(&line, "listening on ")
                {
                    let _ = tx.send(addr);
                }
            }
        });
        let addr = tokio::task::spawn_blocking(move || rx.recv_timeout(Duration::from_secs(20)))
            .await
            .unwrap()
            .expect("the server logs `listening on ADDR`")
            .parse()
            .expect("an address");
        Server { child, addr, log }
    }

    /// An idle connection from `source` (a loopback address).
    async fn connect_from(&self, source: Ipv4Addr) -> TcpStream {
        let socket = TcpSocket::new_v4().expect("socket");
        socket
            .bind(SocketAddr::from((source, 0)))
            .expect("bind a loopback source address");
        socket.connect(self.addr).await.expect("connect")
    }

    /// `GET path` on a new connection from `source`: the status line and body, or `None` when no
    /// answer came within `patience`.
    async fn get_from(
        &self,
        source: Ipv4Addr,
        path: &str,
        patience: Duration,
    ) -> Option<(String, String)> {
        let exchange = async {
            let mut stream = self.connect_from(source).await;
            let request =
                format!("GET {path} HTTP/1.1\r\nHost: parchis\r\nConnection: close\r\n\r\n");
            let _ = stream.write_all(request.as_bytes()).await;
            let mut answer = Vec::new();
            let _ = stream.read_to_end(&mut answer).await;
            let answer = String::from_utf8_lossy(&answer).into_owned();
            let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
            (
                head.lines().next().unwrap_or("").to_owned(),
                body.to_owned(),
            )
        };
        tokio::time::timeout(patience, exchange).await.ok()
    }

    /// Asks `path` from `source` until it is answered `status` (within 10 s).
    async fn until(&self, source: Ipv4Addr, path: &str, status: &str) -> (String, String) {
        let start = Instant::now();
        loop {
            if let Some((line, body)) = self.get_from(source, path, Duration::from_secs(2)).await
                && line.starts_with(status)
            {
                return (line, body);
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "{path} never answered {status}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The address of the first log line saying `words` ADDR (waiting for it up to 10 s).
    async fn logged_address(&self, words: &str) -> SocketAddr {
        for _ in 0..200 {
            let found = self
                .log
                .lock()
                .unwrap()
                .iter()
                .find_map(|line| address_after(line, words));
            if let Some(addr) = found {
                return addr.parse().expect("an address");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the server never logged `{words}`");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn address(n: u8) -> Ipv4Addr {
    Ipv4Addr::new(127, 0, 0, n)
}

#[tokio::test]
async fn a_flood_of_idle_sockets_from_many_addresses_is_refused_503_and_health_stays_answered() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(&dir, &[]).await;
    server.until(address(1), "/readyz", "HTTP/1.1 200").await;
    // 200 idle sockets from ten addresses (20 each, far under CONNECTIONS_PER_ADDRESS): more than the
    // process could open under its limit.
    let mut flood = Vec::new();
    for i in 0..200u8 {
        flood.push(server.connect_from(address(2 + i % 10)).await);
    }
    // Past the cap, a client is answered at once, with the documented error.
    let started = Instant::now();
    let (line, body) = server
        .get_from(address(20), "/api/rules", Duration::from_secs(5))
        .await
        .expect("a refused connection is answered, not left hanging");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(line, "HTTP/1.1 503 Service Unavailable", "{body}");
    let error: serde_json::Value = serde_json::from_str(&body).expect("a JSON body");
    assert_eq!(error["code"], "server_full", "{error}");
    assert!(error["message"].as_str().unwrap().contains("try again"));
    // The health checks and the metrics are still answered, and the refusals counted.
    server.until(address(21), "/healthz", "HTTP/1.1 200").await;
    server.until(address(21), "/readyz", "HTTP/1.1 200").await;
    let (_, metrics) = server.until(address(21), "/metrics", "HTTP/1.1 200").await;
    let refused = metrics
        .lines()
        .find(|l| l.starts_with("parchis_connections_refused_total{reason=\"server_full\"}"))
        .unwrap_or_else(|| panic!("no server_full refusals in /metrics:\n{metrics}"));
    let refused: f64 = refused.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(refused >= (200 - CAP) as f64 / 2.0, "{refused}");
    // The flood gone, everyone is served again; the process never ran out of files.
    drop(flood);
    server
        .until(address(22), "/api/rules", "HTTP/1.1 200")
        .await;
    let log = server.log.lock().unwrap();
    assert!(
        !log.iter().any(|l| l.contains("Too many open files")),
        "{log:#?}"
    );
    let capped = log
        .iter()
        .find(|l| l.contains("connections served at once"))
        .expect("the cap is logged at start");
    assert!(capped.contains(&format!("most={CAP}")), "{capped}");
}

#[tokio::test]
async fn metrics_are_served_on_their_own_address_when_one_is_set_and_not_on_the_public_port() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = Server::start(&dir, &[("METRICS_ADDR", "127.0.0.1:0")]).await;
    server.until(address(1), "/readyz", "HTTP/1.1 200").await;
    let (line, body) = server.until(address(1), "/metrics", "HTTP/1.1 404").await;
    assert!(body.contains("not_found"), "{line}: {body}");
    let operations = server.logged_address("metrics listening on ").await;
    for (path, needle) in [
        ("/metrics", "parchis_http_requests_total"),
        ("/readyz", "ok"),
        ("/healthz", "ok"),
    ] {
        let answer = reqwest::get(format!("http://{operations}{path}"))
            .await
            .expect("the metrics address answers");
        assert_eq!(answer.status(), 200, "{path}");
        let text = answer.text().await.unwrap();
        assert!(text.contains(needle), "{path}: {text}");
    }
    let api = reqwest::get(format!("http://{operations}/api/rules"))
        .await
        .unwrap();
    assert_eq!(api.status(), 404, "only the operations' routes there");
}

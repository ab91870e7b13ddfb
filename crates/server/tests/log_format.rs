//! What a host's log collector reads: with `LOG_FORMAT=json` every line the server writes is one JSON object
//! (time, level, message and fields); a format it does not know stops it at once, naming the ones it knows.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

fn server() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_parchis-server"));
    cmd.env("PORT", "0")
        .env("BIND", "127.0.0.1")
        .env("DATABASE_URL", "sqlite::memory:")
        .env("RUST_LOG", "info,sqlx=warn")
        .env("NO_COLOR", "1");
    cmd
}

#[test]
fn json_logs_are_one_object_a_line_with_level_and_message() {
    let mut child = server()
        .env("LOG_FORMAT", "json")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start parchis-server");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let listening = line.contains("listening on");
            if tx.send(line).is_err() || listening {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(20)) {
        let done = line.contains("listening on");
        lines.push(line);
        if done {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        lines.iter().any(|l| l.contains("listening on")),
        "the server started: {lines:?}"
    );
    for line in &lines {
        let entry: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert!(entry["timestamp"].is_string(), "{line}");
        assert!(entry["level"].is_string(), "{line}");
        assert!(entry["fields"]["message"].is_string(), "{line}");
    }
    let listening = lines.last().unwrap();
    let entry: serde_json::Value = serde_json::from_str(listening).unwrap();
    assert_eq!(entry["level"], "INFO");
    assert!(
        entry["fields"]["message"]
            .as_str()
            .unwrap()
            .starts_with("listening on 127.0.0.1:"),
        "{listening}"
    );
}

#[test]
fn an_unknown_log_format_stops_the_server_naming_the_known_ones() {
    let out = server()
        .env("LOG_FORMAT", "xml")
        .output()
        .expect("run parchis-server");
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("invalid value 'xml'"), "{said}");
    assert!(said.contains("text, json"), "{said}");
}

/// The server's lines up to the first one containing `last` (or 60 s of silence); the server is then
/// stopped.
fn lines_until(mut cmd: Command, last: &str) -> Vec<String> {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start parchis-server");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(60)) {
        let done = line.contains(last);
        lines.push(line);
        if done {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    lines
}

#[test]
#[ignore = "needs PostgreSQL and NATS"]
fn every_log_line_of_a_cluster_node_names_the_node() {
    let base = std::env::var("DATABASE_URL")
        .ok()
        .filter(|u| u.starts_with("postgres"))
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/test".to_owned());
    let schema = format!("parchis_test_{}", uuid::Uuid::new_v4().simple());
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let sql = |statement: String| {
        runtime.block_on(async {
            let pool = sqlx::PgPool::connect(&base).await.expect("connect");
            sqlx::query(sqlx::AssertSqlSafe(statement))
                .execute(&pool)
                .await
                .expect("schema");
        })
    };
    sql(format!("CREATE SCHEMA {schema}"));
    let url = format!("{base}?options=-c%20search_path%3D{schema}");
    for json in [false, true] {
        let mut cmd = server();
        cmd.env("DATABASE_URL", &url)
            .env("NATS_URL", "nats://127.0.0.1:4222")
            .env("NATS_PREFIX", format!("t{}", uuid::Uuid::new_v4().simple()))
            .env("NODE_NAME", "node-7")
            .env("LOG_FORMAT", if json { "json" } else { "text" });
        // "serving" comes once the node has joined the cluster and resumed its rooms.
        let lines = lines_until(cmd, "serving");
        assert!(
            lines.iter().any(|l| l.contains("serving")),
            "the node started: {lines:?}"
        );
        for line in &lines {
            if json {
                let entry: serde_json::Value =
                    serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
                assert_eq!(entry["node"], "node-7", "{line}");
                assert!(entry["fields"]["message"].is_string(), "{line}");
            } else {
                assert!(line.starts_with("node=node-7 "), "{line}");
            }
        }
    }
    sql(format!("DROP SCHEMA {schema} CASCADE"));
}

//! `parchis-server healthcheck`, the container image's HEALTHCHECK: exit 0 while the server on the
//! given port answers `/readyz`, exit 1 with a reason once nothing listens there.

use std::process::Command;

use parchis_server::{Config, run};
use tokio::net::TcpListener;

fn healthcheck(port: u16) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_parchis-server"))
        .args([
            "--bind",
            "0.0.0.0",
            "--port",
            &port.to_string(),
            "healthcheck",
        ])
        .output()
        .unwrap()
}

#[tokio::test]
async fn healthcheck_passes_while_the_server_is_ready_and_fails_once_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("p.db").display());
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(run(listener, Config::for_database(url), async {
        let _ = stopped.await;
    }));

    let mut ready = None;
    for _ in 0..100 {
        let out = tokio::task::spawn_blocking(move || healthcheck(port))
            .await
            .unwrap();
        if out.status.success() {
            ready = Some(out);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let ready = ready.expect("healthcheck never passed against a running server");
    assert!(String::from_utf8_lossy(&ready.stdout).contains(" 200 "));

    stop.send(()).unwrap();
    server.await.unwrap().unwrap();
    let down = tokio::task::spawn_blocking(move || healthcheck(port))
        .await
        .unwrap();
    assert_eq!(down.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&down.stderr).contains("cannot connect to 127.0.0.1:"),
        "{}",
        String::from_utf8_lossy(&down.stderr)
    );
}

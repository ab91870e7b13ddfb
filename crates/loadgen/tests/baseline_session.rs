//! A tiny bounded session (8 players, 2 s) against the in-process baseline broadcaster.

use std::net::SocketAddr;
use std::time::Duration;

use parchis_loadgen::baseline::{self, BaselineConfig};
use parchis_loadgen::session::{self, SessionConfig, Target};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_players_for_two_seconds_against_the_baseline() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    let server = tokio::spawn(baseline::serve(
        listener,
        BaselineConfig { message_bytes: 800 },
    ));

    let mut config = SessionConfig::new(Target::Baseline, addr);
    config.rooms = 2;
    config.pace = Duration::from_millis(100);
    config.duration = Duration::from_secs(2);
    config.server_pid = Some(std::process::id());
    let report = tokio::time::timeout(Duration::from_secs(30), session::run(config))
        .await
        .expect("the session is bounded")
        .expect("the session runs");
    server.abort();

    println!("{}", report.summary());
    assert_eq!(report.players_connected, 8);
    assert_eq!(report.rooms_playing, 2);
    assert_eq!(report.errors, 0, "{:?}", report.error_samples);
    assert_eq!(report.disconnects, 0);
    // 2 rooms × 10 actions/s × 2 s, with slack for a slow machine.
    assert!(report.actions >= 10, "only {} actions", report.actions);
    // Every action measured reached all four clients of its room; only an action under way when the
    // measuring window opened may have had some of its four deliveries before it (one per room).
    let slack = 3 * report.rooms_playing as u64;
    assert!(
        report.latency_client.count + slack >= 4 * report.latency_room.count,
        "{} deliveries for {} actions",
        report.latency_client.count,
        report.latency_room.count
    );
    assert!(report.latency_client.count >= 40);
    let l = report.latency_client;
    assert!(l.p50_ms > 0.0 && l.p50_ms <= l.p99_ms && l.p99_ms <= l.max_ms);
    assert!(report.updates_per_sec > 0.0);
    let s = report.server.expect("figures of our own pid");
    assert!(s.rss_end_kib > 0);
}

//! Backups of a SQLite server (`parchis-server backup FILE`, here its library function): taken while the
//! server runs, they hold every game and player, and a server started on the copy carries on from them.
mod common;

use common::game::{record, start_with_bots};
use common::ws::WsClient;
use common::{TestServer, status_and_json};
use parchis_server::backup::{BackupError, backup};

#[tokio::test]
async fn a_backup_taken_while_the_server_runs_restores_every_game_and_player() {
    let dir = tempfile::tempdir().unwrap();
    let live = format!("sqlite://{}?mode=rwc", dir.path().join("live.db").display());
    let server = TestServer::start(live.clone()).await;
    let finished = start_with_bots(&server, "playgridia", "quick", 2).await;
    let mut ws = WsClient::connect(&server, &finished.room, Some(&finished.owner.token)).await;
    ws.play_to_the_end().await;
    ws.close().await;
    // A second game is under way (its owner is at the table) while the copy is taken.
    let playing = start_with_bots(&server, "ludoteka", "individual", 4).await;
    let at_table = WsClient::connect(&server, &playing.room, Some(&playing.owner.token)).await;

    let copy = dir.path().join("copy.db");
    let report = backup(&live, &copy).await.expect("a backup");
    assert_eq!((report.players, report.rooms, report.games), (2, 2, 2));
    assert!(report.bytes > 0);
    let finished_record = record(&server, &finished.game).await;
    let (_, stats) = server
        .get_as(&finished.owner.token, "/api/players/me/stats")
        .await;
    at_table.close().await;
    server.finish().await;

    // The host restores: a server on the copy knows the players, their tokens and both games.
    let restored = TestServer::start(format!("sqlite://{}", copy.display())).await;
    assert_eq!(record(&restored, &finished.game).await, finished_record);
    let (status, restored_stats) = restored
        .get_as(&finished.owner.token, "/api/players/me/stats")
        .await;
    assert_eq!(status, 200, "{restored_stats}");
    assert_eq!(restored_stats, stats);
    let (status, room) = status_and_json(
        restored
            .get(&format!("/api/rooms/{}", playing.room))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        (status.as_u16(), room["status"].as_str()),
        (200, Some("playing"))
    );
    // …and play goes on in the game that was under way.
    let mut resumed = WsClient::connect(&restored, &playing.room, Some(&playing.owner.token)).await;
    resumed.play_to_the_end().await;
    resumed.close().await;
    restored.finish().await;
}

#[tokio::test]
async fn a_backup_never_overwrites_a_file_nor_creates_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let live = format!("sqlite://{}?mode=rwc", dir.path().join("live.db").display());
    let server = TestServer::start(live.clone()).await;
    server.player("Ana").await;

    let taken = dir.path().join("taken.db");
    std::fs::write(&taken, b"yesterday's backup").unwrap();
    let err = backup(&live, &taken).await.unwrap_err();
    assert!(matches!(err, BackupError::TargetExists(_)), "{err}");
    assert_eq!(std::fs::read(&taken).unwrap(), b"yesterday's backup");

    let missing = dir.path().join("missing.db");
    let err = backup(
        &format!("sqlite://{}?mode=rwc", missing.display()),
        &dir.path().join("copy.db"),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, BackupError::NoDatabase(_)), "{err}");
    assert!(!missing.exists(), "no empty database was made");
    assert!(!dir.path().join("copy.db").exists());

    let err = backup(
        "postgres://postgres@127.0.0.1:5432/test",
        &dir.path().join("pg.db"),
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("pg_dump"), "{err}");
    server.finish().await;
}

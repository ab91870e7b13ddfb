//! `parchis-server backup FILE` as a host types it: a copy and a one-line report, exit 0; a refusal on
//! standard error, exit 1, and nothing overwritten.

use std::process::Command;

#[tokio::test]
async fn the_backup_command_copies_the_database_and_refuses_to_overwrite_a_copy() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("parchis.db").display()
    );
    let db = parchis_server::db::Db::connect(&url).await.unwrap();
    db.migrate().await.unwrap();
    db.close().await;

    let copy = dir.path().join("parchis-backup.db");
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_parchis-server"))
            .args(["--database-url", &url, "backup"])
            .arg(&copy)
            .output()
            .unwrap()
    };
    let first = run();
    let said = String::from_utf8_lossy(&first.stdout);
    assert!(
        first.status.success(),
        "{said} {}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(
        said.contains("integrity check ok") && said.contains("0 games"),
        "{said}"
    );
    let size = std::fs::metadata(&copy).unwrap().len();

    let again = run();
    assert_eq!(again.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("already exists"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(std::fs::metadata(&copy).unwrap().len(), size);
}

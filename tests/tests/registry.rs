//! The room registry interface, used directly (no HTTP).
mod common;

use common::{TestServer, public_four};
use parchis_server::db::{Db, NewRoom, PlayerRow, RoomRow, SeatRow, now_ms};
use parchis_server::model::RoomStatus;
use parchis_server::rooms::{RoomCommand, RoomEvent, Timing};
use parchis_server::settings::{CreateRoomRequest, validate_settings};
use parchis_server::{LocalRegistry, RoomRegistry};
use serde_json::json;
use std::time::{Duration, Instant};

async fn sqlite_db(dir: &tempfile::TempDir) -> Db {
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("r.db").display());
    let db = Db::connect(&url).await.unwrap();
    db.migrate().await.unwrap();
    db
}

async fn player(db: &Db, name: &str) -> PlayerRow {
    let row = PlayerRow {
        id: uuid::Uuid::new_v4().to_string(),
        display_name: name.to_owned(),
        created_at: now_ms(),
    };
    db.create_player(&row, &format!("hash-of-{}", row.id), None)
        .await
        .unwrap();
    row
}

/// Stores a waiting four-seat room `id` owned by `owner`.
async fn create_room(db: &Db, owner: &PlayerRow, id: &str) {
    let request: CreateRoomRequest = serde_json::from_value(public_four()).unwrap();
    let settings = validate_settings(request, 30).unwrap();
    let seats = (0..4).map(SeatRow::empty).collect();
    let room = NewRoom {
        room: RoomRow {
            id: id.into(),
            join_code: format!("CODE-{id}"),
            owner_id: owner.id.clone(),
            settings: sqlx::types::Json(settings),
            status: RoomStatus::Waiting,
            created_at: now_ms(),
        },
        seats,
    };
    db.create_room(&room).await.unwrap();
}

/// `guest` joins room `id` through the registry and gets its first seat.
async fn join_first_seat(registry: &LocalRegistry, id: &str, guest: &PlayerRow) {
    let snapshot = registry
        .send(
            id,
            RoomCommand::Join {
                player_id: guest.id.clone(),
                display_name: guest.display_name.clone(),
                preferred_colour: None,
                code: None,
            },
        )
        .await
        .unwrap();
    assert_eq!(
        snapshot.seats[0].player_id.as_deref(),
        Some(guest.id.as_str())
    );
}

#[tokio::test]
async fn subscribers_hear_about_joins() {
    let dir = tempfile::tempdir().unwrap();
    let db = sqlite_db(&dir).await;
    let owner = player(&db, "Ana").await;
    let guest = player(&db, "Luis").await;
    create_room(&db, &owner, "room-1").await;

    let registry = LocalRegistry::new(db.clone());
    assert!(registry.lookup("nope").await.unwrap().is_none());
    let mut events = registry.subscribe("room-1").await.unwrap();
    assert_eq!(registry.stats().subscribers, 1);
    join_first_seat(&registry, "room-1", &guest).await;
    match events.recv().await.unwrap() {
        RoomEvent::LobbyChanged { seats, .. } => {
            assert_eq!(seats[0].player_id.as_deref(), Some(guest.id.as_str()));
        }
        other => panic!("unexpected event {other:?}"),
    }
    // The write was persisted before the reply.
    assert_eq!(
        db.room_seats("room-1").await.unwrap()[0].player_id,
        Some(guest.id)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_joins_never_double_book_a_seat() {
    let server = TestServer::sqlite().await;
    let owner = server.player("Ana").await;
    let room = server
        .room(
            &owner,
            json!({ "rules": "playgridia", "mode": "3v3", "players": 6, "public": true }),
        )
        .await;
    let id = room["id"].as_str().unwrap().to_owned();
    let mut players = Vec::new();
    for i in 0..12 {
        players.push(server.player(&format!("P{i}")).await);
    }
    let server = std::sync::Arc::new(server);
    let joins = players.iter().map(|p| {
        let server = server.clone();
        let path = format!("/api/rooms/{id}/join");
        let p = p.clone();
        tokio::spawn(async move { server.post_as(&p, &path, json!({})).await.0 })
    });
    let mut statuses = Vec::new();
    for join in joins {
        statuses.push(join.await.unwrap().as_u16());
    }
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        5,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 409).count(),
        7,
        "{statuses:?}"
    );
    let (_, room) = common::status_and_json(
        server
            .get(&format!("/api/rooms/{id}"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    let mut seated: Vec<&str> = room["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player_id"].as_str().unwrap())
        .collect();
    seated.sort_unstable();
    seated.dedup();
    assert_eq!(seated.len(), 6);
}

#[tokio::test]
async fn an_idle_room_leaves_memory_and_comes_back_from_storage() {
    let dir = tempfile::tempdir().unwrap();
    let db = sqlite_db(&dir).await;
    let owner = player(&db, "Ana").await;
    let guest = player(&db, "Luis").await;
    let ids = ["room-a", "room-b", "room-c"];
    for id in ids {
        create_room(&db, &owner, id).await;
    }
    let timing = Timing {
        idle_room: Duration::from_millis(100),
        ..Timing::default()
    };
    let registry = LocalRegistry::with_timing(db.clone(), timing);
    for id in ids {
        assert!(registry.lookup(id).await.unwrap().is_some());
    }
    assert_eq!(registry.stats().live_rooms, 3);
    assert_eq!(registry.stats().held_rooms, 3);

    // Nobody connected, nothing to do: every room task stops and the registry forgets it.
    let deadline = Instant::now() + Duration::from_secs(10);
    while registry.stats().held_rooms > 0 {
        assert!(Instant::now() < deadline, "{:?}", registry.stats());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(registry.stats().live_rooms, 0);

    // The next use reloads the room from storage and acts on it as before.
    join_first_seat(&registry, "room-b", &guest).await;
    assert_eq!(registry.stats().held_rooms, 1);
}

/// CPU time this thread has used (Linux: utime + stime of /proc/thread-self/stat), in clock ticks.
fn thread_cpu_ticks() -> u64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis start at 3.
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = after.split(' ').collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[tokio::test]
async fn a_room_idle_time_of_zero_does_not_spin_while_someone_is_in_the_room() {
    // ROOM_IDLE_SECS=0 (unload rooms at once): a room that could not stop, since someone follows it,
    // checked again at once, for ever.
    let dir = tempfile::tempdir().unwrap();
    let db = sqlite_db(&dir).await;
    let owner = player(&db, "Ana").await;
    create_room(&db, &owner, "room-z").await;
    let timing = Timing {
        idle_room: Duration::ZERO,
        ..Timing::default()
    };
    let registry = LocalRegistry::with_timing(db.clone(), timing);
    // Followed: the room stays. The test's runtime has one thread, which runs the room task too.
    let _events = registry.subscribe("room-z").await.unwrap();
    assert!(registry.lookup("room-z").await.unwrap().is_some());
    let before = thread_cpu_ticks();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let used = thread_cpu_ticks() - before;
    // Clock ticks are usually hundredths of a second. Checking again at once woke the room about a
    // thousand times a second (the timer's resolution): 14 ticks here, where a room waiting uses none.
    assert!(used < 5, "{used} ticks of CPU in 2 s of nothing");
    assert_eq!(registry.stats().live_rooms, 1);
    drop(_events);
    // Nobody follows it any more: it stops (at the next check).
    let deadline = Instant::now() + Duration::from_secs(10);
    while registry.stats().held_rooms > 0 {
        assert!(Instant::now() < deadline, "{:?}", registry.stats());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

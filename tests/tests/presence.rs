//! Who is at the table: away players covered by a bot and given their seat back, clients too
//! slow to read their messages dropped without holding up the room, and a crowd of spectators
//! counted without flooding the players.
mod common;

use std::time::{Duration, Instant};

use common::game::{record, start_with_bots};
use common::ws::{WsClient, ws_url};
use common::{TestServer, public_four};
use futures_util::future::join_all;
use serde_json::Value;

#[tokio::test]
async fn a_disconnected_players_turn_is_covered_by_a_bot_after_the_grace_period_and_the_seat_is_theirs_again_on_reconnect()
 {
    // A second of grace; bots pause a little so the game does not end while we look.
    let server = TestServer::sqlite_with(|c| {
        c.away_grace_secs = 1;
        c.bot_delay_ms = 40;
    })
    .await;
    let started = start_with_bots(&server, "playgridia", "quick", 2).await;
    let mut spectator = WsClient::connect(&server, &started.room, None).await;
    let player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    spectator
        .until_state(|s| s["seats"][0]["status"] == "connected")
        .await;

    let mut player = player;
    player.close_socket().await;
    // Everyone sees the seat away, then a bot playing it.
    spectator
        .until_state(|s| s["seats"][0]["status"] == "away")
        .await;
    spectator
        .until_state(|s| {
            s["seats"][0]["label"] == "away (bot playing)" && s["seats"][0]["bot_playing"] == true
        })
        .await;
    assert_eq!(
        spectator.state["seats"][0]["player_id"], started.owner.id,
        "the seat is still theirs"
    );
    // The bot really played seat 0's turn, and the record says so.
    spectator
        .until_state(|s| s["game"]["view"]["turn"]["seat"] == 1)
        .await;
    let log = record(&server, &started.game).await["log"].clone();
    let covered: Vec<&Value> = log
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["payload"]["seat"] == 0)
        .collect();
    assert!(!covered.is_empty(), "seat 0 acted while away");
    assert!(
        covered.iter().all(|e| e["payload"]["by"] == "away"),
        "{log}"
    );

    // Back again: connected, no bot, and seat 0's next decision waits for them (well past the grace).
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    assert_eq!(player.seat, Some(0));
    spectator
        .until_state(|s| {
            s["seats"][0]["status"] == "connected" && s["seats"][0]["bot_playing"] == false
        })
        .await;
    assert_eq!(spectator.state["seats"][0]["label"], "connected");
    while !player.my_turn() {
        assert!(!player.over(), "the game ended before it came back to us");
        player.next().await;
    }
    let waiting = player.resync().await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(
        player.resync().await,
        waiting,
        "nobody played for a connected player"
    );
    player.act().await;
    let log = record(&server, &started.game).await["log"].clone();
    let last = log.as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["payload"]["seat"], 0);
    assert_eq!(last["payload"]["by"], "player", "{last}");
    server.finish().await;
}

#[tokio::test]
async fn a_slow_client_that_never_reads_is_disconnected_with_1008_too_slow_while_the_room_keeps_going_for_others()
 {
    let server = TestServer::sqlite().await;
    let started = start_with_bots(&server, "playgridia", "quick", 4).await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    let mut slow = WsClient::connect_small_buffer(&ws_url(&server, &started.room, "")).await;
    player.until_state(|s| s["spectators"] == 1).await;

    // The slow client keeps asking for snapshots and reads none of them, until the room drops it
    // (the others see the spectator gone).
    flood_until_dropped(&mut slow, &mut player, |s| s["spectators"] == 0).await;
    // When it reads at last, what is queued ends with the close, and its reason.
    let frame = slow.closed().await.expect("a close frame");
    assert_eq!(u16::from(frame.code), 1008, "{frame:?}");
    assert_eq!(frame.reason.as_str(), "too_slow");

    // The game goes on for everyone else.
    let mut decisions = 0;
    while decisions < 4 && !player.over() {
        if player.my_turn() {
            player.act().await;
            decisions += 1;
        } else {
            player.next().await;
        }
    }
    assert_eq!(decisions, 4, "we played on");
    // Bots stop when it is our turn again: a newcomer sees exactly what we see.
    while !player.my_turn() && !player.over() {
        player.next().await;
    }
    let spectator = WsClient::connect(&server, &started.room, None).await;
    assert_eq!(spectator.game()["view"], player.game()["view"]);
    server.finish().await;
}

#[tokio::test]
async fn a_seated_player_dropped_as_too_slow_is_away_and_a_bot_covers_their_turn_after_the_grace() {
    // A phone that stops reading (asleep, bad link) must not stall the table: once the room drops its
    // connection, the seat is away like a closed one, and the bot covers it after the grace.
    let server = TestServer::sqlite_with(|c| {
        c.away_grace_secs = 1;
        c.bot_delay_ms = 40;
    })
    .await;
    let started = start_with_bots(&server, "playgridia", "quick", 2).await;
    let mut spectator = WsClient::connect(&server, &started.room, None).await;
    let url = ws_url(
        &server,
        &started.room,
        &format!("token={}", started.owner.token),
    );
    let mut slow = WsClient::connect_small_buffer(&url).await;
    spectator
        .until_state(|s| s["seats"][0]["status"] == "connected")
        .await;

    flood_until_dropped(&mut slow, &mut spectator, |s| {
        s["seats"][0]["status"] == "away"
    })
    .await;
    spectator
        .until_state(|s| s["seats"][0]["bot_playing"] == true)
        .await;
    spectator
        .until_state(|s| s["game"]["view"]["turn"]["seat"] == 1)
        .await;
    let log = record(&server, &started.game).await["log"].clone();
    assert!(
        log.as_array()
            .unwrap()
            .iter()
            .any(|e| e["payload"]["seat"] == 0 && e["payload"]["by"] == "away"),
        "a bot acted for the dropped player: {log}"
    );
    server.finish().await;
}

#[tokio::test]
async fn a_seated_player_whose_connection_goes_silent_is_closed_with_no_pong_and_shown_away_while_answering_clients_stay()
 {
    // A phone that loses its signal closes nothing: only the server's pings, left unanswered, tell.
    // Pings every second here: silent for three, the connection is taken for dead.
    let server = TestServer::sqlite_with(|c| {
        c.ws_ping_secs = 1;
        c.away_grace_secs = 600;
    })
    .await;
    let started = start_with_bots(&server, "playgridia", "quick", 2).await;
    let mut spectator = WsClient::connect(&server, &started.room, None).await;
    // Connected and then never read: a client that is not read does not answer the pings either.
    let mut silent = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    spectator
        .until_state(|s| s["seats"][0]["status"] == "connected")
        .await;
    let seen_connected = std::time::Instant::now();

    spectator
        .until_state(|s| s["seats"][0]["status"] == "away")
        .await;
    let silent_for = seen_connected.elapsed();
    assert!(
        silent_for >= Duration::from_secs(2),
        "closed only after the pings went unanswered, not at once ({silent_for:?})"
    );
    let frame = silent.closed().await.expect("a close frame");
    assert_eq!(u16::from(frame.code), 1001, "{frame:?}");
    assert_eq!(frame.reason.as_str(), "no_pong");

    // The spectator, who keeps reading (and so answers every ping), is still there well past three
    // pings.
    let _ = tokio::time::timeout(Duration::from_secs(4), spectator.until(|_| false)).await;
    let snapshot = spectator.resync().await;
    assert_eq!(snapshot["seats"][0]["status"], "away");
    // And the seat is theirs again when they come back.
    let back = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    assert_eq!(back.seat, Some(0));
    spectator
        .until_state(|s| s["seats"][0]["status"] == "connected")
        .await;
    server.finish().await;
}

/// Has `slow` ask for snapshots it never reads until `watcher` sees `dropped` (the room let it go).
async fn flood_until_dropped(
    slow: &mut WsClient,
    watcher: &mut WsClient,
    dropped: impl Fn(&Value) -> bool,
) {
    let mut sent = 0;
    'flood: while !dropped(&watcher.state) {
        for _ in 0..50 {
            if !slow.try_send_text(r#"{"type":"resync"}"#).await {
                break 'flood;
            }
        }
        sent += 50;
        assert!(sent < 200_000, "the slow client was never dropped");
        let _ = tokio::time::timeout(Duration::from_millis(5), watcher.until_state(&dropped)).await;
    }
    watcher.until_state(&dropped).await;
}

#[tokio::test]
async fn forty_spectators_joining_at_once_send_a_seated_player_only_a_few_updates_and_the_count_it_shows_reaches_forty_within_about_a_second()
 {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let room = server.room(&ana, public_four()).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut player = WsClient::connect(&server, &room, Some(&ana.token)).await;
    player
        .until_state(|s| s["seats"][0]["status"] == "connected")
        .await;

    // Forty people open the room to watch, all at once.
    let before = player.versions.len();
    let spectators = join_all((0..40).map(|_| WsClient::connect(&server, &room, None))).await;
    let all_in = Instant::now();
    player.until_state(|s| s["spectators"] == 40).await;
    let waited = all_in.elapsed();
    let updates = player.versions.len() - before;
    assert!(
        updates <= 5,
        "{updates} updates reached the player for forty spectators joining"
    );
    assert!(
        waited < Duration::from_secs(3),
        "the count showed forty only {waited:?} after the last one joined"
    );

    // They all leave at once: the count goes back to nobody, again in a few updates.
    let before = player.versions.len();
    join_all(spectators.into_iter().map(WsClient::close)).await;
    player.until_state(|s| s["spectators"] == 0).await;
    let updates = player.versions.len() - before;
    assert!(
        updates <= 5,
        "{updates} updates reached the player for forty spectators leaving"
    );
    server.finish().await;
}

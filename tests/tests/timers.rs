//! The private next-roll preview and the turn timer.
mod common;

use common::TestServer;
use common::game::{record, start_room};
use common::ws::WsClient;
use serde_json::json;

#[tokio::test]
async fn only_the_player_about_to_roll_sees_the_next_roll_and_it_is_the_roll_they_get() {
    let server = TestServer::sqlite().await;
    let started = start_room(
        &server,
        json!({ "rules": "playgridia", "mode": "quick", "players": 2,
                "turn_time_secs": null, "preview_next_roll": true, "public": true }),
    )
    .await;
    let mut spectator = WsClient::connect(&server, &started.room, None).await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    let preview = player.until(|m| m["type"] == "preview").await;
    assert_eq!(preview["roll"], 0);
    let reply = player.request(json!({ "type": "roll" })).await;
    assert_eq!(reply["type"], "ack");
    let record = record(&server, &started.game).await;
    assert_eq!(record["log"][0]["payload"]["die"], preview["die"]);
    // The spectator got every update but never a preview (nor the seed).
    spectator
        .until_state(|s| s["game"]["rolls"].as_u64() >= Some(1))
        .await;
    assert!(spectator.private.iter().all(|m| m["type"] != "preview"));
    assert!(spectator.state["game"]["seed"].is_null());
    server.finish().await;
}

#[tokio::test]
async fn when_the_turn_timer_runs_out_the_server_rolls_and_moves_for_the_player() {
    let server = TestServer::sqlite().await;
    let started = start_room(
        &server,
        json!({ "rules": "playgridia", "mode": "quick", "players": 2,
                "turn_time_secs": 5, "public": true }),
    )
    .await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    assert!(
        player.game()["deadline_ms"].is_i64(),
        "the deadline is shown"
    );
    // We do nothing; the timer acts for us.
    player
        .until_state(|s| s["game"]["rolls"].as_u64() >= Some(1))
        .await;
    let record = record(&server, &started.game).await;
    assert_eq!(record["log"][0]["payload"]["by"], "timer");
    server.finish().await;
}

#[tokio::test]
async fn a_preselected_move_is_played_when_the_turn_timer_runs_out() {
    // A "second" of the room's turn timer lasts 200 ms here, so 5 s (the API's minimum) is one second.
    let server = TestServer::sqlite_with(|c| c.turn_second_ms = 200).await;
    let started = start_room(
        &server,
        json!({ "rules": "playgridia", "mode": "quick", "players": 2,
                "turn_time_secs": 5, "public": true }),
    )
    .await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    // We never roll nor move ourselves. At a move with a choice, we pre-select the last option
    // (not the first, which is what a careless server might pick).
    let chosen = loop {
        let moves = player.game()["view"]["legal_moves"].as_array().cloned();
        if player.my_turn() && moves.as_ref().is_some_and(|m| m.len() >= 2) {
            let moves = moves.unwrap();
            let text = moves.last().unwrap()["text"].as_str().unwrap().to_owned();
            let reply = player
                .request(json!({ "type": "preselect", "move": text }))
                .await;
            if reply["type"] == "ack" {
                break text;
            }
        }
        assert!(!player.over(), "no move with a choice came up");
        player.next().await;
    };
    let rolls = player.game()["rolls"].clone();
    // The timer runs out and the server plays it for us.
    player
        .until_state(|s| {
            s["game"]["rolls"] != rolls || s["game"]["view"]["turn"]["phase"] == "roll"
        })
        .await;
    let log = record(&server, &started.game).await["log"].clone();
    let played = log
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|e| e["kind"] == "move" && e["payload"]["seat"] == 0)
        .expect("a move of ours")
        .clone();
    assert_eq!(played["payload"]["move"], chosen.as_str(), "{log}");
    assert_eq!(played["payload"]["by"], "timer");
    server.finish().await;
}

#[tokio::test]
async fn the_api_still_refuses_turn_timers_under_5_seconds_even_with_fast_test_seconds() {
    let server = TestServer::sqlite_with(|c| c.turn_second_ms = 100).await;
    let owner = server.player("Ana").await;
    let (status, body) = server
        .post_as(
            &owner,
            "/api/rooms",
            json!({ "rules": "playgridia", "mode": "quick", "players": 2, "turn_time_secs": 1 }),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["code"], "invalid_settings");
    server.finish().await;
}

/// Unix ms now, on the clock the server's `deadline_ms` is read against.
fn now_ms() -> i64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    i64::try_from(since.as_millis()).unwrap()
}

/// Reads until seat 0 (the human owner's, connected: the snapshot may show it away still, the update
/// that follows shows it back) is to act, and returns the game's `deadline_ms` then.
async fn until_seat_0_acts(client: &mut WsClient) -> serde_json::Value {
    client
        .until_state(|s| {
            s["seats"][0]["status"] == "connected"
                && s["game"]["view"]["turn"]["seat"] == 0
                && s["game"]["view"]["turn"]["phase"] != "over"
        })
        .await;
    client.game()["deadline_ms"].clone()
}

#[tokio::test]
async fn the_countdown_of_a_player_who_goes_away_ends_when_the_server_will_act_and_comes_back_with_them()
 {
    let server = TestServer::sqlite_with(|c| c.away_grace_secs = 2).await;
    let started = start_room(
        &server,
        json!({ "rules": "playgridia", "mode": "quick", "players": 2,
                "turn_time_secs": 30, "public": true }),
    )
    .await;
    let mut watcher = WsClient::connect(&server, &started.room, None).await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    let full = until_seat_0_acts(&mut player).await;
    let left = full.as_i64().expect("a turn timer runs for the player") - now_ms();
    assert!((25_000..=30_500).contains(&left), "{left} ms of 30 s left");
    watcher
        .until_state(|s| s["game"]["deadline_ms"] == full)
        .await;

    // The player's only device goes: the server will act for them at the end of the away grace (2 s),
    // long before the turn timer (30 s), and that is what everyone's countdown says.
    player.close_socket().await;
    watcher
        .until_state(|s| s["seats"][0]["status"] == "away")
        .await;
    let grace = watcher.game()["deadline_ms"].clone();
    let left = grace.as_i64().expect("a countdown while away") - now_ms();
    assert!(
        (500..=2_500).contains(&left),
        "the countdown ends with the away grace: {left} ms left (turn timer: {full})"
    );

    // Back in time: the turn timer's countdown again, where it was.
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    player
        .until_state(|s| s["seats"][0]["status"] == "connected")
        .await;
    assert_eq!(player.game()["deadline_ms"], full);
    watcher
        .until_state(|s| s["seats"][0]["status"] == "connected")
        .await;
    assert_eq!(watcher.game()["deadline_ms"], full);

    // Gone again, for good: the server acts when the countdown says, not 30 s later.
    player.close().await;
    watcher
        .until_state(|s| s["seats"][0]["status"] == "away")
        .await;
    let due = watcher.game()["deadline_ms"]
        .as_i64()
        .expect("a countdown while away");
    watcher
        .until(|m| m["type"] == "update" && m["events"].as_array().is_some_and(|e| !e.is_empty()))
        .await;
    let acted = now_ms();
    assert!(
        // The slack above covers a busy test machine; the turn timer would have been 30 s.
        (due - 100..=due + 5_000).contains(&acted),
        "the server acted at {acted}, the countdown said {due}"
    );
    // Other actions may follow before the record is read (the bots play on): look for the server's
    // action for the away player, which nothing before this point could have made.
    let log = record(&server, &started.game).await["log"].clone();
    assert!(
        log.as_array()
            .unwrap()
            .iter()
            .any(|entry| entry["payload"]["by"] == "away"),
        "{log}"
    );
    // A bot plays the seat now, at the bots' pace: nobody waits on a person, so there is no countdown.
    assert_eq!(watcher.state["seats"][0]["bot_playing"], true);
    assert!(
        watcher.game()["deadline_ms"].is_null(),
        "{}",
        watcher.game()
    );
    server.finish().await;
}

#[tokio::test]
async fn without_a_turn_timer_an_away_player_s_turn_still_counts_down_to_the_bot_taking_over() {
    let server = TestServer::sqlite_with(|c| c.away_grace_secs = 2).await;
    let started = start_room(
        &server,
        json!({ "rules": "playgridia", "mode": "quick", "players": 2,
                "turn_time_secs": null, "public": true }),
    )
    .await;
    let mut watcher = WsClient::connect(&server, &started.room, None).await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    let shown = until_seat_0_acts(&mut player).await;
    assert!(
        shown.is_null(),
        "no timer, the player is there: nothing to count down ({shown})"
    );
    player.close_socket().await;
    watcher
        .until_state(|s| s["seats"][0]["status"] == "away")
        .await;
    let left = watcher.game()["deadline_ms"]
        .as_i64()
        .map(|due| due - now_ms());
    assert!(
        left.is_some_and(|l| (500..=2_500).contains(&l)),
        "the bot takes over at the end of the away grace: {left:?} ms left"
    );
    server.finish().await;
}

#[tokio::test]
async fn a_player_who_leaves_mid_turn_leaves_no_countdown_behind() {
    let server = TestServer::sqlite().await;
    let started = start_room(
        &server,
        json!({ "rules": "playgridia", "mode": "quick", "players": 2,
                "turn_time_secs": 30, "public": true }),
    )
    .await;
    let mut watcher = WsClient::connect(&server, &started.room, None).await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    assert!(until_seat_0_acts(&mut player).await.is_i64());
    let reply = player.request(json!({ "type": "leave" })).await;
    assert_eq!(reply["type"], "ack", "{reply}");
    // The update that hands the seat to a bot: the bot plays at once, no person's timer runs.
    watcher
        .until_state(|s| s["seats"][0]["status"] == "bot")
        .await;
    assert!(
        watcher.game()["deadline_ms"].is_null(),
        "{}",
        watcher.game()
    );
    server.finish().await;
}

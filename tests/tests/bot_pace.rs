//! `"bot_pace"` of `POST /api/rooms`: the server pauses `BOT_DELAY_MS` before each action of a bot so
//! people can follow (`normal`, the default), or a quarter of it (`fast`) for a table that would rather
//! not wait. The pause is measured from the moment the turn passes to the bot to its first roll.
mod common;

use std::time::{Duration, Instant};

use common::TestServer;
use common::game::start_room;
use common::ws::WsClient;
use serde_json::{Value, json};

/// The server's pause in these tests: long enough to tell a quarter of it from all of it.
const DELAY_MS: u64 = 1200;

/// A two-seat game of Ana against a bot at `pace` (`None`: not said): how long the bot waited, from
/// the update that gave it the turn to the update of its first action.
async fn bot_pause(server: &TestServer, pace: Option<&str>) -> (Duration, Value) {
    let mut settings = json!({
        "rules": "playgridia", "mode": "quick", "players": 2, "turn_time_secs": null,
        "draw_seats": false
    });
    if let Some(pace) = pace {
        settings["bot_pace"] = json!(pace);
    }
    let started = start_room(server, settings).await;
    let mut ana = WsClient::connect(server, &started.room, Some(&started.owner.token)).await;
    // Ana plays her turn (a six gives another roll) until the turn is the bot's.
    while ana.game()["view"]["turn"]["seat"] != 1 {
        if ana.my_turn() {
            ana.act().await;
        } else {
            ana.next().await;
        }
    }
    let handed_over = Instant::now();
    ana.until(|m| m["type"] == "update").await;
    (handed_over.elapsed(), ana.state["room"]["settings"].clone())
}

#[tokio::test]
async fn a_fast_room_s_bots_wait_a_quarter_of_the_server_s_pause() {
    let server = TestServer::sqlite_with(|c| c.bot_delay_ms = DELAY_MS).await;
    let (normal, settings) = bot_pause(&server, None).await;
    assert_eq!(settings["bot_pace"], "normal", "the default: {settings}");
    assert!(
        normal >= Duration::from_millis(DELAY_MS - 200),
        "a normal room's bot waits the server's pause: {normal:?}"
    );
    let (fast, settings) = bot_pause(&server, Some("fast")).await;
    assert_eq!(settings["bot_pace"], "fast", "{settings}");
    assert!(
        fast < Duration::from_millis(DELAY_MS / 2),
        "a fast room's bot waits a quarter of it: {fast:?}"
    );
    server.finish().await;
}

#[tokio::test]
async fn an_unknown_pace_is_refused_and_makes_no_room() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let (status, body) = server
        .post_as(
            &ana,
            "/api/rooms",
            json!({ "rules": "playgridia", "mode": "quick", "players": 2, "bot_pace": "warp" }),
        )
        .await;
    assert_eq!(
        (status.as_u16(), body["code"].as_str()),
        (422, Some("invalid_body")),
        "{body}"
    );
    let (_, mine) = server.get_as(&ana.token, "/api/players/me/rooms").await;
    assert_eq!(mine["rooms"].as_array().map(Vec::len), Some(0), "{mine}");
    server.finish().await;
}

#[tokio::test]
async fn a_rematch_keeps_the_pace() {
    let server = TestServer::sqlite_with(|c| c.bot_delay_ms = 0).await;
    let started = start_room(
        &server,
        json!({ "rules": "playgridia", "mode": "quick", "players": 2, "turn_time_secs": null,
                "bot_pace": "fast" }),
    )
    .await;
    let mut ana = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    ana.play_to_the_end().await;
    ana.until_state(|s| s["room"]["status"] == "finished").await;
    let (status, next) = server
        .post_as(
            &started.owner,
            &format!("/api/rooms/{}/rematch", started.room),
            json!({}),
        )
        .await;
    assert_eq!(status, 201, "{next}");
    assert_eq!(next["settings"]["bot_pace"], "fast", "{next}");
    server.finish().await;
}

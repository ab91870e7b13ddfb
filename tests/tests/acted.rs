//! Every update of a roll or move says who made it (`acted`), to every client alike: the player, a bot
//! seat's bot, or the server for a person whose turn timer ran out (or who is away), so that a page can say
//! "Time ran out: the server rolled for Ana" instead of guessing.
mod common;

use common::TestServer;
use common::game::start_room;
use common::ws::WsClient;
use serde_json::{Value, json};

/// The seat of the `rolled` or `moved` event of an update (`None`: the update shows no roll or move).
fn acting_seat(update: &Value) -> Option<u64> {
    update["events"]
        .as_array()?
        .iter()
        .find(|e| e["type"] == "rolled" || e["type"] == "moved")
        .and_then(|e| e["seat"].as_u64())
}

/// Reads `client`'s messages up to the room's `version`, keeping the updates.
async fn updates_until(client: &mut WsClient, version: u64, kept: &mut Vec<Value>) {
    while client.version < version {
        let message = client.next().await;
        if message["type"] == "update" {
            kept.push(message);
        }
    }
}

#[tokio::test]
async fn every_client_is_told_who_made_each_roll_and_move_the_timer_included() {
    // A "second" of the room's turn timer lasts 400 ms here, so 5 s (the API's minimum) is two seconds.
    let server = TestServer::sqlite_with(|c| c.turn_second_ms = 400).await;
    let started = start_room(
        &server,
        json!({ "rules": "playgridia", "mode": "quick", "players": 2, "bots": [null, "greedy"],
                "turn_time_secs": 5, "public": true }),
    )
    .await;
    let mut watcher = WsClient::connect(&server, &started.room, None).await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    let ana = player.seat.expect("Ana is seated");
    // Ana rolls once herself, when it is her turn to roll; after that she lets the timer act for her.
    while !(player.my_turn() && player.game()["view"]["turn"]["phase"] == "roll") {
        player.next().await;
    }
    let reply = player
        .request(json!({ "type": "roll", "version": player.version }))
        .await;
    assert_eq!(reply["type"], "ack", "{reply}");
    // Whatever came before the ack (her roll's update among it) was absorbed by `request`: read it again
    // from the watcher, which sees every update too.
    let mut by_watcher = Vec::new();
    let mut by_player = Vec::new();
    // Until the timer has acted for her a few times and the bot has played (her sixes may keep the turn).
    let (mut timer_acts, mut bot_acts) = (0, 0);
    while (timer_acts < 3 || bot_acts == 0) && !player.over() {
        let message = player.next().await;
        if message["type"] != "update" {
            continue;
        }
        if message["acted"]["by"] == "timer" {
            timer_acts += 1;
        }
        if message["acted"]["by"] == "bot" {
            bot_acts += 1;
        }
        by_player.push(message);
    }
    assert!(timer_acts >= 3, "the timer acted for Ana");
    updates_until(&mut watcher, player.version, &mut by_watcher).await;

    let watched: Vec<&Value> = by_watcher.iter().collect();
    let (mut hers, mut bots, mut timer) = (0, 0, 0);
    for update in &watched {
        match acting_seat(update) {
            None => assert!(
                update.get("acted").is_none(),
                "an update with no roll or move names no actor: {update}"
            ),
            Some(seat) => {
                let acted = &update["acted"];
                assert_eq!(acted["seat"], seat, "{update}");
                match acted["by"].as_str() {
                    Some("player") => {
                        assert_eq!(seat, ana, "{update}");
                        hers += 1;
                    }
                    Some("timer") => {
                        assert_eq!(seat, ana, "the timer acts only for a person: {update}");
                        timer += 1;
                    }
                    Some("bot") => {
                        assert_ne!(seat, ana, "{update}");
                        bots += 1;
                    }
                    other => panic!("unexpected actor {other:?}: {update}"),
                }
            }
        }
    }
    assert_eq!(hers, 1, "her own roll says she made it");
    assert!(timer >= 3 && bots >= 1, "timer {timer}, bots {bots}");
    // The player's page was told exactly what the watcher was, update for update.
    for mine in &by_player {
        let same = watched
            .iter()
            .find(|w| w["version"] == mine["version"])
            .expect("the watcher saw it");
        assert_eq!(mine.get("acted"), same.get("acted"));
    }
    server.finish().await;
}

#[tokio::test]
async fn a_player_who_went_away_is_played_by_the_server_and_everyone_is_told_so() {
    let server = TestServer::sqlite_with(|c| c.away_grace_secs = 1).await;
    let started = start_room(
        &server,
        json!({ "rules": "playgridia", "mode": "quick", "players": 2, "bots": [null, "greedy"],
                "turn_time_secs": null, "public": true }),
    )
    .await;
    let mut watcher = WsClient::connect(&server, &started.room, None).await;
    let player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    let ana = player.seat.expect("Ana is seated");
    player.close().await;
    // Her seat's turns are played by the server once her grace is over: each says so, with her seat.
    let update = watcher
        .until(|m| m["type"] == "update" && m["acted"]["seat"] == ana)
        .await;
    assert_eq!(update["acted"]["by"], "away", "{update}");
    assert_eq!(acting_seat(&update), Some(ana));
    server.finish().await;
}

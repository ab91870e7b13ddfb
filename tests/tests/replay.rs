//! `GET /api/games/{id}/replay`: a game, step by step, exactly as the rules crate replays it (a running
//! one up to its last action).
mod common;

use common::game::{record, start_room, start_with_bots, view_json};
use common::ws::WsClient;
use common::{TestServer, status_and_json};
use parchis_rules::Game;
use serde_json::Value;

async fn replay(server: &TestServer, game: &str) -> (u16, Value) {
    let (status, body) = status_and_json(
        server
            .get(&format!("/api/games/{game}/replay"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    (status.as_u16(), body)
}

#[tokio::test]
async fn a_finished_games_replay_has_every_steps_events_and_the_exact_pieces_after_it() {
    let server = TestServer::sqlite().await;
    let started = start_with_bots(&server, "playgridia", "quick", 4).await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;

    player.play_to_the_end().await;

    let record = record(&server, &started.game).await;
    let log = record["log"].as_array().unwrap();
    let (status, replay) = replay(&server, &started.game).await;
    assert_eq!(status, 200, "{replay}");
    let steps = replay["steps"].as_array().unwrap();
    assert_eq!(steps.len(), log.len(), "one step per log entry");

    // Replaying the record ourselves through the rules crate gives the same steps.
    let settings = &record["settings"];
    let mut game = Game::new(
        settings["rules"].as_str().unwrap().parse().unwrap(),
        settings["mode"].as_str().unwrap().parse().unwrap(),
        settings["players"].as_u64().unwrap() as u8,
    )
    .unwrap();
    assert_eq!(replay["initial"], view_json(&game));
    let mut captures = 0;
    for (entry, step) in log.iter().zip(steps) {
        assert_eq!(step["seq"], entry["seq"]);
        assert_eq!(step["kind"], entry["kind"]);
        assert_eq!(step["seat"], entry["payload"]["seat"]);
        let events = if entry["kind"] == "roll" {
            assert_eq!(step["die"], entry["payload"]["die"]);
            game.roll(entry["payload"]["die"].as_u64().unwrap() as u8)
                .unwrap()
        } else {
            assert_eq!(step["move"], entry["payload"]["move"]);
            let mv = game
                .parse_move(entry["payload"]["move"].as_str().unwrap())
                .unwrap();
            game.play(mv).unwrap()
        };
        assert_eq!(
            step["events"],
            serde_json::to_value(events.as_slice()).unwrap()
        );
        captures += events
            .iter()
            .filter(|e| matches!(e, parchis_rules::Event::Captured { .. }))
            .count();
        let view = view_json(&game);
        let pieces: Vec<Value> = view["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                serde_json::json!({
                    "id": p["id"], "place": p["place"],
                    "in_blockade": p["in_blockade"], "last_arrived": p["last_arrived"],
                })
            })
            .collect();
        // Blockades and which of two pieces came last, as the live board drew them.
        assert_eq!(step["pieces"], Value::from(pieces));

        assert_eq!(step["turn"], view["turn"]);
    }
    // The last step is the final position everyone saw.
    let last = steps.last().unwrap();
    assert_eq!(last["turn"], player.game()["view"]["turn"]);
    assert_eq!(last["turn"]["phase"], "over");
    // Captures are shown as they happened, not guessed (a whole game nearly always has some).
    let shown = steps
        .iter()
        .flat_map(|s| s["events"].as_array().unwrap())
        .filter(|e| e["type"] == "captured")
        .count();
    assert_eq!(shown, captures);
    server.finish().await;
}

/// Plays our turns until the game has gone round a few times and waits for us again.
async fn play_a_while(player: &mut WsClient) {
    let mut decisions = 0;
    while decisions < 8 && !player.over() {
        if player.my_turn() {
            player.act().await;
            decisions += 1;
        } else {
            player.next().await;
        }
    }
    player
        .until_state(|s| s["game"]["view"]["turn"]["seat"] == 0)
        .await;
}

#[tokio::test]
async fn a_running_games_replay_runs_up_to_its_last_action_and_ends_on_the_live_board() {
    let server = TestServer::sqlite().await;
    let started = start_with_bots(&server, "playgridia", "individual", 4).await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    play_a_while(&mut player).await;
    assert!(!player.over(), "still being played");

    // The game waits for us: the log stands still while we look.
    let record = record(&server, &started.game).await;
    assert!(record["seed"].is_null(), "the seed stays secret: {record}");
    let (status, replay) = replay(&server, &started.game).await;
    assert_eq!(status, 200, "{replay}");
    assert!(replay["result"].is_null(), "no result yet: {replay}");
    let steps = replay["steps"].as_array().unwrap();
    assert_eq!(steps.len(), record["log"].as_array().unwrap().len());
    assert!(steps.len() > 8, "{} steps", steps.len());
    // Its last step is what everyone in the room sees now: every piece where the live board has it.
    let live = &player.game()["view"];
    let last = steps.last().unwrap();
    assert_eq!(last["turn"], live["turn"]);
    let places = |pieces: &Value| -> Vec<(Value, Value)> {
        pieces
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["id"].clone(), p["place"].clone()))
            .collect()
    };
    assert_eq!(places(&last["pieces"]), places(&live["pieces"]));
    server.finish().await;
}

#[tokio::test]
async fn a_running_game_of_a_private_room_is_replayed_only_for_its_players() {
    let server = TestServer::sqlite().await;
    let started = start_room(
        &server,
        serde_json::json!({ "rules": "ludoteka", "mode": "quick", "players": 2, "turn_time_secs": null, "public": false }),
    )
    .await;
    let path = format!("/api/games/{}/replay", started.game);
    let stranger = server.player("Eve").await;
    let (status, body) = server.get_as(&stranger.token, &path).await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["code"], "wrong_join_code");
    let (status, body) = replay(&server, &started.game).await;
    assert_eq!(status, 403, "without a token either: {body}");
    let (status, body) = server.get_as(&started.owner.token, &path).await;
    assert_eq!(status, 200, "{body}");
    assert!(body["steps"].is_array());
    server.finish().await;
}

#[tokio::test]
async fn an_unknown_game_has_no_replay() {
    let server = TestServer::sqlite().await;
    let (status, body) = replay(&server, "0123456789abcdef0123456789abcdef").await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], "game_not_found");
    let (status, body) = replay(&server, "not-an-id").await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], "game_not_found");
    server.finish().await;
}

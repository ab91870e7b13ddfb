//! A room's life as a group of friends lives it: devices that come and go on one seat, people who leave,
//! rooms that leave memory as soon as nobody is in them and come back for the next visitor.
mod common;

use common::game::start_with_bots;
use common::ws::WsClient;
use common::{TestServer, public_four, status_and_json};
use serde_json::{Value, json};

/// The last `hello` a client received.
fn last_hello(client: &WsClient) -> Value {
    client
        .private
        .iter()
        .rev()
        .find(|m| m["type"] == "hello")
        .cloned()
        .expect("a hello")
}

#[tokio::test]
async fn a_room_that_leaves_memory_as_soon_as_it_is_left_answers_every_request_that_reaches_it() {
    // ROOM_IDLE_SECS=0: the room's task stops as soon as it has nothing to do, so nearly every request
    // below finds it stopped and starts it again, the request waiting in its inbox as it starts.
    let server = TestServer::sqlite_with(|c| c.room_idle_secs = 0).await;
    let ana = server.player("Ana").await;
    let bea = server.player("Bea").await;
    let room = server.room(&ana, public_four()).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for i in 0..30 {
        let (status, body) = status_and_json(
            server
                .get(&format!("/api/rooms/{room}"))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, 200, "look-up {i}: {body}");
    }
    for i in 0..10 {
        let path = format!(
            "/api/rooms/{room}/{}",
            if i % 2 == 0 { "join" } else { "leave" }
        );
        let (status, body) = server.post_as(&bea, &path, json!({})).await;
        assert_eq!(status, 200, "{path} ({i}): {body}");
    }
    for _ in 0..10 {
        let ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
        assert_eq!(ws.seat, Some(0));
        ws.close().await;
    }
    server.finish().await;
}

#[tokio::test]
async fn a_player_who_leaves_a_running_game_on_one_device_is_told_on_the_other_that_they_now_watch()
{
    let server = TestServer::sqlite_with(|c| c.bot_delay_ms = 20).await;
    let started = start_with_bots(&server, "playgridia", "quick", 2).await;
    let token = Some(started.owner.token.as_str());
    let mut phone = WsClient::connect(&server, &started.room, token).await;
    let mut laptop = WsClient::connect(&server, &started.room, token).await;
    assert_eq!(last_hello(&phone)["seat"], 0);
    let ack = laptop.request(json!({ "type": "leave" })).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    phone
        .until_state(|s| s["seats"][0]["bot"].is_string())
        .await;
    // Anything answered after the leave comes after what the leave told this connection.
    let reply = phone.request(json!({ "type": "roll" })).await;
    assert_eq!(reply["code"], "not_seated", "{reply}");
    let hello = last_hello(&phone);
    assert_eq!(hello["seat"], Value::Null, "{hello}");
    assert_eq!(hello["role"], "spectator", "{hello}");
    server.finish().await;
}

#[tokio::test]
async fn a_player_who_takes_a_seat_while_watching_on_another_device_is_told_their_seat_there() {
    let server = TestServer::sqlite().await;
    let ana = server.player("Ana").await;
    let bea = server.player("Bea").await;
    let room = server.room(&ana, public_four()).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut tablet = WsClient::connect(&server, &room, Some(&bea.token)).await;
    assert_eq!(last_hello(&tablet)["role"], "spectator");
    let (status, body) = server
        .post_as(&bea, &format!("/api/rooms/{room}/join"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    tablet
        .until_state(|s| s["seats"][1]["player_id"] == bea.id.as_str())
        .await;
    let reply = tablet
        .request(json!({ "type": "preselect", "move": null }))
        .await;
    assert_eq!(reply["type"], "ack", "{reply}");
    let hello = last_hello(&tablet);
    assert_eq!(hello["seat"], 1, "{hello}");
    assert_eq!(hello["role"], "player", "{hello}");
    server.finish().await;
}

#[tokio::test]
async fn after_a_restart_a_bot_covers_the_seat_of_someone_playing_at_the_device_of_a_player_who_does_not_come_back()
 {
    let timing = |c: &mut parchis_server::Config| {
        c.bot_delay_ms = 5;
        c.away_grace_secs = 1;
    };
    let mut server = TestServer::sqlite_with(timing).await;
    let ana = server.player("Ana").await;
    let room = server
        .room(
            &ana,
            json!({ "rules": "playgridia", "mode": "quick", "players": 2, "turn_time_secs": null,
                    "public": true }),
        )
        .await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = server
        .post_as(
            &ana,
            &format!("/api/rooms/{room}/local-players"),
            json!({ "display_name": "Abuela" }),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = server
        .post_as(&ana, &format!("/api/rooms/{room}/start"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    // Ana's phone is off: both seats are hers, and bots cover them once the grace is over.
    server.stop().await;

    let again = TestServer::start_with(server.database_url.clone(), timing).await;
    let mut spectator = WsClient::connect(&again, &room, None).await;
    assert_eq!(spectator.state["seats"][1]["local_of"], ana.id.as_str());
    spectator
        .until_state(|s| s["room"]["status"] == "finished")
        .await;
    again.stop_only().await;
    server.finish().await;
}

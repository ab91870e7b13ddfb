//! A player's data export (`GET /api/players/me/export`): everything kept about them, in one file, with
//! no secret in it; nothing of anyone else's.
mod common;

use common::databases::sqlite_and_postgres;
use common::game::two_play;
use common::ws::WsClient;
use common::{Player, TestServer, quick_two};
use serde_json::{Value, json};
use sqlx::{Connection, SqliteConnection};

async fn export(server: &TestServer, player: &Player) -> (u16, Value, Option<String>) {
    let resp = server
        .get("/api/players/me/export")
        .bearer_auth(&player.token)
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    let disposition = resp
        .headers()
        .get("content-disposition")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    (status, resp.json().await.unwrap(), disposition)
}

sqlite_and_postgres!(
    a_player_downloads_everything_kept_about_them_and_nothing_secret,
    exported,
    |c| c.away_grace_secs = 1
);

async fn exported(server: TestServer) {
    let ana = server.member("Ana").await;
    let bea = server.member("Bea").await;
    let quick = quick_two();
    let game = two_play(&server, &ana, &bea, quick).await;
    // In a room of their own, Bea and Ana chat; Ana reports Bea's message.
    let room = server
        .room(
            &bea,
            json!({ "rules": "ludoteka", "mode": "individual", "players": 4, "public": true }),
        )
        .await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, _) = server
        .post_as(&ana, &format!("/api/rooms/{room}/join"), json!({}))
        .await;
    assert_eq!(status, 200);
    let mut ana_ws = WsClient::connect(&server, &room, Some(&ana.token)).await;
    let mut bea_ws = WsClient::connect(&server, &room, Some(&bea.token)).await;
    for (ws, text) in [(&mut bea_ws, "hola"), (&mut ana_ws, "good luck, Bea")] {
        let ack = ws.request(json!({ "type": "chat", "text": text })).await;
        assert_eq!(ack["type"], "ack", "{ack}");
    }
    let (status, _) = server
        .post_as(
            &ana,
            &format!("/api/rooms/{room}/chat/1/report"),
            json!({ "reason": "rude" }),
        )
        .await;
    assert_eq!(status, 201);

    let (status, data, disposition) = export(&server, &ana).await;
    assert_eq!(status, 200, "{data}");
    assert_eq!(
        disposition.as_deref(),
        Some(format!("attachment; filename=\"parchis-data-{}.json\"", ana.id).as_str()),
        "a file to keep"
    );
    assert_eq!(
        (&data["player"]["id"], &data["player"]["display_name"]),
        (&json!(ana.id), &json!("Ana"))
    );
    assert_eq!(data["account"]["username"], "ana");
    // Both rooms, newest first, with Ana's seat; the finished one with its game.
    let rooms: Vec<(&str, i64, &str)> = data["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["room_id"].as_str().unwrap(),
                r["seat"].as_i64().unwrap(),
                r["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(rooms[0], (room.as_str(), 1, "waiting"), "{rooms:?}");
    assert_eq!((rooms.len(), rooms[1].2), (2, "finished"), "{rooms:?}");
    assert_eq!(data["rooms"][1]["game_id"], game["id"]);
    assert_eq!(data["rooms"][1]["settings"]["rules"], "playgridia");
    // The finished game, rated, and the rating it gave.
    assert_eq!(data["results"].as_array().unwrap().len(), 1);
    assert_eq!(data["results"][0]["game_id"], game["id"]);
    let change = data["results"][0]["rating_change"].as_i64().expect("rated");
    assert_eq!(data["ratings"][0]["rules"], "playgridia");
    assert_eq!(
        data["ratings"][0]["rating"]["value"].as_i64(),
        Some(1500 + change)
    );
    assert!(
        data["ratings"][0]["sigma"]
            .as_f64()
            .is_some_and(|s| s > 0.0 && s < 25.0 / 3.0)
    );
    // Her own message, not Bea's; her report.
    let texts: Vec<&str> = data["chat_messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["good luck, Bea"]);
    assert_eq!(
        data["reports"],
        json!([{ "room_id": room, "seq": 1, "reason": "rude", "at": data["reports"][0]["at"] }])
    );
    // No secret: no token, no hash of one, no password hash.
    let text = data.to_string();
    for secret in [ana.token.as_str(), "token_hash", "password", "$argon2"] {
        assert!(!text.contains(secret), "`{secret}` in the export: {text}");
    }

    // A guest has no account; a wrong token gets nothing.
    let guest = server.player("Guest").await;
    let (status, data, _) = export(&server, &guest).await;
    assert_eq!(
        (status, &data["account"], &data["rooms"]),
        (200, &Value::Null, &json!([]))
    );
    let nobody = Player {
        id: "x".into(),
        token: "not-a-token".into(),
    };
    let (status, body, _) = export(&server, &nobody).await;
    assert_eq!((status, &body["code"]), (401, &json!("invalid_token")));
    server.finish().await;
}

const PHONE: &str = "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0";
const LAPTOP: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

#[tokio::test]
async fn the_export_lists_the_devices_signed_in_and_the_rooms_one_was_removed_from() {
    let server = TestServer::sqlite().await;
    // Ana made her player on her laptop, then her account, then signed in on her phone.
    let ana = server.member_on("Ana", LAPTOP).await;
    let phone = Player {
        id: ana.id.clone(),
        token: server.sign_in_from("ana", PHONE).await,
    };
    // Bea's waiting room: Ana sits down, and Bea removes her.
    let bea = server.player("Bea").await;
    let room = server
        .room(
            &bea,
            json!({ "rules": "playgridia", "mode": "individual", "players": 4, "public": true }),
        )
        .await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = server
        .post_as(&ana, &format!("/api/rooms/{room}/join"), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let seat = body["seats"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["player_id"] == ana.id.as_str())
        .expect("Ana's seat");
    let (status, body) = server
        .delete_as(&bea.token, &format!("/api/rooms/{room}/seats/{seat}"))
        .await;
    assert_eq!(status, 204, "{body}");

    let (status, data, _) = export(&server, &phone).await;
    assert_eq!(status, 200, "{data}");
    let devices: Vec<(&Value, &Value)> = data["devices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (&d["device"], &d["user_agent"]))
        .collect();
    assert_eq!(devices.len(), 2, "{}", data["devices"]);
    for (device, user_agent) in [("Firefox on Android", PHONE), ("Firefox on Linux", LAPTOP)] {
        assert!(
            devices.contains(&(&json!(device), &json!(user_agent))),
            "{device} missing: {}",
            data["devices"]
        );
    }
    assert_eq!(data["removed_from_rooms"].as_array().unwrap().len(), 1);
    assert_eq!(data["removed_from_rooms"][0]["room_id"], room.as_str());
    let text = data.to_string();
    assert!(!text.contains(&phone.token) && !text.contains(&ana.token));
    // Bea was removed from nothing, and signed in nowhere but where she made her player.
    let (_, data, _) = export(&server, &bea).await;
    assert_eq!(data["removed_from_rooms"], json!([]));
    assert_eq!(data["devices"].as_array().unwrap().len(), 1);

    // Erased, Ana's devices are forgotten with her: no User-Agent of hers is kept.
    let (status, body) = server.erase_me(&phone.token, Some("correct horse")).await;
    assert_eq!(status, 204, "{body}");
    let mut db = SqliteConnection::connect(&server.database_url)
        .await
        .unwrap();
    let kept: Vec<Option<String>> = sqlx::query_scalar(
        "SELECT token_user_agent FROM players WHERE id = $1 \
         UNION ALL SELECT user_agent FROM sessions WHERE player_id = $1",
    )
    .bind(&ana.id)
    .fetch_all(&mut db)
    .await
    .unwrap();
    assert_eq!(kept, [None]);
    server.finish().await;
}

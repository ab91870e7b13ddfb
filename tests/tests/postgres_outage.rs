//! PostgreSQL out of reach for a while (behind a TCP proxy the test cuts): actions and REST writes are
//! refused with a clear code (`storage_unavailable`, never `internal`) and change nothing meanwhile, and
//! the game goes on once the database is back, without a restart.
mod common;

use std::net::SocketAddr;

use common::game::{record, start_with_bots, view_json};
use common::ws::WsClient;
use common::{PgSchema, TestServer};
use serde_json::json;
use sqlx::Connection;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// A TCP proxy to PostgreSQL that can be cut (every connection closed, new ones refused) and mended.
struct Proxy {
    addr: SocketAddr,
    up: watch::Sender<bool>,
}

impl Proxy {
    async fn to(target: String) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (up, state) = watch::channel(true);
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if !*state.borrow() {
                    continue; // dropped: the connection is refused
                }
                let mut state = state.clone();
                let target = target.clone();
                tokio::spawn(async move {
                    let Ok(mut outbound) = TcpStream::connect(&target).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                        _ = state.wait_for(|up| !*up) => {}
                    }
                });
            }
        });
        Proxy { addr, up }
    }

    fn cut(&self) {
        self.up.send_replace(false);
    }

    fn mend(&self) {
        self.up.send_replace(true);
    }
}

/// The one number `sql` (with `$1` = `key`) counts.
async fn count(db: &mut sqlx::PgConnection, sql: &'static str, key: &str) -> i64 {
    sqlx::query_scalar(sql)
        .bind(key)
        .fetch_one(db)
        .await
        .unwrap()
}

/// `host:port` of a PostgreSQL URL (`postgres://user@host:port/db…`).
fn host_port(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.rsplit_once('@').map_or(rest, |(_, r)| r);
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let host = &rest[..end];
    if host.contains(':') {
        host.to_owned()
    } else {
        format!("{host}:5432")
    }
}

#[tokio::test]
#[ignore = "needs PostgreSQL at 127.0.0.1:5432 (run by .ci/run)"]
async fn while_postgres_is_out_of_reach_actions_are_refused_and_the_game_goes_on_when_it_is_back() {
    let schema = PgSchema::new().await;
    // The test's own way to the database, around the proxy.
    let mut direct = sqlx::PgConnection::connect(&schema.url).await.unwrap();
    let target = host_port(&schema.base);
    let proxy = Proxy::to(target.clone()).await;
    let url = schema.url.replacen(&target, &proxy.addr.to_string(), 1);
    let server = TestServer::postgres_on(PgSchema { url, ..schema }).await;
    let started = start_with_bots(&server, "playgridia", "quick", 2).await;
    let mut player = WsClient::connect(&server, &started.room, Some(&started.owner.token)).await;
    player
        .until_state(|s| s["game"]["view"]["turn"]["seat"] == 0)
        .await;
    assert!(player.my_turn(), "Ana is seat 0 and starts");

    proxy.cut();
    let version = player.version;
    // What the game is (presence and countdown may change meanwhile: Ana just connected).
    let game_of = |g: &serde_json::Value| {
        json!([
            g["view"],
            g["rolls"],
            g["last_roll"],
            g["result"],
            g["seed"]
        ])
    };
    let game = game_of(player.game());
    for attempt in 0..2 {
        let reply = player
            .request(json!({ "type": "roll", "version": version }))
            .await;
        assert_eq!(reply["type"], "error", "{reply}");
        assert_eq!(reply["code"], "storage_unavailable", "{reply}");
        // The first roll's connection is cut while it is being stored: that may have cut a commit, and
        // then the sentence does not say that nothing changed (the game, read back before the next
        // action, shows whether it did).
        let maybe = reply["reason"] == "maybe_stored";
        assert!(maybe || reply.get("reason").is_none(), "{reply}");
        let says_nothing_changed = reply["message"]
            .as_str()
            .unwrap()
            .contains("nothing was changed");
        assert_eq!(says_nothing_changed, !maybe, "{reply}");
        if attempt == 1 {
            // The second is refused before it is tried, the log not being readable to check the first:
            // that one changed nothing, and says so.
            assert!(!maybe, "{reply}");
        }
    }
    assert_eq!(game_of(player.game()), game, "nothing changed");
    let logged = "SELECT COUNT(*) FROM game_log WHERE game_id = $1";
    assert_eq!(
        count(&mut direct, logged, &started.game).await,
        0,
        "nothing stored"
    );

    // A REST write meanwhile: 503 with a wait to retry after, and nothing created.
    let owner = &started.owner;
    let rooms = "SELECT COUNT(*) FROM rooms WHERE owner_id = $1";
    let settings = json!({ "rules": "playgridia", "mode": "quick", "players": 2, "public": true });
    let create = || {
        server
            .post("/api/rooms")
            .bearer_auth(&owner.token)
            .json(&settings)
            .send()
    };
    let resp = create().await.unwrap();
    common::storage_unavailable_body(resp).await;
    assert_eq!(
        count(&mut direct, rooms, &owner.id).await,
        1,
        "no room created"
    );

    proxy.mend();
    // The same roll, now that the database is back: taken, and the game goes on to its end.
    let reply = player
        .request(json!({ "type": "roll", "version": version }))
        .await;
    assert_eq!(reply["type"], "ack", "{reply}");
    let resp = create().await.unwrap();
    assert_eq!(resp.status(), 201, "{:?}", resp.text().await);
    assert_eq!(count(&mut direct, rooms, &owner.id).await, 2);
    player.play_to_the_end().await;
    player
        .until_state(|s| s["room"]["status"] == "finished")
        .await;
    let stored = record(&server, &started.game).await;
    let verified = parchis_proof::verify_record(&stored).expect("an honest record");
    assert_eq!(player.game()["view"], view_json(&verified.game));
    assert_eq!(stored["log"][0]["kind"], "roll");
    direct.close().await.unwrap();
    server.finish().await;
}

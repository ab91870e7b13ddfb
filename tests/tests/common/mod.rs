//! Starts the real server in-process on port 0 and talks to it over HTTP.
#![allow(dead_code)] // each test binary uses a different subset of helpers

pub mod cluster;
pub mod databases;
pub mod fuzzing;
pub mod game;
pub mod ws;

use std::net::SocketAddr;

use parchis_server::{Config, run};
use reqwest::{Client, RequestBuilder, Response, StatusCode};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// Default PostgreSQL for the ignored tests (overridden by `DATABASE_URL`).
pub const POSTGRES_URL: &str = "postgres://postgres@127.0.0.1:5432/test";

/// A running server plus what is needed to stop and clean it up.
pub struct TestServer {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Shared HTTP client.
    pub client: Client,
    /// The database URL it was started with (to restart on the same data).
    pub database_url: String,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
    /// Keeps the temporary SQLite directory alive.
    _dir: Option<tempfile::TempDir>,
    /// PostgreSQL schema to drop at the end, if any.
    pg_schema: Option<(String, String)>,
}

/// A registered player.
#[derive(Debug, Clone)]
pub struct Player {
    pub id: String,
    pub token: String,
}

/// A new, empty schema of the test PostgreSQL database, for one test.
pub struct PgSchema {
    /// The database URL without the schema.
    pub base: String,
    /// The schema's name.
    pub name: String,
    /// The database URL that works in the schema.
    pub url: String,
}

impl PgSchema {
    pub async fn new() -> Self {
        let base = std::env::var("DATABASE_URL")
            .ok()
            .filter(|u| u.starts_with("postgres"))
            .unwrap_or_else(|| POSTGRES_URL.to_owned());
        let name = format!("parchis_test_{}", uuid::Uuid::new_v4().simple());
        let admin = sqlx::PgPool::connect(&base)
            .await
            .expect("connect to PostgreSQL");
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {name}")))
            .execute(&admin)
            .await
            .expect("create schema");
        admin.close().await;
        let sep = if base.contains('?') { '&' } else { '?' };
        let url = format!("{base}{sep}options=-c%20search_path%3D{name}");
        PgSchema { base, name, url }
    }
}

impl TestServer {
    /// A server on a fresh SQLite file in a temporary directory.
    pub async fn sqlite() -> Self {
        Self::sqlite_with(|_| {}).await
    }

    /// A server on a fresh SQLite file, with its configuration adjusted first.
    pub async fn sqlite_with(tweak: impl FnOnce(&mut Config)) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("parchis.db").display()
        );
        let mut server = Self::start_with(url, tweak).await;
        server._dir = Some(dir);
        server
    }

    /// A server on its own schema of the test PostgreSQL database.
    pub async fn postgres() -> Self {
        Self::postgres_with(|_| {}).await
    }

    /// [`TestServer::postgres`] with its configuration adjusted first.
    pub async fn postgres_with(tweak: impl FnOnce(&mut Config)) -> Self {
        let schema = PgSchema::new().await;
        let url = schema.url.clone();
        let mut server = Self::start_with(url, tweak).await;
        server.pg_schema = Some((schema.base, schema.name));
        server
    }

    /// A server on a schema made beforehand (with data of an older version, say); the schema is
    /// dropped when the server finishes.
    pub async fn postgres_on(schema: PgSchema) -> Self {
        let mut server = Self::start(schema.url.clone()).await;
        server.pg_schema = Some((schema.base, schema.name));
        server
    }

    /// Starts `run` on 127.0.0.1:0 with the given database.
    pub async fn start(database_url: String) -> Self {
        Self::start_with(database_url, |_| {}).await
    }

    /// Starts `run` with the test configuration adjusted by `tweak`. Scripted test players answer at machine
    /// speed, far beyond any person, so the per-connection flood limit is lifted unless a test sets it.
    pub async fn start_with(database_url: String, tweak: impl FnOnce(&mut Config)) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (tx, rx) = oneshot::channel::<()>();
        let mut config = Config::for_database(database_url.clone());
        config.ws_messages_per_second = 100_000;
        tweak(&mut config);
        let task = tokio::spawn(async move {
            run(listener, config, async {
                let _ = rx.await;
            })
            .await
            .expect("server failed");
        });
        let server = TestServer {
            addr,
            client: Client::new(),
            database_url,
            shutdown: Some(tx),
            task: Some(task),
            _dir: None,
            pg_schema: None,
        };
        server.wait_ready().await;
        server
    }

    async fn wait_ready(&self) {
        for _ in 0..100 {
            if let Ok(resp) = self.get("/readyz").send().await
                && resp.status() == StatusCode::OK
            {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("server never became ready");
    }

    /// Graceful stop; the SQLite directory is kept (for restarts) until drop.
    pub async fn stop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.expect("server task panicked");
        }
    }

    /// Stops without cleaning up (a second server on the same database).
    pub async fn stop_only(mut self) {
        self.stop().await;
    }

    /// Stops, then drops the PostgreSQL schema if one was made.
    pub async fn finish(mut self) {
        self.stop().await;
        if let Some((base, schema)) = self.pg_schema.take() {
            let admin = sqlx::PgPool::connect(&base).await.expect("connect");
            sqlx::query(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
                .execute(&admin)
                .await
                .expect("drop schema");
            admin.close().await;
        }
    }

    /// Absolute URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub fn get(&self, path: &str) -> RequestBuilder {
        self.client.get(self.url(path))
    }

    pub fn post(&self, path: &str) -> RequestBuilder {
        self.client.post(self.url(path))
    }

    /// Registers a player and returns its id and token.
    pub async fn player(&self, name: &str) -> Player {
        self.registered(name, self.post("/api/players")).await
    }

    /// Registers a player from a browser saying `user_agent` (what its first device is listed as).
    pub async fn player_on(&self, name: &str, user_agent: &str) -> Player {
        let request = self.post("/api/players").header("user-agent", user_agent);
        self.registered(name, request).await
    }

    async fn registered(&self, name: &str, request: RequestBuilder) -> Player {
        let resp = request
            .json(&json!({ "display_name": name }))
            .send()
            .await
            .expect("request");
        assert_eq!(resp.status(), StatusCode::CREATED);
        let body: Value = resp.json().await.expect("json");
        Player {
            id: body["id"].as_str().expect("id").to_owned(),
            token: body["token"].as_str().expect("token").to_owned(),
        }
    }

    /// A player with an account: username `name` in lower case, password "correct horse".
    pub async fn member(&self, name: &str) -> Player {
        let player = self.player(name).await;
        self.make_account(&player, name).await;
        player
    }

    /// `member`, made from a browser saying `user_agent`.
    pub async fn member_on(&self, name: &str, user_agent: &str) -> Player {
        let player = self.player_on(name, user_agent).await;
        self.make_account(&player, name).await;
        player
    }

    async fn make_account(&self, player: &Player, name: &str) {
        let (status, body) = self
            .post_as(
                player,
                "/api/account",
                json!({ "username": name.to_lowercase(), "password": "correct horse" }),
            )
            .await;
        assert_eq!(status, 201, "{body}");
    }

    /// Signs in as `username` (password "correct horse") from a browser saying `user_agent`: the new
    /// device's token.
    pub async fn sign_in_from(&self, username: &str, user_agent: &str) -> String {
        let (status, body) = status_and_json(
            self.post("/api/sessions")
                .header("user-agent", user_agent)
                .json(&json!({ "username": username, "password": "correct horse" }))
                .send()
                .await
                .expect("request"),
        )
        .await;
        assert_eq!(status, 201, "{body}");
        body["token"].as_str().expect("token").to_owned()
    }

    /// Creates a room as `owner` and returns its JSON.
    pub async fn room(&self, owner: &Player, settings: Value) -> Value {
        let resp = self
            .post("/api/rooms")
            .bearer_auth(&owner.token)
            .json(&settings)
            .send()
            .await
            .expect("request");
        assert_eq!(
            resp.status(),
            StatusCode::CREATED,
            "{:?}",
            resp.text().await
        );
        resp.json().await.expect("json")
    }

    /// GETs `path` without a token, insists on `200` and returns the JSON body.
    pub async fn get_ok(&self, path: &str) -> Value {
        let (status, body) = status_and_json(self.get(path).send().await.expect("request")).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
        body
    }

    /// GETs `path` with `token` and returns status and JSON body.
    pub async fn get_as(&self, token: &str, path: &str) -> (StatusCode, Value) {
        let resp = self
            .get(path)
            .bearer_auth(token)
            .send()
            .await
            .expect("request");
        status_and_json(resp).await
    }

    /// DELETEs `path` with `token` and returns status and JSON body (`Null` for an empty one).
    pub async fn delete_as(&self, token: &str, path: &str) -> (StatusCode, Value) {
        let resp = self
            .client
            .delete(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .expect("request");
        status_and_json(resp).await
    }

    /// `DELETE /api/players/me` with `token` and, when given, the JSON body `{"password": password}`
    /// (an account's own password is needed to erase it; a guest's token is enough). Status and body.
    pub async fn erase_me(&self, token: &str, password: Option<&str>) -> (StatusCode, Value) {
        let mut request = self
            .client
            .delete(self.url("/api/players/me"))
            .bearer_auth(token);
        if let Some(password) = password {
            request = request.json(&json!({ "password": password }));
        }
        status_and_json(request.send().await.expect("request")).await
    }

    /// PATCHes `body` to `path` with `token` and returns status and JSON body.
    pub async fn patch_as(&self, token: &str, path: &str, body: Value) -> (StatusCode, Value) {
        let resp = self
            .client
            .patch(self.url(path))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .expect("request");
        status_and_json(resp).await
    }

    /// PUTs `body` to `path` as `player` and returns status and JSON body.
    pub async fn put_as(&self, player: &Player, path: &str, body: Value) -> (StatusCode, Value) {
        let resp = self
            .client
            .put(self.url(path))
            .bearer_auth(&player.token)
            .json(&body)
            .send()
            .await
            .expect("request");
        status_and_json(resp).await
    }

    /// POSTs `body` as `player` and returns status and JSON body.
    pub async fn post_as(&self, player: &Player, path: &str, body: Value) -> (StatusCode, Value) {
        let resp = self
            .post(path)
            .bearer_auth(&player.token)
            .json(&body)
            .send()
            .await
            .expect("request");
        status_and_json(resp).await
    }
}

/// SHA-256 hex of a token, as the server stores it (players written straight into an old database).
pub fn token_hash(token: &str) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(token.as_bytes()))
}

/// Makes the database at `url` as an older server left it: `migrations` (a folder of this package's
/// parent, e.g. `../migrations/sqlite`) run up to `version`, then `data` written.
pub async fn old_database<DB>(url: &str, migrations: &str, version: i64, data: &str)
where
    DB: sqlx::Database,
    DB::Connection: sqlx::migrate::Migrate,
    for<'c> &'c mut DB::Connection: sqlx::Executor<'c, Database = DB>,
{
    let pool = sqlx::Pool::<DB>::connect(url).await.unwrap();
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(migrations);
    sqlx::migrate::Migrator::new(folder)
        .await
        .unwrap()
        .run_to(version, &pool)
        .await
        .unwrap();
    sqlx::raw_sql(sqlx::AssertSqlSafe(data.to_owned()))
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
}

/// Runs `statements` on the database at `url` (SQLite or PostgreSQL) beside a running server: what time
/// alone would do to the data (a device left unused for a year), which a test cannot wait for.
pub async fn execute_sql(url: &str, statements: &str) {
    let statements = sqlx::AssertSqlSafe(statements.to_owned());
    if url.starts_with("postgres") {
        let pool = sqlx::PgPool::connect(url).await.unwrap();
        sqlx::raw_sql(statements).execute(&pool).await.unwrap();
        pool.close().await;
    } else {
        let pool = sqlx::SqlitePool::connect(url).await.unwrap();
        sqlx::raw_sql(statements).execute(&pool).await.unwrap();
        pool.close().await;
    }
}

/// Status plus JSON body (`Null` if the body is not JSON).
pub async fn status_and_json(resp: Response) -> (StatusCode, Value) {
    let status = resp.status();
    let body = resp.json().await.unwrap_or(Value::Null);
    (status, body)
}

/// Checks a refusal for a database out of reach (`503 storage_unavailable`, `Retry-After: 5`) and hands
/// back its body.
pub async fn storage_unavailable_body(resp: Response) -> Value {
    assert_eq!(resp.status(), 503);
    assert_eq!(
        resp.headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok()),
        Some("5")
    );
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["code"], "storage_unavailable", "{body}");
    body
}

/// Two-player public quick Playgridia game without a turn timer (short, and rated between two people).
pub fn quick_two() -> Value {
    json!({ "rules": "playgridia", "mode": "quick", "players": 2, "turn_time_secs": null, "public": true })
}

/// Four-player public individual game.
pub fn public_four() -> Value {
    json!({ "rules": "ludoteka", "mode": "individual", "players": 4, "public": true })
}

/// Two-player private 1v1 game.
pub fn private_duel() -> Value {
    json!({ "rules": "playgridia", "mode": "1v1", "players": 2, "public": false })
}

/// Ids of the games `GET /api/rooms?status=playing` offers to watch, in its order.
pub async fn games_to_watch(server: &TestServer) -> Vec<String> {
    let (status, body) = status_and_json(
        server
            .get("/api/rooms?status=playing")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    body["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            assert_eq!(r["status"], "playing", "{r}");
            assert!(r["game_id"].is_string(), "{r}");
            r["id"].as_str().unwrap().to_owned()
        })
        .collect()
}

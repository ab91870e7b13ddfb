//! Command-line and environment configuration.

use std::net::IpAddr;

use clap::Parser;

/// Server settings; every flag can also come from the environment variable named.
#[derive(Debug, Clone, Parser)]
#[command(
    name = "parchis-server",
    version,
    about = "Authoritative online Parchís server"
)]
pub struct Config {
    /// TCP port to listen on.
    #[arg(long, env = "PORT", default_value_t = 8080)]
    pub port: u16,
    /// Address to bind; 0.0.0.0 listens on every interface (as in a container).
    #[arg(long, env = "BIND", default_value = "0.0.0.0")]
    pub bind: IpAddr,
    /// `sqlite://…` (the default file is created on first start) or `postgres://…`.
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "sqlite://parchis.db?mode=rwc"
    )]
    pub database_url: String,
    /// Turn time limit used when a room is created without `turn_time_secs`.
    #[arg(long, env = "TURN_TIMEOUT_SECS", default_value_t = 30)]
    pub turn_timeout_secs: u32,
    /// Pause before each action of a server-played seat, so humans can follow.
    #[arg(long, env = "BOT_DELAY_MS", default_value_t = 500)]
    pub bot_delay_ms: u64,
    /// How long a seated player may be disconnected before a bot covers their turns.
    #[arg(long, env = "AWAY_GRACE_SECS", default_value_t = 15)]
    pub away_grace_secs: u64,
    /// Commands one WebSocket connection may send per second (burst the same) before it is closed as a flood.
    #[arg(long, env = "WS_MESSAGES_PER_SECOND", default_value_t = 20)]
    pub ws_messages_per_second: u32,
    /// How often the server pings each WebSocket, in seconds. A connection that sends nothing for three of
    /// these (not even the pong a browser answers a ping with by itself) is closed as dead: a phone that
    /// lost its signal shows away and a bot covers its turns, instead of the table waiting on a silent
    /// socket. The pings also keep idle connections open through proxies that time them out. 0: no pings.
    #[arg(long, env = "WS_PING_SECS", default_value_t = 20)]
    pub ws_ping_secs: u64,
    /// Length of one "second" of a room's `turn_time_secs`, in milliseconds. Only tests change it (to run
    /// turn timers in a fraction of the time); rooms still ask for 5 to 3600 "seconds" through the API.
    #[arg(long, env = "TURN_SECOND_MS", default_value_t = 1000, hide = true)]
    pub turn_second_ms: u64,
    /// How long a room with nobody connected and nothing to do stays in memory, in seconds; it is
    /// reloaded from storage when next used.
    #[arg(long, env = "ROOM_IDLE_SECS", default_value_t = 60)]
    pub room_idle_secs: u64,
    /// API writes (POST, PUT, PATCH, DELETE: register, rename, accounts, sign in and out, create, join,
    /// leave, start, rematch) one client address may make per minute, in bursts of as many, and as
    /// many analyses of finished games (counted apart); 0 turns the limits off.
    #[arg(long, env = "HTTP_WRITES_PER_MINUTE", default_value_t = 60)]
    pub http_writes_per_minute: u32,
    /// Take the client's address from `X-Forwarded-For` / `X-Real-IP` / `Forwarded` (only behind a
    /// reverse proxy that sets them: anyone else could pick any address).
    #[arg(long, env = "TRUST_FORWARDED_FOR", default_value_t = false)]
    pub trust_forwarded_for: bool,
    /// Secret that lets the host moderate (`DELETE /api/admin/players/{id}` with `Authorization: Bearer
    /// <it>`), at least 16 characters; unset, there is no admin endpoint at all.
    #[arg(long, env = "ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
    /// How long one HTTP request may take, in seconds: its headers from the first byte, then its body and
    /// its answer. A client that sends part of a request and then stalls gets `408 request_timeout` (or,
    /// mid-headers, a closed connection) instead of holding a connection, and a shutdown, for ever. Also
    /// how long an idle keep-alive connection stays open. WebSockets are not affected once open.
    #[arg(long, env = "HTTP_REQUEST_TIMEOUT_SECS", default_value_t = 30)]
    pub http_request_timeout_secs: u64,
    /// On SIGTERM or Ctrl-C, how long requests in flight may take to finish before the server stops
    /// anyway, in seconds. Under `docker stop`'s 10 s, so the database is still closed cleanly. A second
    /// signal stops at once.
    #[arg(long, env = "SHUTDOWN_GRACE_SECS", default_value_t = 8)]
    pub shutdown_grace_secs: u64,
    /// Connections one client address (an IPv6 client by its /64) may hold open at once, WebSockets
    /// included; past it a new one is answered `429 too_many_connections` and closed, so that one machine
    /// cannot take every socket the server may open. A player holds one or two. Not applied with
    /// `TRUST_FORWARDED_FOR` (every connection then comes from the proxy: limit there). 0: no limit.
    #[arg(long, env = "CONNECTIONS_PER_ADDRESS", default_value_t = 256)]
    pub connections_per_address: usize,
    /// Connections the whole server may hold open at once, WebSockets included; past it a new one is
    /// answered `503 server_full` at once and closed (a WebSocket upgrade: closed with 1013
    /// `server_full`), while 8 more are kept for `/healthz`, `/readyz` and `/metrics`. 0 (the default):
    /// as many as the open-file limit (`ulimit -n`, `LimitNOFILE=`) allows once 64 files are set aside
    /// for the database, logs and the like; a higher number is lowered to that.
    #[arg(long, env = "MAX_CONNECTIONS", default_value_t = 0)]
    pub max_connections: usize,
    /// Serve `/metrics` (with `/healthz` and `/readyz`) on this address only, e.g. `127.0.0.1:9090` or a
    /// private network's, instead of on the public port with the API: scrapes and probes then never
    /// queue behind players' connections, and the public port does not show the server's figures.
    /// Unset: `/metrics` is on the public port.
    #[arg(long, env = "METRICS_ADDR")]
    pub metrics_addr: Option<std::net::SocketAddr>,
    /// Days a device signed in to an account may go unused before it is signed out: when it comes back
    /// it is told `401 session_expired` and signs in again, and the account's list of devices no longer
    /// shows it. A lost or sold phone nobody signed out does not stay signed in for ever. Guests are
    /// never signed out (their token is the only key to their player). 0: never.
    #[arg(long, env = "SESSION_IDLE_DAYS", default_value_t = 365)]
    pub session_idle_days: u32,
    /// Cluster mode: the NATS server (`nats://host:4222`) through which several nodes on one PostgreSQL
    /// `DATABASE_URL` share the rooms (DEPLOY.md, "Several nodes"). Unset: a single node.
    #[arg(long, env = "NATS_URL")]
    pub nats_url: Option<String>,
    /// Cluster mode: the first token of every NATS subject, so that several clusters can share one NATS
    /// server.
    #[arg(long, env = "NATS_PREFIX", default_value = "parchis")]
    pub nats_prefix: String,
    /// Cluster mode: this node's name in logs and in the `cluster_nodes` table (default: host name and
    /// port).
    #[arg(long, env = "NODE_NAME")]
    pub node_name: Option<String>,
    /// PostgreSQL: connections in the server's pool (in cluster mode each node opens two such pools and
    /// one more connection, for its heartbeat). Rooms load at most half this many at once.
    #[arg(long, env = "DB_POOL_SIZE", default_value_t = 10)]
    pub db_pool_size: u32,
    /// PostgreSQL: how long a query waits for a free connection of the pool, in milliseconds, before
    /// the request is answered `storage_unavailable`. Below the cluster's 3 s request timeout.
    #[arg(long, env = "DB_ACQUIRE_TIMEOUT_MS", default_value_t = 2000)]
    pub db_acquire_timeout_ms: u64,
}

/// Longest duration setting accepted, in seconds (a year; `BOT_DELAY_MS` a year in milliseconds):
/// the server adds them to the clock, which a much longer one overflows.
pub const MAX_SECS: u64 = 366 * 24 * 60 * 60;

/// Request deadlines accepted, in seconds: 0 would refuse every request, and past an hour a stalled
/// client is not told anything useful.
pub const REQUEST_TIMEOUT_RANGE: std::ops::RangeInclusive<u64> = 1..=3600;

/// Longest `SESSION_IDLE_DAYS` accepted (ten years): past it, say 0 (never).
pub const MAX_SESSION_IDLE_DAYS: u32 = 3650;

/// Shortest admin token accepted: anything shorter could be guessed.
pub const MIN_ADMIN_TOKEN: usize = 16;

impl Config {
    /// Whether cluster mode is on (`NATS_URL` set, not empty).
    pub fn cluster(&self) -> bool {
        self.nats_url.as_deref().is_some_and(|u| !u.is_empty())
    }

    /// This node's name in the cluster and its logs: `NODE_NAME`, or the host name and port.
    pub fn node_name_or_default(&self) -> String {
        self.node_name
            .clone()
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| {
                let host = std::fs::read_to_string("/etc/hostname").unwrap_or_default();
                format!("{}:{}", host.trim(), self.port)
            })
    }

    /// The admin token, if one is set (an empty `ADMIN_TOKEN=`, as a compose file may pass, is none).
    pub fn admin_token(&self) -> Option<&str> {
        self.admin_token.as_deref().filter(|t| !t.is_empty())
    }

    /// What is wrong with the configuration, if anything (checked before serving).
    pub fn problem(&self) -> Option<String> {
        if self.cluster()
            && !(self.database_url.starts_with("postgres://")
                || self.database_url.starts_with("postgresql://"))
        {
            return Some(
                "cluster mode (NATS_URL) needs a PostgreSQL DATABASE_URL (postgres://…) shared by every \
                 node: a SQLite file cannot be shared. Unset NATS_URL to run a single node on SQLite."
                    .to_owned(),
            );
        }
        if self.cluster()
            && (self.nats_prefix.is_empty()
                || self
                    .nats_prefix
                    .contains(|c: char| c == '.' || c == '*' || c == '>' || c.is_whitespace()))
        {
            return Some(format!(
                "NATS_PREFIX must be one NATS subject token (no dots, wildcards or spaces), not `{}`",
                self.nats_prefix
            ));
        }
        if let Some(token) = self.admin_token()
            && token.chars().count() < MIN_ADMIN_TOKEN
        {
            return Some(format!(
                "ADMIN_TOKEN must be at least {MIN_ADMIN_TOKEN} characters (or unset, for no admin endpoint)"
            ));
        }
        // Rooms made without a timer of their own, quick matches included, get this one: outside
        // what a room may ask for, every one of them would be refused.
        let turn = crate::settings::TURN_TIME_RANGE;
        if !turn.contains(&self.turn_timeout_secs) {
            return Some(format!(
                "TURN_TIMEOUT_SECS must be between {} and {}, not {}",
                turn.start(),
                turn.end(),
                self.turn_timeout_secs
            ));
        }
        if self.db_pool_size == 0 || self.db_acquire_timeout_ms == 0 {
            return Some(
                "DB_POOL_SIZE and DB_ACQUIRE_TIMEOUT_MS must be at least 1 (0 would refuse every query)"
                    .to_owned(),
            );
        }
        if self.ws_messages_per_second == 0 {
            return Some(
                "WS_MESSAGES_PER_SECOND must be at least 1 (0 would close every connection as a flood)"
                    .to_owned(),
            );
        }
        if !REQUEST_TIMEOUT_RANGE.contains(&self.http_request_timeout_secs) {
            return Some(format!(
                "HTTP_REQUEST_TIMEOUT_SECS must be between {} and {}, not {}",
                REQUEST_TIMEOUT_RANGE.start(),
                REQUEST_TIMEOUT_RANGE.end(),
                self.http_request_timeout_secs
            ));
        }
        if self.session_idle_days > MAX_SESSION_IDLE_DAYS {
            return Some(format!(
                "SESSION_IDLE_DAYS must be at most {MAX_SESSION_IDLE_DAYS} (0: never), not {}",
                self.session_idle_days
            ));
        }
        let durations = [
            ("BOT_DELAY_MS", self.bot_delay_ms, MAX_SECS * 1000),
            ("AWAY_GRACE_SECS", self.away_grace_secs, MAX_SECS),
            ("WS_PING_SECS", self.ws_ping_secs, MAX_SECS),
            ("ROOM_IDLE_SECS", self.room_idle_secs, MAX_SECS),
            ("TURN_SECOND_MS", self.turn_second_ms, MAX_SECS * 1000),
            ("SHUTDOWN_GRACE_SECS", self.shutdown_grace_secs, MAX_SECS),
        ];
        durations
            .into_iter()
            .find(|&(_, value, max)| value > max)
            .map(|(name, value, max)| format!("{name} must be at most {max} (a year), not {value}"))
    }

    /// Configuration for tests and embedding: given database, no bot delay, no limit on API
    /// writes or connections per address (tests register players and rooms by the dozen, all from
    /// 127.0.0.1), defaults elsewhere.
    pub fn for_database(database_url: impl Into<String>) -> Self {
        Self {
            port: 0,
            bind: IpAddr::from([127, 0, 0, 1]),
            database_url: database_url.into(),
            turn_timeout_secs: 30,
            bot_delay_ms: 0,
            away_grace_secs: 15,
            ws_messages_per_second: 20,
            ws_ping_secs: 20,
            turn_second_ms: 1000,
            room_idle_secs: 60,
            http_writes_per_minute: 0,
            trust_forwarded_for: false,
            admin_token: None,
            http_request_timeout_secs: 30,
            shutdown_grace_secs: 8,
            connections_per_address: 0,
            max_connections: 0,
            metrics_addr: None,
            session_idle_days: 365,
            nats_url: None,
            nats_prefix: "parchis".to_owned(),
            node_name: None,
            db_pool_size: 10,
            db_acquire_timeout_ms: 2000,
        }
    }

    /// The PostgreSQL pool's settings.
    pub fn pool_settings(&self) -> crate::db::PoolSettings {
        crate::db::PoolSettings {
            max_connections: self.db_pool_size,
            acquire_timeout: std::time::Duration::from_millis(self.db_acquire_timeout_ms),
        }
    }
}

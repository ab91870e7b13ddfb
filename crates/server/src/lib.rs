//! Authoritative online Parchís server: HTTP API, persistence and the room registry.
//!
//! The binary (`main.rs`) only parses [`Config`] and calls [`run`]; tests bind
//! a listener on port 0 and call [`run`] themselves.

pub mod auth;
pub mod backup;
pub mod cluster;
pub mod config;
pub mod db;
pub mod device;
pub mod docs;
pub mod error;
pub mod extract;
pub mod healthcheck;
pub mod idempotency;
pub mod logs;
pub mod metrics;
pub mod model;
pub mod openapi;
pub mod password;
pub mod rate_limit;
pub mod ratings;
pub mod rooms;
pub mod routes;
pub mod schema_names;
pub mod serve;
pub mod session_expiry;
pub mod settings;
pub mod shared_counts;
pub mod sign_in_guard;
pub mod web;
pub mod ws;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::HeaderValue;
use axum::http::header::{CACHE_CONTROL, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS};
use tokio::net::TcpListener;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;

pub use config::Config;
pub use db::Db;
pub use error::AppError;
pub use rooms::registry::{LocalRegistry, RoomRegistry};

/// Everything a request handler needs, cheap to clone (all fields are handles).
#[derive(Clone)]
pub struct AppState {
    /// Persistent storage (SQLite or PostgreSQL).
    pub db: Db,
    /// Live rooms: the only way handlers reach a room's owning task.
    pub rooms: Arc<dyn RoomRegistry>,
    /// Server configuration, e.g. the default turn time limit for new rooms.
    pub config: Arc<Config>,
    /// Renders the Prometheus text exposition for `/metrics`.
    pub metrics: metrics_exporter_prometheus::PrometheusHandle,
    /// The per-address limit on API writes (`None`: off), shared with the task that forgets old
    /// addresses.
    pub write_limit: Option<Arc<rate_limit::WriteLimit>>,
    /// Quick matches of one kind of game run one at a time.
    pub match_locks: Arc<routes::quick_match::MatchLocks>,
    /// Recent wrong passwords per username: too many lock the username for a while.
    pub sign_in_guard: Arc<sign_in_guard::SignInLimits>,
    /// The per-address limit on analyses of finished games (`None`: off), in its own bucket.
    pub analysis_limit: Option<Arc<rate_limit::WriteLimit>>,
    /// Move analyses (an expert bot's search each) running at once: half the cores (at least one), so
    /// that analysing never takes the whole machine from the rooms' bots.
    pub analyses: Arc<tokio::sync::Semaphore>,
    /// The per-address limit on room lookups that find no room (`None`: off, with the write limit), so
    /// that join codes cannot be guessed.
    pub lookup_limit: Option<Arc<rate_limit::LookupLimit>>,
    /// When an account's devices unused for too long are signed out (`SESSION_IDLE_DAYS`).
    pub session_expiry: session_expiry::SessionExpiry,
    /// Cluster mode: this node's registry, also [`AppState::rooms`] (`None`: a single node).
    pub cluster: Option<Arc<cluster::ClusterRegistry>>,
}

impl AppState {
    /// Builds the state from an open database with a local (single-node) room registry; idle devices'
    /// time counts from `idle_counted_from` (Unix ms) at the earliest.
    pub fn new(db: Db, config: Config, idle_counted_from: i64) -> Self {
        let timing = timing_of(&config);
        let rooms: Arc<dyn RoomRegistry> = Arc::new(LocalRegistry::with_timing(db.clone(), timing));
        let write_limit =
            rate_limit::write_limit(config.http_writes_per_minute, config.trust_forwarded_for)
                .map(Arc::new);
        let analysis_limit =
            rate_limit::analysis_limit(config.http_writes_per_minute, config.trust_forwarded_for)
                .map(Arc::new);
        // Off with the write limit (`--http-writes-per-minute 0`), like the analyses.
        let lookup_limit = lookup_limit_of(&config).map(Arc::new);
        let session_expiry = session_expiry::SessionExpiry::new(&config, idle_counted_from);
        Self {
            db,
            rooms,
            session_expiry,
            cluster: None,
            config: Arc::new(config),
            metrics: metrics::install(),
            write_limit,
            match_locks: Arc::default(),
            sign_in_guard: Arc::default(),
            analysis_limit,
            lookup_limit,
            analyses: Arc::new(tokio::sync::Semaphore::new(
                std::thread::available_parallelism()
                    .map_or(1, |n| n.get() / 2)
                    .max(1),
            )),
        }
    }
}

/// The limit on room lookups that find nothing: off with the write limit (`--http-writes-per-minute
/// 0`), like the analyses.
fn lookup_limit_of(config: &Config) -> Option<rate_limit::LookupLimit> {
    (config.http_writes_per_minute > 0)
        .then(|| {
            rate_limit::LookupLimit::new(
                rate_limit::LOOKUP_MISSES_PER_MINUTE,
                config.trust_forwarded_for,
            )
        })
        .flatten()
}

/// The room timing the configuration asks for.
fn timing_of(config: &Config) -> rooms::Timing {
    rooms::Timing {
        bot_delay: std::time::Duration::from_millis(config.bot_delay_ms),
        away_grace: std::time::Duration::from_secs(config.away_grace_secs),
        turn_second: std::time::Duration::from_millis(config.turn_second_ms.max(1)),
        idle_room: std::time::Duration::from_secs(config.room_idle_secs),
    }
}

/// Joins the cluster when the configuration asks for it (`NATS_URL`): the rooms are then shared with
/// the other nodes.
async fn join_cluster(state: &mut AppState, db: &Db) -> Result<(), ServeError> {
    let config = &state.config;
    let Some(nats_url) = config.nats_url.clone().filter(|u| !u.is_empty()) else {
        return Ok(());
    };
    let name = config.node_name_or_default();
    let settings = cluster::ClusterConfig {
        nats_url,
        prefix: config.nats_prefix.clone(),
        name,
    };
    let registry =
        cluster::ClusterRegistry::start(db, &config.database_url, settings, timing_of(config))
            .await
            .map_err(ServeError::Config)?;
    let registry = Arc::new(registry);
    state.rooms = registry.clone();
    state.cluster = Some(registry);
    // The limits that guard secrets (join codes, passwords) count on every node together; the write
    // and analysis limits stay per node (`rate_limit`).
    if let db::Pool::Postgres(pg) = db::Pool::of(db) {
        let shared = shared_counts::SharedCounts::new(pg.clone());
        state.lookup_limit =
            lookup_limit_of(config).map(|limit| Arc::new(limit.shared(shared.clone())));
        state.sign_in_guard = Arc::new(sign_in_guard::SignInLimits::shared(shared));
    }
    Ok(())
}

/// The whole HTTP application, without binding any socket.
/// Peer addresses (for the write limit) are the `ConnectInfo<SocketAddr>` that [`serve::serve`] adds.
pub fn app(state: AppState) -> Router {
    let mut router = routes::router(
        state.analysis_limit.clone(),
        state.lookup_limit.clone(),
        state.clone(),
    )
    .merge(docs::router());
    if let Some(limit) = &state.write_limit {
        router = router.layer(rate_limit::layer(limit.clone()));
    }
    let deadline = std::time::Duration::from_secs(state.config.http_request_timeout_secs);
    router
        .layer(axum::middleware::from_fn_with_state(
            deadline,
            serve::request_deadline,
        ))
        .layer(axum::middleware::from_fn(serve::refuse_oversized_bodies))
        .layer(axum::middleware::from_fn(metrics::track_requests))
        .layer(axum::middleware::from_fn(error::log_errors))
        // One span per request, so that what is logged while answering it names the request. Its path
        // only: a query string may hold a token (`/api/rooms/{id}/ws?token=…`). Errors are logged by
        // `log_errors`, not by the layer's own failure hook.
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|request: &axum::http::Request<_>| {
                    tracing::info_span!(
                        "request",
                        method = %request.method(),
                        path = %request.uri().path(),
                    )
                })
                .on_failure(()),
        )
        // The web client is ~300 KB of text (a fifth of it gzipped); replays and records are JSON.
        .layer(tower_http::compression::CompressionLayer::new())
        // Headers every answer carries unless its handler set its own: no content sniffing (a JSON body
        // or a script is never read as another type), never inside another site's frame (for browsers
        // older than `frame-ancestors`), and `no-store`, so that tokens (`POST /api/players`,
        // `POST /api/sessions`) and a player's own data (`/api/players/me/...`) are kept by neither the
        // browser's cache nor a proxy. The client's files and the documentation's bundle say how they
        // may be cached.
        .layer(SetResponseHeaderLayer::if_not_present(
            X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            X_FRAME_OPTIONS,
            HeaderValue::from_static("DENY"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
        .with_state(state)
}

/// The routes of `METRICS_ADDR`: `/metrics` and the health checks, nothing else.
fn operations_app(state: AppState) -> Router {
    use axum::routing::get;
    Router::new()
        .route("/metrics", get(metrics::render))
        .route("/healthz", get(routes::health::healthz))
        .route("/readyz", get(routes::health::readyz))
        .fallback(|| async { AppError::NotFound })
        .layer(axum::Extension(metrics::OnMetricsAddr))
        .layer(axum::middleware::from_fn(error::log_errors))
        .with_state(state)
}

/// Errors that stop the server from starting or serving.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database could not be opened or migrated.
    #[error("database: {0}")]
    Database(#[from] db::DbError),
    /// The listener failed while serving.
    #[error("serving HTTP: {0}")]
    Io(#[from] std::io::Error),
    /// A setting cannot be used (the reason says which).
    #[error("configuration: {0}")]
    Config(String),
}

/// How often the devices of accounts unused for longer than `SESSION_IDLE_DAYS` are signed out (a
/// device coming back before that is refused on the spot: this only clears them away).
const SIGN_OUT_IDLE_EVERY: Duration = Duration::from_secs(60 * 60);

/// Signs out the devices of accounts nobody used for longer than the host allows.
async fn sign_out_idle_devices(db: &Db, expiry: &session_expiry::SessionExpiry) {
    let used_since = expiry.used_since(db::now_ms());
    if used_since == i64::MIN {
        return;
    }
    match db.sign_out_idle(used_since).await {
        Ok(0) => {}
        Ok(n) => {
            ::metrics::counter!("parchis_devices_signed_out_idle_total").increment(n);
            tracing::info!(devices = n, "signed out devices unused for too long");
        }
        Err(err) => tracing::warn!(%err, "devices unused for too long were not signed out"),
    }
}

/// Opens the database (applying migrations), then serves on `listener` until
/// `shutdown` resolves; in-flight requests finish before this returns.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    if let Some(problem) = config.problem() {
        return Err(ServeError::Config(problem));
    }
    let db = Db::connect_with(&config.database_url, config.pool_settings()).await?;
    db.migrate().await?;
    let idle_counted_from = db.session_expiry_counted_from().await?;
    let mut state = AppState::new(db.clone(), config, idle_counted_from);
    join_cluster(&mut state, &db).await?;
    // Rebuild every unfinished game now, so bots and timers carry on and
    // players find their game as they left it.
    for room_id in db.playing_room_ids().await? {
        if let Err(err) = state.rooms.lookup(&room_id).await {
            tracing::error!(room = %room_id, %err, "cannot resume room");
        }
    }
    let operations = match state.config.metrics_addr {
        None => None,
        Some(addr) => {
            let listener = TcpListener::bind(addr).await?;
            if let Ok(bound) = listener.local_addr() {
                tracing::info!("metrics listening on {bound}");
            }
            let app = operations_app(state.clone());
            Some(tokio::spawn(async move {
                if let Err(err) = axum::serve(listener, app).await {
                    tracing::warn!(%err, "the metrics address stopped serving");
                }
            }))
        }
    };
    let rooms = state.rooms.clone();
    let upkeep = tokio::spawn(metrics::upkeep(state.metrics.clone()));
    let limits: Vec<_> = [state.write_limit.clone(), state.analysis_limit.clone()]
        .into_iter()
        .flatten()
        .collect();
    let lookup_limit = state.lookup_limit.clone();
    let shared_counts = state.sign_in_guard.shared_counts().cloned();
    // Forgets what is kept for a while: addresses not seen lately, idempotency keys past their 24 hours.
    let forgetting = db.clone();
    let forget = Some(tokio::spawn(async move {
        let mut every = tokio::time::interval(rate_limit::FORGET_EVERY);
        loop {
            every.tick().await;
            for limit in &limits {
                limit.limiter().retain_recent();
            }
            if let Some(limit) = &lookup_limit {
                limit.forget_old();
            }
            if let Some(shared) = &shared_counts
                && let Err(err) = shared
                    .forget_old(sign_in_guard::WINDOW.max(rate_limit::SHARED_LOOKUP_WINDOW))
                    .await
            {
                tracing::warn!(%err, "old limit events were not forgotten (next time)");
            }
            let before = crate::db::now_ms() - idempotency::KEEP_FOR_MS;
            if let Err(err) = forgetting.forget_idempotency_keys(before).await {
                tracing::warn!(%err, "old idempotency keys were not forgotten (next time)");
            }
        }
    }));
    // Devices unused for too long: once before serving (what a restart after a long stop finds), then
    // every hour.
    let sweep = match state.session_expiry.signed_out_after_days() {
        None => None,
        Some(_) => {
            let (db, expiry) = (db.clone(), state.session_expiry);
            sign_out_idle_devices(&db, &expiry).await;
            Some(tokio::spawn(async move {
                let start = tokio::time::Instant::now() + SIGN_OUT_IDLE_EVERY;
                let mut every = tokio::time::interval_at(start, SIGN_OUT_IDLE_EVERY);
                loop {
                    every.tick().await;
                    sign_out_idle_devices(&db, &expiry).await;
                }
            }))
        }
    };
    match listener.local_addr() {
        Ok(addr) => tracing::info!(%addr, backend = db.backend(), "serving"),
        Err(_) => tracing::info!(backend = db.backend(), "serving"),
    }
    // On shutdown, stop the rooms first: that closes their WebSockets, which
    // graceful shutdown would otherwise wait for.
    let shutdown = async move {
        shutdown.await;
        rooms.shutdown();
    };
    let limits = serve::Limits {
        request: Duration::from_secs(state.config.http_request_timeout_secs),
        shutdown_grace: Duration::from_secs(state.config.shutdown_grace_secs),
        // Behind a proxy every connection comes from the proxy's address.
        connections_per_address: if state.config.trust_forwarded_for {
            0
        } else {
            state.config.connections_per_address
        },
        max_connections: serve::ConnectionCap::for_this_process(state.config.max_connections),
    };
    tracing::info!(
        most = limits.max_connections,
        "connections served at once (MAX_CONNECTIONS)"
    );
    let cluster = state.cluster.clone();
    let shutdown_grace = limits.shutdown_grace;
    let stopping_rooms = state.rooms.clone();
    serve::serve(listener, app(state), limits, shutdown).await?;
    // The rooms were told to stop with the signal; storage closes once the last has finished what it
    // was writing (a bot's move, say), so that none of them meets a closed database.
    if tokio::time::timeout(shutdown_grace, stopping_rooms.stopped())
        .await
        .is_err()
    {
        tracing::warn!(
            grace_secs = shutdown_grace.as_secs(),
            "closing storage without waiting longer for rooms still stopping"
        );
    }
    if let Some(cluster) = cluster {
        cluster.leave().await;
    }
    upkeep.abort();
    for task in [forget, sweep, operations].into_iter().flatten() {
        task.abort();
    }
    db.close().await;
    tracing::info!("stopped");
    Ok(())
}

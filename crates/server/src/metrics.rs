//! Prometheus metrics: request counters/latency middleware and `/metrics`.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::http::Method;
use axum::http::header::CONTENT_TYPE;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// Bucket bounds (seconds) of the move latency histogram.
const MOVE_LATENCY_BUCKETS: [f64; 10] = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0];

use crate::AppState;

/// The process-wide recorder handle (a global recorder can be installed once).
static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the Prometheus recorder on first call; later calls share it.
pub fn install() -> PrometheusHandle {
    HANDLE
        .get_or_init(|| {
            // Move latency is a real histogram (buckets), not a summary.
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(
                    Matcher::Full("parchis_move_latency_seconds".to_owned()),
                    &MOVE_LATENCY_BUCKETS,
                )
                .unwrap_or_else(|_| PrometheusBuilder::new());
            let recorder = builder.build_recorder();
            let handle = recorder.handle();
            if metrics::set_global_recorder(recorder).is_err() {
                tracing::warn!("a metrics recorder was already installed; /metrics will be sparse");
            }
            metrics::describe_counter!("parchis_http_requests_total", "HTTP requests served.");
            metrics::describe_histogram!(
                "parchis_http_request_duration_seconds",
                "HTTP request latency."
            );
            metrics::describe_gauge!("parchis_rooms_live", "Rooms with a running task.");
            metrics::describe_gauge!(
                "parchis_connections",
                "Open realtime connections (WebSockets) plus in-process room subscriptions."
            );
            metrics::describe_counter!(
                "parchis_connections_refused_total",
                "Connections refused: `per_address` (429, their address held CONNECTIONS_PER_ADDRESS open) or `server_full` (503, the server held MAX_CONNECTIONS)."
            );
            metrics::describe_counter!(
                "parchis_unparsable_requests_total",
                "Requests the HTTP parser could not read (400 malformed_request, 414 uri_too_long, 431 headers_too_large)."
            );
            metrics::describe_gauge!("parchis_ws_connections", "Open WebSocket connections.");
            metrics::describe_counter!(
                "parchis_moves_total",
                "Rolls and moves accepted (players, bots and timers)."
            );
            metrics::describe_histogram!(
                "parchis_move_latency_seconds",
                "Time from a roll/move command (or server action) to its broadcast, storage included."
            );
            metrics::describe_counter!(
                "parchis_devices_signed_out_idle_total",
                "Devices of accounts signed out for going unused for SESSION_IDLE_DAYS."
            );
            metrics::describe_counter!(
                "parchis_commands_refused_total",
                "Realtime commands answered with an error, by code."
            );
            metrics::describe_counter!(
                "parchis_shared_limit_errors_total",
                "Cluster mode: join-code misses and password attempts counted in this node's memory because PostgreSQL, where every node counts them, could not be reached."
            );
            handle
        })
        .clone()
}

/// How often histogram samples are folded into their buckets when nobody scrapes `/metrics`.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// Folds recorded histogram samples into their buckets every `UPKEEP_EVERY`, for as long as it runs.
/// The recorder keeps every sample until the next upkeep, and a scrape is the only other one: a server
/// nobody scrapes would otherwise keep one sample per move and request, growing for ever.
pub async fn upkeep(handle: PrometheusHandle) {
    let mut every = tokio::time::interval(UPKEEP_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        handle.run_upkeep();
    }
}

/// Middleware counting every request by method, route template and status.
pub async fn track_requests(req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = method_label(req.method());
    let path = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |p| p.as_str().to_owned());
    let response = next.run(req).await;
    let status = response.status().as_u16().to_string();
    metrics::counter!("parchis_http_requests_total",
        "method" => method, "path" => path.clone(), "status" => status)
    .increment(1);
    metrics::histogram!("parchis_http_request_duration_seconds",
        "method" => method, "path" => path)
    .record(start.elapsed().as_secs_f64());
    response
}

/// The request's method as a metric label: the standard methods by name, any other as `OTHER`, so that
/// requests with made-up methods cannot add label values (and memory) without bound.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        Method::CONNECT => "CONNECT",
        Method::TRACE => "TRACE",
        _ => "OTHER",
    }
}

/// `GET /metrics`: Prometheus text exposition format.
#[utoipa::path(get, path = "/metrics", tag = "ops",
    responses((status = 200, description = "Prometheus text format", content_type = "text/plain")))]
pub async fn render(
    State(state): State<AppState>,
    on_metrics_addr: Option<axum::Extension<OnMetricsAddr>>,
) -> Result<impl IntoResponse, crate::AppError> {
    // With an address of their own, the figures are not shown on the public port.
    if state.config.metrics_addr.is_some() && on_metrics_addr.is_none() {
        return Err(crate::AppError::NotFound);
    }
    let stats = state.rooms.stats();
    // Gauges are sampled at scrape time from the registry, so they cannot drift.
    #[allow(clippy::cast_precision_loss)]
    {
        metrics::gauge!("parchis_rooms_live").set(stats.live_rooms as f64);
        metrics::gauge!("parchis_connections").set((stats.subscribers + stats.connections) as f64);
        metrics::gauge!("parchis_ws_connections").set(stats.connections as f64);
    }
    state.metrics.run_upkeep();
    Ok((
        [(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        state.metrics.render(),
    ))
}

/// Marks the requests that came to `METRICS_ADDR`, the one place `/metrics` answers when it is set.
#[derive(Debug, Clone, Copy)]
pub struct OnMetricsAddr;

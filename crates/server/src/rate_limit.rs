//! A per-address limit on the API's writes (every POST, PUT, PATCH and DELETE: registering, renaming,
//! accounts and signing in or out, creating, joining, leaving, starting, rematches, seats), so that one client cannot fill the database with players and rooms or wake
//! rooms by the thousand; and, in a bucket of their own, the analyses of finished games, which cost an
//! expert bot's search each. tower_governor counts; refusals are the usual JSON error (`429
//! rate_limited`, with `Retry-After`). Other reads and the WebSocket are not limited here (the WebSocket
//! has its own per-connection limit), except for the room lookups that find nothing ([`LookupLimit`]):
//! those are how join codes would be guessed.
//!
//! In cluster mode the write and analysis limits stay per node (an address behind the load balancer gets
//! N times them: they protect each node's CPU and database pool, not a secret), while the lookup misses
//! count on every node together ([`crate::shared_counts`]).

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::State;
use axum::http::{Method, Request, Response};
use axum::middleware::Next;
use axum::response::IntoResponse;
use governor::clock::Clock;
use governor::middleware::NoOpMiddleware;
use governor::{DefaultKeyedRateLimiter, Quota};
use tower_governor::GovernorError;
use tower_governor::GovernorLayer;
use tower_governor::governor::{GovernorConfig, GovernorConfigBuilder};
use tower_governor::key_extractor::{KeyExtractor, PeerIpKeyExtractor, SmartIpKeyExtractor};

use crate::error::AppError;
use crate::shared_counts::{Kind, SharedCounts, counted_locally};

/// How often addresses not seen for a while are forgotten (the limiter keeps one entry per address).
pub const FORGET_EVERY: Duration = Duration::from_secs(60);

/// The client's address: the peer's, or (behind a reverse proxy that sets them) the last one in
/// `X-Forwarded-For`, else `X-Real-IP` / `Forwarded`.
#[derive(Debug, Clone, Copy)]
pub struct ClientIp {
    /// Read the forwarding headers (only safe behind a proxy that overwrites them).
    pub trust_forwarded: bool,
}

impl KeyExtractor for ClientIp {
    type Key = IpAddr;

    fn extract<T>(&self, req: &Request<T>) -> Result<IpAddr, GovernorError> {
        let forwarded = if self.trust_forwarded {
            match req.headers().get_all("x-forwarded-for").iter().next_back() {
                // A proxy appends the address it saw to what the client sent: the last address is the
                // only one the client did not write (a proxy that overwrites the header leaves just
                // that one). Unreadable, it is the peer's, never an earlier one the client chose.
                Some(header) => last_forwarded(header),
                None => SmartIpKeyExtractor.extract(req).ok(),
            }
        } else {
            None
        };
        let found = forwarded.or_else(|| PeerIpKeyExtractor.extract(req).ok());
        // Served without peer addresses (an embedding that does not pass them): count every request as
        // one client rather than refuse them all.
        Ok(client_key(
            found.unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED)),
        ))
    }
}

/// What one client is counted by: an IPv4 address (IPv4-mapped IPv6 ones included) as it is, an IPv6
/// address by its /64, the network a single subscriber is given (it could otherwise take a fresh address
/// for every request and never be limited).
pub(crate) fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from_bits(v6.to_bits() & !u128::from(u64::MAX))),
        },
    }
}

/// The client's address as the limits count it (see [`ClientIp`]), for a handler.
#[derive(Debug, Clone, Copy)]
pub struct ClientAddress(pub IpAddr);

impl axum::extract::FromRequestParts<crate::AppState> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &crate::AppState,
    ) -> Result<Self, Self::Rejection> {
        let mut request = Request::new(());
        *request.headers_mut() = parts.headers.clone();
        if let Some(peer) = parts
            .extensions
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        {
            request.extensions_mut().insert(*peer);
        }
        let key = ClientIp {
            trust_forwarded: state.config.trust_forwarded_for,
        }
        .extract(&request)
        .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
        Ok(ClientAddress(key))
    }
}

/// The last address of an `X-Forwarded-For` header line.
fn last_forwarded(header: &axum::http::HeaderValue) -> Option<IpAddr> {
    header
        .to_str()
        .ok()?
        .rsplit(',')
        .next()?
        .trim()
        .parse()
        .ok()
}

/// The limiter's configuration, shared by the layer and the task that forgets old addresses.
pub type WriteLimit = GovernorConfig<ClientIp, NoOpMiddleware>;

/// `per_minute` writes (POST, PUT, PATCH, DELETE) per address, in bursts of up to `per_minute`; `None` when 0 (no limit).
pub fn write_limit(per_minute: u32, trust_forwarded: bool) -> Option<WriteLimit> {
    if per_minute == 0 {
        return None;
    }
    GovernorConfigBuilder::default()
        .period(Duration::from_secs(60) / per_minute)
        .burst_size(per_minute)
        .methods(vec![
            Method::POST,
            Method::PUT,
            Method::PATCH,
            Method::DELETE,
        ])
        .key_extractor(ClientIp { trust_forwarded })
        .finish()
}

/// `per_minute` analyses of finished games (`GET /api/games/{id}/analysis`, an expert bot's search each)
/// per address, counted like writes in their own bucket; `None` when 0 (no limit).
pub fn analysis_limit(per_minute: u32, trust_forwarded: bool) -> Option<WriteLimit> {
    if per_minute == 0 {
        return None;
    }
    GovernorConfigBuilder::default()
        .period(Duration::from_secs(60) / per_minute)
        .burst_size(per_minute)
        .methods(vec![Method::GET])
        .key_extractor(ClientIp { trust_forwarded })
        .finish()
}

/// The layer enforcing `limit`, answering refusals as [`AppError::RateLimited`].
pub fn layer(limit: std::sync::Arc<WriteLimit>) -> GovernorLayer<ClientIp, NoOpMiddleware, Body> {
    GovernorLayer::new(limit).error_handler(refusal)
}

/// A refused request, as the API's JSON error.
fn refusal(error: GovernorError) -> Response<Body> {
    match error {
        GovernorError::TooManyRequests { wait_time, .. } => {
            metrics::counter!("parchis_http_rate_limited_total").increment(1);
            AppError::RateLimited(crate::error::Wait(wait_time)).into_response()
        }
        other => AppError::Internal(format!("rate limiter: {other}")).into_response(),
    }
}

/// Room lookups that find no room (`404 room_not_found`, `403 wrong_join_code`) allowed per address and
/// minute, in bursts of as many: a player mistyping a code or following a stale link never gets near it,
/// while guessing the 31⁶ join codes at this pace is hopeless.
pub const LOOKUP_MISSES_PER_MINUTE: u32 = 30;

/// In cluster mode, the window in which [`LOOKUP_MISSES_PER_MINUTE`] misses are allowed (a sliding
/// minute, counted on every node together; a single node's in-memory limiter lets one more through
/// every 2 s instead).
pub const SHARED_LOOKUP_WINDOW: Duration = Duration::from_secs(60);

/// The per-address limit on room lookups (`GET /api/rooms/{id_or_code}` and its WebSocket) that find no
/// room. Only misses are counted, so opening rooms that exist is never limited; but once an address has
/// used up its misses, every lookup of it is refused (`429 rate_limited`) until the next miss is allowed,
/// found or not, since answering the lookups that hit would tell a guesser which codes exist.
///
/// In cluster mode the misses are counted in PostgreSQL, on every node together: an address spreading
/// its guesses over the nodes behind a load balancer gets the budget of one server, not one per node.
/// The refusal, once a miss found the budget spent, is remembered by the node that refused it, so that
/// lookups that find their room (most of them, on every page load and reconnection) never cost a round
/// trip; another node refuses that address at its first miss there. If PostgreSQL cannot be reached the
/// misses are counted in this node's memory meanwhile, as on a single node: neither open (guessing
/// without any limit while the database is out) nor closed (every player refused over a blip), at worst
/// N times the budget for the length of the outage.
pub struct LookupLimit {
    trust_forwarded: bool,
    per_minute: u32,
    misses: DefaultKeyedRateLimiter<IpAddr>,
    /// Addresses refused, until when (one entry per address refused in the last seconds).
    refused_until: Mutex<HashMap<IpAddr, Instant>>,
    /// Cluster mode: where the misses of every node are counted.
    shared: Option<SharedCounts>,
}

impl LookupLimit {
    /// `per_minute` misses per address; `None` when 0 (no limit).
    pub fn new(per_minute: u32, trust_forwarded: bool) -> Option<Self> {
        let per_minute = NonZeroU32::new(per_minute)?;
        Some(Self {
            trust_forwarded,
            per_minute: per_minute.get(),
            misses: DefaultKeyedRateLimiter::keyed(Quota::per_minute(per_minute)),
            refused_until: Mutex::default(),
            shared: None,
        })
    }

    /// The same limit counted in `shared`, on every node of the cluster.
    pub fn shared(self, shared: SharedCounts) -> Self {
        Self {
            shared: Some(shared),
            ..self
        }
    }

    /// How long `key` is still refused, if it is.
    fn refused_for(&self, key: IpAddr) -> Option<Duration> {
        let refused = self.refused_until.lock().unwrap_or_else(|e| e.into_inner());
        let until = *refused.get(&key)?;
        until.checked_duration_since(Instant::now())
    }

    /// Counts a miss of `key`; past its allowance, how long it is refused.
    async fn miss(&self, key: IpAddr) -> Result<(), Duration> {
        let shared = match &self.shared {
            None => None,
            Some(shared) => {
                let max = usize::try_from(self.per_minute).unwrap_or(usize::MAX);
                let counted = shared
                    .attempt(
                        Kind::LookupMiss,
                        &key.to_string(),
                        max,
                        SHARED_LOOKUP_WINDOW,
                    )
                    .await;
                counted.inspect_err(counted_locally).ok()
            }
        };
        let counted = match shared {
            Some(counted) => counted.map(drop),
            None => self
                .misses
                .check_key(&key)
                .map_err(|not_until| not_until.wait_time_from(self.misses.clock().now())),
        };
        if let Err(wait) = counted {
            self.refused_until
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(key, Instant::now() + wait);
        }
        counted
    }

    /// Forgets addresses not seen for a while and refusals that are over.
    pub fn forget_old(&self) {
        self.misses.retain_recent();
        let now = Instant::now();
        self.refused_until
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|_, until| *until > now);
    }
}

/// Whether an answer of code `code` is a lookup that found nothing: no such room (or path), a private room
/// without its code, a wrong admin token; and `message_not_found`, which reporting a chat message answers
/// for a room that does not exist as for a message that does not (else reports would probe codes freely).
fn is_miss(code: &str) -> bool {
    [
        AppError::RoomNotFound,
        AppError::MessageNotFound,
        AppError::WrongJoinCode,
        AppError::NotFound,
        AppError::NotAdmin,
    ]
    .iter()
    .any(|miss| miss.code() == code)
}

/// Middleware of the routes that find a room by its id or join code (and of the admin routes): refuses an
/// address that has used up its misses, and counts the requests that found nothing (`is_miss`). Other
/// refusals (`403 not_room_owner`, `404 seat_not_found`, …) found the room and are not misses.
pub async fn limit_lookups(
    State(limit): State<Arc<LookupLimit>>,
    request: Request<Body>,
    next: Next,
) -> Response<Body> {
    let Ok(key) = (ClientIp {
        trust_forwarded: limit.trust_forwarded,
    })
    .extract(&request) else {
        return next.run(request).await;
    };
    if let Some(wait) = limit.refused_for(key) {
        return lookup_refusal(wait);
    }
    let response = next.run(request).await;
    if crate::error::code_of(&response).is_some_and(is_miss)
        && let Err(wait) = limit.miss(key).await
    {
        return lookup_refusal(wait);
    }
    response
}

/// A lookup refused for `wait` more, as the API's JSON error (`Retry-After` rounded up).
fn lookup_refusal(wait: Duration) -> Response<Body> {
    metrics::counter!("parchis_http_rate_limited_total").increment(1);
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    AppError::RateLimited(crate::error::Wait(secs)).into_response()
}

#[cfg(test)]
mod tests {
    use axum::Router;
    use axum::routing::get;
    use tower::ServiceExt;

    use super::*;

    /// One lookup of a room that does not exist: its status, `Retry-After` and JSON body.
    async fn look_up(app: &Router) -> (u16, Option<u64>, serde_json::Value) {
        let request = Request::get("/api/rooms/ZZZZZZ")
            .body(Body::empty())
            .unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|value| value.to_str().ok()?.parse().ok());
        let status = response.status().as_u16();
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, retry_after, serde_json::from_slice(&body).unwrap())
    }

    #[tokio::test]
    async fn with_postgres_out_of_reach_join_code_guesses_are_limited_on_this_node_and_the_host_sees_it()
     {
        // The node's /metrics, as the host would read them (this thread only).
        let recorder = metrics_exporter_prometheus::PrometheusBuilder::new().build_recorder();
        let metrics = recorder.handle();
        let _recording = metrics::set_default_local_recorder(&recorder);
        let limit = LookupLimit::new(LOOKUP_MISSES_PER_MINUTE, false)
            .unwrap()
            .shared(crate::shared_counts::unreachable());
        let app = Router::new()
            .route(
                "/api/rooms/{code}",
                get(|| async { AppError::RoomNotFound }),
            )
            .layer(axum::middleware::from_fn_with_state(
                Arc::new(limit),
                limit_lookups,
            ));

        // Not closed: a player's mistyped codes are answered as ever.
        for miss in 1..=LOOKUP_MISSES_PER_MINUTE {
            let (status, _, body) = look_up(&app).await;
            assert_eq!(
                (status, body["code"].as_str()),
                (404, Some("room_not_found")),
                "miss {miss} of the minute's {LOOKUP_MISSES_PER_MINUTE}"
            );
        }
        // Not open: a guesser gets one node's budget, refused as usual, for a short while.
        let (status, retry_after, body) = look_up(&app).await;
        assert_eq!(status, 429, "{body}");
        assert_eq!(body["code"], "rate_limited");
        assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()));
        let wait = retry_after.expect("Retry-After");
        assert!((1..=2).contains(&wait), "Retry-After: {wait}");
        // The host sees that the limit is counted on this node alone.
        let shown = metrics.render();
        let errors = shown
            .lines()
            .find_map(|line| line.strip_prefix("parchis_shared_limit_errors_total "));
        assert!(
            errors.is_some_and(|n| n.parse::<u64>().is_ok_and(|n| n > 0)),
            "{shown}"
        );
        // Not locked out for good: once the wait is over, lookups are answered again.
        tokio::time::sleep(Duration::from_secs(wait)).await;
        let (status, _, body) = look_up(&app).await;
        assert_eq!(status, 404, "{body}");
    }
}

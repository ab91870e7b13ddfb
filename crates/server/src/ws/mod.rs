//! The realtime endpoint `GET /api/rooms/{id_or_code}/ws` (PROTOCOL.md §1):
//! authentication and access checks happen before the upgrade; then
//! [`connection::serve`] shuttles frames between the socket and the room.

pub mod connection;

use axum::extract::rejection::QueryRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{Query, State};
use axum::http::header::HeaderName;
use axum::http::header::SEC_WEBSOCKET_PROTOCOL;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::Response;
use serde::Deserialize;
use std::time::Duration;

use crate::AppState;
use crate::auth;
use crate::error::{AppError, ErrorBody};
use crate::extract::ApiPath;
use crate::rooms::ConnectRequest;
use crate::rooms::access;

/// Largest client frame/message accepted (bigger ones close the connection with 1009).
pub const MAX_MESSAGE: usize = 4096;
/// Read buffer per connection: clients only send small commands (~100 bytes);
/// a larger message (up to [`MAX_MESSAGE`]) grows it as needed.
const READ_BUFFER: usize = 1024;
/// Write buffer per connection before a flush.
const WRITE_BUFFER: usize = 16 * 1024;

/// Header of the upgrade answer: `owner` when this node runs the room, `relayed` when another does.
pub const ROOM_SERVED: HeaderName = HeaderName::from_static("x-parchis-room-served");

/// The subprotocol the server speaks, and the one it answers with: never the token's.
pub const PROTOCOL: &str = "parchis";
/// An offered subprotocol that starts with this carries the player's token after it (browsers cannot set
/// an `Authorization` header on a WebSocket, but they offer subprotocols: `new WebSocket(url, ["parchis",
/// "parchis.token.<token>"])`), which keeps the token out of the URL, and so out of proxies' access logs.
pub const TOKEN_PROTOCOL_PREFIX: &str = "parchis.token.";

/// Query string of the WebSocket URL.
#[derive(Debug, Deserialize)]
pub struct WsQuery {
    /// Player token. Deprecated: a URL ends up in proxies' access logs and monitoring; offer it as the
    /// subprotocol `parchis.token.<token>` instead. Kept for older clients.
    pub token: Option<String>,
    /// Last version the client saw (reconnect).
    pub since: Option<u64>,
    /// Epoch of that version.
    pub epoch: Option<String>,
}

/// What `Sec-WebSocket-Protocol` offers: `None` without the header; else the token it carries, if any. The
/// header, when sent, must offer [`PROTOCOL`] (the answer the server gives, and the only one a browser
/// accepts back), and at most one token.
fn offered_token(headers: &HeaderMap) -> Result<Option<Option<&str>>, AppError> {
    let mut values = headers.get_all(SEC_WEBSOCKET_PROTOCOL).iter().peekable();
    if values.peek().is_none() {
        return Ok(None);
    }
    let mut speaks_ours = false;
    let mut token = None;
    for value in values {
        let value = value.to_str().map_err(|_| {
            AppError::InvalidSubprotocol(
                "The `Sec-WebSocket-Protocol` header must be plain ASCII.".into(),
            )
        })?;
        for offered in value.split(',').map(str::trim) {
            if offered == PROTOCOL {
                speaks_ours = true;
            } else if let Some(offered_token) = offered.strip_prefix(TOKEN_PROTOCOL_PREFIX)
                && token.replace(offered_token).is_some()
            {
                return Err(AppError::InvalidSubprotocol(format!(
                    "Offer one `{TOKEN_PROTOCOL_PREFIX}<token>` subprotocol, not several."
                )));
            }
        }
    }
    if !speaks_ours {
        return Err(AppError::InvalidSubprotocol(format!(
            "Offer the `{PROTOCOL}` subprotocol (and `{TOKEN_PROTOCOL_PREFIX}<token>` to act as a player), \
             or no `Sec-WebSocket-Protocol` header."
        )));
    }
    Ok(Some(token))
}

/// The token a WebSocket request comes with: the subprotocol's or the query's (which must then agree),
/// else the `Authorization: Bearer` header's, which must then be a bearer token.
fn ws_token<'a>(query: &'a WsQuery, headers: &'a HeaderMap) -> Result<Option<&'a str>, AppError> {
    let from_protocol = offered_token(headers)?.flatten();
    match (query.token.as_deref(), from_protocol) {
        (Some(in_url), Some(offered)) if in_url != offered => Err(AppError::ConflictingTokens),
        (Some(token), _) | (None, Some(token)) => Ok(Some(token)),
        (None, None) => crate::extract::bearer(headers),
    }
}

/// Upgrades to the room's realtime protocol (401/403/404 first, then 426 if not a WebSocket request).
#[utoipa::path(get, path = "/api/rooms/{id_or_code}/ws", tag = "realtime",
    summary = "Realtime room connection (WebSocket)",
    description = "A WebSocket upgrade (`Connection: Upgrade`, `Upgrade: websocket`). After `101 Switching \
Protocols` the server sends a `snapshot` (or the missed `update`s when `since` and `epoch` match), `hello`, \
`chat_history` and, where the room shows the next roll, `preview`; clients send `roll`, `move`, `preselect`, \
`resync`, `chat` and `leave` commands as JSON text frames and get `ack` or `error`. The messages, versions and \
close codes (1000 `left`, 1001 `no_pong`, 1008 `too_slow`/`rate_limited`, 1009 `too_big`, 1011 `room_closed`, 1013 `server_full` (the server holds `MAX_CONNECTIONS`), \
4001 `token_revoked`) are specified in PROTOCOL.md §1–§5. Private rooms need the join code as `id_or_code`, or a token of the owner or a seated player.\n\n\
The player's token goes in the `Sec-WebSocket-Protocol` header, offered as `parchis.token.<token>` next to `parchis` \
(a browser: `new WebSocket(url, [\"parchis\", \"parchis.token.\" + token])`); the server answers `Sec-WebSocket-Protocol: parchis`, \
never the token. Not in the URL: URLs end up in proxies' access logs. Without a token: a spectator.",
    params(
        ("id_or_code" = String, Path, description = "Room id or 6-character join code"),
        ("Sec-WebSocket-Protocol" = Option<String>, Header, description = "`parchis, parchis.token.<token>`: the player's token as an offered subprotocol (`parchis` alone, or no header: a spectator). Must offer `parchis` and at most one token (`400 invalid_subprotocol`)"),
        ("token" = Option<String>, Query, deprecated, description = "Deprecated: the player token in the URL, where logs keep it; offer it in `Sec-WebSocket-Protocol` instead. Must equal a subprotocol token if both are sent (`400 conflicting_tokens`). Without either, `Authorization: Bearer` works too; absent = anonymous spectator"),
        ("since" = Option<u64>, Query, description = "Reconnect: the last version the client applied"),
        ("epoch" = Option<String>, Query, description = "Reconnect: the epoch of that version (from the snapshot)"),
    ),
    responses(
        (status = 101, description = "Switching Protocols: the connection now speaks PROTOCOL.md (`Sec-WebSocket-Protocol: parchis` when it was offered; `X-Parchis-Room-Served`: `owner` when this node runs the room, `relayed` when another cluster node does)"),
        (status = 400, description = "A `Sec-WebSocket-Protocol` header without `parchis`, with several tokens or not ASCII (`invalid_subprotocol`); a query token and a subprotocol token that differ (`conflicting_tokens`)", body = ErrorBody),
        (status = 401, description = "Invalid token", body = ErrorBody),
        (status = 403, description = "Private room without its code (`wrong_join_code`)", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 429, description = "Too many lookups that found no room from this address (`rate_limited`, with `Retry-After`)", body = ErrorBody),
        (status = 422, description = "A `since` that is not a number, or a repeated parameter (`invalid_query`)", body = ErrorBody),
        (status = 426, description = "Not a WebSocket upgrade request (`upgrade_required`)", body = ErrorBody),
        (status = 503, description = "The room's task could not take the connection in time (`room_busy`); the database is out of reach for a moment (`storage_unavailable`, with `Retry-After`)", body = ErrorBody)))]
pub async fn room_ws(
    State(state): State<AppState>,
    ApiPath(id_or_code): ApiPath<String>,
    query: Result<Query<WsQuery>, QueryRejection>,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, AppError> {
    let Query(query) = query.map_err(|r| AppError::InvalidQuery(r.body_text()))?;
    let token_hash = ws_token(&query, &headers)?.map(auth::hash_token);
    let player_id = match &token_hash {
        Some(hash) => Some(crate::extract::authenticate(&state, hash).await?.id),
        None => None,
    };
    let (room_id, by_code) = access::resolve(&state.db, &id_or_code).await?;
    let snapshot = state
        .rooms
        .lookup(&room_id)
        .await?
        .ok_or(AppError::RoomNotFound)?;
    access::check_private_access(&snapshot, player_id.as_deref(), by_code)?;
    // Checked after authentication so a bad token is a 401 whatever the request.
    let upgrade = upgrade.map_err(|_| AppError::UpgradeRequired)?;
    let resume = match (query.since, query.epoch) {
        (Some(since), Some(epoch)) => Some((since, epoch)),
        _ => None,
    };
    let link = state
        .rooms
        .connect(
            &room_id,
            ConnectRequest {
                player_id,
                token_hash,
                resume,
            },
        )
        .await?;
    // Which node runs the room, for load tests and operators (PROTOCOL.md §1): set before the upgrade,
    // as attached now (a relayed socket follows its room if it moves).
    let served = if link.sender.is_relayed() {
        "relayed"
    } else {
        "owner"
    };
    // Answers `parchis` when it was offered; never the token's subprotocol.
    let mut response = upgrade
        .protocols([PROTOCOL])
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .on_upgrade(move |socket| {
            let limits = connection::Limits {
                messages_per_second: state.config.ws_messages_per_second,
                ping_every: (state.config.ws_ping_secs > 0)
                    .then(|| Duration::from_secs(state.config.ws_ping_secs)),
            };
            connection::serve(socket, link, limits)
        });
    response
        .headers_mut()
        .insert(ROOM_SERVED, HeaderValue::from_static(served));
    Ok(response)
}

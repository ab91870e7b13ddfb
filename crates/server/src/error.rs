//! The one error type of the HTTP API, rendered as `{ "code", "message" }`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

/// JSON body of every error response.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// Stable snake_case identifier clients can match on (one of [`AppError::codes`]: the document lists
    /// them as this field's `enum`).
    pub code: &'static str,
    /// Human-readable sentence explaining the error.
    pub message: String,
    /// Which check refused the request, for codes that cover several (`invalid_settings`: `players`,
    /// `too_many_bots`, `no_human_seat`, `turn_time`, `house_rule`, or the referee's own set-up code such as
    /// `bad_player_count` or `bad_pieces_to_win`), so that a client can say it in its own language; and
    /// `maybe_stored` for a `storage_unavailable` whose connection broke mid-way, so that a change asked
    /// for may have been made all the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
}

/// Writes [`AppError`] from one list: each variant with its message, its HTTP status and its code, so
/// that a new error is one entry here (the enum, [`AppError::STATUSES`], [`AppError::status`] and
/// [`AppError::code`] all come from it).
macro_rules! app_errors {
    ($(
        $(#[$attr:meta])*
        $variant:ident $(($($tuple:ty),*))? $({$($field:ident: $fty:ty),* $(,)?})? => $status:ident $code:literal,
    )*) => {
        /// Every failure a handler can report. Client mistakes map to 4xx; only server-side faults
        /// (`Internal`, `Unavailable`, `StorageUnavailable`, busy rooms) map to 5xx.
        #[derive(Debug, thiserror::Error)]
        pub enum AppError {
            $($(#[$attr])* $variant $(($($tuple),*))? $({$($field: $fty),*})?,)*
        }

        impl AppError {
            /// Every code an error body can carry with the status it is sent with. The OpenAPI document
            /// lists the codes (`ErrorBody.code`).
            pub const STATUSES: &[(&str, StatusCode)] = &[
                $(($code, StatusCode::$status),)*
            ];

            /// HTTP status for this error.
            pub fn status(&self) -> StatusCode {
                match self {
                    $(AppError::$variant { .. } => StatusCode::$status,)*
                }
            }

            /// Stable snake_case code for this error.
            pub fn code(&self) -> &'static str {
                match self {
                    $(AppError::$variant { .. } => $code,)*
                }
            }

            /// The error of `code` made again from what it carried (`None`: no error has that code).
            /// Cluster mode gives an owner's error so; made here, it cannot miss a variant.
            pub fn from_parts(code: &str, parts: &ErrorParts<'_>) -> Option<AppError> {
                Some(match code {
                    $($code => AppError::$variant
                        $(($(<$tuple as FromErrorParts>::from_parts(parts)),*))?
                        $({$($field: <$fty as FromErrorParts>::from_parts(parts)),*})?,)*
                    _ => return None,
                })
            }
        }
    };
}

/// What an error carried, as it crossed between nodes (see [`AppError::from_parts`]).
#[derive(Debug, Clone, Copy)]
pub struct ErrorParts<'a> {
    /// Its text (the `{0}` of its sentence, an internal error's detail).
    pub text: &'a str,
    /// Its number (seconds to wait, `maybe_stored` as 0 or 1).
    pub number: Option<u64>,
    /// `invalid_settings`: which check refused them.
    pub reason: Option<&'a str>,
}

/// A field of an [`AppError`] variant, made again from [`ErrorParts`].
pub trait FromErrorParts {
    /// The field's value.
    fn from_parts(parts: &ErrorParts<'_>) -> Self;
}

impl FromErrorParts for String {
    fn from_parts(parts: &ErrorParts<'_>) -> Self {
        parts.text.to_owned()
    }
}

impl FromErrorParts for u64 {
    fn from_parts(parts: &ErrorParts<'_>) -> Self {
        parts.number.unwrap_or(1)
    }
}

impl FromErrorParts for u32 {
    fn from_parts(parts: &ErrorParts<'_>) -> Self {
        u32::try_from(parts.number.unwrap_or(1)).unwrap_or(u32::MAX)
    }
}

impl FromErrorParts for Wait {
    fn from_parts(parts: &ErrorParts<'_>) -> Self {
        Wait(parts.number.unwrap_or(1))
    }
}

impl FromErrorParts for bool {
    fn from_parts(parts: &ErrorParts<'_>) -> Self {
        parts.number == Some(1)
    }
}

/// The `reason`s of `invalid_settings` ([`crate::settings`]), as the static text the error holds.
const SETTINGS_REASONS: &[&str] = &[
    "players",
    "too_many_bots",
    "turn_time",
    "no_human_seat",
    "house_rule",
];

impl FromErrorParts for &'static str {
    /// `invalid_settings`'s reason (`settings` for one this node does not know).
    fn from_parts(parts: &ErrorParts<'_>) -> Self {
        SETTINGS_REASONS
            .iter()
            .find(|r| Some(**r) == parts.reason)
            .copied()
            .unwrap_or("settings")
    }
}

app_errors! {
    #[error("The request body is not valid JSON: {0}")]
    MalformedJson(String) => BAD_REQUEST "malformed_json",
    #[error("The request body does not have the expected shape: {0}")]
    InvalidBody(String) => UNPROCESSABLE_ENTITY "invalid_body",
    #[error("The request body must be JSON with `Content-Type: application/json`.")]
    UnsupportedMediaType => UNSUPPORTED_MEDIA_TYPE "unsupported_media_type",
    #[error("The request body is too large.")]
    PayloadTooLarge => PAYLOAD_TOO_LARGE "payload_too_large",
    #[error("The request body could not be read.")]
    UnreadableBody => BAD_REQUEST "unreadable_body",
    /// The request was not received and answered within the server's deadline (the number: seconds).
    #[error("The request took longer than {0} s to arrive and be answered; send it again, whole.")]
    RequestTimeout(u64) => REQUEST_TIMEOUT "request_timeout",
    /// Room settings that cannot be played (`reason`: which check refused them, see [`ErrorBody::reason`]).
    #[error("{message}")]
    InvalidSettings {
        reason: &'static str,
        message: String,
    } => UNPROCESSABLE_ENTITY "invalid_settings",
    #[error("{0}")]
    InvalidDisplayName(String) => UNPROCESSABLE_ENTITY "invalid_display_name",
    #[error("The query string is not valid: {0}")]
    InvalidQuery(String) => UNPROCESSABLE_ENTITY "invalid_query",
    /// A `Sec-WebSocket-Protocol` header that cannot be read (the text says why).
    #[error("{0}")]
    InvalidSubprotocol(String) => BAD_REQUEST "invalid_subprotocol",
    #[error(
        "The token in the URL and the token in `Sec-WebSocket-Protocol` differ: send one token, once."
    )]
    ConflictingTokens => BAD_REQUEST "conflicting_tokens",
    #[error("{0}")]
    InvalidUsername(String) => UNPROCESSABLE_ENTITY "invalid_username",
    #[error("{0}")]
    WeakPassword(String) => UNPROCESSABLE_ENTITY "weak_password",
    #[error("That username is taken; choose another.")]
    UsernameTaken => CONFLICT "username_taken",
    #[error("You already have an account: sign in with it on other devices.")]
    AccountExists => CONFLICT "account_exists",
    #[error("Unknown username or wrong password.")]
    WrongCredentials => UNAUTHORIZED "wrong_credentials",
    #[error("Erasing an account needs its current password, as `password` in a JSON body.")]
    PasswordRequired => UNPROCESSABLE_ENTITY "password_required",
    #[error("That is not this account's password.")]
    WrongPassword => FORBIDDEN "wrong_password",
    /// Too many wrong passwords for one username, or from one device changing its password (the number:
    /// seconds until it may be tried again).
    #[error("Too many wrong passwords lately; try again in {0} s.")]
    TooManyAttempts(Wait) => TOO_MANY_REQUESTS "too_many_attempts",
    #[error(
        "You have no account: a guest plays on this one device only, and signing it out would lose the player for good."
    )]
    NoAccount => CONFLICT "no_account",
    #[error("No device signed in to your account has that id (it may be signed out already).")]
    DeviceNotFound => NOT_FOUND "device_not_found",
    #[error("This endpoint needs an `Authorization: Bearer <token>` header.")]
    MissingToken => UNAUTHORIZED "missing_token",
    #[error("The bearer token is not valid.")]
    InvalidToken => UNAUTHORIZED "invalid_token",
    /// The token was an account's device that went unused for longer than the host allows
    /// (`SESSION_IDLE_DAYS`): it was signed out when it came back.
    #[error("This device was signed out because it was not used for {0} days: sign in again.")]
    SessionExpired(u32) => UNAUTHORIZED "session_expired",
    #[error("No room has that id or join code.")]
    RoomNotFound => NOT_FOUND "room_not_found",
    #[error("No game has that id.")]
    GameNotFound => NOT_FOUND "game_not_found",
    #[error("No player has that username.")]
    AccountNotFound => NOT_FOUND "account_not_found",
    #[error("No player has that id.")]
    PlayerNotFound => NOT_FOUND "player_not_found",
    #[error("No one plays at your device at that seat.")]
    LocalPlayerNotFound => NOT_FOUND "local_player_not_found",
    #[error("This room has no seat with that number (seats count from 0).")]
    SeatNotFound => NOT_FOUND "seat_not_found",
    #[error("This needs the server's admin token.")]
    NotAdmin => FORBIDDEN "not_admin",
    #[error("The game is still being played: its replay is served once it is over.")]
    GameNotFinished => CONFLICT "game_not_finished",
    #[error("No such endpoint.")]
    NotFound => NOT_FOUND "not_found",
    #[error("Only the room owner can do that.")]
    NotRoomOwner => FORBIDDEN "not_room_owner",
    #[error("This room is private: a correct join code is needed to join it.")]
    WrongJoinCode => FORBIDDEN "wrong_join_code",
    #[error("Every seat in this room is taken.")]
    RoomFull => CONFLICT "room_full",
    /// The seat asked for is someone's (a person's, a bot's, or someone at a device).
    #[error("That seat is taken.")]
    SeatTaken => CONFLICT "seat_taken",
    #[error("The room is no longer waiting for players.")]
    RoomNotWaiting => CONFLICT "room_not_waiting",
    #[error(
        "A person sits in that seat: only an empty seat or a bot's can be given a bot or emptied."
    )]
    SeatHasPerson => CONFLICT "seat_has_person",
    #[error("No person sits in that seat: an empty seat or a bot's has nobody to remove.")]
    NoPersonAtSeat => CONFLICT "no_person_at_seat",
    #[error("You cannot remove yourself from your own room: leave it instead.")]
    CannotRemoveSelf => CONFLICT "cannot_remove_self",
    #[error("The owner of this room removed you from it: you cannot take a seat in it again.")]
    RemovedFromRoom => FORBIDDEN "removed_from_room",
    #[error("Another player in this room already asked for that colour.")]
    ColourTaken => CONFLICT "colour_taken",
    #[error("You are not seated in this room.")]
    NotSeated => CONFLICT "not_seated",
    #[error("This endpoint speaks WebSocket: send an upgrade request.")]
    UpgradeRequired => UPGRADE_REQUIRED "upgrade_required",
    /// A connection over its address's `CONNECTIONS_PER_ADDRESS`, answered before any request is read
    /// (see [`crate::serve`]).
    #[error("Too many connections from this address are open; close some and try again.")]
    TooManyConnections => TOO_MANY_REQUESTS "too_many_connections",
    /// A connection past the server's cap on open connections (see [`crate::serve::ConnectionCap`]).
    #[error("The server holds as many connections as it can; try again in a moment.")]
    ServerFull => SERVICE_UNAVAILABLE "server_full",
    #[error("The room is busy; try again shortly.")]
    RoomBusy => SERVICE_UNAVAILABLE "room_busy",
    /// An `Idempotency-Key` header that cannot be one (the text says why; see [`crate::idempotency`]).
    #[error("{0}")]
    InvalidIdempotencyKey(String) => BAD_REQUEST "invalid_idempotency_key",
    #[error("This Idempotency-Key was used for a different request (another address or body); use a new key for a new request.")]
    IdempotencyKeyReused => UNPROCESSABLE_ENTITY "idempotency_key_reused",
    #[error("A request with this Idempotency-Key is still being answered; wait for its answer, or try again in a moment.")]
    IdempotencyKeyInFlight => CONFLICT "idempotency_key_in_flight",
    /// Too many writes from one address (the number: seconds until the next is allowed).
    #[error("Too many requests from your address; try again in {0} s.")]
    RateLimited(Wait) => TOO_MANY_REQUESTS "rate_limited",
    #[error("The database is not answering.")]
    Unavailable => SERVICE_UNAVAILABLE "service_unavailable",
    /// Storage is out of reach for a while (see [`crate::db::Outage`]): the database is down or
    /// restarting, its pool exhausted, its file locked. `maybe_stored`: the connection broke mid-way, so a
    /// write may have landed all the same. `detail` is logged, never shown.
    #[error("{}", storage_unavailable_message(*maybe_stored))]
    StorageUnavailable { maybe_stored: bool, detail: String } => SERVICE_UNAVAILABLE "storage_unavailable",
    #[error("The server is busy analysing other games; try again shortly.")]
    AnalysisBusy => SERVICE_UNAVAILABLE "analysis_busy",
    #[error("No chat message has that number in that room (or its writer's data was erased).")]
    MessageNotFound => NOT_FOUND "message_not_found",
    #[error("You cannot report your own message.")]
    OwnMessage => UNPROCESSABLE_ENTITY "own_message",
    /// A report's reason that cannot be kept (the text says why).
    #[error("{0}")]
    InvalidReport(String) => UNPROCESSABLE_ENTITY "invalid_report",
    #[error("No report stands against that message.")]
    ReportNotFound => NOT_FOUND "report_not_found",
    /// The log entry asked for is not a move (the text says which it is).
    #[error("{0}")]
    NotAMove(String) => UNPROCESSABLE_ENTITY "not_a_move",
    /// A request hyper could not parse (its request line, a header, two `Content-Length`s), answered
    /// by the connection itself (see `serve/parser_errors.rs`).
    #[error("The request could not be read: its request line or one of its headers is malformed.")]
    MalformedRequest => BAD_REQUEST "malformed_request",
    #[error("The request's address is too long.")]
    UriTooLong => URI_TOO_LONG "uri_too_long",
    #[error("The request's headers are too large or too many.")]
    HeadersTooLarge => REQUEST_HEADER_FIELDS_TOO_LARGE "headers_too_large",
    #[error("This address does not take that HTTP method.")]
    MethodNotAllowed => METHOD_NOT_ALLOWED "method_not_allowed",
    #[error("internal error: {0}")]
    Internal(String) => INTERNAL_SERVER_ERROR "internal_error",
}

impl AppError {
    /// Every code an error body can carry (see [`AppError::STATUSES`]).
    pub fn codes() -> impl Iterator<Item = &'static str> {
        Self::STATUSES.iter().map(|&(code, _)| code)
    }
}

/// Seconds a client is asked to wait (`Retry-After`) before trying again after `storage_unavailable`,
/// `server_full` or `too_many_connections`.
pub const STORAGE_RETRY_AFTER_SECS: u64 = 5;

/// The sentence of `storage_unavailable` (REST and WebSocket alike): `maybe_stored` when the connection
/// broke mid-way, so that a change asked for may have been made all the same.
pub fn storage_unavailable_message(maybe_stored: bool) -> &'static str {
    if maybe_stored {
        "The server lost its database while answering: a change you asked for may or may not have \
         been made. Try again in a moment."
    } else {
        STORAGE_NOTHING_CHANGED
    }
}

/// The sentence of a `storage_unavailable` that changed nothing, REST and WebSocket alike.
pub const STORAGE_NOTHING_CHANGED: &str =
    "The server cannot reach its database just now; nothing was changed. Try again in a moment.";

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        // Never leak internal details to clients: they ride in the response's extensions to
        // [`log_errors`], which logs them and drops them.
        let (message, detail) = match &self {
            AppError::Internal(detail) => (
                "Something went wrong on the server.".to_owned(),
                Some(Fault::Server(detail.clone())),
            ),
            AppError::StorageUnavailable { detail, .. } => {
                (self.to_string(), Some(Fault::Storage(detail.clone())))
            }
            other => (other.to_string(), None),
        };
        let reason = match &self {
            AppError::InvalidSettings { reason, .. } => Some(*reason),
            AppError::StorageUnavailable {
                maybe_stored: true, ..
            } => Some("maybe_stored"),
            _ => None,
        };
        let body = ErrorBody {
            code: self.code(),
            message,
            reason,
        };
        let mut response = (status, Json(body)).into_response();
        response.extensions_mut().insert(Logged {
            code: self.code(),
            fault: detail,
        });
        let wait = match self {
            AppError::RateLimited(wait) | AppError::TooManyAttempts(wait) => Some(wait.secs()),
            AppError::StorageUnavailable { .. }
            | AppError::ServerFull
            | AppError::TooManyConnections => Some(STORAGE_RETRY_AFTER_SECS),
            _ => None,
        };
        if let Some(secs) = wait {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        response
    }
}

/// What [`log_errors`] logs of an error answer: its code, and what went wrong on the server, never sent.
#[derive(Debug, Clone)]
struct Logged {
    code: &'static str,
    fault: Option<Fault>,
}

/// What went wrong on the server's side, in words for the log only.
#[derive(Debug, Clone)]
enum Fault {
    /// A fault of the server (`internal_error`).
    Server(String),
    /// Storage out of reach for a while (`storage_unavailable`).
    Storage(String),
}

/// The code of an error answer made by [`AppError::into_response`] (before [`log_errors`] has logged it).
pub fn code_of(response: &Response) -> Option<&'static str> {
    response
        .extensions()
        .get::<Logged>()
        .map(|logged| logged.code)
}

/// Middleware: logs each error answer in the request's span (a server fault at `error`, storage out of
/// reach at `warn`, a client's mistake at `debug`), so that handlers and [`AppError::into_response`] only
/// say what went wrong.
pub async fn log_errors(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let mut response = next.run(request).await;
    if let Some(Logged { code, fault }) = response.extensions_mut().remove::<Logged>() {
        let status = response.status().as_u16();
        match fault {
            Some(Fault::Server(detail)) => tracing::error!(status, code, %detail, "internal error"),
            Some(Fault::Storage(detail)) => {
                tracing::warn!(status, code, %detail, "storage unavailable")
            }
            None => tracing::debug!(status, code, "refused"),
        }
    }
    response
}

/// The wait a refusal names, in its message and its `Retry-After` alike: whole seconds, at least one (a
/// wait under a second would read "try again in 0 s").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wait(pub u64);

impl Wait {
    /// The seconds to wait, at least one.
    pub fn secs(self) -> u64 {
        self.0.max(1)
    }
}

impl std::fmt::Display for Wait {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.secs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{DbError, classify};
    use serde_json::Value;
    use sqlx::{Connection, SqliteConnection};

    /// The status, `Retry-After` and body of `err` as a client gets them.
    async fn answer(err: impl Into<AppError>) -> (StatusCode, Option<String>, Value) {
        let response = err.into().into_response();
        let status = response.status();
        let retry = response
            .headers()
            .get(axum::http::header::RETRY_AFTER)
            .map(|v| v.to_str().unwrap().to_owned());
        let body = axum::body::to_bytes(response.into_body(), 1 << 16)
            .await
            .unwrap();
        (status, retry, serde_json::from_slice(&body).unwrap())
    }

    #[tokio::test]
    async fn a_constraint_violated_or_a_value_that_does_not_decode_stays_internal_error() {
        let mut db = SqliteConnection::connect("sqlite::memory:").await.unwrap();
        sqlx::query("CREATE TABLE t (x INTEGER NOT NULL CHECK (x > 0), y TEXT UNIQUE)")
            .execute(&mut db)
            .await
            .unwrap();
        sqlx::query("INSERT INTO t VALUES (1, 'a')")
            .execute(&mut db)
            .await
            .unwrap();
        let check = sqlx::query("INSERT INTO t VALUES (0, 'b')")
            .execute(&mut db)
            .await
            .unwrap_err();
        let not_null = sqlx::query("INSERT INTO t VALUES (NULL, 'c')")
            .execute(&mut db)
            .await
            .unwrap_err();
        let unique = sqlx::query("INSERT INTO t VALUES (2, 'a')")
            .execute(&mut db)
            .await
            .unwrap_err();
        let decode = sqlx::query_scalar::<_, i64>("SELECT y FROM t")
            .fetch_one(&mut db)
            .await
            .unwrap_err();
        for err in [
            DbError::Sqlx(check),
            DbError::Sqlx(not_null),
            classify(unique),
            DbError::Sqlx(decode),
            DbError::Sqlx(sqlx::Error::RowNotFound),
        ] {
            let shown = err.to_string();
            let (status, retry, body) = answer(err).await;
            assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{shown}: {body}");
            assert_eq!(body["code"], "internal_error", "{shown}");
            assert_eq!(body["message"], "Something went wrong on the server.");
            assert_eq!(retry, None);
        }
        db.close().await.unwrap();
    }

    #[tokio::test]
    async fn a_database_file_locked_by_another_process_is_storage_unavailable() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}/locked.db?mode=rwc", dir.path().display());
        let mut holder = SqliteConnection::connect(&url).await.unwrap();
        sqlx::query("CREATE TABLE t (x INTEGER)")
            .execute(&mut holder)
            .await
            .unwrap();
        sqlx::query("BEGIN EXCLUSIVE")
            .execute(&mut holder)
            .await
            .unwrap();
        let options: sqlx::sqlite::SqliteConnectOptions = url.parse().unwrap();
        let mut writer = SqliteConnection::connect_with(
            &options.busy_timeout(std::time::Duration::from_millis(50)),
        )
        .await
        .unwrap();
        let busy = sqlx::query("INSERT INTO t VALUES (1)")
            .execute(&mut writer)
            .await
            .unwrap_err();
        assert!(busy.to_string().contains("locked"), "{busy}");

        let (status, retry, body) = answer(DbError::Sqlx(busy)).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert_eq!(body["code"], "storage_unavailable");
        assert_eq!(
            body["message"],
            "The server cannot reach its database just now; nothing was changed. Try again in a moment."
        );
        assert!(body.get("reason").is_none(), "{body}");
        assert_eq!(retry.as_deref(), Some("5"));
        writer.close().await.unwrap();
        holder.close().await.unwrap();
    }

    #[tokio::test]
    async fn a_pool_timed_out_or_a_connection_lost_is_storage_unavailable() {
        use std::io::{Error, ErrorKind};
        for (err, maybe_stored) in [
            (sqlx::Error::PoolTimedOut, false),
            (sqlx::Error::PoolClosed, false),
            (Error::from(ErrorKind::ConnectionRefused).into(), false),
            (Error::from(ErrorKind::ConnectionReset).into(), true),
            (Error::from(ErrorKind::UnexpectedEof).into(), true),
        ] {
            let shown = err.to_string();
            let (status, retry, body) = answer(DbError::Sqlx(err)).await;
            assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{shown}: {body}");
            assert_eq!(body["code"], "storage_unavailable", "{shown}");
            assert_eq!(retry.as_deref(), Some("5"), "{shown}");
            assert_eq!(
                body["message"],
                storage_unavailable_message(maybe_stored),
                "{shown}"
            );
            assert_eq!(
                body["reason"].as_str(),
                maybe_stored.then_some("maybe_stored"),
                "{shown}"
            );
            // The database's own words are logged, never shown.
            assert!(!body.to_string().contains(&shown), "{body}");
        }
    }

    /// The text between pairs of backticks, outside fenced code blocks (a pair may span two lines).
    fn quoted(text: &str) -> Vec<String> {
        let mut fenced = false;
        let prose: Vec<&str> = text
            .lines()
            .filter(|line| {
                if line.trim_start().starts_with("```") {
                    fenced = !fenced;
                    return false;
                }
                !fenced
            })
            .collect();
        prose
            .join(" ")
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect()
    }

    /// PROTOCOL.md names a REST error as `` `409 not_seated` `` (a status and a code in one pair of backticks,
    /// the pair sometimes broken over two lines); the OpenAPI document's responses name their codes in the
    /// description of their status. Both must give each code the status it is sent with.
    #[test]
    fn the_documents_give_each_rest_code_its_status() {
        let status_of: std::collections::HashMap<&str, u16> = AppError::STATUSES
            .iter()
            .map(|&(code, status)| (code, status.as_u16()))
            .collect();
        let mut wrong = Vec::new();
        let mut checked = 0;
        let protocol =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../PROTOCOL.md"))
                .expect("PROTOCOL.md");
        for quoted in quoted(&protocol) {
            let Some((status, code)) = quoted.split_once(' ') else {
                continue;
            };
            let code = code.trim();
            let Ok(status) = status.parse::<u16>() else {
                continue;
            };
            if !code.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                continue; // `201 {room_id, seq, new: true}`: an answer, not an error
            }
            checked += 1;
            if status_of.get(code) != Some(&status) {
                wrong.push(format!("PROTOCOL.md: `{quoted}`"));
            }
        }
        let doc = serde_json::to_value(<crate::openapi::ApiDoc as utoipa::OpenApi>::openapi())
            .expect("the document is JSON");
        for (path, item) in doc["paths"].as_object().expect("paths") {
            for (method, operation) in item.as_object().expect("a path item") {
                let Some(responses) = operation["responses"].as_object() else {
                    continue;
                };
                for (status, response) in responses {
                    let text = response["description"].as_str().unwrap_or_default();
                    for code in quoted(text) {
                        let Some(sent) = status_of.get(code.as_str()) else {
                            continue;
                        };
                        checked += 1;
                        if sent.to_string() != *status {
                            wrong.push(format!(
                                "{method} {path} {status}: `{code}` is sent as {sent}"
                            ));
                        }
                    }
                }
            }
        }
        assert!(
            checked > 100,
            "only {checked} codes found: is the parsing broken?"
        );
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    #[test]
    fn no_two_errors_share_a_code() {
        let mut codes: Vec<&str> = AppError::codes().collect();
        codes.sort_unstable();
        let before = codes.len();
        codes.dedup();
        assert_eq!(codes.len(), before, "two variants share a code");
    }
}

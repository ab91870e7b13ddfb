//! The one error type of the HTTP API, rendered as `{ "code", "message" }`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

/// JSON body of every error response.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// Stable snake_case identifier clients can match on (one of [`AppError::CODES`]: the document lists
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

/// Every failure a handler can report. Client mistakes map to 4xx; only
/// server-side faults (`Internal`, `Unavailable`, `StorageUnavailable`, busy rooms) map to 5xx.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("The request body is not valid JSON: {0}")]
    MalformedJson(String),
    #[error("The request body does not have the expected shape: {0}")]
    InvalidBody(String),
    #[error("The request body must be JSON with `Content-Type: application/json`.")]
    UnsupportedMediaType,
    #[error("The request body is too large.")]
    PayloadTooLarge,
    #[error("The request body could not be read.")]
    UnreadableBody,
    /// The request was not received and answered within the server's deadline (the number: seconds).
    #[error("The request took longer than {0} s to arrive and be answered; send it again, whole.")]
    RequestTimeout(u64),
    /// Room settings that cannot be played (`reason`: which check refused them, see [`ErrorBody::reason`]).
    #[error("{message}")]
    InvalidSettings {
        reason: &'static str,
        message: String,
    },
    #[error("{0}")]
    InvalidDisplayName(String),
    #[error("The query string is not valid: {0}")]
    InvalidQuery(String),
    /// A `Sec-WebSocket-Protocol` header that cannot be read (the text says why).
    #[error("{0}")]
    InvalidSubprotocol(String),
    #[error(
        "The token in the URL and the token in `Sec-WebSocket-Protocol` differ: send one token, once."
    )]
    ConflictingTokens,
    #[error("{0}")]
    InvalidUsername(String),
    #[error("{0}")]
    WeakPassword(String),
    #[error("That username is taken; choose another.")]
    UsernameTaken,
    #[error("You already have an account: sign in with it on other devices.")]
    AccountExists,
    #[error("Unknown username or wrong password.")]
    WrongCredentials,
    #[error("Erasing an account needs its current password, as `password` in a JSON body.")]
    PasswordRequired,
    #[error("That is not this account's password.")]
    WrongPassword,
    /// Too many wrong passwords for one username, or from one device changing its password (the number:
    /// seconds until it may be tried again).
    #[error("Too many wrong passwords lately; try again in {} s.", retry_after(.0))]
    TooManyAttempts(u64),
    #[error(
        "You have no account: a guest plays on this one device only, and signing it out would lose the player for good."
    )]
    NoAccount,
    #[error("No device signed in to your account has that id (it may be signed out already).")]
    DeviceNotFound,
    #[error("This endpoint needs an `Authorization: Bearer <token>` header.")]
    MissingToken,
    #[error("The bearer token is not valid.")]
    InvalidToken,
    /// The token was an account's device that went unused for longer than the host allows
    /// (`SESSION_IDLE_DAYS`): it was signed out when it came back.
    #[error("This device was signed out because it was not used for {0} days: sign in again.")]
    SessionExpired(u32),
    #[error("No room has that id or join code.")]
    RoomNotFound,
    #[error("No game has that id.")]
    GameNotFound,
    #[error("No player has that username.")]
    AccountNotFound,
    #[error("No player has that id.")]
    PlayerNotFound,
    #[error("No one plays at your device at that seat.")]
    LocalPlayerNotFound,
    #[error("This room has no seat with that number (seats count from 0).")]
    SeatNotFound,
    #[error("This needs the server's admin token.")]
    NotAdmin,
    #[error("The game is still being played: its replay is served once it is over.")]
    GameNotFinished,
    #[error("No such endpoint.")]
    NotFound,
    #[error("Only the room owner can do that.")]
    NotRoomOwner,
    #[error("This room is private: a correct join code is needed to join it.")]
    WrongJoinCode,
    #[error("Every seat in this room is taken.")]
    RoomFull,
    /// The seat asked for is someone's (a person's, a bot's, or someone at a device).
    #[error("That seat is taken.")]
    SeatTaken,
    #[error("The room is no longer waiting for players.")]
    RoomNotWaiting,
    #[error(
        "A person sits in that seat: only an empty seat or a bot's can be given a bot or emptied."
    )]
    SeatHasPerson,
    #[error("No person sits in that seat: an empty seat or a bot's has nobody to remove.")]
    NoPersonAtSeat,
    #[error("You cannot remove yourself from your own room: leave it instead.")]
    CannotRemoveSelf,
    #[error("The owner of this room removed you from it: you cannot take a seat in it again.")]
    RemovedFromRoom,
    #[error("Another player in this room already asked for that colour.")]
    ColourTaken,
    #[error("You are not seated in this room.")]
    NotSeated,
    #[error("This endpoint speaks WebSocket: send an upgrade request.")]
    UpgradeRequired,
    #[error("The room is busy; try again shortly.")]
    RoomBusy,
    /// Too many writes from one address (the number: seconds until the next is allowed).
    #[error("Too many requests from your address; try again in {} s.", retry_after(.0))]
    RateLimited(u64),
    #[error("The database is not answering.")]
    Unavailable,
    /// Storage is out of reach for a while (see [`crate::db::Outage`]): the database is down or
    /// restarting, its pool exhausted, its file locked. `maybe_stored`: the connection broke mid-way, so a
    /// write may have landed all the same. `detail` is logged, never shown.
    #[error("{}", storage_unavailable_message(*maybe_stored))]
    StorageUnavailable { maybe_stored: bool, detail: String },
    #[error("The server is busy analysing other games; try again shortly.")]
    AnalysisBusy,
    #[error("No chat message has that number in that room (or its writer's data was erased).")]
    MessageNotFound,
    #[error("You cannot report your own message.")]
    OwnMessage,
    /// A report's reason that cannot be kept (the text says why).
    #[error("{0}")]
    InvalidReport(String),
    #[error("No report stands against that message.")]
    ReportNotFound,
    /// The log entry asked for is not a move (the text says which it is).
    #[error("{0}")]
    NotAMove(String),
    #[error("This address does not take that HTTP method.")]
    MethodNotAllowed,
    #[error("internal error: {0}")]
    Internal(String),
}

/// The code of the answer to a connection over its address's limit, written before any request is read
/// (see [`crate::serve`]): the one error body that is no [`AppError`].
pub const TOO_MANY_CONNECTIONS: &str = "too_many_connections";

impl AppError {
    /// Every code an error body can carry: each of [`AppError::code`] and [`TOO_MANY_CONNECTIONS`]. The
    /// OpenAPI document lists them (`ErrorBody.code`); a test checks this list against `code`, so a new
    /// variant needs its code here.
    pub const CODES: &[&str] = &[
        "malformed_json",
        "invalid_body",
        "unsupported_media_type",
        "payload_too_large",
        "unreadable_body",
        "request_timeout",
        "invalid_settings",
        "invalid_display_name",
        "invalid_username",
        "invalid_query",
        "invalid_subprotocol",
        "conflicting_tokens",
        "weak_password",
        "username_taken",
        "account_exists",
        "wrong_credentials",
        "password_required",
        "wrong_password",
        "too_many_attempts",
        "no_account",
        "device_not_found",
        "missing_token",
        "invalid_token",
        "room_not_found",
        "game_not_found",
        "account_not_found",
        "player_not_found",
        "local_player_not_found",
        "seat_not_found",
        "not_admin",
        "game_not_finished",
        "not_found",
        "not_room_owner",
        "wrong_join_code",
        "room_full",
        "seat_taken",
        "room_not_waiting",
        "seat_has_person",
        "no_person_at_seat",
        "cannot_remove_self",
        "removed_from_room",
        "colour_taken",
        "not_seated",
        "upgrade_required",
        "room_busy",
        "rate_limited",
        "service_unavailable",
        "session_expired",
        "storage_unavailable",
        "analysis_busy",
        "message_not_found",
        "own_message",
        "invalid_report",
        "report_not_found",
        "not_a_move",
        "method_not_allowed",
        "internal_error",
        TOO_MANY_CONNECTIONS,
    ];

    /// HTTP status for this error.
    pub fn status(&self) -> StatusCode {
        use AppError::*;
        match self {
            MalformedJson(_) | UnreadableBody | InvalidSubprotocol(_) | ConflictingTokens => {
                StatusCode::BAD_REQUEST
            }
            InvalidBody(_)
            | InvalidSettings { .. }
            | InvalidDisplayName(_)
            | InvalidUsername(_)
            | InvalidQuery(_)
            | NotAMove(_)
            | OwnMessage
            | InvalidReport(_)
            | WeakPassword(_)
            | PasswordRequired => StatusCode::UNPROCESSABLE_ENTITY,
            UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            RequestTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            MissingToken | InvalidToken | SessionExpired(_) | WrongCredentials => {
                StatusCode::UNAUTHORIZED
            }
            NotRoomOwner | WrongJoinCode | NotAdmin | WrongPassword | RemovedFromRoom => {
                StatusCode::FORBIDDEN
            }
            RoomNotFound | GameNotFound | AccountNotFound | PlayerNotFound
            | LocalPlayerNotFound | SeatNotFound | NotFound | MessageNotFound | ReportNotFound
            | DeviceNotFound => StatusCode::NOT_FOUND,
            RoomFull | SeatTaken | RoomNotWaiting | SeatHasPerson | NoPersonAtSeat
            | CannotRemoveSelf | ColourTaken | NotSeated | GameNotFinished | UsernameTaken
            | AccountExists | NoAccount => StatusCode::CONFLICT,
            UpgradeRequired => StatusCode::UPGRADE_REQUIRED,
            RoomBusy | Unavailable | StorageUnavailable { .. } | AnalysisBusy => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            RateLimited(_) | TooManyAttempts(_) => StatusCode::TOO_MANY_REQUESTS,
            MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// Stable snake_case code for this error.
    pub fn code(&self) -> &'static str {
        use AppError::*;
        match self {
            MalformedJson(_) => "malformed_json",
            InvalidBody(_) => "invalid_body",
            UnsupportedMediaType => "unsupported_media_type",
            PayloadTooLarge => "payload_too_large",
            UnreadableBody => "unreadable_body",
            RequestTimeout(_) => "request_timeout",
            InvalidSettings { .. } => "invalid_settings",
            InvalidDisplayName(_) => "invalid_display_name",
            InvalidUsername(_) => "invalid_username",
            InvalidQuery(_) => "invalid_query",
            InvalidSubprotocol(_) => "invalid_subprotocol",
            ConflictingTokens => "conflicting_tokens",
            WeakPassword(_) => "weak_password",
            UsernameTaken => "username_taken",
            AccountExists => "account_exists",
            WrongCredentials => "wrong_credentials",
            PasswordRequired => "password_required",
            WrongPassword => "wrong_password",
            TooManyAttempts(_) => "too_many_attempts",
            NoAccount => "no_account",
            DeviceNotFound => "device_not_found",
            MissingToken => "missing_token",
            InvalidToken => "invalid_token",
            SessionExpired(_) => "session_expired",
            RoomNotFound => "room_not_found",
            GameNotFound => "game_not_found",
            AccountNotFound => "account_not_found",
            PlayerNotFound => "player_not_found",
            LocalPlayerNotFound => "local_player_not_found",
            SeatNotFound => "seat_not_found",
            NotAdmin => "not_admin",
            GameNotFinished => "game_not_finished",
            NotFound => "not_found",
            NotRoomOwner => "not_room_owner",
            WrongJoinCode => "wrong_join_code",
            RoomFull => "room_full",
            SeatTaken => "seat_taken",
            RoomNotWaiting => "room_not_waiting",
            SeatHasPerson => "seat_has_person",
            NoPersonAtSeat => "no_person_at_seat",
            CannotRemoveSelf => "cannot_remove_self",
            RemovedFromRoom => "removed_from_room",
            ColourTaken => "colour_taken",
            NotSeated => "not_seated",
            UpgradeRequired => "upgrade_required",
            RoomBusy => "room_busy",
            RateLimited(_) => "rate_limited",
            Unavailable => "service_unavailable",
            StorageUnavailable { .. } => "storage_unavailable",
            AnalysisBusy => "analysis_busy",
            MessageNotFound => "message_not_found",
            OwnMessage => "own_message",
            InvalidReport(_) => "invalid_report",
            ReportNotFound => "report_not_found",
            NotAMove(_) => "not_a_move",
            MethodNotAllowed => "method_not_allowed",
            Internal(_) => "internal_error",
        }
    }
}

/// Seconds a client is asked to wait (`Retry-After`) before trying again after `storage_unavailable`.
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
        let message = match &self {
            // Never leak internal details to clients; log them instead.
            AppError::Internal(detail) => {
                tracing::error!(%detail, "internal error");
                "Something went wrong on the server.".to_owned()
            }
            AppError::StorageUnavailable { detail, .. } => {
                tracing::error!(%detail, "storage unavailable");
                self.to_string()
            }
            other => other.to_string(),
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
        let wait = match self {
            AppError::RateLimited(secs) | AppError::TooManyAttempts(secs) => {
                Some(retry_after(&secs))
            }
            AppError::StorageUnavailable { .. } => Some(STORAGE_RETRY_AFTER_SECS),
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

/// The wait a refusal names, in its message and its `Retry-After` alike: whole seconds, at least one (a
/// wait under a second would read "try again in 0 s").
fn retry_after(secs: &u64) -> u64 {
    (*secs).max(1)
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

    /// One error of each kind. The `match` below names every variant without a wildcard, so a new
    /// variant does not compile until it is added there, next to the list it must join too.
    fn one_of_each() -> Vec<AppError> {
        use AppError::*;
        let all = vec![
            MalformedJson(String::new()),
            InvalidBody(String::new()),
            UnsupportedMediaType,
            PayloadTooLarge,
            UnreadableBody,
            RequestTimeout(30),
            InvalidSettings {
                reason: "players",
                message: String::new(),
            },
            InvalidDisplayName(String::new()),
            InvalidQuery(String::new()),
            InvalidSubprotocol(String::new()),
            ConflictingTokens,
            InvalidUsername(String::new()),
            WeakPassword(String::new()),
            UsernameTaken,
            AccountExists,
            WrongCredentials,
            PasswordRequired,
            WrongPassword,
            TooManyAttempts(1),
            NoAccount,
            DeviceNotFound,
            MissingToken,
            InvalidToken,
            SessionExpired(365),
            RoomNotFound,
            GameNotFound,
            AccountNotFound,
            PlayerNotFound,
            LocalPlayerNotFound,
            SeatNotFound,
            NotAdmin,
            GameNotFinished,
            NotFound,
            NotRoomOwner,
            WrongJoinCode,
            RoomFull,
            SeatTaken,
            RoomNotWaiting,
            SeatHasPerson,
            NoPersonAtSeat,
            CannotRemoveSelf,
            RemovedFromRoom,
            ColourTaken,
            NotSeated,
            UpgradeRequired,
            RoomBusy,
            RateLimited(1),
            Unavailable,
            StorageUnavailable {
                maybe_stored: false,
                detail: String::new(),
            },
            AnalysisBusy,
            MessageNotFound,
            OwnMessage,
            InvalidReport(String::new()),
            ReportNotFound,
            NotAMove(String::new()),
            MethodNotAllowed,
            Internal(String::new()),
        ];
        for err in &all {
            match err {
                MalformedJson(_)
                | InvalidBody(_)
                | UnsupportedMediaType
                | PayloadTooLarge
                | UnreadableBody
                | RequestTimeout(_)
                | InvalidSettings { .. }
                | InvalidDisplayName(_)
                | InvalidQuery(_)
                | InvalidSubprotocol(_)
                | ConflictingTokens
                | InvalidUsername(_)
                | WeakPassword(_)
                | UsernameTaken
                | AccountExists
                | WrongCredentials
                | PasswordRequired
                | WrongPassword
                | TooManyAttempts(_)
                | NoAccount
                | DeviceNotFound
                | MissingToken
                | InvalidToken
                | SessionExpired(_)
                | RoomNotFound
                | GameNotFound
                | AccountNotFound
                | PlayerNotFound
                | LocalPlayerNotFound
                | SeatNotFound
                | NotAdmin
                | GameNotFinished
                | NotFound
                | NotRoomOwner
                | WrongJoinCode
                | RoomFull
                | SeatTaken
                | RoomNotWaiting
                | SeatHasPerson
                | NoPersonAtSeat
                | CannotRemoveSelf
                | RemovedFromRoom
                | ColourTaken
                | NotSeated
                | UpgradeRequired
                | RoomBusy
                | RateLimited(_)
                | Unavailable
                | StorageUnavailable { .. }
                | AnalysisBusy
                | MessageNotFound
                | OwnMessage
                | InvalidReport(_)
                | ReportNotFound
                | NotAMove(_)
                | MethodNotAllowed
                | Internal(_) => {}
            }
        }
        all
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
        let status_of: std::collections::HashMap<&str, u16> = one_of_each()
            .iter()
            .map(|e| (e.code(), e.status().as_u16()))
            .chain([(TOO_MANY_CONNECTIONS, 429)])
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
    fn codes_lists_every_code_an_error_can_have_and_no_other() {
        let mut made: Vec<&str> = one_of_each().iter().map(AppError::code).collect();
        made.push(TOO_MANY_CONNECTIONS);
        made.sort_unstable();
        let before = made.len();
        made.dedup();
        assert_eq!(made.len(), before, "two variants share a code");
        let mut listed = AppError::CODES.to_vec();
        listed.sort_unstable();
        assert_eq!(listed, made, "AppError::CODES and AppError::code differ");
    }
}

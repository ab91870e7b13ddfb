//! Request extractors whose rejections are [`AppError`]s (so clients always get
//! the `{code, message}` shape, never axum's plain-text rejections).

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use axum::http::HeaderMap;

use crate::AppState;
use crate::auth;
use crate::db::{PlayerRow, now_ms};
use crate::error::AppError;

/// `axum::Json` with JSON-shaped rejections (`malformed_json`, `invalid_body`, …). Every body the API
/// takes is a JSON object: any other value (an array, a string, a number, `null`) is `invalid_body`, even
/// where serde would read it (an array for a struct's fields in order).
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        // Read as any JSON first, then as `T`: serde reports a value of the wrong type for some fields (a
        // number where a rule set's name goes) as a syntax error, and the body is valid JSON, only of the
        // wrong shape (422, not 400).
        match axum::Json::<serde_json::Value>::from_request(req, state).await {
            Ok(axum::Json(value)) if !value.is_object() => Err(AppError::InvalidBody(
                "The request body must be a JSON object ({…}).".to_owned(),
            )),
            Ok(axum::Json(value)) => serde_path_to_error::deserialize(value)
                .map(ApiJson)
                .map_err(|err| {
                    AppError::InvalidBody(format!(
                        "Failed to deserialize the JSON body into the target type: {err}"
                    ))
                }),
            Err(rejection) => Err(match rejection {
                JsonRejection::JsonSyntaxError(err) => AppError::MalformedJson(err.body_text()),
                JsonRejection::JsonDataError(err) => AppError::InvalidBody(err.body_text()),
                JsonRejection::MissingJsonContentType(_) => AppError::UnsupportedMediaType,
                other if other.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE => {
                    AppError::PayloadTooLarge
                }
                _ => AppError::UnreadableBody,
            }),
        }
    }
}

/// An optional JSON body: `None` for a request without a body (and without a `Content-Type`), else
/// [`ApiJson`] with its rejections (a body that is not JSON is refused, never taken for none).
#[derive(Debug, Clone, Default)]
pub struct OptionalJson<T>(pub Option<T>);

impl<S, T> FromRequest<S> for OptionalJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if req.headers().contains_key(CONTENT_TYPE) {
            return ApiJson::<T>::from_request(req, state)
                .await
                .map(|ApiJson(value)| OptionalJson(Some(value)));
        }
        let body = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|rejection| {
                if rejection.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                    AppError::PayloadTooLarge
                } else {
                    AppError::UnreadableBody
                }
            })?;
        if body.is_empty() {
            Ok(OptionalJson(None))
        } else {
            Err(AppError::UnsupportedMediaType)
        }
    }
}

/// `axum::extract::Path` with a JSON-shaped rejection: a segment that is not valid UTF-8 (or cannot be
/// read as the type asked) names nothing this server has, so it is `404 not_found` like any unknown path.
#[derive(Debug, Clone, Copy, Default)]
pub struct ApiPath<T>(pub T);

impl<S, T> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(ApiPath(value)),
            Err(_) => Err(AppError::NotFound),
        }
    }
}

/// The token of an `Authorization: Bearer <token>` header: `None` without the header, an
/// `invalid_token` error for any other kind of header or an empty token.
pub fn bearer(headers: &HeaderMap) -> Result<Option<&str>, AppError> {
    let Some(header) = headers.get(AUTHORIZATION) else {
        return Ok(None);
    };
    let value = header.to_str().map_err(|_| AppError::InvalidToken)?;
    value
        .strip_prefix("Bearer ")
        .or_else(|| value.strip_prefix("bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(Some)
        .ok_or(AppError::InvalidToken)
}

/// How often at most a token's last use is written down (ms): the list of an account's devices says
/// when each was last used to the hour, without a write to the database on every request.
pub const LAST_USED_EVERY_MS: i64 = 60 * 60 * 1000;

/// The player the token hashing to `token_hash` belongs to (`invalid_token` when none), REST and
/// WebSocket alike. Records that the token was used when the last use recorded is an hour old or more;
/// a failure to record it is logged and costs the request nothing. An account's device unused for longer
/// than `SESSION_IDLE_DAYS` is signed out now, if the hourly sweep has not done it yet
/// (`session_expired`).
pub async fn authenticate(state: &AppState, token_hash: &str) -> Result<PlayerRow, AppError> {
    let holder = state
        .db
        .player_by_token_hash(token_hash)
        .await?
        .ok_or(AppError::InvalidToken)?;
    let now = now_ms();
    if holder.has_account && holder.last_used_at < state.session_expiry.used_since(now) {
        state
            .db
            .revoke_token(token_hash, &auth::unusable_token_hash())
            .await?;
        metrics::counter!("parchis_devices_signed_out_idle_total").increment(1);
        tracing::info!(player = %holder.player.id, "an account's device unused for too long was signed out");
        return Err(AppError::SessionExpired(state.session_expiry.days));
    }
    if now - holder.last_used_at >= LAST_USED_EVERY_MS
        && let Err(err) = state.db.token_used(token_hash, now).await
    {
        tracing::warn!(%err, "a token's last use was not recorded");
    }
    Ok(holder.player)
}

/// The player identified by the request's `Authorization: Bearer <token>`.
#[derive(Debug, Clone)]
pub struct AuthPlayer {
    /// The authenticated player's id.
    pub id: String,
    /// Their display name, handy for broadcasts and logs.
    pub display_name: String,
    /// The hash of the token the request came with: signing out revokes that one token.
    pub token_hash: String,
}

impl FromRequestParts<AppState> for AuthPlayer {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let token = bearer(&parts.headers)?.ok_or(AppError::MissingToken)?;
        let token_hash = auth::hash_token(token);
        let player = authenticate(state, &token_hash).await?;
        Ok(AuthPlayer {
            id: player.id,
            display_name: player.display_name,
            token_hash,
        })
    }
}

/// `Option<AuthPlayer>`: `None` without an `Authorization` header, but a
/// present-and-wrong token is still refused (so clients notice).
impl axum::extract::OptionalFromRequestParts<AppState> for AuthPlayer {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Option<Self>, Self::Rejection> {
        if parts.headers.contains_key(AUTHORIZATION) {
            <AuthPlayer as FromRequestParts<AppState>>::from_request_parts(parts, state)
                .await
                .map(Some)
        } else {
            Ok(None)
        }
    }
}

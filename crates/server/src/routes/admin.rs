//! The host's moderation: `DELETE /api/admin/players/{id}` erases a player (an offensive name or chat),
//! exactly as they could erase themselves, and closes their open connections; `GET /api/admin/reports`
//! lists the chat messages players reported, and `DELETE /api/admin/reports/{room_id}/{seq}` dismisses
//! a message's reports. Only with the server's `ADMIN_TOKEN`; a server without one has no admin endpoint
//! at all.

use std::collections::HashMap;

use axum::Json;
use axum::extract::FromRequestParts;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::request::Parts;

use crate::AppState;
use crate::auth;
use crate::error::{AppError, ErrorBody};
use crate::extract::{ApiPath, bearer};
use crate::model::{ReportList, ReportedMessage};

/// A request that carries the server's admin token.
pub struct Admin;

impl FromRequestParts<AppState> for Admin {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        // No token configured: the endpoint does not exist, whatever the request says.
        let Some(expected) = state.config.admin_token() else {
            return Err(AppError::NotFound);
        };
        let given = bearer(&parts.headers)
            .map_err(|_| AppError::NotAdmin)?
            .ok_or(AppError::MissingToken)?;
        // Hashes compared, so the time taken says nothing about how much of the token was right.
        if auth::hash_token(given) == auth::hash_token(expected) {
            Ok(Admin)
        } else {
            Err(AppError::NotAdmin)
        }
    }
}

/// Erases the player with this id for good, as `DELETE /api/players/me` would, and closes their
/// connections.
#[utoipa::path(delete, path = "/api/admin/players/{id}", tag = "admin",
    params(("id" = String, Path, description = "The player's id (as seats and chat messages show it)")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Erased: shown as \"Deleted player\", messages emptied, every token and connection of theirs ended"),
        (status = 401, description = "No `Authorization` header (`missing_token`)", body = ErrorBody),
        (status = 403, description = "Not the admin token (`not_admin`)", body = ErrorBody),
        (status = 429, description = "Too many wrong admin tokens, or room lookups that found nothing, from this address lately (`rate_limited`, with `Retry-After`)", body = ErrorBody),
        (status = 404, description = "No such player (`player_not_found`), or no `ADMIN_TOKEN` on this server (`not_found`)", body = ErrorBody)))]
pub async fn erase_player(
    _: Admin,
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
) -> Result<StatusCode, AppError> {
    // Not an id at all (a NUL, which PostgreSQL refuses, or too long): no such player.
    if !auth::plausible_id(&id) || state.db.player(&id).await?.is_none() {
        return Err(AppError::PlayerNotFound);
    }
    tracing::info!(player = %id, "erased by the host");
    super::players::erase(&state, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The reported chat messages still standing, most recently reported first, with how many players
/// reported each and why.
#[utoipa::path(get, path = "/api/admin/reports", tag = "admin",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Reported messages", body = ReportList),
        (status = 401, description = "No `Authorization` header (`missing_token`)", body = ErrorBody),
        (status = 403, description = "Not the admin token (`not_admin`)", body = ErrorBody),
        (status = 429, description = "Too many wrong admin tokens, or room lookups that found nothing, from this address lately (`rate_limited`, with `Retry-After`)", body = ErrorBody),
        (status = 404, description = "No `ADMIN_TOKEN` on this server (`not_found`)", body = ErrorBody)))]
pub async fn list_reports(
    _: Admin,
    State(state): State<AppState>,
) -> Result<Json<ReportList>, AppError> {
    let mut messages: Vec<ReportedMessage> = Vec::new();
    // Where each message is in `messages`.
    let mut index: HashMap<(String, i64), usize> = HashMap::new();
    // Newest report first: a message's first row is its latest report.
    for row in state.db.chat_reports().await? {
        let k = *index
            .entry((row.room_id.clone(), row.seq))
            .or_insert_with(|| {
                messages.push(ReportedMessage {
                    room_id: row.room_id,
                    seq: row.seq,
                    text: row.text,
                    player_id: row.player_id,
                    display_name: row.display_name,
                    reports: 0,
                    reasons: Vec::new(),
                    last_reported_at: row.at,
                });
                messages.len() - 1
            });
        let message = &mut messages[k];
        message.reports += 1;
        if !row.reason.is_empty() {
            message.reasons.push(row.reason);
        }
    }
    Ok(Json(ReportList { messages }))
}

/// Dismisses the reports of a message the host finds acceptable.
#[utoipa::path(delete, path = "/api/admin/reports/{room_id}/{seq}", tag = "admin",
    params(("room_id" = String, Path, description = "Room id"), ("seq" = i64, Path, description = "The message's number in the chat")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Its reports are gone"),
        (status = 401, description = "No `Authorization` header (`missing_token`)", body = ErrorBody),
        (status = 403, description = "Not the admin token (`not_admin`)", body = ErrorBody),
        (status = 429, description = "Too many wrong admin tokens, or room lookups that found nothing, from this address lately (`rate_limited`, with `Retry-After`)", body = ErrorBody),
        (status = 404, description = "No report of that message (`report_not_found`), or no `ADMIN_TOKEN` (`not_found`)", body = ErrorBody)))]
pub async fn dismiss_reports(
    _: Admin,
    State(state): State<AppState>,
    ApiPath((room_id, seq)): ApiPath<(String, String)>,
) -> Result<StatusCode, AppError> {
    let seq: i64 = seq.parse().map_err(|_| AppError::ReportNotFound)?;
    if !auth::plausible_id(&room_id) {
        return Err(AppError::ReportNotFound);
    }
    if state.db.dismiss_reports(&room_id, seq).await? {
        tracing::info!(room = %room_id, seq, "reports dismissed by the host");
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(AppError::ReportNotFound)
    }
}

//! The host's moderation: `DELETE /api/admin/players/{id}` erases a player (an offensive name or chat),
//! exactly as they could erase themselves, and closes their open connections. Only with the server's
//! `ADMIN_TOKEN`; a server without one has no admin endpoint at all.

use axum::extract::FromRequestParts;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::http::request::Parts;

use crate::AppState;
use crate::auth;
use crate::error::{AppError, ErrorBody};
use crate::extract::bearer;

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
        (status = 404, description = "No such player (`player_not_found`), or no `ADMIN_TOKEN` on this server (`not_found`)", body = ErrorBody)))]
pub async fn erase_player(
    _: Admin,
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<StatusCode, AppError> {
    if state.db.player(&id).await?.is_none() {
        return Err(AppError::PlayerNotFound);
    }
    tracing::info!(player = %id, "erased by the host");
    super::players::erase(&state, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

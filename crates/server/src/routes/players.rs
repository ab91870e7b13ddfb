//! `POST /api/players`: anonymous registration with a bearer token.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;

use crate::AppState;
use crate::auth;
use crate::db::{PlayerRow, now_ms};
use crate::error::{AppError, ErrorBody};
use crate::extract::ApiJson;
use crate::model::{CreatePlayerRequest, PlayerCreated};

/// Longest display name, in characters.
const MAX_NAME_CHARS: usize = 32;

/// Creates a player and returns its secret token (shown only this once).
#[utoipa::path(post, path = "/api/players", tag = "players",
    request_body = CreatePlayerRequest,
    responses(
        (status = 201, description = "Player created", body = PlayerCreated),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 422, description = "Invalid display name", body = ErrorBody)))]
pub async fn create_player(
    State(state): State<AppState>,
    ApiJson(req): ApiJson<CreatePlayerRequest>,
) -> Result<(StatusCode, Json<PlayerCreated>), AppError> {
    let display_name = req.display_name.trim().to_owned();
    let chars = display_name.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(AppError::InvalidDisplayName(format!(
            "The display name must have 1 to {MAX_NAME_CHARS} characters."
        )));
    }
    if display_name.chars().any(char::is_control) {
        return Err(AppError::InvalidDisplayName(
            "The display name must not contain control characters.".into(),
        ));
    }
    let token = auth::new_token();
    let player = PlayerRow {
        id: auth::new_id(),
        display_name,
        created_at: now_ms(),
    };
    state
        .db
        .create_player(&player, &auth::hash_token(&token))
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(PlayerCreated {
            id: player.id,
            display_name: player.display_name,
            token,
        }),
    ))
}

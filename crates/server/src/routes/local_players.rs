//! Players on one device (pass and play): a seated player seats people who have no player of their own
//! at the same phone or tablet, and acts for their seats (PROTOCOL.md, "Players on one device").

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::AppState;
use crate::error::{AppError, ErrorBody};
use crate::extract::{ApiJson, ApiPath, AuthPlayer};
use crate::model::RoomView;
use crate::rooms::RoomCommand;
use crate::routes::players::display_name;
use crate::routes::rooms::{resolve, room_view};

/// Body of `POST /api/rooms/{id}/local-players`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct AddLocalPlayerRequest {
    /// The name shown for the seat: 1 to 32 characters, as a display name.
    #[schema(example = "Abuela")]
    pub display_name: String,
    /// The seat (from 0) to give them, when the player chose it; left out: the first free seat.
    #[schema(example = 2)]
    pub seat: Option<i64>,
}

/// Seats a person who plays at your device: the seat asked for, or else the first free seat, shown under
/// the name given, played by you (your connection rolls and moves for it). Not rated and in nobody's
/// record.
#[utoipa::path(post, path = "/api/rooms/{id}/local-players", tag = "rooms",
    params(("id" = String, Path, description = "Room id or join code")),
    request_body = AddLocalPlayerRequest,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Seated; the room as it is now", body = RoomView),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "You are not seated here, the room is full, the seat asked for is taken, or the game started", body = ErrorBody),
        (status = 422, description = "Not a display name, or no such seat", body = ErrorBody)))]
pub async fn add_local_player(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    player: AuthPlayer,
    ApiJson(req): ApiJson<AddLocalPlayerRequest>,
) -> Result<(StatusCode, Json<RoomView>), AppError> {
    let name = display_name(&req.display_name)?;
    let (room_id, _) = resolve(&state, &id).await?;
    let command = RoomCommand::AddLocal {
        player_id: player.id.clone(),
        name,
        seat: req.seat,
    };
    let snapshot = state.rooms.send(&room_id, command).await?;
    Ok((
        StatusCode::CREATED,
        Json(room_view(snapshot, Some(&player.id), false)),
    ))
}

/// Frees a seat played at your device, while the room is waiting.
#[utoipa::path(delete, path = "/api/rooms/{id}/local-players/{seat}", tag = "rooms",
    params(("id" = String, Path, description = "Room id or join code"),
           ("seat" = i64, Path, description = "The seat, from 0")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Seat freed; the room as it is now", body = RoomView),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 404, description = "No such room, or no one plays at your device at that seat", body = ErrorBody),
        (status = 409, description = "The game started", body = ErrorBody)))]
pub async fn remove_local_player(
    State(state): State<AppState>,
    ApiPath((id, seat)): ApiPath<(String, String)>,
    player: AuthPlayer,
) -> Result<Json<RoomView>, AppError> {
    // Not a number: no one sits there (rather than the framework's plain-text rejection).
    let seat: i64 = seat.parse().map_err(|_| AppError::LocalPlayerNotFound)?;
    let (room_id, _) = resolve(&state, &id).await?;
    let command = RoomCommand::RemoveLocal {
        player_id: player.id.clone(),
        seat,
    };
    let snapshot = state.rooms.send(&room_id, command).await?;
    Ok(Json(room_view(snapshot, Some(&player.id), false)))
}

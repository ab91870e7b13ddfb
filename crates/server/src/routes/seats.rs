//! The owner manages the seats of a waiting room: a bot in an empty seat, another level for a bot, a bot
//! taken out, a person removed (PROTOCOL.md, "Seats of a waiting room"). The room's task decides.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Deserializer};
use utoipa::ToSchema;

use crate::AppState;
use crate::error::{AppError, ErrorBody};
use crate::extract::{ApiJson, ApiPath, AuthPlayer};
use crate::model::RoomView;
use crate::rooms::RoomCommand;
use crate::routes::rooms::{resolve, room_view};
use crate::settings::BotLevel;

/// Body of `PUT /api/rooms/{id}/seats/{seat}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetSeatRequest {
    /// The bot's level (`random`, `greedy`, `expert`; `easy`, `medium`, `hard` as aliases), or `null` to
    /// take the bot out and leave the seat free for a person. Required.
    #[serde(deserialize_with = "required")]
    #[schema(value_type = Option<BotLevel>, required = true, example = "expert")]
    pub bot: Option<Option<BotLevel>>,
}

/// Tells an explicit `null` (`Some(None)`) from a missing field (`None`, refused).
fn required<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<BotLevel>>, D::Error> {
    Option::<BotLevel>::deserialize(d).map(Some)
}

/// The seat of the path: not a number is no such seat (rather than the framework's plain-text rejection).
fn seat_number(seat: &str) -> Result<i64, AppError> {
    seat.parse().map_err(|_| AppError::SeatNotFound)
}

/// Puts a bot in an empty seat, changes a bot's level, or (`"bot": null`) takes the bot out so that a
/// person can sit there: the room's owner only, while the room waits. Every client sees the change.
#[utoipa::path(put, path = "/api/rooms/{id}/seats/{seat}", tag = "rooms",
    params(("id" = String, Path, description = "Room id or join code"),
           ("seat" = i64, Path, description = "The seat, from 0")),
    request_body = SetSeatRequest,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The seat is as asked; the room as it is now", body = RoomView),
        (status = 400, description = "Malformed JSON (`malformed_json`)", body = ErrorBody),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 403, description = "Not the owner (`not_room_owner`)", body = ErrorBody),
        (status = 404, description = "No such room (`room_not_found`), or no such seat (`seat_not_found`)", body = ErrorBody),
        (status = 409, description = "The game started (`room_not_waiting`), or a person sits there (`seat_has_person`)", body = ErrorBody),
        (status = 422, description = "No `bot`, or not a bot level (`invalid_body`)", body = ErrorBody)))]
pub async fn set_seat(
    State(state): State<AppState>,
    ApiPath((id, seat)): ApiPath<(String, String)>,
    player: AuthPlayer,
    ApiJson(req): ApiJson<SetSeatRequest>,
) -> Result<Json<RoomView>, AppError> {
    let Some(bot) = req.bot else {
        return Err(AppError::InvalidBody(
            "bot: give a bot level, or null to empty the seat.".into(),
        ));
    };
    let seat = seat_number(&seat)?;
    let (room_id, _) = resolve(&state, &id).await?;
    let command = RoomCommand::SetSeatBot {
        player_id: player.id.clone(),
        seat,
        bot,
    };
    let snapshot = state.rooms.send(&room_id, command).await?;
    Ok(Json(room_view(snapshot, Some(&player.id), false)))
}

/// Removes the person at a seat before the game starts: the room's owner only. The seat (with those played
/// at that person's device) is free again, and they cannot take a seat in this room again
/// (`403 removed_from_room`); quick match does not seat them there either. Their open pages stay, watching,
/// and are told they were removed.
#[utoipa::path(delete, path = "/api/rooms/{id}/seats/{seat}", tag = "rooms",
    params(("id" = String, Path, description = "Room id or join code"),
           ("seat" = i64, Path, description = "The seat, from 0")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Removed; the seat is free"),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 403, description = "Not the owner (`not_room_owner`)", body = ErrorBody),
        (status = 404, description = "No such room (`room_not_found`), or no such seat (`seat_not_found`)", body = ErrorBody),
        (status = 409, description = "The game started (`room_not_waiting`), nobody or a bot sits there (`no_person_at_seat`), or it is your own seat (`cannot_remove_self`: leave instead)", body = ErrorBody)))]
pub async fn remove_player(
    State(state): State<AppState>,
    ApiPath((id, seat)): ApiPath<(String, String)>,
    player: AuthPlayer,
) -> Result<StatusCode, AppError> {
    let seat = seat_number(&seat)?;
    let (room_id, _) = resolve(&state, &id).await?;
    let command = RoomCommand::RemovePlayer {
        player_id: player.id.clone(),
        seat,
    };
    state.rooms.send(&room_id, command).await?;
    Ok(StatusCode::NO_CONTENT)
}

//! `POST /api/players`: anonymous registration with a bearer token; `GET /api/players/me/rooms`:
//! the rooms a player sits in.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;

use crate::AppState;
use crate::auth;
use crate::db::{PlayerRow, now_ms};
use crate::error::{AppError, ErrorBody};
use crate::extract::{ApiJson, AuthPlayer};
use crate::model::{CreatePlayerRequest, MyGame, MyRoom, MyRooms, PlayerCreated, RoomStatus};

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

/// How many rooms a player's own list shows.
const MY_ROOMS_LIMIT: i64 = 30;

/// The rooms you sit in, newest first: games to resume, rooms waiting to start, results.
#[utoipa::path(get, path = "/api/players/me/rooms", tag = "players",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Your rooms, newest first (at most 30)", body = MyRooms),
        (status = 401, description = "Missing or invalid token", body = ErrorBody)))]
pub async fn my_rooms(
    State(state): State<AppState>,
    player: AuthPlayer,
) -> Result<Json<MyRooms>, AppError> {
    let rows = state.db.player_rooms(&player.id, MY_ROOMS_LIMIT).await?;
    let rooms = rows
        .into_iter()
        .map(|row| {
            let seat = u8::try_from(row.seat).unwrap_or(u8::MAX);
            let game = match (row.game_id, row.started_at) {
                (Some(id), Some(started_at)) => Some(MyGame {
                    id,
                    started_at,
                    finished_at: row.finished_at,
                    won: row.result.as_ref().map(|r| won(&r.0, row.seat)),
                }),
                _ => None,
            };
            MyRoom {
                room_id: row.room_id,
                status: RoomStatus::parse(&row.status),
                settings: row.settings.0,
                seat,
                created_at: row.created_at,
                game,
            }
        })
        .collect();
    Ok(Json(MyRooms { rooms }))
}

/// Whether `seat` is among a stored result's `winner_seats`.
fn won(result: &serde_json::Value, seat: i64) -> bool {
    result["winner_seats"]
        .as_array()
        .is_some_and(|seats| seats.iter().any(|s| s.as_i64() == Some(seat)))
}

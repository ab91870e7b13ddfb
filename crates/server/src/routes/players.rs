//! `POST /api/players`: anonymous registration with a bearer token; `GET`/`PATCH`/`DELETE
//! /api/players/me`: who you are, another display name for the same player, erasing yourself; `GET
//! /api/players/me/rooms`: the rooms a player sits in.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};

use crate::AppState;
use crate::auth;
use crate::db::{PlayerRow, now_ms};
use crate::error::{AppError, ErrorBody};
use crate::extract::{ApiJson, AuthPlayer, OptionalJson};
use crate::model::{
    CreatePlayerRequest, EraseRequest, MyGame, MyRoom, MyRooms, PlayerCreated, PlayerView,
    RenamePlayerRequest, RoomStatus,
};
use crate::rooms::RoomCommand;
use crate::rooms::chat;

/// Longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 32;

/// Creates a player and returns its secret token (shown only this once).
#[utoipa::path(post, path = "/api/players", tag = "players",
    request_body = CreatePlayerRequest,
    responses(
        (status = 201, description = "Player created", body = PlayerCreated),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 422, description = "Invalid display name", body = ErrorBody)))]
pub async fn create_player(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<CreatePlayerRequest>,
) -> Result<(StatusCode, Json<PlayerCreated>), AppError> {
    let display_name = display_name(&req.display_name)?;
    let token = auth::new_token();
    let player = PlayerRow {
        id: auth::new_id(),
        display_name,
        created_at: now_ms(),
    };
    state
        .db
        .create_player(
            &player,
            &auth::hash_token(&token),
            crate::device::user_agent(&headers).as_deref(),
        )
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

/// A display name as given, trimmed, without direction overrides and invisible spaces (as chat drops
/// them: a name shown beside a message must not pass for another's), or why it cannot be one.
pub(crate) fn display_name(given: &str) -> Result<String, AppError> {
    let kept: String = given
        .chars()
        .filter(|&c| !chat::is_direction_control(c) && !chat::is_invisible_space(c))
        .collect();
    let name = kept.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(AppError::InvalidDisplayName(format!(
            "The display name must have 1 to {MAX_NAME_CHARS} characters."
        )));
    }
    if name.chars().all(chat::shows_nothing) {
        return Err(AppError::InvalidDisplayName(
            "The display name needs something visible.".into(),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(AppError::InvalidDisplayName(
            "The display name must not contain control characters.".into(),
        ));
    }
    Ok(name.to_owned())
}

/// Who the token belongs to.
#[utoipa::path(get, path = "/api/players/me", tag = "players",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "You", body = PlayerView),
        (status = 401, description = "Missing or invalid token", body = ErrorBody)))]
pub async fn me(
    State(state): State<AppState>,
    player: AuthPlayer,
) -> Result<Json<PlayerView>, AppError> {
    let account = state.db.account_of_player(&player.id).await?;
    Ok(Json(PlayerView {
        id: player.id,
        display_name: player.display_name,
        username: account.map(|a| a.username),
    }))
}

/// Another display name for the same player: the token, the seats and the games stay yours. Rooms open
/// now show it at once; the others when they are next opened.
#[utoipa::path(patch, path = "/api/players/me", tag = "players",
    security(("bearer" = [])),
    request_body = RenamePlayerRequest,
    responses(
        (status = 200, description = "Renamed", body = PlayerView),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 422, description = "Invalid display name", body = ErrorBody)))]
pub async fn rename_me(
    State(state): State<AppState>,
    player: AuthPlayer,
    ApiJson(req): ApiJson<RenamePlayerRequest>,
) -> Result<Json<PlayerView>, AppError> {
    let display_name = display_name(&req.display_name)?;
    if !state.db.rename_player(&player.id, &display_name).await? {
        // Deleted between the token check and now: as if the token were unknown.
        return Err(AppError::InvalidToken);
    }
    tell_open_rooms(&state, &player.id, false, || RoomCommand::Rename {
        player_id: player.id.clone(),
        display_name: display_name.clone(),
    })
    .await?;
    let account = state.db.account_of_player(&player.id).await?;
    Ok(Json(PlayerView {
        id: player.id,
        display_name,
        username: account.map(|a| a.username),
    }))
}

/// The name an erased player's seats and messages show.
pub const ERASED_NAME: &str = "Deleted player";

/// Erases you for good: your name (in your seats and chat messages, whose text goes), your account
/// (its username is free again) and every token, on every device. The games you played stay whole,
/// played by "Deleted player". A player with an account must give its current password (a token alone,
/// left on an unlocked device or leaked, must not destroy an account); a guest has none, and needs no
/// body.
#[utoipa::path(delete, path = "/api/players/me", tag = "players",
    security(("bearer" = [])),
    request_body(content = Option<EraseRequest>,
        description = "`{\"password\": \"...\"}`: the account's current password. Needed for a player with an account; a guest may send no body at all."),
    responses(
        (status = 204, description = "Erased: no token of this player works any more"),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 403, description = "Not the account's password (`wrong_password`); nothing was erased", body = ErrorBody),
        (status = 415, description = "A body that is not `application/json`", body = ErrorBody),
        (status = 422, description = "A player with an account sent no password (`password_required`)", body = ErrorBody),
        (status = 429, description = "Too many wrong passwords from this device lately (`too_many_attempts`, with `Retry-After`), counted with those of password changes; each also counts against signing in as the username", body = ErrorBody)))]
pub async fn erase_me(
    State(state): State<AppState>,
    player: AuthPlayer,
    OptionalJson(req): OptionalJson<EraseRequest>,
) -> Result<StatusCode, AppError> {
    if let Some(account) = state.db.account_of_player(&player.id).await? {
        let given = req
            .and_then(|r| r.password)
            .filter(|p| !p.is_empty())
            .ok_or(AppError::PasswordRequired)?;
        if !crate::routes::accounts::current_password_is(&state, &player, account, given).await? {
            return Err(AppError::WrongPassword);
        }
    }
    erase(&state, &player.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Erases `player_id` for good (stored in one transaction), then shows it in the rooms open now and closes
/// the player's sockets there.
pub(crate) async fn erase(state: &AppState, player_id: &str) -> Result<(), AppError> {
    let unusable = auth::unusable_token_hash();
    state
        .db
        .erase_player(player_id, ERASED_NAME, &unusable)
        .await?;
    tell_open_rooms(state, player_id, true, || RoomCommand::Erase {
        player_id: player_id.to_owned(),
        display_name: ERASED_NAME.to_owned(),
    })
    .await
}

/// Sends `command()` to the rooms open on this node that `player_id` sits in (finished ones too when
/// `finished`) or has a socket open in (watching included: a revoked token must lose every socket); a
/// stored room reads the change from storage when it is loaded, so none is woken for it.
pub(crate) async fn tell_open_rooms(
    state: &AppState,
    player_id: &str,
    finished: bool,
    command: impl Fn() -> RoomCommand,
) -> Result<(), AppError> {
    let mut rooms: Vec<String> = state
        .db
        .player_rooms(player_id, MY_ROOMS_LIMIT)
        .await?
        .into_iter()
        .filter(|room| finished || room.status != RoomStatus::Finished)
        .map(|room| room.room_id)
        .collect();
    for room in state.rooms.connected_rooms_everywhere(player_id).await {
        if !rooms.contains(&room) {
            rooms.push(room);
        }
    }
    for room in rooms {
        if let Ok(Some(_)) = state.rooms.lookup_live(&room).await
            && let Err(err) = state.rooms.send(&room, command()).await
        {
            tracing::warn!(%room, %err, "a player's change was not shown in the room");
        }
    }
    Ok(())
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
                status: row.status,
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

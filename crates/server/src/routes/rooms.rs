//! Room lobby endpoints: create, list, look up, join, leave, start, rematch (quick match: see
//! [`super::quick_match`]).

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;

use crate::AppState;
use crate::auth;
use crate::db::{DbError, NewRoom, RoomRow, SeatRow, now_ms};
use crate::error::{AppError, ErrorBody};
use crate::extract::{ApiJson, ApiPath, AuthPlayer};
use crate::model::{JoinRoomRequest, Rating, RoomList, RoomStatus, RoomView};
pub(crate) use crate::rooms::access::is_insider;
use crate::rooms::access::{self, check_private_access};
use crate::rooms::{RoomCommand, RoomSnapshot};
use crate::settings::{Colour, CreateRoomRequest, RoomSettings, validate_settings};
use serde::Deserialize;
use utoipa::IntoParams;

/// How many public rooms `GET /api/rooms` returns at most.
const LIST_LIMIT: i64 = 100;
/// Attempts at drawing an unused join code.
const JOIN_CODE_ATTEMPTS: usize = 8;

/// Turns a snapshot into the client view; the join code of a private room is
/// shown only to its owner, its seated players, or whoever used the code.
pub fn room_view(snapshot: RoomSnapshot, viewer: Option<&str>, code_known: bool) -> RoomView {
    let RoomSnapshot {
        room,
        seats,
        ratings,
        game_id,
        players_connected: _,
    } = snapshot;
    let insider = is_insider(viewer, &room.owner_id, &seats);
    let settings = room.settings.0;
    RoomView {
        join_code: (settings.public || code_known || insider).then_some(room.join_code),
        id: room.id,
        owner_id: room.owner_id,
        status: room.status,
        settings,
        seats: seats
            .iter()
            .enumerate()
            .map(|(i, s)| s.view(ratings.get(i).copied().flatten()))
            .collect(),
        created_at: room.created_at,
        game_id,
    }
}

/// Inserts `new` under a fresh join code (drawing again on a collision). With `rematch_of`, it is
/// inserted as that room's rematch, unless the room has one already: then that one's id is returned and
/// nothing is inserted.
async fn insert_with_join_code(
    state: &AppState,
    new: &mut NewRoom,
    rematch_of: Option<&str>,
) -> Result<Option<String>, AppError> {
    for _ in 0..JOIN_CODE_ATTEMPTS {
        if let Some(of) = rematch_of
            && let Some(existing) = state.db.rematch_of(of).await?
        {
            return Ok(Some(existing));
        }
        new.room.join_code = auth::new_join_code();
        let inserted = match rematch_of {
            Some(of) => state.db.create_rematch(of, new).await,
            None => state.db.create_room(new).await,
        };
        match inserted {
            Ok(()) => return Ok(None),
            // A join code taken, or (for a rematch) someone else's rematch inserted first: look again.
            Err(DbError::UniqueViolation) => continue,
            Err(err) => return Err(err.into()),
        }
    }
    Err(AppError::Internal("no free join code found".into()))
}

/// Resolves a path segment that may be a room id or a join code ([`access::resolve`]).
pub(crate) async fn resolve(
    state: &AppState,
    id_or_code: &str,
) -> Result<(String, bool), AppError> {
    access::resolve(&state.db, id_or_code).await
}

/// Creates a room owned by the caller, who takes the first human seat.
#[utoipa::path(post, path = "/api/rooms", tag = "rooms",
    request_body = CreateRoomRequest,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Room created", body = RoomView),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 422, description = "Invalid settings", body = ErrorBody)))]
pub async fn create_room(
    State(state): State<AppState>,
    player: AuthPlayer,
    ApiJson(req): ApiJson<CreateRoomRequest>,
) -> Result<(StatusCode, Json<RoomView>), AppError> {
    let settings = validate_settings(req, state.config.turn_timeout_secs)?;
    let snapshot = create_owned_room(&state, &player, settings).await?;
    Ok((
        StatusCode::CREATED,
        Json(room_view(snapshot, Some(&player.id), true)),
    ))
}

/// Stores a new waiting room with validated `settings`, owned by `player`, who takes the first human seat.
pub(crate) async fn create_owned_room(
    state: &AppState,
    player: &AuthPlayer,
    settings: RoomSettings,
) -> Result<RoomSnapshot, AppError> {
    // The owner's rating is read before the room is stored: once it is, nothing may fail (an error
    // answered then would leave a room its caller does not know of, and a retry would make a second).
    let rating = state
        .db
        .player_rating(&player.id, settings.rules.name())
        .await?
        .map(|r| Rating::of(r.mu, r.games));
    let room_id = auth::new_id();
    let owner_seat = settings.bots.iter().position(Option::is_none);
    let ratings = (0..settings.bots.len())
        .map(|i| rating.filter(|_| Some(i) == owner_seat))
        .collect();
    let seats: Vec<SeatRow> = settings
        .bots
        .iter()
        .enumerate()
        .map(|(i, bot)| SeatRow {
            seat: i64::try_from(i).unwrap_or(i64::MAX),
            player_id: (Some(i) == owner_seat).then(|| player.id.clone()),
            display_name: (Some(i) == owner_seat).then(|| player.display_name.clone()),
            bot_level: *bot,
            preferred_colour: None,
            local_of: None,
        })
        .collect();
    let mut new = NewRoom {
        room: RoomRow {
            id: room_id.clone(),
            join_code: String::new(),
            owner_id: player.id.clone(),
            settings: sqlx::types::Json(settings),
            status: RoomStatus::Waiting,
            created_at: now_ms(),
        },
        seats,
    };
    insert_with_join_code(state, &mut new, None).await?;
    Ok(stored_room(new, ratings))
}

/// The room just stored, as its task would show it once started (the task starts when the room is
/// first used). Storing is the one step that creates a room, and it is answered from what was stored
/// rather than by asking the room's task: at shutdown, or with the task busy, that question would be
/// answered `503 room_busy` about a room that exists all the same, and the caller's retry would make a
/// second (issue 35).
fn stored_room(new: NewRoom, ratings: Vec<Option<Rating>>) -> RoomSnapshot {
    RoomSnapshot {
        room: new.room,
        seats: new.seats,
        ratings,
        game_id: None,
        players_connected: 0,
    }
}

/// The newest public rooms in `status` that a seated player has open right now (a realtime
/// connection), at most `max`, from the `scan` newest candidates; newest first.
///
/// Only rooms live on this node can have someone connected, so stored rooms are never loaded for this.
pub(crate) async fn public_rooms_someone_is_in(
    state: &AppState,
    status: RoomStatus,
    scan: i64,
    max: usize,
) -> Result<Vec<RoomSnapshot>, AppError> {
    let ids = state.db.public_room_ids(status, scan).await?;
    let mut rooms = Vec::new();
    for id in ids {
        // A room too busy to answer is left out rather than failing the whole search.
        let live = match state.rooms.lookup_live(&id).await {
            Ok(live) => live,
            Err(err) => {
                tracing::warn!(room = %id, %err, "left out of the public rooms");
                None
            }
        };
        // The stored status may be a step behind the room's task: the task has the last word.
        if let Some(snapshot) = live
            && snapshot.players_connected > 0
            && snapshot.room.status == status
        {
            rooms.push(snapshot);
            if rooms.len() == max {
                break;
            }
        }
    }
    Ok(rooms)
}

/// Query of `GET /api/rooms`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListRoomsQuery {
    /// `waiting` (default): rooms to join; `playing`: games being played, to watch.
    #[param(inline)]
    status: Option<ListedStatus>,
}

/// The rooms `GET /api/rooms` can list (finished ones are found through their players).
#[derive(Debug, Clone, Copy, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
enum ListedStatus {
    Waiting,
    Playing,
}

/// Public rooms in which one of the seated players is present now: by default those waiting for
/// players (oldest first), with `status=playing` the games being played (newest first), to watch.
///
/// A room is listed while at least one of its seated players has the room open (a realtime
/// connection): rooms whose players all went away stay joinable by link or code, but do not crowd the
/// lobby out (they used to accumulate there and hide the new ones), and a game nobody is at any more
/// is not offered to watch.
#[utoipa::path(get, path = "/api/rooms", tag = "rooms",
    params(ListRoomsQuery),
    responses(
        (status = 200, description = "Public rooms with a player present: waiting ones oldest first, games being played newest first", body = RoomList),
        (status = 422, description = "An unknown `status` (`invalid_query`)", body = ErrorBody)))]
pub async fn list_rooms(
    State(state): State<AppState>,
    query: Result<Query<ListRoomsQuery>, QueryRejection>,
) -> Result<Json<RoomList>, AppError> {
    let Query(query) = query.map_err(|r| AppError::InvalidQuery(r.body_text()))?;
    let status = match query.status.unwrap_or(ListedStatus::Waiting) {
        ListedStatus::Waiting => RoomStatus::Waiting,
        ListedStatus::Playing => RoomStatus::Playing,
    };
    // The newest candidates: a room someone is in now was opened recently or kept open since.
    let max = usize::try_from(LIST_LIMIT).unwrap_or(usize::MAX);
    let live =
        public_rooms_someone_is_in(&state, status, LIST_LIMIT.saturating_mul(4), max).await?;
    let mut rooms: Vec<RoomView> = live
        .into_iter()
        .map(|snapshot| room_view(snapshot, None, false))
        .collect();
    if status == RoomStatus::Waiting {
        // Whoever has waited longest first.
        rooms.reverse();
    }
    Ok(Json(RoomList { rooms }))
}

/// One room, by id or by join code. A private room needs its join code, or the token of its owner or
/// of a seated player (`Authorization: Bearer`); lookups that find no room are limited per address.
#[utoipa::path(get, path = "/api/rooms/{id_or_code}", tag = "rooms",
    params(("id_or_code" = String, Path, description = "Room id or 6-character join code")),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The room", body = RoomView),
        (status = 401, description = "Invalid token", body = ErrorBody),
        (status = 403, description = "A private room by its bare id, not finished, and the caller is neither its owner nor seated (`wrong_join_code`)", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 429, description = "Too many lookups that found no room from this address (`rate_limited`, with `Retry-After`)", body = ErrorBody)))]
pub async fn get_room(
    State(state): State<AppState>,
    ApiPath(id_or_code): ApiPath<String>,
    viewer: Option<AuthPlayer>,
) -> Result<Json<RoomView>, AppError> {
    let (id, by_code) = resolve(&state, &id_or_code).await?;
    let snapshot = state
        .rooms
        .lookup(&id)
        .await?
        .ok_or(AppError::RoomNotFound)?;
    let viewer = viewer.map(|v| v.id);
    // A finished game's record is public (§8): its room is shown too, without its join code, so that a
    // link kept from it leads to the replay. Its chat (the WebSocket) stays its members'.
    if snapshot.room.status != RoomStatus::Finished {
        check_private_access(&snapshot, viewer.as_deref(), by_code)?;
    }
    Ok(Json(room_view(snapshot, viewer.as_deref(), by_code)))
}

/// Takes a free seat (private rooms need the join code).
#[utoipa::path(post, path = "/api/rooms/{id}/join", tag = "rooms",
    params(("id" = String, Path, description = "Room id or join code")),
    request_body = JoinRoomRequest,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Seated", body = RoomView),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 403, description = "Private room, wrong or missing code (`wrong_join_code`), or the owner removed you from this room (`removed_from_room`)", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "Full, started, or colour taken", body = ErrorBody)))]
pub async fn join_room(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    player: AuthPlayer,
    ApiJson(req): ApiJson<JoinRoomRequest>,
) -> Result<Json<RoomView>, AppError> {
    let (room_id, by_code) = resolve(&state, &id).await?;
    let code = if by_code {
        Some(id.trim().to_ascii_uppercase())
    } else {
        req.code
    };
    let snapshot = seat_player(&state, &room_id, &player, req.preferred_colour, code).await?;
    Ok(Json(room_view(snapshot, Some(&player.id), false)))
}

/// Has the room's task seat `player` (it decides, so two players racing for the last seat are served
/// one after the other).
pub(crate) async fn seat_player(
    state: &AppState,
    room_id: &str,
    player: &AuthPlayer,
    preferred_colour: Option<Colour>,
    code: Option<String>,
) -> Result<RoomSnapshot, AppError> {
    let command = RoomCommand::Join {
        player_id: player.id.clone(),
        display_name: player.display_name.clone(),
        preferred_colour,
        code,
    };
    state.rooms.send(room_id, command).await
}

/// Gives up your seat: freed while the room is waiting; while its game runs, a bot plays it to the end
/// and the game counts as a loss for you (as the WebSocket `leave` does).
#[utoipa::path(post, path = "/api/rooms/{id}/leave", tag = "rooms",
    params(("id" = String, Path, description = "Room id or join code")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Seat freed, or handed to a bot", body = RoomView),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "Not seated, or the game is over", body = ErrorBody)))]
pub async fn leave_room(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    player: AuthPlayer,
) -> Result<Json<RoomView>, AppError> {
    let (room_id, _) = resolve(&state, &id).await?;
    let command = RoomCommand::Leave {
        player_id: player.id.clone(),
    };
    let snapshot = state.rooms.send(&room_id, command).await?;
    Ok(Json(room_view(snapshot, Some(&player.id), false)))
}

/// Starts the game (owner only); empty seats become bots.
#[utoipa::path(post, path = "/api/rooms/{id}/start", tag = "rooms",
    params(("id" = String, Path, description = "Room id or join code")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Game started; `game_id` is set", body = RoomView),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 403, description = "Not the owner", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "Already started (`room_not_waiting`), or nobody is seated: the owner gave up their seat in a room everyone left (`not_seated`)", body = ErrorBody)))]
pub async fn start_room(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    player: AuthPlayer,
) -> Result<Json<RoomView>, AppError> {
    let (room_id, _) = resolve(&state, &id).await?;
    let command = RoomCommand::Start {
        player_id: player.id.clone(),
    };
    let snapshot = state.rooms.send(&room_id, command).await?;
    Ok(Json(room_view(snapshot, Some(&player.id), false)))
}

/// After a finished game, a new room with the same settings and the same players in the same seats (bots
/// included), waiting for its owner (whoever asked first) to start it. Every seated player who asks gets
/// the same room: the first call creates it (201), later ones return it (200). A quick match's rematch is
/// not a quick-match room: it waits for its owner too.
#[utoipa::path(post, path = "/api/rooms/{id}/rematch", tag = "rooms",
    params(("id" = String, Path, description = "Room id or join code of the finished room")),
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Rematch room created", body = RoomView),
        (status = 200, description = "The rematch room another player created", body = RoomView),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 404, description = "No such room", body = ErrorBody),
        (status = 409, description = "Not seated in the room, or its game is not over", body = ErrorBody)))]
pub async fn rematch_room(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    player: AuthPlayer,
) -> Result<(StatusCode, Json<RoomView>), AppError> {
    let (room_id, _) = resolve(&state, &id).await?;
    let old = state
        .rooms
        .lookup(&room_id)
        .await?
        .ok_or(AppError::RoomNotFound)?;
    if !old
        .seats
        .iter()
        .any(|s| s.player_id.as_deref() == Some(player.id.as_str()))
    {
        return Err(AppError::NotSeated);
    }
    if old.room.status != RoomStatus::Finished {
        return Err(AppError::GameNotFinished);
    }
    let next_id = auth::new_id();
    // The same table again, started by its owner: not a quick-match room (one would say it starts by
    // itself once full, which a rematch never does, and would seat strangers looking for a quick match).
    let mut settings = old.room.settings.clone();
    settings.quick_match = false;
    let mut new = NewRoom {
        room: RoomRow {
            id: next_id,
            join_code: String::new(),
            owner_id: player.id.clone(),
            settings,
            status: RoomStatus::Waiting,
            created_at: now_ms(),
        },
        seats: old.seats.clone(),
    };
    let (status, snapshot) = match insert_with_join_code(&state, &mut new, Some(&room_id)).await? {
        // Created: answered from what was stored (see `stored_room`), with the same people's ratings in
        // the same rules as the finished room shows them.
        None => (StatusCode::CREATED, stored_room(new, old.ratings)),
        // Another player's: asking its task may be refused, but this request changed nothing.
        Some(existing) => (
            StatusCode::OK,
            state
                .rooms
                .lookup(&existing)
                .await?
                .ok_or(AppError::RoomNotFound)?,
        ),
    };
    Ok((status, Json(room_view(snapshot, Some(&player.id), true))))
}

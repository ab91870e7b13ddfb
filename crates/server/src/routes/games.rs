//! `GET /api/games/{id}/record`: the full game record.

use axum::Json;
use axum::extract::{Path, State};

use crate::AppState;
use crate::error::{AppError, ErrorBody};
use crate::model::{GameRecord, LogEntry, SeatView};

/// Settings, seats, log and result of a game. The seed is only included once
/// the game has finished (its hash is public from the start).
#[utoipa::path(get, path = "/api/games/{id}/record", tag = "games",
    params(("id" = String, Path, description = "Game id")),
    responses(
        (status = 200, description = "The record", body = GameRecord),
        (status = 404, description = "No such game", body = ErrorBody)))]
pub async fn game_record(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<GameRecord>, AppError> {
    if !crate::auth::plausible_id(&id) {
        return Err(AppError::GameNotFound);
    }
    let game = state.db.game(&id).await?.ok_or(AppError::GameNotFound)?;
    let room = state
        .db
        .room(&game.room_id)
        .await?
        .ok_or_else(|| AppError::Internal(format!("game {id} has no room")))?;
    let seats = state.db.room_seats(&game.room_id).await?;
    let log = state.db.game_log(&id).await?;
    let finished = game.finished_at.is_some();
    Ok(Json(GameRecord {
        game_id: game.id,
        room_id: game.room_id,
        settings: room.settings.0,
        seats: seats.iter().map(SeatView::from).collect(),
        seed_hash: game.seed_hash,
        // The secret seed leaves the server only after the game is over.
        seed: if finished { game.seed } else { None },
        started_at: game.started_at,
        finished_at: game.finished_at,
        result: game.result.map(|r| r.0),
        log: log
            .into_iter()
            .map(|l| LogEntry {
                seq: l.seq,
                kind: l.kind,
                payload: l.payload.0,
                at: l.at,
            })
            .collect(),
    }))
}

//! `GET /api/games/{id}/record` (the full game record) and
//! `GET /api/games/{id}/replay` (a game replayed position by position).

use axum::Json;
use axum::extract::State;
use parchis_proof::{ReplayedStep, replay_record, replay_running_record};
use serde::Deserialize;
use serde_json::Value;

use super::rooms::is_insider;
use crate::AppState;
use crate::error::{AppError, ErrorBody};
use crate::extract::{ApiPath, AuthPlayer};
use crate::model::{Actor, GameRecord, GameReplay, LogEntry, ReplayPiece, ReplayStep};

/// Settings, seats, log and result of a game. The seed is only included once
/// the game has finished (its hash is public from the start). While a game of a private room runs, its
/// record is only for the room's owner and seated players (`Authorization: Bearer`); finished, any game's
/// record is public (to verify it).
#[utoipa::path(get, path = "/api/games/{id}/record", tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The record", body = GameRecord),
        (status = 401, description = "Invalid token", body = ErrorBody),
        (status = 403, description = "A running game of a private room, and the caller is neither its owner nor seated (`wrong_join_code`)", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody)))]
pub async fn game_record(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    viewer: Option<AuthPlayer>,
) -> Result<Json<GameRecord>, AppError> {
    Ok(Json(readable_record(&state, &id, viewer.as_ref()).await?))
}

/// The record of game `id` if `viewer` may read it: any finished game, a running one of a public room,
/// or of a private room for its owner and seated players only (`403 wrong_join_code`).
async fn readable_record(
    state: &AppState,
    id: &str,
    viewer: Option<&AuthPlayer>,
) -> Result<GameRecord, AppError> {
    let record = load_record(state, id).await?;
    if record.finished_at.is_none() && !record.settings.public {
        let owner_id = state
            .db
            .room(&record.room_id)
            .await?
            .ok_or_else(|| AppError::Internal(format!("game {id} has no room")))?
            .owner_id;
        let seats = state.db.room_seats(&record.room_id).await?;
        let viewer = viewer.map(|v| v.id.as_str());
        if !is_insider(viewer, &owner_id, &seats) {
            return Err(AppError::WrongJoinCode);
        }
    }
    Ok(record)
}

/// Every position of a game: the log replayed through the rules crate (the same replay `parchis verify`
/// runs), with each entry's events and the pieces and turn after it, so that a client draws any step
/// without knowing a rule. A game still being played is replayed up to its last logged action, with its
/// dice as logged (the seed proving them is revealed at the end), for whoever may read its record.
#[utoipa::path(get, path = "/api/games/{id}/replay", tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The replay", body = GameReplay),
        (status = 401, description = "Invalid token", body = ErrorBody),
        (status = 403, description = "A running game of a private room, and the caller is neither its owner nor seated (`wrong_join_code`)", body = ErrorBody),
        (status = 404, description = "No such game", body = ErrorBody)))]
pub async fn game_replay(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    viewer: Option<AuthPlayer>,
) -> Result<Json<GameReplay>, AppError> {
    let record = readable_record(&state, &id, viewer.as_ref()).await?;
    let finished = record.finished_at.is_some();
    let (game_id, room_id) = (record.game_id.clone(), record.room_id.clone());
    let result = record.result.clone();
    let record = serde_json::to_value(&record).map_err(|e| AppError::Internal(e.to_string()))?;
    let mut initial = Value::Null;
    let mut steps = Vec::new();
    let replay = if finished {
        replay_record
    } else {
        replay_running_record
    };
    replay(&record, |step: ReplayedStep<'_>| {
        let view = step.game.view();
        let Some(entry) = step.entry else {
            initial = serde_json::to_value(&view).unwrap_or_default();
            return;
        };
        let payload = &entry["payload"];
        steps.push(ReplayStep {
            seq: entry["seq"].as_u64().unwrap_or_default(),
            kind: entry["kind"].as_str().unwrap_or_default().to_owned(),
            seat: payload["seat"]
                .as_u64()
                .and_then(|s| u8::try_from(s).ok())
                .unwrap_or_default(),
            die: payload["die"].as_u64().and_then(|d| u8::try_from(d).ok()),
            mv: payload["move"].as_str().map(str::to_owned),
            by: Actor::deserialize(&payload["by"]).ok(),
            events: step
                .events
                .iter()
                .map(|e| serde_json::to_value(e).unwrap_or_default())
                .collect(),
            pieces: view
                .pieces
                .iter()
                .map(|p| ReplayPiece {
                    id: p.id.to_string(),
                    place: serde_json::to_value(p.place).unwrap_or_default(),
                    in_blockade: p.in_blockade,
                    last_arrived: p.last_arrived,
                })
                .collect(),
            turn: serde_json::to_value(&view.turn).unwrap_or_default(),
        });
    })
    .map_err(|e| AppError::Internal(format!("game {game_id} does not replay: {e}")))?;
    Ok(Json(GameReplay {
        game_id,
        room_id,
        result,
        initial,
        steps,
    }))
}

/// The record of game `id` as stored.
pub(crate) async fn load_record(state: &AppState, id: &str) -> Result<GameRecord, AppError> {
    if !crate::auth::plausible_id(id) {
        return Err(AppError::GameNotFound);
    }
    let game = state.db.game(id).await?.ok_or(AppError::GameNotFound)?;
    let room = state
        .db
        .room(&game.room_id)
        .await?
        .ok_or_else(|| AppError::Internal(format!("game {id} has no room")))?;
    let seats = state.db.room_seats(&game.room_id).await?;
    let log = state.db.game_log(id).await?;
    let finished = game.finished_at.is_some();
    Ok(GameRecord {
        game_id: game.id,
        room_id: game.room_id,
        settings: room.settings.0,
        seats: seats.iter().map(|s| s.view(None)).collect(),
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
                kind: l.kind.as_str().to_owned(),
                payload: l.payload.0,
                at: l.at,
            })
            .collect(),
    })
}

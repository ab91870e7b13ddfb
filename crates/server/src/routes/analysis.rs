//! `GET /api/games/{id}/analysis?seq=N`: for a move of a finished game, the position it was played in,
//! every legal move there and the one the expert bot picks, so a player can look back at a game and see
//! where a stronger player would have gone. Only finished games: it is no help during a game.

use std::time::Duration;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use parchis_bots::expert::ExpertBot;
use parchis_bots::{Bot, mix_seed};
use parchis_proof::{ReplayedStep, replay_record};
use parchis_rules::Game;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::AppState;
use crate::error::{AppError, ErrorBody};
use crate::extract::ApiPath;
use crate::model::MoveAnalysis;
use crate::rooms::bot::seed_of;
use crate::routes::games::load_record;

/// Longest the expert thinks about one move here: it searches its full node budget on a machine that is
/// not loaded (a few milliseconds for four players), and the cap keeps a loaded one answering.
const THINKING_CAP: Duration = Duration::from_millis(300);

/// Longest a request waits for a free core before it is told to come back.
const QUEUE_WAIT: Duration = Duration::from_secs(3);

/// Query of `GET /api/games/{id}/analysis`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AnalysisQuery {
    /// `seq` of a move of the game's log (`GET /api/games/{id}/replay` lists them).
    seq: u64,
}

/// What the expert bot plays instead of a move of a finished game.
#[utoipa::path(get, path = "/api/games/{id}/analysis", tag = "games",
    params(("id" = String, Path, description = "Game id"), AnalysisQuery),
    responses(
        (status = 200, description = "The position, its legal moves, the move played and the expert's", body = MoveAnalysis),
        (status = 404, description = "No such game (`game_not_found`)", body = ErrorBody),
        (status = 409, description = "The game is not over yet (`game_not_finished`)", body = ErrorBody),
        (status = 422, description = "No `seq`, or one past the log (`invalid_query`), or a roll (`not_a_move`)", body = ErrorBody),
        (status = 503, description = "Every core is analysing already (`analysis_busy`)", body = ErrorBody)))]
pub async fn game_analysis(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    query: Result<Query<AnalysisQuery>, QueryRejection>,
) -> Result<Json<MoveAnalysis>, AppError> {
    let Query(AnalysisQuery { seq }) = query.map_err(|r| AppError::InvalidQuery(r.body_text()))?;
    let record = load_record(&state, &id).await?;
    if record.finished_at.is_none() {
        return Err(AppError::GameNotFinished);
    }
    let entries = record.log.len();
    let entry = usize::try_from(seq)
        .ok()
        .and_then(|k| record.log.get(k))
        .ok_or_else(|| {
            AppError::InvalidQuery(format!(
                "`seq` {seq} is past the log, whose entries are 0 to {}.",
                entries.saturating_sub(1)
            ))
        })?;
    if entry.kind != "move" {
        return Err(AppError::NotAMove(format!(
            "Entry {seq} of the log is a {}: only moves are analysed.",
            entry.kind
        )));
    }
    let played = entry.payload["move"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let record = serde_json::to_value(&record).map_err(|e| AppError::Internal(e.to_string()))?;
    let before = position_before(&record, seq)
        .map_err(|e| AppError::Internal(format!("game {id} does not replay: {e}")))?;

    let _permit = tokio::time::timeout(QUEUE_WAIT, state.analyses.clone().acquire_owned())
        .await
        .map_err(|_| AppError::AnalysisBusy)?
        .map_err(|_| AppError::AnalysisBusy)?;
    // The same answer every time for the same move: the search is seeded by the game and the entry.
    let seed = mix_seed(seed_of(&id), seq);
    let expert = tokio::task::spawn_blocking(move || {
        let legal = before.legal_moves();
        let choice = ExpertBot::new(seed)
            .with_time_cap(THINKING_CAP)
            .choose(&before, &legal);
        (before, legal, choice)
    })
    .await
    .map_err(|e| AppError::Internal(format!("analysis failed: {e}")))?;
    let (before, legal, choice) = expert;
    let expert = before.move_text(&choice);
    Ok(Json(MoveAnalysis {
        game_id: id,
        seq,
        seat: before.seat(),
        position: before.notation(),
        legal: legal.iter().map(|m| before.move_text(m)).collect(),
        agrees: expert == played,
        played,
        expert,
    }))
}

/// The game just before log entry `seq` (replayed through the rules crate, as `parchis verify` does).
fn position_before(record: &serde_json::Value, seq: u64) -> Result<Game, String> {
    let mut last: Option<Game> = None;
    let mut before: Option<Game> = None;
    replay_record(record, |step: ReplayedStep<'_>| {
        if before.is_none()
            && let Some(entry) = step.entry
            && entry["seq"].as_u64() == Some(seq)
        {
            before = last;
        }
        last = Some(*step.game);
    })?;
    before.ok_or_else(|| format!("no entry {seq}"))
}

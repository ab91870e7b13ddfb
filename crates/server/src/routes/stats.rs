//! `GET /api/players/me/stats`: a player's own record, per rule set: every finished game they sat at
//! (against bots too), and apart the ones with other people (what the leaderboard counts).

use axum::Json;
use axum::extract::State;

use crate::AppState;
use crate::error::{AppError, ErrorBody};
use crate::extract::AuthPlayer;
use crate::model::{MyStats, RuleSetStats};

/// Your finished games and wins, per rule set played.
#[utoipa::path(get, path = "/api/players/me/stats", tag = "players",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Your record, per rule set played (none yet: empty)", body = MyStats),
        (status = 401, description = "Missing or invalid token", body = ErrorBody)))]
pub async fn my_stats(
    State(state): State<AppState>,
    player: AuthPlayer,
) -> Result<Json<MyStats>, AppError> {
    let rows = state.db.player_record(&player.id).await?;
    let rules: Vec<RuleSetStats> = rows
        .into_iter()
        .map(|row| RuleSetStats {
            rules: row.rules,
            games: row.games,
            wins: row.wins,
            games_with_people: row.games_with_people,
            wins_with_people: row.wins_with_people,
            last_finished_at: row.last_finished_at,
        })
        .collect();
    Ok(Json(MyStats {
        games: rules.iter().map(|r| r.games).sum(),
        wins: rules.iter().map(|r| r.wins).sum(),
        rules,
    }))
}

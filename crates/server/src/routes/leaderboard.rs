//! `GET /api/leaderboard`: who won most, or who has the best rating, per rule set, over the last days.
//! Only players with an account are listed (a username tells them apart), and only games with at least
//! two people seated and no house rules count, so wins against bots alone, or at a table's own rules, do
//! not. By rating, only ratings past their provisional games are listed, of players who finished a rated
//! game in the period (see [`crate::ratings`]).

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::AppState;
use crate::db::now_ms;
use crate::error::{AppError, ErrorBody};
use crate::model::{Leader, Leaderboard, Rating};
use crate::ratings::PROVISIONAL_GAMES;
use crate::settings::RuleSet;

/// Players listed, at most.
const LEADERS: i64 = 20;
/// The period when none is asked for, in days.
const DEFAULT_DAYS: u32 = 30;
/// The longest period, in days.
pub const MAX_DAYS: u32 = 365;

/// Query of `GET /api/leaderboard`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LeaderboardQuery {
    /// `playgridia` (default), `ludoteka` or `morocco`.
    #[param(value_type = Option<crate::schema_names::RuleSetName>)]
    rules: Option<RuleSet>,
    /// Days up to now, 1 to 365 (default 30).
    days: Option<u32>,
    /// `wins` (default): the most wins in the period; `rating`: the best ratings.
    #[param(inline)]
    by: Option<RankBy>,
}

/// What ranks the leaderboard.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
enum RankBy {
    #[default]
    Wins,
    Rating,
}

/// The most wins, or the best ratings, of a rule set over the last days.
#[utoipa::path(get, path = "/api/leaderboard", tag = "players",
    params(LeaderboardQuery),
    responses(
        (status = 200, description = "Best first", body = Leaderboard),
        (status = 422, description = "Unknown rules or ranking, or a period out of range (`invalid_query`)", body = ErrorBody)))]
pub async fn leaderboard(
    State(state): State<AppState>,
    query: Result<Query<LeaderboardQuery>, QueryRejection>,
) -> Result<Json<Leaderboard>, AppError> {
    let Query(query) = query.map_err(|r| AppError::InvalidQuery(r.body_text()))?;
    let rules = query.rules.unwrap_or(RuleSet::Playgridia);
    let days = query.days.unwrap_or(DEFAULT_DAYS);
    if !(1..=MAX_DAYS).contains(&days) {
        return Err(AppError::InvalidQuery(format!(
            "`days` is 1 to {MAX_DAYS}."
        )));
    }
    let since = now_ms().saturating_sub(i64::from(days) * 24 * 3600 * 1000);
    let by = query.by.unwrap_or_default();
    let rows = match by {
        RankBy::Wins => state.db.leaderboard(rules.name(), since, LEADERS).await?,
        RankBy::Rating => {
            state
                .db
                .rating_leaderboard(rules.name(), since, PROVISIONAL_GAMES, LEADERS)
                .await?
        }
    };
    let mut players: Vec<Leader> = Vec::with_capacity(rows.len());
    for (i, row) in rows.into_iter().enumerate() {
        let rating = row.mu.zip(row.rated_games).map(|(mu, g)| Rating::of(mu, g));
        // Tied with the one above (as many wins in as many games; or the same rating shown): the same rank.
        let tied = players.last().is_some_and(|above| match by {
            RankBy::Wins => (above.wins, above.games) == (row.wins, row.games),
            RankBy::Rating => above.rating.map(|r| r.value) == rating.map(|r| r.value),
        });
        let rank = match players.last() {
            Some(above) if tied => above.rank,
            _ => u32::try_from(i + 1).unwrap_or(u32::MAX),
        };
        players.push(Leader {
            rank,
            username: row.username,
            display_name: row.display_name,
            games: row.games,
            wins: row.wins,
            rating,
        });
    }
    Ok(Json(Leaderboard {
        rules: rules.name().to_owned(),
        days,
        by: match by {
            RankBy::Wins => "wins",
            RankBy::Rating => "rating",
        }
        .to_owned(),
        players,
    }))
}

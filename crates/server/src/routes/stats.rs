//! Players' records, per rule set: every finished game they sat at (against bots too), apart the ones
//! with other people (what the leaderboard counts), and their end-of-game figures added up.
//! `GET /api/players/me/stats` is your own; `GET /api/accounts/{username}/stats` anyone's with an account
//! (what a leaderboard name opens), and `GET /api/accounts/{username}/ratings` how their rated games moved
//! their rating in one rule set.

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::AppState;
use crate::db::{AccountRow, FiguresRow, RatingRow, RecordRow, ResultRow};
use crate::error::{AppError, ErrorBody};
use crate::extract::{ApiPath, AuthPlayer};
use crate::model::{
    MyStats, PlayerStats, Rating, RatingHistory, RatingPoint, RecentGame, RecordFigures,
    RuleSetStats,
};
use crate::ratings::points;
use crate::settings::RuleSet;

/// How many of the latest games a record lists.
const RECENT: i64 = 10;
/// How many of the latest rated games a rating history lists.
const HISTORY: i64 = 100;

/// The account with this username (in any case).
async fn account(state: &AppState, username: &str) -> Result<AccountRow, AppError> {
    let key = username.trim().to_ascii_lowercase();
    // Usernames are short plain words: anything longer, or with anything but printable ASCII (PostgreSQL
    // refuses a NUL), is not one, and is not looked up.
    if !crate::auth::plausible_id(&key) {
        return Err(AppError::AccountNotFound);
    }
    state
        .db
        .account_by_username(&key)
        .await?
        .ok_or(AppError::AccountNotFound)
}

/// Query of `GET /api/accounts/{username}/ratings`.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RatingsQuery {
    /// `playgridia` (default), `ludoteka` or `morocco`.
    #[param(value_type = Option<crate::schema_names::RuleSetName>)]
    rules: Option<RuleSet>,
}

/// The rating of the player with this username in one rule set, and what their latest rated games of it
/// did to it (for a chart of it).
#[utoipa::path(get, path = "/api/accounts/{username}/ratings", tag = "players",
    params(("username" = String, Path, description = "Username, in any case"), RatingsQuery),
    responses(
        (status = 200, description = "Their rating now and their latest rated games, oldest first", body = RatingHistory),
        (status = 404, description = "No account has that username (`account_not_found`)", body = ErrorBody),
        (status = 422, description = "Unknown rules (`invalid_query`)", body = ErrorBody)))]
pub async fn rating_history(
    State(state): State<AppState>,
    ApiPath(username): ApiPath<String>,
    query: Result<Query<RatingsQuery>, QueryRejection>,
) -> Result<Json<RatingHistory>, AppError> {
    let Query(query) = query.map_err(|r| AppError::InvalidQuery(r.body_text()))?;
    let rules = query.rules.unwrap_or(RuleSet::Playgridia);
    let account = account(&state, &username).await?;
    let rating = state
        .db
        .player_rating(&account.player_id, rules.name())
        .await?
        .map(|r| Rating::of(r.mu, r.games));
    let history = state
        .db
        .rating_history(&account.player_id, rules.name(), HISTORY)
        .await?
        .into_iter()
        .map(|c| RatingPoint {
            game_id: c.game_id,
            finished_at: c.finished_at,
            before: points(c.mu_before),
            after: points(c.mu_after),
        })
        .collect();
    Ok(Json(RatingHistory {
        username: account.username,
        rules: rules.name().to_owned(),
        rating,
        history,
    }))
}

/// Your finished games and wins, per rule set played, with your figures in them added up.
#[utoipa::path(get, path = "/api/players/me/stats", tag = "players",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Your record, per rule set played (none yet: empty)", body = MyStats),
        (status = 401, description = "Missing or invalid token", body = ErrorBody)))]
pub async fn my_stats(
    State(state): State<AppState>,
    player: AuthPlayer,
) -> Result<Json<MyStats>, AppError> {
    Ok(Json(record_of(&state, &player.id).await?))
}

/// The record of the player with this username (the name the leaderboard shows beside theirs).
#[utoipa::path(get, path = "/api/accounts/{username}/stats", tag = "players",
    params(("username" = String, Path, description = "Username, in any case")),
    responses(
        (status = 200, description = "Their name and record, per rule set played", body = PlayerStats),
        (status = 404, description = "No account has that username (`account_not_found`)", body = ErrorBody)))]
pub async fn player_stats(
    State(state): State<AppState>,
    ApiPath(username): ApiPath<String>,
) -> Result<Json<PlayerStats>, AppError> {
    let account = account(&state, &username).await?;
    let player = state
        .db
        .player(&account.player_id)
        .await?
        .ok_or(AppError::AccountNotFound)?;
    let MyStats {
        games,
        wins,
        rules,
        recent,
    } = record_of(&state, &player.id).await?;
    Ok(Json(PlayerStats {
        username: account.username,
        display_name: player.display_name,
        games,
        wins,
        rules,
        recent,
    }))
}

/// A player's record: per rule set, the totals and the latest games.
async fn record_of(state: &AppState, player_id: &str) -> Result<MyStats, AppError> {
    let rows = state.db.player_record(player_id).await?;
    let figures = state.db.player_figures(player_id).await?;
    let latest = state.db.player_results(player_id, RECENT).await?;
    let ratings = state.db.player_ratings(player_id).await?;
    Ok(record(rows, &figures, latest, &ratings))
}

/// The rows of a record, with their totals.
fn record(
    rows: Vec<RecordRow>,
    figures: &[FiguresRow],
    latest: Vec<ResultRow>,
    ratings: &[RatingRow],
) -> MyStats {
    let rules: Vec<RuleSetStats> = rows
        .into_iter()
        .map(|row| RuleSetStats {
            // No row: none of these games kept figures (all zero, `games` 0 saying so).
            figures: figures
                .iter()
                .find(|f| f.rules == row.rules)
                .map(|f| RecordFigures {
                    games: f.games,
                    captures: f.captures,
                    captured: f.captured,
                    sixes: f.sixes,
                    home: f.home,
                })
                .unwrap_or_default(),
            games: row.games,
            wins: row.wins,
            games_with_people: row.games_with_people,
            wins_with_people: row.wins_with_people,
            last_finished_at: row.last_finished_at,
            rating: ratings
                .iter()
                .find(|r| r.rules == row.rules)
                .map(|r| Rating::of(r.mu, r.games)),
            rules: row.rules,
        })
        .collect();
    MyStats {
        games: rules.iter().map(|r| r.games).sum(),
        wins: rules.iter().map(|r| r.wins).sum(),
        rules,
        recent: latest.into_iter().map(recent_game).collect(),
    }
}

/// A finished game of a player's record.
pub(crate) fn recent_game(r: ResultRow) -> RecentGame {
    RecentGame {
        game_id: r.game_id,
        rules: r.rules,
        won: r.won != 0,
        people: r.people,
        house_rules: r.house_rules != 0,
        finished_at: r.finished_at,
        rating_change: r
            .mu_before
            .zip(r.mu_after)
            .map(|(before, after)| points(after) - points(before)),
    }
}

//! `GET /api/players/me/export`: everything the server keeps about the caller, as one JSON file to keep
//! (the right of access, beside `DELETE /api/players/me`, the right to be forgotten).

use axum::Json;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;

use super::stats::recent_game;
use crate::AppState;
use crate::db::now_ms;
use crate::device;
use crate::error::{AppError, ErrorBody};
use crate::extract::AuthPlayer;
use crate::model::{
    DataExport, ExportedAccount, ExportedDevice, ExportedFigures, ExportedLeftGame,
    ExportedLocalPlayer, ExportedMessage, ExportedPlayer, ExportedRating, ExportedRemoval,
    ExportedReport, ExportedRoom, Rating,
};

/// Everything the server keeps about you: player, account, the devices signed in as you, rooms (and
/// those you were removed from), results and your figures in them, ratings, chat messages and reports. Served as a file to download (`parchis-data-<id>.json`).
#[utoipa::path(get, path = "/api/players/me/export", tag = "players",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Your data", body = DataExport),
        (status = 401, description = "Missing or invalid token", body = ErrorBody)))]
pub async fn export_me(
    State(state): State<AppState>,
    player: AuthPlayer,
) -> Result<impl IntoResponse, AppError> {
    let db = &state.db;
    let me = db.player(&player.id).await?.ok_or(AppError::InvalidToken)?;
    // An account's devices unused for longer than the host allows are signed out (a guest's never).
    let used_since = state.session_expiry.used_since(now_ms());
    let account = db.export_account(&me.id, used_since).await?;
    let rooms = db.player_rooms(&me.id, i64::MAX).await?;
    let results = db.player_results(&me.id, i64::MAX).await?;
    let ratings = db.export_ratings(&me.id).await?;
    let messages = db.export_messages(&me.id).await?;
    let reports = db.export_reports(&me.id).await?;
    let local_players = db.export_local_players(&me.id).await?;
    let games_left = db.export_games_left(&me.id).await?;
    let figures = db.export_figures(&me.id).await?;
    let used_since = if account.is_some() {
        used_since
    } else {
        i64::MIN
    };
    let mut devices = db.devices(&me.id, used_since).await?;
    devices.sort_by_key(|d| std::cmp::Reverse((d.last_used_at, d.signed_in_at)));
    let removals = db.export_removals(&me.id).await?;
    let export = DataExport {
        exported_at: now_ms(),
        account: account.map(|a| ExportedAccount {
            username: a.username,
            created_at: a.created_at,
            signed_in_devices: a.sessions,
        }),
        rooms: rooms
            .into_iter()
            .map(|r| ExportedRoom {
                room_id: r.room_id,
                status: r.status.as_str().to_owned(),
                seat: r.seat,
                settings: serde_json::to_value(&r.settings.0).unwrap_or_default(),
                created_at: r.created_at,
                game_id: r.game_id,
                started_at: r.started_at,
                finished_at: r.finished_at,
            })
            .collect(),
        results: results.into_iter().map(recent_game).collect(),
        ratings: ratings
            .into_iter()
            .map(|r| ExportedRating {
                rating: Rating::of(r.mu, r.games),
                rules: r.rules,
                mu: r.mu,
                sigma: r.sigma,
                updated_at: r.updated_at,
            })
            .collect(),
        chat_messages: messages
            .into_iter()
            .map(|m| ExportedMessage {
                room_id: m.room_id,
                seq: m.seq,
                text: m.text,
                at: m.at,
            })
            .collect(),
        reports: reports
            .into_iter()
            .map(|r| ExportedReport {
                room_id: r.room_id,
                seq: r.seq,
                reason: r.reason,
                at: r.at,
            })
            .collect(),
        local_players: local_players
            .into_iter()
            .map(|l| ExportedLocalPlayer {
                room_id: l.room_id,
                seat: l.seat,
                display_name: l.local_name,
            })
            .collect(),
        games_left: games_left
            .into_iter()
            .map(|l| ExportedLeftGame {
                game_id: l.game_id,
                room_id: l.room_id,
                seat: l.seat,
                left_at: l.left_at,
            })
            .collect(),
        figures: figures
            .into_iter()
            .map(|f| ExportedFigures {
                game_id: f.game_id,
                seat: f.seat,
                captures: f.captures,
                captured: f.captured,
                sixes: f.sixes,
                home: f.home,
            })
            .collect(),
        devices: devices
            .into_iter()
            .map(|d| ExportedDevice {
                device: device::describe(d.user_agent.as_deref()),
                user_agent: d.user_agent,
                signed_in_at: d.signed_in_at,
                last_used_at: d.last_used_at,
            })
            .collect(),
        removed_from_rooms: removals
            .into_iter()
            .map(|r| ExportedRemoval {
                room_id: r.room_id,
                removed_at: r.removed_at,
            })
            .collect(),
        player: ExportedPlayer {
            id: me.id,
            display_name: me.display_name,
            created_at: me.created_at,
        },
    };
    let file = format!(
        "attachment; filename=\"parchis-data-{}.json\"",
        export.player.id
    );
    Ok(([(header::CONTENT_DISPOSITION, file)], Json(export)))
}

//! HTTP routes of the JSON API and operational endpoints.

pub mod accounts;
pub mod admin;
pub mod analysis;
pub mod export;
pub mod games;
pub mod health;
pub mod leaderboard;
pub mod local_players;
pub mod players;
pub mod quick_match;
pub mod reports;
pub mod rooms;
pub mod rules;
pub mod seats;
pub mod stats;

use axum::Router;
use axum::routing::{delete, get, post, put};

use std::sync::Arc;

use crate::AppState;
use crate::error::AppError;
use crate::rate_limit::{LookupLimit, WriteLimit};

/// All API and operational routes (documentation routes live in [`crate::docs`]); `analysis_limit`
/// limits the analyses of finished games per address, `lookup_limit` the room lookups (by id or join
/// code, WebSocket included) that find no room and the admin requests with a wrong token. `state` is
/// for the `Idempotency-Key` records of the routes that create something ([`crate::idempotency`]).
pub fn router(
    analysis_limit: Option<Arc<WriteLimit>>,
    lookup_limit: Option<Arc<LookupLimit>>,
    state: AppState,
) -> Router<AppState> {
    use crate::idempotency::{Caller, idempotent};
    let keyed_by_anyone =
        axum::middleware::from_fn_with_state((state.clone(), Caller::Anyone), idempotent);
    let idempotent = axum::middleware::from_fn_with_state((state, Caller::Player), idempotent);
    let mut analysis = get(analysis::game_analysis);
    if let Some(limit) = analysis_limit {
        analysis = analysis.layer(crate::rate_limit::layer(limit));
    }
    let mut room = get(rooms::get_room);
    let mut room_ws = get(crate::ws::room_ws);
    // Every other route that finds a room by its id or join code: a guesser gets no more tries there.
    let mut join = post(rooms::join_room);
    let mut leave = post(rooms::leave_room);
    let mut start = post(rooms::start_room);
    // Every route that creates something a retry would create twice takes an `Idempotency-Key`.
    let mut rematch = post(rooms::rematch_room).layer(idempotent.clone());
    let mut add_local = post(local_players::add_local_player).layer(idempotent.clone());
    let mut remove_local = delete(local_players::remove_local_player);
    let mut seat = put(seats::set_seat).delete(seats::remove_player);
    let mut report = post(reports::report_message);
    let mut admin_player = delete(admin::erase_player);
    let mut admin_reports = get(admin::list_reports);
    let mut admin_report = delete(admin::dismiss_reports);
    if let Some(limit) = lookup_limit {
        let lookups = axum::middleware::from_fn_with_state(limit, crate::rate_limit::limit_lookups);
        for route in [
            &mut room,
            &mut room_ws,
            &mut join,
            &mut leave,
            &mut start,
            &mut rematch,
            &mut add_local,
            &mut remove_local,
            &mut seat,
            &mut report,
        ] {
            *route = std::mem::take(route).layer(lookups.clone());
        }
        // A wrong admin token (`403 not_admin`) is a miss too: the list of reports is a `GET`, which the
        // write limit does not count, and the token must not be guessed without end.
        admin_player = admin_player.layer(lookups.clone());
        admin_reports = admin_reports.layer(lookups.clone());
        admin_report = admin_report.layer(lookups);
    }
    Router::new()
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/metrics", get(crate::metrics::render))
        .route(
            "/api/players",
            post(players::create_player).layer(keyed_by_anyone),
        )
        .route(
            "/api/players/me",
            get(players::me)
                .patch(players::rename_me)
                .delete(players::erase_me),
        )
        .route("/api/players/me/rooms", get(players::my_rooms))
        .route("/api/players/me/stats", get(stats::my_stats))
        .route("/api/players/me/export", get(export::export_me))
        .route("/api/leaderboard", get(leaderboard::leaderboard))
        .route("/api/rules", get(rules::rules))
        .route("/api/accounts/{username}/stats", get(stats::player_stats))
        .route(
            "/api/accounts/{username}/ratings",
            get(stats::rating_history),
        )
        .route("/api/admin/players/{id}", admin_player)
        .route("/api/admin/reports", admin_reports)
        .route("/api/admin/reports/{room_id}/{seq}", admin_report)
        .route("/api/rooms/{id}/chat/{seq}/report", report)
        .route(
            "/api/account",
            post(accounts::create_account).patch(accounts::change_password),
        )
        .route(
            "/api/sessions",
            post(accounts::sign_in).get(accounts::devices),
        )
        .route("/api/sessions/current", delete(accounts::sign_out))
        .route("/api/sessions/others", delete(accounts::sign_out_others))
        .route("/api/sessions/{id}", delete(accounts::sign_out_device))
        .route(
            "/api/rooms",
            post(rooms::create_room)
                .layer(idempotent.clone())
                .get(rooms::list_rooms),
        )
        .route(
            "/api/quick-match",
            post(quick_match::quick_match).layer(idempotent),
        )
        .route("/api/rooms/{id_or_code}", room)
        .route("/api/rooms/{id}/join", join)
        .route("/api/rooms/{id}/leave", leave)
        .route("/api/rooms/{id}/start", start)
        .route("/api/rooms/{id}/rematch", rematch)
        .route("/api/rooms/{id}/local-players", add_local)
        .route("/api/rooms/{id}/local-players/{seat}", remove_local)
        .route("/api/rooms/{id}/seats/{seat}", seat)
        .route("/api/games/{id}/record", get(games::game_record))
        .route("/api/games/{id}/replay", get(games::game_replay))
        .route("/api/games/{id}/analysis", analysis)
        .route("/api/rooms/{id_or_code}/ws", room_ws)
        .fallback(crate::web::fallback)
        .method_not_allowed_fallback(method_not_allowed)
}

/// A known address asked with a method it does not take: the usual JSON error, not an empty body.
async fn method_not_allowed() -> AppError {
    AppError::MethodNotAllowed
}

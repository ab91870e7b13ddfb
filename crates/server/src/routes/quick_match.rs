//! `POST /api/quick-match`: one button to an online game with other people. Matchmaking only picks a
//! room and a seat; joining and starting stay the room task's decisions.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Serialize;
use tokio::sync::OwnedMutexGuard;
use utoipa::ToSchema;

use super::rooms::{create_owned_room, public_rooms_someone_is_in, room_view, seat_player};
use crate::AppState;
use crate::error::{AppError, ErrorBody};
use crate::extract::{ApiJson, AuthPlayer};
use crate::model::{RoomStatus, RoomView};
use crate::rooms::RoomSnapshot;
use crate::settings::{Mode, QuickMatchRequest, RoomSettings, RuleSet, quick_match_settings};

/// How many of the newest public waiting rooms are looked at for a seat (the lobby looks at as many).
const CANDIDATE_SCAN: i64 = 400;

/// Response of `POST /api/quick-match`: the room you are seated in, and whether it was made for you.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuickMatchView {
    /// The room, as `POST /api/rooms/{id}/join` shows it.
    #[serde(flatten)]
    pub room: RoomView,
    /// `true` when no room was waiting for players and this one was created, with you as its owner.
    pub created: bool,
}

/// What a quick match is for: rooms match when these agree.
type MatchKind = (RuleSet, Mode, u8);

/// One lock per kind of game. Quick matches of one kind run one after the other, so a second press
/// always finds the room the first one seated its player in (never a second room for the same person),
/// and two callers never pick seats from the same stale view of the rooms.
#[derive(Default)]
pub struct MatchLocks(Mutex<HashMap<MatchKind, Arc<tokio::sync::Mutex<()>>>>);

impl MatchLocks {
    /// Waits for this kind's turn; the kinds are a few dozen at most, so the map stays small.
    async fn lock(&self, kind: MatchKind) -> OwnedMutexGuard<()> {
        let lock = {
            let mut locks = self.0.lock().unwrap_or_else(|e| e.into_inner());
            locks.entry(kind).or_default().clone()
        };
        lock.lock_owned().await
    }
}

fn kind_of(settings: &RoomSettings) -> MatchKind {
    (settings.rules, settings.mode, settings.players)
}

/// Whether `room` is a public quick-match room of this kind.
fn same_match(room: &RoomSettings, kind: MatchKind) -> bool {
    room.quick_match && room.public && kind_of(room) == kind
}

fn seated(snapshot: &RoomSnapshot, player_id: &str) -> bool {
    snapshot
        .seats
        .iter()
        .any(|s| s.player_id.as_deref() == Some(player_id))
}

/// Seats you in an online game of these rules and mode: the waiting quick-match room you already sit
/// in, else the fullest (then oldest) such room someone has open now, else a new public room you own.
/// A quick-match room starts by itself once every seat is taken.
#[utoipa::path(post, path = "/api/quick-match", tag = "rooms",
    request_body = QuickMatchRequest,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Seated in a room that was waiting for players (`created: false`)", body = QuickMatchView),
        (status = 201, description = "No room was waiting: a new one, owned by you (`created: true`)", body = QuickMatchView),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 422, description = "Unknown rules or mode (`invalid_body`), or a player count the mode does not allow (`invalid_settings`)", body = ErrorBody)))]
pub async fn quick_match(
    State(state): State<AppState>,
    player: AuthPlayer,
    ApiJson(req): ApiJson<QuickMatchRequest>,
) -> Result<(StatusCode, Json<QuickMatchView>), AppError> {
    let settings = quick_match_settings(req, state.config.turn_timeout_secs)?;
    let kind = kind_of(&settings);
    let _turn = state.match_locks.lock(kind).await;
    // Cluster mode: one node at a time, too (two people pressing at once on two nodes meet).
    let _cluster_turn = match &state.cluster {
        Some(cluster) => Some(cluster.exclusive(&format!("quick-match {kind:?}")).await?),
        None => None,
    };
    let (status, snapshot) = match find_seat(&state, &player, kind).await? {
        Some(snapshot) => (StatusCode::OK, snapshot),
        None => (
            StatusCode::CREATED,
            create_owned_room(&state, &player, settings).await?,
        ),
    };
    let room = room_view(snapshot, Some(&player.id), true);
    Ok((
        status,
        Json(QuickMatchView {
            room,
            created: status == StatusCode::CREATED,
        }),
    ))
}

/// The room `player` sits in or was just seated in, if there is one to go to.
async fn find_seat(
    state: &AppState,
    player: &AuthPlayer,
    kind: MatchKind,
) -> Result<Option<RoomSnapshot>, AppError> {
    for room in state.db.waiting_rooms_of_player(&player.id).await? {
        if !same_match(&room.settings, kind) {
            continue;
        }
        // The stored row may be a step behind its task (it just started): the task has the last word.
        if let Some(snapshot) = state.rooms.lookup(&room.id).await?
            && snapshot.room.status == RoomStatus::Waiting
            && seated(&snapshot, &player.id)
        {
            return Ok(Some(snapshot));
        }
    }
    let mut candidates: Vec<RoomSnapshot> =
        public_rooms_someone_is_in(state, RoomStatus::Waiting, CANDIDATE_SCAN, usize::MAX)
            .await?
            .into_iter()
            .filter(|s| {
                same_match(&s.room.settings, kind) && s.seats.iter().any(|seat| seat.is_free())
            })
            .collect();
    // Fullest first, so games start sooner; then the oldest, who has waited longest.
    candidates.sort_by_key(|s| {
        let taken = s.seats.iter().filter(|seat| !seat.is_free()).count();
        (
            std::cmp::Reverse(taken),
            s.room.created_at,
            s.room.id.clone(),
        )
    });
    for candidate in candidates {
        match seat_player(state, &candidate.room.id, player, None, None).await {
            Ok(snapshot) => return Ok(Some(snapshot)),
            // Its seat was just taken, its game just started, it just closed, or its owner removed
            // this player from it: the next one.
            Err(
                err @ (AppError::RoomFull
                | AppError::RemovedFromRoom
                | AppError::RoomNotWaiting
                | AppError::RoomNotFound
                | AppError::RoomBusy),
            ) => {
                tracing::debug!(room = %candidate.room.id, %err, "quick match: room refused, trying the next");
            }
            Err(err) => return Err(err),
        }
    }
    Ok(None)
}

//! `POST /api/rooms/{id}/chat/{seq}/report`: a player reports a chat message they find offensive, for
//! the host to read (`GET /api/admin/reports`) and act on. Once per player and message; never their own.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;

use crate::AppState;
use crate::db::{Reported, now_ms};
use crate::error::{AppError, ErrorBody};
use crate::extract::{ApiJson, ApiPath, AuthPlayer};
use crate::model::{ReportRequest, ReportView};
use crate::rooms::chat::clean;
use crate::routes::rooms::{is_insider, resolve};

/// Reports message `seq` of room `id`'s chat to the host.
#[utoipa::path(post, path = "/api/rooms/{id}/chat/{seq}/report", tag = "rooms",
    params(("id" = String, Path, description = "Room id, or its join code (a private room's chat is reported by its owner and seated players, or by whoever has its code)"), ("seq" = i64, Path, description = "The message's number in the chat")),
    request_body = ReportRequest,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Reported", body = ReportView),
        (status = 200, description = "You had reported it already: nothing changed", body = ReportView),
        (status = 401, description = "Missing or invalid token", body = ErrorBody),
        (status = 403, description = "A private room by its bare id, and the caller is neither its owner nor seated (`wrong_join_code`)", body = ErrorBody),
        (status = 404, description = "No such message, or its writer was erased (`message_not_found`)", body = ErrorBody),
        (status = 422, description = "Your own message (`own_message`), or a reason too long (`invalid_report`)", body = ErrorBody)))]
pub async fn report_message(
    State(state): State<AppState>,
    ApiPath((room_ref, seq)): ApiPath<(String, String)>,
    player: AuthPlayer,
    ApiJson(req): ApiJson<ReportRequest>,
) -> Result<(StatusCode, Json<ReportView>), AppError> {
    // Not a number: no message has it (rather than the framework's plain-text rejection).
    let seq: i64 = seq.parse().map_err(|_| AppError::MessageNotFound)?;
    // The same cleaning as chat: one line, nothing invisible; an empty reason is allowed.
    let reason = if req.reason.trim().is_empty() {
        String::new()
    } else {
        clean(&req.reason)
            .map_err(|e| AppError::InvalidReport(format!("The reason: {}", e.message)))?
    };
    if !crate::auth::plausible_id(&room_ref) {
        return Err(AppError::MessageNotFound);
    }
    // Only someone who can read the chat reports in it: anyone for a public room; for a private one its
    // owner, its seated players, or whoever addresses it by its join code (as its WebSocket lets watch).
    let (room_id, by_code) = resolve(&state, &room_ref).await?;
    if let Some(room) = state.db.room(&room_id).await? {
        let seats = state.db.room_seats(&room_id).await?;
        if !room.settings.0.public
            && !by_code
            && !is_insider(Some(&player.id), &room.owner_id, &seats)
        {
            return Err(AppError::WrongJoinCode);
        }
    }
    let status = match state
        .db
        .report_chat(&room_id, seq, &player.id, &reason, now_ms())
        .await?
    {
        Reported::New => {
            metrics::counter!("parchis_chat_reports_total").increment(1);
            tracing::info!(room = %room_id, seq, "chat message reported");
            StatusCode::CREATED
        }
        Reported::Already => StatusCode::OK,
        Reported::NoMessage => return Err(AppError::MessageNotFound),
        Reported::OwnMessage => return Err(AppError::OwnMessage),
    };
    Ok((
        status,
        Json(ReportView {
            room_id,
            seq,
            new: status == StatusCode::CREATED,
        }),
    ))
}

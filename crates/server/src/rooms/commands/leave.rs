//! `{"type":"leave"}`: give up the seat (a bot takes it over while playing, and the game counts as a
//! loss for the person who left), then the connection is closed with 1000 `left`.

use super::{After, MAYBE_STORED, NOTHING_STORED};
use crate::error::AppError;
use crate::model::RoomStatus;
use crate::rooms::hub::ConnId;
use crate::rooms::protocol::{CommandError, ErrorCode};
use crate::rooms::room::Room;

/// Frees or hands over the seat, persisted before the ack.
pub(super) async fn handle(room: &mut Room, conn: ConnId) -> Result<After, CommandError> {
    let Some(seat) = room.seat_of_conn(conn) else {
        return Ok(After::Close); // a spectator just goes
    };
    let Some(player) = room.lobby.seats[seat].player_id.clone() else {
        return Ok(After::Close); // not their own seat (cannot happen: seats are found by player)
    };
    if room.lobby.status() == RoomStatus::Finished {
        return Ok(After::Close);
    }
    match room.leave(&player).await {
        Ok(()) => Ok(After::Close),
        Err(AppError::Internal(e)) => {
            tracing::error!(%e, "storing a leave failed");
            Err(CommandError::new(
                ErrorCode::Internal,
                "The server could not store that; nothing changed.",
            ))
        }
        Err(AppError::StorageUnavailable {
            maybe_stored,
            detail,
        }) => {
            tracing::warn!(%detail, maybe_stored, "storage unavailable: a leave was refused");
            Err(CommandError::storage_unavailable(
                maybe_stored,
                if maybe_stored {
                    MAYBE_STORED
                } else {
                    NOTHING_STORED
                },
            ))
        }
        // Seated in a room that is not finished: nothing else refuses a leave.
        Err(e @ AppError::NotSeated) => Err(CommandError::new(ErrorCode::NotSeated, e.to_string())),
        Err(e) => Err(CommandError::new(ErrorCode::Internal, e.to_string())),
    }
}

//! `{"type":"leave"}`: give up the seat (a bot takes it over while playing, and the game counts as a
//! loss for the person who left), then the connection is closed with 1000 `left`.

use super::After;
use crate::error::AppError;
use crate::model::RoomStatus;
use crate::rooms::hub::ConnId;
use crate::rooms::protocol::CommandError;
use crate::rooms::room::Room;

/// Frees or hands over the seat, persisted before the ack.
pub(super) async fn handle(room: &mut Room, conn: ConnId) -> Result<After, CommandError> {
    let Some(seat) = room.seat_of_conn(conn) else {
        return Ok(After::Close); // a spectator just goes
    };
    let Some(player) = room.lobby.seats[seat].player_id.clone() else {
        return Ok(After::Close); // not their own seat (cannot happen: seats are found by player)
    };
    let left = match room.lobby.status() {
        RoomStatus::Finished => return Ok(After::Close),
        RoomStatus::Playing => room.leave_running_game(seat, &player).await,
        RoomStatus::Waiting => leave_waiting_room(room, &player).await,
    };
    if let Err(e) = left {
        if matches!(e, AppError::Internal(_)) {
            tracing::error!(%e, "storing a leave failed");
            return Err(CommandError::new(
                "internal",
                "The server could not store that; nothing changed.",
            ));
        }
        return Err(CommandError::new(e.code(), e.to_string()));
    }
    room.after_leaving(&player).await;
    Ok(After::Close)
}

/// Gives up a seat in a waiting room (and the seats played at the player's device).
async fn leave_waiting_room(room: &mut Room, player: &str) -> Result<(), AppError> {
    let row = room.lobby.leave(player)?;
    room.db.update_seat(&room.lobby.room.id, &row).await?;
    room.seat_changed(row, None);
    room.free_local_seats(player, None).await
}

//! `{"type":"leave"}`: give up the seat (a bot takes it over while playing, and the game counts as a
//! loss for the person who left), then the connection is closed with 1000 `left`.

use super::After;
use crate::db::{SeatRow, now_ms};
use crate::model::RoomStatus;
use crate::rooms::hub::ConnId;
use crate::rooms::protocol::CommandError;
use crate::rooms::room::Room;
use crate::settings::DEFAULT_BOT_LEVEL;

/// Frees or hands over the seat, persisted before the ack.
pub(super) async fn handle(room: &mut Room, conn: ConnId) -> Result<After, CommandError> {
    let Some(seat) = room.seat_of_conn(conn) else {
        return Ok(After::Close); // a spectator just goes
    };
    let row = match room.lobby.status() {
        RoomStatus::Finished => return Ok(After::Close),
        RoomStatus::Waiting => {
            let player = room.lobby.seats[seat].player_id.clone().unwrap_or_default();
            room.lobby
                .leave(&player)
                .map_err(|e| CommandError::new(e.code(), e.to_string()))?
        }
        RoomStatus::Playing => SeatRow {
            player_id: None,
            display_name: None,
            bot_level: Some(DEFAULT_BOT_LEVEL.as_str().to_owned()),
            local_of: None,
            ..room.lobby.seats[seat].clone()
        },
    };
    // A person leaving a running game: the game still counts for them (as a loss), recorded with the seat.
    let leaver = match (&room.table, room.lobby.seats[seat].player_id.as_deref()) {
        (Some(table), Some(player)) if room.lobby.status() == RoomStatus::Playing => {
            Some((table.game_id.clone(), player.to_owned()))
        }
        _ => None,
    };
    let stored = match &leaver {
        Some((game_id, player)) => {
            room.db
                .leave_running_game(&room.lobby.room.id, game_id, &row, player, now_ms())
                .await
        }
        None => room.db.update_seat(&room.lobby.room.id, &row).await,
    };
    if let Err(e) = stored {
        tracing::error!(%e, "storing a leave failed");
        return Err(CommandError::new(
            "internal",
            "The server could not store that; nothing changed.",
        ));
    }
    let player = room.lobby.seats[seat].player_id.clone();
    let bot_level = row.bot_level.clone();
    room.seat_changed(row, None);
    if let Some(player) = player {
        // The people who played at this device go with it (to a bot, in a running game).
        if let Err(e) = room.free_local_seats(&player, bot_level.as_deref()).await {
            tracing::error!(%e, "storing a leave of the seats played at a device failed");
        }
        room.after_leaving(&player).await;
    }
    Ok(After::Close)
}

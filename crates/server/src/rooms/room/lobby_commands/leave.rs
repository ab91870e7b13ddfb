//! `POST /api/rooms/{id}/leave` (and the WebSocket `leave`): a player gives up their seat.

use crate::db::{SeatRow, now_ms};
use crate::error::AppError;
use crate::model::RoomStatus;
use crate::rooms::room::Room;
use crate::settings::{BotLevel, DEFAULT_BOT_LEVEL};

impl Room {
    /// `player_id` gives up their seat (REST `leave` and the WebSocket command): emptied while the room
    /// waits, handed to a bot while the game runs (`leave_running_game`); the seats played at their
    /// device go with it, and a waiting room they owned passes on.
    pub async fn leave(&mut self, player_id: &str) -> Result<(), AppError> {
        match self.lobby.seat_of(player_id) {
            Some(seat) if self.lobby.status() == RoomStatus::Playing => {
                self.leave_running_game(seat, player_id).await?;
            }
            _ => {
                let seat = self.lobby.leave(player_id)?;
                let locals = self.local_seats_freed(player_id, None);
                // One transaction: a failure leaves them seated, as the refusal says.
                let rows: Vec<SeatRow> = std::iter::once(seat).chain(locals).collect();
                self.db.update_seats(&self.lobby.room.id, &rows).await?;
                for row in rows {
                    self.seat_changed(row, None);
                }
            }
        }
        self.after_leaving(player_id).await;
        Ok(())
    }

    /// `player_id` leaves the running game at seat index `seat`: a bot plays it (and the seats played at
    /// their device) to the end, and the game counts as a loss for them (recorded with the seat, in one
    /// transaction); then it is shown to everyone.
    pub(in crate::rooms::room) async fn leave_running_game(
        &mut self,
        seat: usize,
        player_id: &str,
    ) -> Result<(), AppError> {
        let game_id = match &self.table {
            Some(table) if self.lobby.status() == RoomStatus::Playing => table.game_id.clone(),
            _ => return Err(AppError::RoomNotWaiting),
        };
        let row = SeatRow {
            player_id: None,
            display_name: None,
            bot_level: Some(DEFAULT_BOT_LEVEL),
            local_of: None,
            ..self.lobby.seats[seat].clone()
        };
        // The people who played at this device go with it, to bots too, in the same transaction.
        let locals = self.local_seats_freed(player_id, Some(DEFAULT_BOT_LEVEL));
        self.db
            .leave_running_game(
                &self.lobby.room.id,
                &game_id,
                &row,
                &locals,
                player_id,
                now_ms(),
            )
            .await?;
        self.seat_changed(row, None);
        for local in locals {
            self.seat_changed(local, None);
        }
        Ok(())
    }

    /// The seats played at `player_id`'s device as they are once that player left: emptied in a waiting
    /// room, or played by a bot at `bot_level` in a running game (as their own seat is). To be stored
    /// with the player's own seat, then shown.
    pub(in crate::rooms) fn local_seats_freed(
        &self,
        player_id: &str,
        bot_level: Option<BotLevel>,
    ) -> Vec<SeatRow> {
        self.lobby
            .local_seats_of(player_id)
            .into_iter()
            .map(|index| SeatRow {
                bot_level,
                ..SeatRow::empty(self.lobby.seats[index].seat)
            })
            .collect()
    }
}

//! `PUT /api/rooms/{id}/seats/{seat}` `{"bot": "<level>" | null}`: the owner of a waiting room puts a bot
//! in an empty seat, changes a bot's level, or takes a bot out (the seat is free for a person again).

use crate::db::SeatRow;
use crate::error::AppError;
use crate::model::RoomStatus;
use crate::rooms::room::Room;
use crate::settings::BotLevel;

impl Room {
    /// The index of seat `seat` in the lobby, once `player_id` is found to own the room: `not_room_owner`,
    /// then `seat_not_found`, then `room_not_waiting` (the checks both seat commands make first).
    pub(in crate::rooms) fn owned_waiting_seat(
        &self,
        player_id: &str,
        seat: i64,
    ) -> Result<usize, AppError> {
        if self.lobby.room.owner_id != player_id {
            return Err(AppError::NotRoomOwner);
        }
        let index = self
            .lobby
            .seats
            .iter()
            .position(|s| s.seat == seat)
            .ok_or(AppError::SeatNotFound)?;
        if self.lobby.status() != RoomStatus::Waiting {
            return Err(AppError::RoomNotWaiting);
        }
        Ok(index)
    }

    /// Puts a bot at `bot`'s level in seat `seat` (or empties it, for `None`): stored, then shown to every
    /// client. A seat a person holds (their own or one played at a device) is `seat_has_person`. Asking for
    /// what the seat already is changes nothing. A quick-match room whose last free seat takes a bot
    /// starts by itself, as when a person takes it.
    pub(in crate::rooms) async fn set_seat_bot(
        &mut self,
        player_id: &str,
        seat: i64,
        bot: Option<BotLevel>,
    ) -> Result<(), AppError> {
        let index = self.owned_waiting_seat(player_id, seat)?;
        let current = &self.lobby.seats[index];
        if current.holder().is_some() {
            return Err(AppError::SeatHasPerson);
        }
        let row = SeatRow {
            bot_level: bot,
            ..SeatRow::empty(current.seat)
        };
        let same = current.bot_level == bot;
        if same {
            return Ok(());
        }
        self.db.update_seat(&self.lobby.room.id, &row).await?;
        tracing::info!(room = %self.lobby.room.id, seat, bot = ?bot, "the owner changed a seat");
        self.seat_changed(row, None);
        if self.lobby.starts_by_itself() {
            self.start_by_itself().await;
        }
        Ok(())
    }
}

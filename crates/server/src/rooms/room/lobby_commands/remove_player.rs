//! `DELETE /api/rooms/{id}/seats/{seat}`: the owner of a waiting room removes the person at a seat. Their
//! seat (and those played at their device) is emptied, and they may not take a seat in the room again
//! (`removed_from_room`; quick match passes the room by). Their open connections stay, as a spectator's,
//! and are told in a new `hello` (`"removed": true`) so that the page can say why.

use crate::db::{SeatRow, now_ms};
use crate::error::AppError;
use crate::rooms::room::Room;

impl Room {
    /// Removes the person at seat `seat`: stored (seats and removal in one transaction), then shown to
    /// every client. The owner's own seat is `cannot_remove_self` (they leave instead); an empty or bot
    /// seat is `no_person_at_seat`. A seat played at another player's device is only emptied: nobody's
    /// player is behind it to keep out.
    pub(in crate::rooms) async fn remove_player(
        &mut self,
        player_id: &str,
        seat: i64,
    ) -> Result<(), AppError> {
        let index = self.owned_waiting_seat(player_id, seat)?;
        let current = self.lobby.seats[index].clone();
        if current.player_id.as_deref() == Some(player_id) {
            return Err(AppError::CannotRemoveSelf);
        }
        let Some(removed) = current.player_id.clone() else {
            if current.local_of.is_none() {
                return Err(AppError::NoPersonAtSeat);
            }
            let row = SeatRow::empty(current.seat);
            self.db.update_seat(&self.lobby.room.id, &row).await?;
            self.seat_changed(row, None);
            return Ok(());
        };
        let rows: Vec<SeatRow> = std::iter::once(SeatRow::empty(current.seat))
            .chain(self.local_seats_freed(&removed, None))
            .collect();
        self.db
            .remove_from_room(&self.lobby.room.id, &rows, &removed, now_ms())
            .await?;
        tracing::info!(room = %self.lobby.room.id, player = %removed, "the owner removed a player");
        // Before the seat changes: the `hello` it sends their connections says they were removed.
        self.removed.insert(removed);
        for row in rows {
            self.seat_changed(row, None);
        }
        Ok(())
    }
}

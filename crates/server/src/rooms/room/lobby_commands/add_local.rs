//! `POST /api/rooms/{id}/local-players`: a seated player seats a person who plays at their device (pass
//! and play) while the room waits.

use crate::error::AppError;
use crate::rooms::room::Room;

impl Room {
    /// Seats `name` at `player_id`'s device (the first free seat for `None`): stored, then shown; a
    /// quick-match room that this fills starts.
    pub(in crate::rooms::room) async fn add_local(
        &mut self,
        player_id: &str,
        name: &str,
        seat: Option<i64>,
    ) -> Result<(), AppError> {
        let seat = self.lobby.add_local(player_id, name, seat)?;
        self.db.update_seat(&self.lobby.room.id, &seat).await?;
        self.seat_changed(seat, None);
        if self.lobby.starts_by_itself() {
            self.start_by_itself().await;
        }
        Ok(())
    }
}

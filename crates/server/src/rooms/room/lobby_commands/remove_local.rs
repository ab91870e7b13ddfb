//! `DELETE /api/rooms/{id}/local-players/{seat}`: a seated player frees a seat played at their device
//! while the room waits.

use crate::error::AppError;
use crate::rooms::room::Room;

impl Room {
    /// Frees seat `seat`, played at `player_id`'s device: stored, then shown.
    pub(in crate::rooms::room) async fn remove_local(
        &mut self,
        player_id: &str,
        seat: i64,
    ) -> Result<(), AppError> {
        let seat = self.lobby.remove_local(player_id, seat)?;
        self.db.update_seat(&self.lobby.room.id, &seat).await?;
        self.seat_changed(seat, None);
        Ok(())
    }
}

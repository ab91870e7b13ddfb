//! `POST /api/rooms/{id}/join` (and quick match): a person takes a free seat, or changes the colour they
//! would like if seated already.

use parchis_rules::Colour;

use crate::error::AppError;
use crate::model::RoomStatus;
use crate::rooms::room::Room;

impl Room {
    /// Seats `player_id` (stored, then shown): refused to someone the owner removed. The first to sit in
    /// a room nobody seated owns becomes its owner; a full quick-match room starts.
    pub(in crate::rooms::room) async fn join(
        &mut self,
        player_id: String,
        display_name: &str,
        preferred_colour: Option<Colour>,
        code: Option<&str>,
    ) -> Result<(), AppError> {
        // Asked of storage, not only of the set loaded with the room: a room whose removals
        // could not be loaded still keeps out whoever its owner removed.
        if self.lobby.seat_of(&player_id).is_none()
            && (self.removed.contains(&player_id)
                || self
                    .db
                    .removed_from_room(&self.lobby.room.id, &player_id)
                    .await?)
        {
            return Err(AppError::RemovedFromRoom);
        }
        let Some(seat) = self
            .lobby
            .join(&player_id, display_name, preferred_colour, code)?
        else {
            return Ok(());
        };
        // Read when the person sits down (a new colour wish keeps the one shown).
        let rating = match self.seat_of_player(&player_id) {
            Some(index) => self.lobby.rating(index),
            None => Self::rating_of(&self.db, self.rules_name(), &player_id).await?,
        };
        self.db.update_seat(&self.lobby.room.id, &seat).await?;
        self.seat_changed(seat, rating);
        // Everyone left, the owner last (with nobody to hand the room to): whoever sits
        // down first owns it, or nobody there could start it (the owner may even be
        // watching still, so the room would never be handed over for them being away).
        if self.lobby.status() == RoomStatus::Waiting
            && self.lobby.room.owner_id != player_id
            && self.lobby.seat_of(&self.lobby.room.owner_id).is_none()
        {
            self.hand_over(player_id).await;
        }
        if self.lobby.starts_by_itself() {
            self.start_by_itself().await;
        }
        Ok(())
    }
}

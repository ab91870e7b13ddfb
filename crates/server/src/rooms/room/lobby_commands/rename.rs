//! A seated player renamed themself (`PATCH /api/players/me`): the new name is shown at once.

use crate::rooms::room::Room;

impl Room {
    /// A seated player's new name, shown at once. Only the name changes: the seat keeps its presence, its
    /// bot cover and its turn.
    pub(in crate::rooms::room) fn show_name(&mut self, player_id: &str, display_name: &str) {
        if self.lobby.rename(player_id, display_name) {
            let _ = self.events.send(self.lobby.lobby_event());
            self.publish(&[]);
        }
    }
}

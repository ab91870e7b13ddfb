//! A player was erased (`DELETE /api/players/me`, stored already): the room shows the stand-in name,
//! forgets what they wrote and closes their sockets.

use crate::rooms::lobby::Revoked;
use crate::rooms::room::Room;

impl Room {
    /// Shows `display_name` in place of `player_id` (and of the names at their device), unrated, and
    /// closes every socket they opened.
    pub(in crate::rooms::room) fn erase(&mut self, player_id: &str, display_name: &str) {
        // Their ratings went with the rest of their data.
        let unrated = self.lobby.set_rating(player_id, None);
        self.show_name(player_id, display_name);
        if self.lobby.erase_local_names(player_id, display_name) {
            let _ = self.events.send(self.lobby.lobby_event());
            self.publish(&[]);
        }
        if unrated {
            self.publish(&[]);
        }
        // Clients that reconnect or reload no longer get the messages; what is already on a
        // screen stays there until then.
        self.chat.forget_player(player_id);
        self.close_revoked(player_id, &Revoked::All);
    }
}

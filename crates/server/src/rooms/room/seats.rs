//! Who is who: the seats, the people and bots in them, and which connection acts for which seat.

use std::time::Instant;

use super::Room;
use crate::db::SeatRow;
use crate::model::Rating;
use crate::rooms::hub::ConnId;
use crate::settings::BotLevel;

impl Room {
    /// Seat of a player, if seated.
    pub fn seat_of_player(&self, player_id: &str) -> Option<usize> {
        self.lobby
            .seats
            .iter()
            .position(|s| s.player_id.as_deref() == Some(player_id))
    }

    /// Seat of the player behind a connection.
    pub fn seat_of_conn(&self, conn: ConnId) -> Option<usize> {
        let player = self.hub.conn(conn)?.player_id.as_deref()?;
        self.seat_of_player(player)
    }

    /// The player who acts for a seat: its own, or the one at whose device it is played.
    pub(super) fn holder(&self, seat: usize) -> Option<&str> {
        self.lobby.seats.get(seat).and_then(SeatRow::holder)
    }

    /// Whether a person (not a bot, not nobody) plays the seat.
    pub(super) fn human(&self, seat: usize) -> bool {
        self.holder(seat).is_some()
    }

    /// The seats a player acts for: their own and those played at their device.
    pub(super) fn seats_held_by<'a>(
        &'a self,
        player_id: &'a str,
    ) -> impl Iterator<Item = usize> + 'a {
        self.lobby
            .seats
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.holder() == Some(player_id))
            .map(|(i, _)| i)
    }

    /// Whether any connection of the seat's player (or of the player at whose device it is played) is
    /// open.
    pub(super) fn connected(&self, seat: usize) -> bool {
        let Some(player) = self.holder(seat) else {
            return false;
        };
        self.hub
            .conns()
            .any(|(_, c)| c.player_id.as_deref() == Some(player))
    }

    /// Bot level of a bot seat.
    pub(super) fn bot_level(&self, seat: usize) -> Option<BotLevel> {
        self.lobby.seats.get(seat).and_then(|s| s.bot_level)
    }

    /// A seat row was persisted: apply it (with the rating of the person now in it), keep presence
    /// right, broadcast. A player who took or gave up the seat is told their new seat on every
    /// connection they have open (another device may be watching, or playing, the room).
    pub fn seat_changed(&mut self, seat: crate::db::SeatRow, rating: Option<Rating>) {
        let index = usize::try_from(seat.seat).unwrap_or(usize::MAX);
        let before = self
            .lobby
            .seats
            .iter()
            .find(|s| s.seat == seat.seat)
            .and_then(|s| s.player_id.clone());
        let after = seat.player_id.clone();
        self.lobby.apply_seat(seat, rating);
        if index < self.away_since.len() {
            self.away_since[index] =
                (self.human(index) && !self.connected(index)).then(Instant::now);
            self.bot_playing[index] = false;
            self.preselected[index] = None;
        }
        let _ = self.events.send(self.lobby.lobby_event());
        self.publish(&[]);
        if before != after {
            // After the state that shows the change, as at a seat draw.
            let moved: Vec<ConnId> = self
                .hub
                .conns()
                .filter(|(_, c)| {
                    c.player_id.is_some() && (c.player_id == before || c.player_id == after)
                })
                .map(|(id, _)| *id)
                .collect();
            for conn in moved {
                self.send_hello(conn);
            }
        }
    }
}

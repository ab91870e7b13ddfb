//! The public state every client sees (built, compared, published) and the private messages to one
//! connection (`hello`, previews, snapshot, chat).

use std::time::Instant;

use parchis_rules::{Event, Phase};

use super::{Room, SPECTATORS_EVERY};
use crate::db::Occupant;
use crate::model::Acted;
use crate::rooms::hub::ConnId;
use crate::rooms::messages;
use crate::rooms::protocol::Outbound;
use crate::rooms::public_state::{
    GameFields, GamePart, LobbyState, PublicParts, RoomState, SeatState, SeatStatus,
};
use crate::settings::BotLevel;

impl Room {
    /// Which seats have a connection of their player (bit per seat), and how many
    /// connections are spectators: one pass over the connections.
    pub(super) fn presence(&self) -> (u64, usize) {
        let mut connected = 0u64;
        let mut spectators = 0;
        for (_, c) in self.hub.conns() {
            let mut seated = false;
            if let Some(player) = c.player_id.as_deref() {
                for seat in self.seats_held_by(player) {
                    seated = true;
                    if seat < 64 {
                        connected |= 1 << seat;
                    }
                }
            }
            if !seated {
                spectators += 1;
            }
        }
        (connected, spectators)
    }

    /// `(bot, status, bot_playing, label)` of seat `i` in the public state.
    pub(super) fn seat_status(
        &self,
        i: usize,
        connected: u64,
    ) -> (Option<BotLevel>, SeatStatus, bool, &'static str) {
        let covered = self.bot_playing.get(i).copied().unwrap_or(false);
        match self.lobby.seats[i].occupant() {
            Occupant::Bot(level) => (Some(level), SeatStatus::Bot, true, "bot"),
            Occupant::Nobody => (None, SeatStatus::Empty, covered, "empty"),
            Occupant::Player { .. } | Occupant::AtDeviceOf { .. } => {
                let (status, label) = if i < 64 && connected & (1 << i) != 0 {
                    (SeatStatus::Connected, "connected")
                } else if covered {
                    (SeatStatus::Away, "away (bot playing)")
                } else {
                    (SeatStatus::Away, "away")
                };
                (None, status, covered, label)
            }
        }
    }

    /// The lobby part of the public state.
    pub(super) fn lobby_state(&self, connected: u64, spectators: usize) -> LobbyState {
        let room = &self.lobby.room;
        let seats = self
            .lobby
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let (bot, status, bot_playing, label) = self.seat_status(i, connected);
                SeatState {
                    seat: s.seat,
                    player_id: s.player_id.clone(),
                    local_of: s.local_of.clone(),
                    display_name: s.display_name.clone(),
                    rating: self.lobby.rating(i),
                    bot,
                    status,
                    bot_playing,
                    label,
                }
            })
            .collect();
        LobbyState {
            room: RoomState {
                id: room.id.clone(),
                status: room.status,
                owner_id: room.owner_id.clone(),
                settings: room.settings.0.clone(),
            },
            seats,
            spectators,
        }
    }

    /// Whether [`Room::lobby_state`] would differ from `old` (compared in place, nothing cloned).
    pub(super) fn lobby_differs(
        &self,
        old: &LobbyState,
        connected: u64,
        spectators: usize,
    ) -> bool {
        // Destructured so that a field added to the state fails to compile here until compared.
        let LobbyState {
            room: old_room,
            seats: old_seats,
            spectators: old_spectators,
        } = old;
        let RoomState {
            id,
            status,
            owner_id,
            settings,
        } = old_room;
        let room = &self.lobby.room;
        if *old_spectators != spectators
            || *id != room.id
            || *status != room.status
            || *owner_id != room.owner_id
            || *settings != room.settings.0
            || old_seats.len() != self.lobby.seats.len()
        {
            return true;
        }
        self.lobby
            .seats
            .iter()
            .zip(old_seats)
            .enumerate()
            .any(|(i, (s, old))| {
                let SeatState {
                    seat,
                    player_id,
                    local_of,
                    display_name,
                    rating,
                    bot,
                    status,
                    bot_playing,
                    label,
                } = old;
                (*bot, *status, *bot_playing, *label) != self.seat_status(i, connected)
                    || *seat != s.seat
                    || *player_id != s.player_id
                    || *local_of != s.local_of
                    || *display_name != s.display_name
                    || *rating != self.lobby.rating(i)
            })
    }

    /// The public state every client sees (PROTOCOL.md §2 `snapshot.state`), in
    /// parts: the room/seats/spectators fields, and the game's small fields plus
    /// the game itself (its `view` is built by the hub only when it changed).
    pub fn public_parts(&self) -> PublicParts {
        let (connected, spectators) = self.presence();
        PublicParts {
            lobby: self.lobby_state(connected, spectators),
            game: self.game_part(),
        }
    }

    /// The lobby part if it differs from the one last published (`None`: unchanged).
    pub(super) fn changed_lobby(&self) -> Option<LobbyState> {
        let (connected, spectators) = self.presence();
        self.lobby_differs(self.hub.lobby(), connected, spectators)
            .then(|| self.lobby_state(connected, spectators))
    }

    /// The game part of the public state.
    pub(super) fn game_part(&self) -> Option<GamePart> {
        self.table.as_ref().map(|t| GamePart {
            fields: GameFields {
                id: t.game_id.clone(),
                seed_hash: t.seed_hash.clone(),
                seed: t.revealed_seed().map(str::to_owned),
                rolls: t.rolls,
                last_roll: t.last_roll,
                deadline_ms: self.deadline_ms(),
                result: t.result.clone(),
            },
            game: t.game,
        })
    }

    /// Publishes the current state with `events`; copes with clients dropped as too slow. The whole
    /// state is compared, so a spectator count waiting to be shown goes out with it.
    pub fn publish(&mut self, events: &[Event]) {
        self.publish_acted(None, events);
    }

    /// [`Room::publish`] of the update of a roll or move, which says who made it (`acted`).
    pub fn publish_acted(&mut self, acted: Option<Acted>, events: &[Event]) {
        let shown = self.hub.lobby().spectators;
        let mut events = events;
        let mut acted = acted;
        loop {
            let dropped = self
                .hub
                .publish(acted, events, self.changed_lobby(), self.game_part());
            if dropped.is_empty() {
                break;
            }
            for conn in dropped {
                self.forget(conn, None);
            }
            events = &[];
            acted = None;
        }
        self.spectators_due = None;
        if self.hub.lobby().spectators != shown {
            self.spectators_shown = Some(Instant::now());
        }
    }

    /// Only the spectator count changed (a connection without a seat came or went): shown at once if
    /// it was not changed in the last [`SPECTATORS_EVERY`], otherwise once that has passed
    /// ([`Room::spectators_due`]), or sooner with any other update.
    pub(super) fn spectators_changed(&mut self) {
        if self.spectators_due.is_some() {
            return;
        }
        match self.spectators_shown.map(|at| at + SPECTATORS_EVERY) {
            Some(next) if next > Instant::now() => self.spectators_due = Some(next),
            _ => self.publish(&[]),
        }
    }

    /// When the spectator count waiting to be shown is due, if one waits.
    pub fn spectators_due(&self) -> Option<Instant> {
        self.spectators_due
    }

    /// Publishes the spectator count that waited for its turn (`publish` clears the wait).
    pub fn show_spectators(&mut self) {
        self.publish(&[]);
    }

    /// Whether a connection is a spectator's: it acts for no seat (anonymous, or a player not seated
    /// here). Its coming and going changes only the spectator count.
    pub(super) fn is_spectator(&self, conn: ConnId) -> bool {
        match self.hub.conn(conn).and_then(|c| c.player_id.as_deref()) {
            Some(player) => self.seats_held_by(player).next().is_none(),
            None => true,
        }
    }

    /// Queues a private message to one connection. One that cannot take it (too slow) is dropped and
    /// shown gone at once, as when a broadcast finds it full: dropping a client takes filling its whole
    /// queue, so this is no cheap way to make the room publish.
    pub fn reply(&mut self, conn: ConnId, message: Outbound) {
        if !self.hub.send(conn, message) {
            self.forget(conn, None);
            self.publish(&[]);
        }
    }

    /// Sends the next-roll preview to the connections of the seat about to roll
    /// (only `only` if given), when the room shows previews.
    pub fn send_previews(&mut self, only: Option<ConnId>) {
        if !self.lobby.room.settings.0.preview_next_roll {
            return;
        }
        let Some(table) = &self.table else { return };
        if table.game.phase() != Phase::Roll {
            return;
        }
        let seat = usize::from(table.game.seat());
        // A seat played at another player's device shows its preview there.
        let Some(player) = self.holder(seat).map(str::to_owned) else {
            return;
        };
        let message = messages::preview(table.rolls, table.next_die());
        let targets: Vec<ConnId> = self
            .hub
            .conns()
            .filter(|(id, c)| {
                c.player_id.as_deref() == Some(player.as_str()) && only.is_none_or(|o| o == **id)
            })
            .map(|(id, _)| *id)
            .collect();
        for id in targets {
            self.reply(id, message.clone());
        }
    }

    /// Sends the snapshot, `hello` and the recent chat to one connection.
    pub fn send_snapshot(&mut self, conn: ConnId) {
        let snapshot = self.hub.snapshot();
        self.reply(conn, snapshot);
        self.send_hello(conn);
        let history = self.chat.history();
        self.reply(conn, history);
    }

    /// Sends a stored chat message to every connection, and keeps it for later arrivals.
    pub fn broadcast_chat(&mut self, row: crate::db::ChatRow, now: Instant) {
        let message = messages::chat(&row);
        self.chat.push(row, now);
        let dropped = self.hub.broadcast(&message);
        if !dropped.is_empty() {
            for conn in dropped {
                self.forget(conn, None);
            }
            self.publish(&[]);
        }
    }

    /// `hello`: who the server thinks this connection is.
    pub(super) fn send_hello(&mut self, conn: ConnId) {
        let player = self.hub.conn(conn).and_then(|c| c.player_id.clone());
        let seat = self.seat_of_conn(conn);
        let removed = player.as_ref().is_some_and(|p| self.removed.contains(p));
        let hello = messages::hello(player.as_deref(), seat, removed);
        self.reply(conn, hello);
    }
}

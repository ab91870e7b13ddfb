//! Lobby state of one room and the pure rules for joining, leaving and starting.
//! No I/O here: the room task persists what these functions decide.

use rand::seq::SliceRandom;
use serde::Serialize;

use crate::auth;
use crate::db::{GameRow, NewGame, RoomRow, SeatRow, StoredColour, now_ms};
use crate::error::AppError;
use crate::model::{Rating, RoomStatus, SeatView};
use crate::settings::{BotLevel, Colour, DEFAULT_BOT_LEVEL};

/// A request to a room's task. Replies carry the room's state afterwards. Serialisable: cluster nodes
/// pass it to the room's owner.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub enum RoomCommand {
    /// Just report the current state.
    Snapshot,
    /// Take a free seat (or update your colour wish if already seated).
    Join {
        /// Player joining.
        player_id: String,
        /// Their display name, kept in the seat for views.
        display_name: String,
        /// Colour they would like.
        preferred_colour: Option<Colour>,
        /// Join code they presented (needed for private rooms).
        code: Option<String>,
    },
    /// Seat a person who plays at your device (pass and play) while the room is waiting.
    AddLocal {
        /// Seated player at whose device the person plays (and who acts for the seat).
        player_id: String,
        /// The name shown for the seat (validated already).
        name: String,
        /// The seat asked for; `None`: the first free one.
        seat: Option<i64>,
    },
    /// Free a seat played at your device while the room is waiting.
    RemoveLocal {
        /// Player at whose device the seat was played.
        player_id: String,
        /// The seat.
        seat: i64,
    },
    /// The owner puts a bot at `bot`'s level in an empty or bot seat, changes its level, or (`None`)
    /// takes the bot out, while the room is waiting.
    SetSeatBot {
        /// Player asking (must own the room).
        player_id: String,
        /// The seat.
        seat: i64,
        /// The bot's level; `None`: empty the seat.
        bot: Option<BotLevel>,
    },
    /// The owner removes the person at `seat` while the room is waiting: the seat (with those played at
    /// their device) is emptied, and they may not take a seat in the room again.
    RemovePlayer {
        /// Player asking (must own the room).
        player_id: String,
        /// The seat.
        seat: i64,
    },
    /// Give up your seat while the room is still waiting (with the seats played at your device).
    Leave {
        /// Player leaving.
        player_id: String,
    },
    /// Start the game (owner only); empty seats become bots.
    Start {
        /// Player asking to start.
        player_id: String,
    },
    /// A seated player chose another display name (already stored): show it from now on.
    Rename {
        /// Player who renamed themselves.
        player_id: String,
        /// Their new name.
        display_name: String,
    },
    /// A player was erased (stored already): show the stand-in name and drop what they wrote; their
    /// sockets close (no token of theirs works any more).
    Erase {
        /// Player erased.
        player_id: String,
        /// The name shown in their place.
        display_name: String,
    },
    /// Tokens of a player were revoked (stored already): the sockets opened with them close, so that a
    /// device signed out can no longer act through a connection it opened before.
    Revoke {
        /// Whose tokens.
        player_id: String,
        /// Which of them.
        tokens: Revoked,
    },
}

/// The tokens of one player that a [`RoomCommand::Revoke`] revoked, by their hashes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Revoked {
    /// Every one (the player was erased).
    All,
    /// Every one but this (a new password, or signing the other devices out: this device stays signed in).
    AllBut(String),
    /// Only this one (that device signed out).
    One(String),
}

impl Revoked {
    /// Whether a socket opened with the token of this hash is cut off.
    pub fn covers(&self, token_hash: Option<&str>) -> bool {
        match self {
            Revoked::All => true,
            Revoked::AllBut(kept) => token_hash != Some(kept.as_str()),
            Revoked::One(gone) => token_hash == Some(gone.as_str()),
        }
    }
}

/// Broadcast to a room's subscribers after every change.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RoomEvent {
    /// Seats or status changed; carries the new seat list and status.
    LobbyChanged {
        /// Room status after the change.
        status: RoomStatus,
        /// Seats after the change.
        seats: Vec<crate::model::SeatView>,
    },
    /// The owner started the game.
    GameStarted {
        /// Id of the new game.
        game_id: String,
    },
}

/// A consistent copy of a room's state, as returned to handlers (and relayed between cluster nodes).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct RoomSnapshot {
    /// The room row (settings, owner, code, status).
    pub room: RoomRow,
    /// Seats in order.
    pub seats: Vec<SeatRow>,
    /// The rating of each seat's person in the room's rules, in seat order (`None`: no person, or no
    /// rating yet).
    pub ratings: Vec<Option<Rating>>,
    /// Latest game of the room, if started.
    pub game_id: Option<String>,
    /// Seated players with an open realtime connection right now (the public list shows only rooms
    /// someone is waiting in).
    pub players_connected: usize,
}

/// Lobby state owned by a room task.
#[derive(Debug, Clone)]
pub struct Lobby {
    /// The room row; `status` is kept up to date here.
    pub room: RoomRow,
    /// Seats in order.
    pub seats: Vec<SeatRow>,
    /// The rating of each seat's person in the room's rules, in seat order: loaded by the room task when
    /// the person sits down or the room is loaded, replaced when a rated game ends (never read on the
    /// roll/move path).
    pub ratings: Vec<Option<Rating>>,
    /// Latest game of the room, if started.
    pub game_id: Option<String>,
}

/// What `start` decided: the game row to insert and the seats to write.
#[derive(Debug, Clone)]
pub struct StartPlan {
    /// Game to insert.
    pub game: NewGame,
    /// All seats after filling empty ones with bots.
    pub seats: Vec<SeatRow>,
}

impl Lobby {
    /// Builds the lobby from stored rows.
    pub fn new(room: RoomRow, seats: Vec<SeatRow>, latest_game: Option<GameRow>) -> Self {
        Lobby {
            room,
            ratings: vec![None; seats.len()],
            seats,
            game_id: latest_game.map(|g| g.id),
        }
    }

    /// Copy for handlers.
    pub fn snapshot(&self) -> RoomSnapshot {
        RoomSnapshot {
            room: self.room.clone(),
            seats: self.seats.clone(),
            ratings: self.ratings.clone(),
            game_id: self.game_id.clone(),
            players_connected: 0,
        }
    }

    /// Current status.
    pub fn status(&self) -> RoomStatus {
        self.room.status
    }

    /// The index of the seat `player_id` sits in (their own, not one played at their device).
    pub fn seat_of(&self, player_id: &str) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.player_id.as_deref() == Some(player_id))
    }

    fn colour_taken(&self, colour: Colour, except_seat: Option<usize>) -> bool {
        self.seats.iter().enumerate().any(|(i, s)| {
            Some(i) != except_seat
                && s.holder().is_some()
                && s.preferred_colour.map(|c| c.0) == Some(colour)
        })
    }

    /// Decides a join; returns the seat to write, or `None` if nothing changes.
    pub fn join(
        &self,
        player_id: &str,
        display_name: &str,
        preferred_colour: Option<Colour>,
        code: Option<&str>,
    ) -> Result<Option<SeatRow>, AppError> {
        if let Some(index) = self.seat_of(player_id) {
            // Already seated: joining again is idempotent, apart from a new colour wish.
            let seat = &self.seats[index];
            return match preferred_colour {
                Some(c) if seat.preferred_colour.map(|c| c.0) != Some(c) => {
                    if self.status() != RoomStatus::Waiting {
                        return Err(AppError::RoomNotWaiting);
                    }
                    if self.colour_taken(c, Some(index)) {
                        return Err(AppError::ColourTaken);
                    }
                    Ok(Some(SeatRow {
                        preferred_colour: Some(StoredColour(c)),
                        ..seat.clone()
                    }))
                }
                _ => Ok(None),
            };
        }
        if self.status() != RoomStatus::Waiting {
            return Err(AppError::RoomNotWaiting);
        }
        let code_ok = code.is_some_and(|c| c.trim().eq_ignore_ascii_case(&self.room.join_code));
        if !self.room.settings.public && !code_ok && self.room.owner_id != player_id {
            return Err(AppError::WrongJoinCode);
        }
        if let Some(c) = preferred_colour
            && self.colour_taken(c, None)
        {
            return Err(AppError::ColourTaken);
        }
        let free = self
            .seats
            .iter()
            .find(|s| s.is_free())
            .ok_or(AppError::RoomFull)?;
        Ok(Some(SeatRow {
            seat: free.seat,
            player_id: Some(player_id.to_owned()),
            display_name: Some(display_name.to_owned()),
            bot_level: None,
            preferred_colour: preferred_colour.map(StoredColour),
            local_of: None,
        }))
    }

    /// Decides seating a person at a seated player's device (pass and play): at `seat`, or the first free
    /// seat when `None`, played by `player_id` under `name`. Only while waiting, and only for a player
    /// seated here.
    pub fn add_local(
        &self,
        player_id: &str,
        name: &str,
        seat: Option<i64>,
    ) -> Result<SeatRow, AppError> {
        self.seat_of(player_id).ok_or(AppError::NotSeated)?;
        if self.status() != RoomStatus::Waiting {
            return Err(AppError::RoomNotWaiting);
        }
        let free = match seat {
            None => self
                .seats
                .iter()
                .find(|s| s.is_free())
                .ok_or(AppError::RoomFull)?,
            Some(asked) => {
                let at = self.seats.iter().find(|s| s.seat == asked).ok_or_else(|| {
                    AppError::InvalidBody(format!(
                        "seat: this room's seats are 0 to {}.",
                        self.seats.len() - 1
                    ))
                })?;
                if !at.is_free() {
                    return Err(AppError::SeatTaken);
                }
                at
            }
        };
        Ok(SeatRow {
            display_name: Some(name.to_owned()),
            local_of: Some(player_id.to_owned()),
            ..SeatRow::empty(free.seat)
        })
    }

    /// Decides removing the person `player_id` seated at their device at `seat`: the emptied seat. Only
    /// while waiting.
    pub fn remove_local(&self, player_id: &str, seat: i64) -> Result<SeatRow, AppError> {
        let theirs = self
            .seats
            .iter()
            .any(|s| s.seat == seat && s.local_of.as_deref() == Some(player_id));
        if !theirs {
            return Err(AppError::LocalPlayerNotFound);
        }
        if self.status() != RoomStatus::Waiting {
            return Err(AppError::RoomNotWaiting);
        }
        Ok(SeatRow::empty(seat))
    }

    /// Indices of the seats played at `player_id`'s device by other people.
    pub fn local_seats_of(&self, player_id: &str) -> Vec<usize> {
        self.seats
            .iter()
            .enumerate()
            .filter(|(_, s)| s.local_of.as_deref() == Some(player_id))
            .map(|(i, _)| i)
            .collect()
    }

    /// Shows `stand_in` for the people who played at an erased player's device (their names were
    /// that player's data, erased with it); false when there are none.
    pub fn erase_local_names(&mut self, player_id: &str, stand_in: &str) -> bool {
        let mut changed = false;
        for s in &mut self.seats {
            if s.local_of.as_deref() == Some(player_id) {
                s.display_name = Some(stand_in.to_owned());
                changed = true;
            }
        }
        changed
    }

    /// Decides a leave; returns the emptied seat to write.
    pub fn leave(&self, player_id: &str) -> Result<SeatRow, AppError> {
        let index = self.seat_of(player_id).ok_or(AppError::NotSeated)?;
        if self.status() != RoomStatus::Waiting {
            // A running game is left through `Room::leave_running_game` (the seat goes to a bot).
            return Err(AppError::RoomNotWaiting);
        }
        Ok(SeatRow::empty(self.seats[index].seat))
    }

    /// Whether a seat is left for a human (neither a player, a person at a player's device, nor a bot
    /// sits there).
    pub fn has_free_seat(&self) -> bool {
        self.seats.iter().any(SeatRow::is_free)
    }

    /// Whether the room starts by itself now: a waiting quick-match room whose seats are all taken.
    pub fn starts_by_itself(&self) -> bool {
        self.room.settings.quick_match
            && self.status() == RoomStatus::Waiting
            && !self.has_free_seat()
    }

    /// Decides a start: owner only, while waiting, with a person seated (an owner who left a room everyone
    /// left would start a game of bots alone: `not_seated`); empty seats become bots.
    pub fn start(&self, player_id: &str) -> Result<StartPlan, AppError> {
        if self.room.owner_id != player_id {
            return Err(AppError::NotRoomOwner);
        }
        if self.status() == RoomStatus::Waiting && self.seats.iter().all(|s| s.player_id.is_none())
        {
            return Err(AppError::NotSeated);
        }
        self.plan_start()
    }

    /// Decides a start whoever asks (the owner's, or a full quick-match room's own); empty seats become bots.
    pub fn plan_start(&self) -> Result<StartPlan, AppError> {
        if self.status() != RoomStatus::Waiting {
            return Err(AppError::RoomNotWaiting);
        }
        let mut seats: Vec<SeatRow> = self
            .seats
            .iter()
            .map(|s| {
                let mut s = s.clone();
                if s.is_free() {
                    s.bot_level = Some(DEFAULT_BOT_LEVEL);
                }
                s
            })
            .collect();
        if self.room.settings.draw_seats {
            draw_seats(&mut seats);
        }
        let seed = auth::new_seed();
        let seed_hash = parchis_proof::dice::decode_seed(&seed)
            .map(|bytes| parchis_proof::dice::seed_hash(&bytes))
            .unwrap_or_default();
        Ok(StartPlan {
            game: NewGame {
                id: auth::new_id(),
                room_id: self.room.id.clone(),
                seed_hash,
                seed,
                started_at: now_ms(),
            },
            seats,
        })
    }

    /// Writes a decided seat change into the state (after it was persisted), with the rating of the
    /// person now in the seat.
    pub fn apply_seat(&mut self, seat: SeatRow, rating: Option<Rating>) {
        if let Some(index) = self.seats.iter().position(|s| s.seat == seat.seat) {
            self.ratings[index] = rating.filter(|_| seat.player_id.is_some());
            self.seats[index] = seat;
        }
    }

    /// The rating shown at seat `index`.
    pub fn rating(&self, index: usize) -> Option<Rating> {
        self.ratings.get(index).copied().flatten()
    }

    /// Shows `rating` at the seat of `player_id` (if they sit here); false when nothing changed.
    pub fn set_rating(&mut self, player_id: &str, rating: Option<Rating>) -> bool {
        let Some(index) = self.seat_of(player_id) else {
            return false;
        };
        let changed = self.ratings[index] != rating;
        self.ratings[index] = rating;
        changed
    }

    /// The seats as clients see them, with their ratings.
    pub fn seat_views(&self) -> Vec<SeatView> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| s.view(self.rating(i)))
            .collect()
    }

    /// Shows a seated player's new display name (stored already, in `players`); false when they do not
    /// sit here or the name is the same.
    pub fn rename(&mut self, player_id: &str, display_name: &str) -> bool {
        let Some(index) = self.seat_of(player_id) else {
            return false;
        };
        let seat = &mut self.seats[index];
        if seat.display_name.as_deref() == Some(display_name) {
            return false;
        }
        seat.display_name = Some(display_name.to_owned());
        true
    }

    /// Writes a persisted start into the state (each rating follows its person to a drawn seat).
    pub fn apply_start(&mut self, plan: StartPlan) {
        self.ratings = plan
            .seats
            .iter()
            .map(|s| {
                let person = s.player_id.as_deref()?;
                self.rating(self.seat_of(person)?)
            })
            .collect();
        self.seats = plan.seats;
        self.room.status = RoomStatus::Playing;
        self.game_id = Some(plan.game.id);
    }

    /// Event describing the current lobby.
    pub fn lobby_event(&self) -> RoomEvent {
        RoomEvent::LobbyChanged {
            status: self.status(),
            seats: self.seat_views(),
        }
    }
}

/// Draws who sits where: the occupants (people, people at a device, bots) shuffled over the seats, each seat
/// keeping its index. From the thread's generator, seeded by the operating system: nobody can steer it.
fn draw_seats(seats: &mut [SeatRow]) {
    let mut occupants = seats.to_vec();
    occupants.shuffle(&mut rand::rng());
    for (seat, occupant) in seats.iter_mut().zip(occupants) {
        *seat = SeatRow {
            seat: seat.seat,
            ..occupant
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(seat: i64, player: Option<&str>, bot: Option<&str>) -> SeatRow {
        SeatRow {
            seat,
            player_id: player.map(str::to_owned),
            display_name: player.map(str::to_owned),
            bot_level: bot.and_then(BotLevel::parse),
            preferred_colour: None,
            local_of: None,
        }
    }

    #[test]
    fn a_seat_draw_moves_whole_occupants_and_keeps_the_seat_numbers() {
        let start = vec![
            seat(0, Some("ana"), None),
            seat(1, None, Some("greedy")),
            seat(2, Some("bea"), None),
            seat(3, None, Some("expert")),
        ];
        let mut orders = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let mut seats = start.clone();
            draw_seats(&mut seats);
            assert_eq!(
                seats.iter().map(|s| s.seat).collect::<Vec<_>>(),
                [0, 1, 2, 3]
            );
            let mut who: Vec<_> = seats
                .iter()
                .map(|s| (s.player_id.clone(), s.bot_level.map(BotLevel::as_str)))
                .collect();
            // Each person keeps their name; nobody is lost or doubled.
            assert!(seats.iter().all(|s| s.display_name == s.player_id));
            orders.insert(who.clone());
            who.sort();
            let mut was: Vec<_> = start
                .iter()
                .map(|s| (s.player_id.clone(), s.bot_level.map(BotLevel::as_str)))
                .collect();
            was.sort();
            assert_eq!(who, was);
        }
        // 24 orders are possible; 200 uniform draws miss one with probability below 24 × (23/24)²⁰⁰ ≈ 5e-3,
        // so ask only for most of them.
        assert!(orders.len() >= 20, "{} orders", orders.len());
    }
}

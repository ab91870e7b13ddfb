//! One file per lobby command of the REST API (and the in-process commands that tell a room of a change
//! stored elsewhere: a rename, an erasure, revoked tokens). Each decides, stores (awaited), updates the
//! room and shows it; [`Room::lobby_command`] dispatches and reports the room's state afterwards.

mod add_local;
mod erase;
mod join;
mod leave;
mod remove_local;
mod remove_player;
mod rename;
mod seat_bot;
mod start;

use super::Room;
use crate::error::AppError;
use crate::rooms::lobby::{RoomCommand, RoomSnapshot};

impl Room {
    /// Applies a lobby command: decide, persist (awaited), update state, broadcast.
    pub async fn lobby_command(&mut self, command: RoomCommand) -> Result<RoomSnapshot, AppError> {
        match command {
            RoomCommand::Snapshot => {}
            RoomCommand::Join {
                player_id,
                display_name,
                preferred_colour,
                code,
            } => {
                self.join(player_id, &display_name, preferred_colour, code.as_deref())
                    .await?;
            }
            RoomCommand::AddLocal {
                player_id,
                name,
                seat,
            } => self.add_local(&player_id, &name, seat).await?,
            RoomCommand::RemoveLocal { player_id, seat } => {
                self.remove_local(&player_id, seat).await?;
            }
            RoomCommand::SetSeatBot {
                player_id,
                seat,
                bot,
            } => self.set_seat_bot(&player_id, seat, bot).await?,
            RoomCommand::RemovePlayer { player_id, seat } => {
                self.remove_player(&player_id, seat).await?;
            }
            RoomCommand::Leave { player_id } => self.leave(&player_id).await?,
            RoomCommand::Start { player_id } => self.start(&player_id).await?,
            RoomCommand::Rename {
                player_id,
                display_name,
            } => self.show_name(&player_id, &display_name),
            RoomCommand::Erase {
                player_id,
                display_name,
            } => self.erase(&player_id, &display_name),
            RoomCommand::Revoke { player_id, tokens } => self.close_revoked(&player_id, &tokens),
        }
        let (connected, _) = self.presence();
        Ok(RoomSnapshot {
            players_connected: connected.count_ones() as usize,
            ..self.lobby.snapshot()
        })
    }
}

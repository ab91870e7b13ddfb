//! Ownership of a waiting room: who owns it next when its owner leaves or stays away.

use std::time::Instant;

use super::{RETRY_AFTER_FAILURE, Room};
use crate::model::RoomStatus;

impl Room {
    /// Whether any connection of the owner is open.
    pub(super) fn owner_connected(&self) -> bool {
        let owner = self.lobby.room.owner_id.as_str();
        self.hub
            .conns()
            .any(|(_, c)| c.player_id.as_deref() == Some(owner))
    }

    /// The seated player (not the owner) who would own the room next: the first one with an open
    /// connection, or, unless `present_only`, the first one at all.
    pub(super) fn successor(&self, present_only: bool) -> Option<String> {
        let owner = self.lobby.room.owner_id.as_str();
        let others = || {
            self.lobby
                .seats
                .iter()
                .enumerate()
                .filter(move |(_, s)| s.player_id.as_deref().is_some_and(|p| p != owner))
        };
        others()
            .find(|(i, _)| self.connected(*i))
            .or_else(|| others().find(|_| !present_only))
            .and_then(|(_, s)| s.player_id.clone())
    }

    /// After a player gave up their seat in a waiting room: if it was the owner, the next seated
    /// player owns the room (so it can still be started).
    pub async fn after_leaving(&mut self, player_id: &str) {
        if self.lobby.status() == RoomStatus::Waiting
            && self.lobby.room.owner_id == player_id
            && let Some(next) = self.successor(false)
        {
            self.hand_over(next).await;
        }
    }

    /// Makes `player_id` the owner: stored, then shown to everyone. A storage failure changes nothing
    /// (logged); the timed hand-over tries again later when the owner is away.
    pub(super) async fn hand_over(&mut self, player_id: String) {
        if let Err(e) = self
            .db
            .set_room_owner(&self.lobby.room.id, &player_id)
            .await
        {
            tracing::error!(room = %self.lobby.room.id, %e, "handing the room over failed");
            self.paused_until = Some(Instant::now() + RETRY_AFTER_FAILURE);
            return;
        }
        tracing::info!(room = %self.lobby.room.id, owner = %player_id, "the room has a new owner");
        self.lobby.room.owner_id = player_id;
        self.paused_until = None;
        self.owner_away_since = (!self.owner_connected()).then(Instant::now);
        let _ = self.events.send(self.lobby.lobby_event());
        self.publish(&[]);
    }
}

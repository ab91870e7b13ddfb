//! Everything one room task owns: the lobby, the running game, the
//! connections and the clocks that make the server act for a seat. The room's
//! behaviour is split by concern: who is who (`seats`), the public state and
//! private messages (`state`), connections (`connections`), game flow and
//! clocks (`flow`), the REST lobby commands (`lobby_commands`, one file each)
//! and the hand-over of a waiting room (`handover`).

mod connections;
mod flow;
mod handover;
mod lobby_commands;
mod seats;
mod state;

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::{Duration, Instant};

use tokio::sync::broadcast;

use super::bot::Bots;
use super::chat::{CHAT_HISTORY, ChatLog};
use super::commands::resync::Resyncs;
use super::hub::Hub;
use super::lobby::{Lobby, RoomEvent};
use super::public_state::{LobbyState, PublicParts, RoomState};
use super::table::Table;
use crate::db::{Db, now_ms};
use crate::error::AppError;
use crate::model::{Acted, Rating, RoomStatus};

/// How long the server waits before acting for a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// Pause before each bot action, so humans can follow (0 in tests).
    pub bot_delay: Duration,
    /// How long a seated player may be away before a bot covers their turns.
    pub away_grace: Duration,
    /// One second of a room's `turn_time_secs` (shorter only in tests).
    pub turn_second: Duration,
    /// How long a room task lives with no connection, subscriber or pending server action (the room is
    /// reloaded from storage on next use, so finished and abandoned rooms do not hold memory).
    pub idle_room: Duration,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            bot_delay: Duration::from_millis(500),
            away_grace: Duration::from_secs(15),
            turn_second: Duration::from_secs(1),
            idle_room: Duration::from_secs(60),
        }
    }
}

/// A connection asks to join the room's fan-out.
#[derive(Debug, Clone, Default)]
pub struct ConnectRequest {
    /// The authenticated player, `None` for an anonymous spectator.
    pub player_id: Option<String>,
    /// Hash of the token the player authenticated with (revoking it closes the socket).
    pub token_hash: Option<String>,
    /// `(since, epoch)` of a reconnecting client.
    pub resume: Option<(u64, String)>,
}

/// Pause after a storage failure before the server tries to act again.
const RETRY_AFTER_FAILURE: Duration = Duration::from_secs(1);

/// A change of only the spectator count is shown at most this often: every update goes to every
/// connection, so a crowd of spectators coming and going must not cost one update each.
pub const SPECTATORS_EVERY: Duration = Duration::from_secs(1);

/// The state of one room, owned by its task (no locks).
pub struct Room {
    /// Seats, settings and status.
    pub lobby: Lobby,
    /// The running (or finished) game, once started.
    pub table: Option<Table>,
    /// Connections, versioned public state, recent updates.
    pub hub: Hub,
    /// Storage: every action is written before it is shown.
    pub db: Db,
    /// Lobby events for in-process subscribers ([`super::RoomRegistry::subscribe`]).
    pub events: broadcast::Sender<RoomEvent>,
    /// Delays before the server acts.
    pub timing: Timing,
    /// Room version of the latest roll or move: moves chosen before it are stale.
    pub game_version: u64,
    /// When the current decision (roll or move) began.
    decision_since: Instant,
    /// The same moment in Unix ms: the deadline shown is counted from it, so that it is the same
    /// number each time the state is built (no jitter between two instants' conversions).
    decision_since_ms: i64,
    /// Since when each seat's player has had no connection (`None`: connected or not human).
    away_since: Vec<Option<Instant>>,
    /// Since when the owner has had no connection: a waiting room whose owner stays away that long
    /// (the away grace) is handed to a seated player who is there, so the others can start.
    owner_away_since: Option<Instant>,
    /// Seats the server is playing for an away player right now (shown as "away (bot playing)").
    bot_playing: Vec<bool>,
    /// Move text each seat pre-selected for its next turn.
    pub preselected: Vec<Option<String>>,
    /// Who made the roll or move just applied, for the update that shows it (taken by it).
    acted: Option<Acted>,
    /// Bots that choose moves for the server.
    bots: Bots,
    /// The room's recent chat and the players' send rates.
    pub chat: ChatLog,
    /// No automatic action before this (after a storage failure).
    paused_until: Option<Instant>,
    /// When a spectator count not shown yet is due to be published (`None`: nothing waits).
    spectators_due: Option<Instant>,
    /// When an update last changed the spectator count shown.
    spectators_shown: Option<Instant>,
    /// Registry-wide count of open connections (for metrics).
    connections: Arc<AtomicUsize>,
    /// The people the owner removed from the room (loaded with it): their `hello` says so.
    pub(super) removed: HashSet<String>,
    /// When each connection last got a snapshot on `resync`, and the resyncs held since.
    pub(in crate::rooms) resyncs: Resyncs,
}

impl Room {
    /// A room from its stored lobby; call [`Room::restore`] before use.
    pub fn new(
        lobby: Lobby,
        db: Db,
        events: broadcast::Sender<RoomEvent>,
        timing: Timing,
        connections: Arc<AtomicUsize>,
    ) -> Self {
        let n = lobby.seats.len();
        // Random bots are seeded from the room id: reproducible, different per room.
        let bot_seed = super::bot::seed_of(&lobby.room.id);
        let settings = lobby.room.settings.0.clone();
        let mut room = Room {
            lobby,
            table: None,
            // Replaced below, once the room can describe itself.
            hub: Hub::new(PublicParts {
                lobby: LobbyState {
                    room: RoomState {
                        id: String::new(),
                        status: RoomStatus::Waiting,
                        owner_id: String::new(),
                        settings,
                    },
                    seats: Vec::new(),
                    spectators: 0,
                },
                game: None,
            }),
            db,
            events,
            timing,
            game_version: 0,
            decision_since: Instant::now(),
            decision_since_ms: now_ms(),
            away_since: vec![None; n],
            owner_away_since: Some(Instant::now()),
            bot_playing: vec![false; n],
            preselected: vec![None; n],
            acted: None,
            bots: Bots::new(bot_seed),
            chat: ChatLog::new(n, Vec::new()),
            paused_until: None,
            spectators_due: None,
            spectators_shown: None,
            connections,
            removed: HashSet::new(),
            resyncs: Resyncs::default(),
        };
        // Nobody is connected yet: every seat a person plays (their own, or one played at their device)
        // is away from now on, so that bots cover it after the grace if nobody comes back.
        let now = Instant::now();
        for (i, seat) in room.lobby.seats.iter().enumerate() {
            if seat.holder().is_some() {
                room.away_since[i] = Some(now);
            }
        }
        room.hub = Hub::new(room.public_parts());
        room
    }

    /// Rebuilds the room's game (if any) from the stored log, and reloads its recent chat, the
    /// seated people's ratings and who the owner removed (even when the game could not be rebuilt). Runs
    /// before any connection.
    pub async fn restore(&mut self) -> Result<(), String> {
        let game = self.restore_game().await;
        let ratings = self.load_ratings().await;
        if let Some(table) = self.table.as_mut() {
            // Loaded just now, as they are stored.
            table.take_new_ratings();
        }
        self.hub = Hub::new(self.public_parts());
        let limit = i64::try_from(CHAT_HISTORY).unwrap_or(i64::MAX);
        let chat = match self.db.recent_chat(&self.lobby.room.id, limit).await {
            Ok(recent) => {
                self.chat = ChatLog::new(self.lobby.seats.len(), recent);
                Ok(())
            }
            Err(e) => Err(format!("cannot reload the chat: {e}")),
        };
        let removed = match self.db.room_removals(&self.lobby.room.id).await {
            Ok(removed) => {
                self.removed = removed.into_iter().collect();
                Ok(())
            }
            Err(e) => Err(format!("cannot reload who was removed: {e}")),
        };
        game.and(chat).and(ratings).and(removed)
    }

    /// The room's rule set, as ratings name it.
    fn rules_name(&self) -> &'static str {
        self.lobby.room.settings.0.rules.name()
    }

    /// The rating of `player_id` in `rules` (`None` before their first rated game of them). Takes the
    /// storage, not the room: the room is not shared across an await.
    async fn rating_of(db: &Db, rules: &str, player_id: &str) -> Result<Option<Rating>, AppError> {
        Ok(db
            .player_rating(player_id, rules)
            .await?
            .map(|r| Rating::of(r.mu, r.games)))
    }

    /// Loads the rating of every seated person (the room was loaded from storage).
    async fn load_ratings(&mut self) -> Result<(), String> {
        let people: Vec<String> = self
            .lobby
            .seats
            .iter()
            .filter_map(|s| s.player_id.clone())
            .collect();
        for player_id in people {
            let rating = Self::rating_of(&self.db, self.rules_name(), &player_id)
                .await
                .map_err(|e| format!("cannot load the ratings: {e}"))?;
            self.lobby.set_rating(&player_id, rating);
        }
        Ok(())
    }

    /// Rebuilds the room's game (if any) from the stored log.
    async fn restore_game(&mut self) -> Result<(), String> {
        let Some(game_id) = self.lobby.game_id.clone() else {
            return Ok(());
        };
        let row = self
            .db
            .game(&game_id)
            .await
            .map_err(|e| e.to_string())?
            .ok_or("game row missing")?;
        let table = Table::restore(&self.db, &row, &self.lobby.room.settings.0)
            .await
            .map_err(|e| e.to_string())?;
        tracing::info!(room = %self.lobby.room.id, game = %game_id, rolls = table.rolls, "game restored from its log");
        // Finished once its result is stored (as the room's row says), not merely once it is over.
        if table.result.is_some() {
            self.lobby.room.status = RoomStatus::Finished;
        }
        self.table = Some(table);
        self.reset_decision();
        Ok(())
    }

    /// The room opened without its game (storage failed while it was loaded): loads it now and shows it;
    /// if that fails again, tries again after a pause.
    async fn load_missing_game(&mut self) {
        match self.restore_game().await {
            Ok(()) => {
                self.paused_until = None;
                self.take_ratings();
                self.publish(&[]);
                self.game_version = self.hub.version();
                self.send_previews(None);
            }
            Err(err) => {
                tracing::error!(room = %self.lobby.room.id, %err, "the room's game still cannot be loaded");
                self.paused_until = Some(Instant::now() + RETRY_AFTER_FAILURE);
            }
        }
    }
}

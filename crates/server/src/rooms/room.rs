//! Everything one room task owns: the lobby, the running game, the
//! connections and the clocks that make the server act for a seat.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use parchis_rules::{Event, Phase};
use serde_json::json;
use tokio::sync::{broadcast, mpsc};

use super::bot::Bots;
use super::chat::{CHAT_HISTORY, ChatLog};
use super::hub::{
    Conn, ConnId, GameFields, GamePart, Hub, LobbyState, PublicParts, RoomState, SeatState,
};
use super::lobby::{Lobby, Revoked, RoomCommand, RoomEvent, RoomSnapshot, StartPlan};
use super::protocol::{Close, CommandError, ErrorCode, Outbound, frame};
use super::table::{ActError, Table};
use crate::db::{Db, SeatRow, now_ms};
use crate::error::AppError;
use crate::model::{Rating, RoomStatus};
use crate::settings::{BotLevel, DEFAULT_BOT_LEVEL};

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
                        status: String::new(),
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
            bots: Bots::new(bot_seed),
            chat: ChatLog::new(n, Vec::new()),
            paused_until: None,
            spectators_due: None,
            spectators_shown: None,
            connections,
            removed: HashSet::new(),
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
            self.lobby.room.status = RoomStatus::Finished.as_str().to_owned();
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

    // ----- who is who -------------------------------------------------------------------------

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
    fn holder(&self, seat: usize) -> Option<&str> {
        self.lobby.seats.get(seat).and_then(SeatRow::holder)
    }

    /// Whether a person (not a bot, not nobody) plays the seat.
    fn human(&self, seat: usize) -> bool {
        self.holder(seat).is_some()
    }

    /// The seats a player acts for: their own and those played at their device.
    fn seats_held_by<'a>(&'a self, player_id: &'a str) -> impl Iterator<Item = usize> + 'a {
        self.lobby
            .seats
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.holder() == Some(player_id))
            .map(|(i, _)| i)
    }

    /// Whether any connection of the seat's player (or of the player at whose device it is played) is
    /// open.
    fn connected(&self, seat: usize) -> bool {
        let Some(player) = self.holder(seat) else {
            return false;
        };
        self.hub
            .conns()
            .any(|(_, c)| c.player_id.as_deref() == Some(player))
    }

    /// Bot level of a bot seat.
    fn bot_level(&self, seat: usize) -> Option<BotLevel> {
        self.lobby
            .seats
            .get(seat)
            .and_then(|s| s.bot_level.as_deref())
            .and_then(BotLevel::parse)
    }

    // ----- public state -----------------------------------------------------------------------

    /// Which seats have a connection of their player (bit per seat), and how many
    /// connections are spectators: one pass over the connections.
    fn presence(&self) -> (u64, usize) {
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
    fn seat_status(
        &self,
        i: usize,
        connected: u64,
    ) -> (Option<BotLevel>, &'static str, bool, &'static str) {
        let s = &self.lobby.seats[i];
        let bot = s.bot_level.as_deref().and_then(BotLevel::parse);
        let covered = self.bot_playing.get(i).copied().unwrap_or(false);
        let (status, label) = if bot.is_some() {
            ("bot", "bot")
        } else if s.holder().is_none() {
            ("empty", "empty")
        } else if i < 64 && connected & (1 << i) != 0 {
            ("connected", "connected")
        } else if covered {
            ("away", "away (bot playing)")
        } else {
            ("away", "away")
        };
        (bot, status, bot.is_some() || covered, label)
    }

    /// The lobby part of the public state.
    fn lobby_state(&self, connected: u64, spectators: usize) -> LobbyState {
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
                status: room.status.clone(),
                owner_id: room.owner_id.clone(),
                settings: room.settings.0.clone(),
            },
            seats,
            spectators,
        }
    }

    /// Whether [`Room::lobby_state`] would differ from `old` (compared in place, nothing cloned).
    fn lobby_differs(&self, old: &LobbyState, connected: u64, spectators: usize) -> bool {
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
    fn changed_lobby(&self) -> Option<LobbyState> {
        let (connected, spectators) = self.presence();
        self.lobby_differs(self.hub.lobby(), connected, spectators)
            .then(|| self.lobby_state(connected, spectators))
    }

    /// The game part of the public state.
    fn game_part(&self) -> Option<GamePart> {
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
        let shown = self.hub.lobby().spectators;
        let mut events = events;
        loop {
            let dropped = self
                .hub
                .publish(events, self.changed_lobby(), self.game_part());
            if dropped.is_empty() {
                break;
            }
            for conn in dropped {
                self.forget(conn, None);
            }
            events = &[];
        }
        self.spectators_due = None;
        if self.hub.lobby().spectators != shown {
            self.spectators_shown = Some(Instant::now());
        }
    }

    /// Only the spectator count changed (a connection without a seat came or went): shown at once if
    /// it was not changed in the last [`SPECTATORS_EVERY`], otherwise once that has passed
    /// ([`Room::spectators_due`]), or sooner with any other update.
    fn spectators_changed(&mut self) {
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
    fn is_spectator(&self, conn: ConnId) -> bool {
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
        let message = Outbound::Text(frame(&json!({
            "type": "preview", "roll": table.rolls, "die": table.next_die(),
        })));
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
        let message = super::chat::message(&row);
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
    fn send_hello(&mut self, conn: ConnId) {
        let player = self.hub.conn(conn).and_then(|c| c.player_id.clone());
        let seat = self.seat_of_conn(conn);
        let hello = Outbound::Text(frame(&json!({
            "type": "hello",
            "player_id": player,
            "seat": seat,
            "role": if seat.is_some() { "player" } else { "spectator" },
            "removed": player.as_ref().is_some_and(|p| self.removed.contains(p)),
        })));
        self.reply(conn, hello);
    }

    // ----- connections ------------------------------------------------------------------------

    /// Adds a connection: catch-up (missed updates or a snapshot), `hello`,
    /// then the presence update (a spectator's only when its count is next shown) and the private
    /// preview.
    pub fn connect(&mut self, tx: mpsc::Sender<Outbound>, request: ConnectRequest) -> ConnId {
        let missed = request
            .resume
            .as_ref()
            .and_then(|(since, epoch)| self.hub.missed_since(*since, epoch));
        let catch_up = missed.unwrap_or_else(|| vec![self.hub.snapshot()]);
        for message in catch_up {
            // The queue is larger than the ring, so this cannot fill up.
            let _ = tx.try_send(message);
        }
        let id = self.hub.add(Conn {
            tx,
            player_id: request.player_id,
            token_hash: request.token_hash,
        });
        self.connections.fetch_add(1, Ordering::Relaxed);
        self.send_hello(id);
        let history = self.chat.history();
        self.reply(id, history);
        let player = self.hub.conn(id).and_then(|c| c.player_id.clone());
        let held: Vec<usize> = player
            .as_deref()
            .map(|p| self.seats_held_by(p).collect())
            .unwrap_or_default();
        for seat in held {
            self.away_since[seat] = None;
            self.bot_playing[seat] = false;
        }
        if self.hub.conn(id).and_then(|c| c.player_id.as_deref()) == Some(&self.lobby.room.owner_id)
        {
            self.owner_away_since = None;
        }
        if self.is_spectator(id) {
            self.spectators_changed();
        } else {
            self.publish(&[]);
        }
        self.send_previews(Some(id));
        id
    }

    /// Removes a connection (closed, too slow, or left), sending `close` first if given.
    pub fn forget(&mut self, conn: ConnId, close: Option<Outbound>) {
        if let Some(close) = close {
            let _ = self.hub.send(conn, close);
        }
        let held: Vec<usize> = match self.hub.conn(conn).and_then(|c| c.player_id.as_deref()) {
            Some(player) => self.seats_held_by(player).collect(),
            None => Vec::new(),
        };
        let Some(gone) = self.hub.remove(conn) else {
            return;
        };
        self.connections.fetch_sub(1, Ordering::Relaxed);
        if gone.player_id.as_deref() == Some(&self.lobby.room.owner_id) && !self.owner_connected() {
            self.owner_away_since = Some(Instant::now());
        }
        for seat in held {
            if !self.connected(seat) {
                self.away_since[seat] = Some(Instant::now());
            }
        }
    }

    /// Closes the sockets `player_id` opened with a token that `tokens` revoked (close code 4001).
    fn close_revoked(&mut self, player_id: &str, tokens: &Revoked) {
        let revoked: Vec<ConnId> = self
            .hub
            .conns()
            .filter(|(_, c)| {
                c.player_id.as_deref() == Some(player_id) && tokens.covers(c.token_hash.as_deref())
            })
            .map(|(id, _)| *id)
            .collect();
        if revoked.is_empty() {
            return;
        }
        for conn in revoked {
            self.forget(conn, Some(Outbound::Close(Close::TokenRevoked)));
        }
        // The seat shows away (and a bot covers it after the grace, as for any disconnection).
        self.publish(&[]);
    }

    /// A connection went away on its own.
    pub fn disconnect(&mut self, conn: ConnId) {
        self.drop_conn(conn, None);
    }

    /// Removes a connection (sending `close` first if given) and shows it gone: a seated player's at
    /// once, a spectator's when the spectator count is next shown.
    pub fn drop_conn(&mut self, conn: ConnId, close: Option<Outbound>) {
        if self.hub.conn(conn).is_none() {
            return;
        }
        let spectator = self.is_spectator(conn);
        self.forget(conn, close);
        if spectator {
            self.spectators_changed();
        } else {
            self.publish(&[]);
        }
    }

    // ----- game flow --------------------------------------------------------------------------

    /// The time a player has per decision when the room allows `secs`.
    fn turn_limit(&self, secs: u32) -> Duration {
        self.timing.turn_second * secs
    }

    /// A new decision begins: restart the clocks.
    fn reset_decision(&mut self) {
        self.decision_since = Instant::now();
        self.decision_since_ms = now_ms();
    }

    /// `game.deadline_ms`: when the server will act for the seat to act (the wake-up of
    /// [`Room::game_wake`], so the countdown and the action agree), while a person is waited on: the turn
    /// timer, or the end of the away grace of a player who went away during the decision, whichever
    /// comes first. `None` when nobody waits on a person: no timer and the player is there, a bot seat, or
    /// an away seat a bot covers already. Bots act after the short bot delay, each action: a countdown of
    /// half a second that starts again at every step would be flicker, not information.
    fn deadline_ms(&self) -> Option<i64> {
        let table = self.table.as_ref()?;
        if table.game.is_over() {
            return None;
        }
        let seat = usize::from(table.game.seat());
        let since = self.decision_since;
        let covered = self.bot_playing.get(seat).copied().unwrap_or(false)
            || self.away_since[seat].is_some_and(|away| away + self.timing.away_grace <= since);
        if !self.human(seat) || covered {
            return None;
        }
        let after = self.game_wake(table)?.saturating_duration_since(since);
        Some(
            self.decision_since_ms
                .saturating_add(i64::try_from(after.as_millis()).unwrap_or(i64::MAX)),
        )
    }

    /// After an accepted roll or move: clocks, broadcast, previews, metrics, and the result if the
    /// action ended the game and the result is stored (if storing it failed, the room stores it later:
    /// [`Room::auto_act`]).
    pub fn after_action(&mut self, events: &[Event], started: Instant) {
        self.take_ratings();
        self.reset_decision();
        self.publish(events);
        self.game_version = self.hub.version();
        self.send_previews(None);
        metrics::counter!("parchis_moves_total").increment(1);
        metrics::histogram!("parchis_move_latency_seconds").record(started.elapsed().as_secs_f64());
        if let Some(table) = &self.table
            && table.result_due()
        {
            // Tried again after the usual pause, not at once in a loop against failing storage.
            self.paused_until = Some(Instant::now() + RETRY_AFTER_FAILURE);
        }
        self.show_finished();
    }

    /// A rated game's result was just stored: its people's new ratings go out with it.
    fn take_ratings(&mut self) {
        let rated = self
            .table
            .as_mut()
            .map(Table::take_new_ratings)
            .unwrap_or_default();
        for (seat, rating) in rated {
            if let Some(slot) = self.lobby.ratings.get_mut(seat)
                && self.lobby.seats[seat].player_id.is_some()
            {
                *slot = Some(rating);
            }
        }
    }

    /// Shows the room finished once its game's result is stored (storage marks it finished in the same
    /// transaction).
    fn show_finished(&mut self) {
        if self.table.as_ref().is_some_and(|t| t.result.is_some())
            && self.lobby.status() != RoomStatus::Finished
        {
            self.lobby.room.status = RoomStatus::Finished.as_str().to_owned();
            self.publish(&[]);
        }
    }

    /// Stores the result of a game that ended while storage failed, then shows it (result, seed, ratings,
    /// the room finished) as at a normal end; if it fails again, tries again after a pause.
    async fn store_due_result(&mut self) {
        let Some(table) = self.table.as_mut() else {
            return;
        };
        match table.store_result(&self.db).await {
            Ok(()) => {
                tracing::info!(room = %self.lobby.room.id, game = %table.game_id, "the result was stored at last");
                self.paused_until = None;
                self.take_ratings();
                self.publish(&[]);
                self.show_finished();
            }
            Err(err) => {
                tracing::error!(room = %self.lobby.room.id, %err, "storing the result failed again");
                self.paused_until = Some(Instant::now() + RETRY_AFTER_FAILURE);
            }
        }
    }

    /// When the server must next act for the seat to act (or hand a waiting room over, or start it), if
    /// ever.
    pub fn next_wake(&self) -> Option<Instant> {
        let Some(table) = self.table.as_ref() else {
            // A game that could not be loaded is loaded again while someone has the room open (with
            // nobody there the room stops when idle, and is loaded afresh when next used).
            if self.lobby.game_id.is_some() {
                return (!self.hub.is_empty())
                    .then(|| self.paused_until.unwrap_or_else(Instant::now));
            }
            return self.lobby_wake();
        };
        self.game_wake(table)
    }

    /// When a waiting room must next change by itself: at once (after the pause that follows a storage
    /// failure) for what such a failure left undone, a full quick match to start or a room to hand over
    /// from an owner who is no longer seated; at the end of the away grace for an owner who is away.
    fn lobby_wake(&self) -> Option<Instant> {
        if self.lobby.status() != RoomStatus::Waiting {
            return None;
        }
        let after_pause = |due: Instant| self.paused_until.map_or(due, |p| due.max(p));
        if self.lobby.starts_by_itself() || self.owner_to_replace().is_some() {
            return Some(after_pause(Instant::now()));
        }
        let away = self.owner_away_since?;
        self.successor(true)
            .is_some()
            .then(|| after_pause(away + self.timing.away_grace))
    }

    /// The player to hand a waiting room to when its owner is no longer seated and someone is (the owner
    /// left, or the last to leave, and handing it over failed to be stored).
    fn owner_to_replace(&self) -> Option<String> {
        if self.lobby.seat_of(&self.lobby.room.owner_id).is_some() {
            return None;
        }
        self.successor(false)
    }

    /// The pause before each action of a seat the server plays: the server's, at the room's pace.
    fn bot_delay(&self) -> Duration {
        self.lobby
            .room
            .settings
            .0
            .bot_pace
            .delay(self.timing.bot_delay)
    }

    /// When the server must next act in the game for the seat to act: a bot seat after the bot delay; a
    /// person's at the end of the turn timer, or of the away grace if they are away (never sooner than
    /// the bot delay); not before a pause after a storage failure. A game over whose result is not
    /// stored yet wakes to store it (after the pause). `None`: the game is over with its result stored,
    /// or it waits on a person without limit.
    fn game_wake(&self, table: &Table) -> Option<Instant> {
        if table.result_due() {
            return Some(self.paused_until.unwrap_or_else(Instant::now));
        }
        if table.game.is_over() {
            return None;
        }
        let seat = usize::from(table.game.seat());
        let since = self.decision_since;
        let human = self.human(seat);
        let wake = if !human {
            Some(since + self.bot_delay())
        } else {
            let timer = self
                .lobby
                .room
                .settings
                .0
                .turn_time_secs
                .map(|secs| since + self.turn_limit(secs));
            let away = self.away_since[seat]
                .map(|away| (away + self.timing.away_grace).max(since + self.bot_delay()));
            match (timer, away) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        };
        wake.map(|w| self.paused_until.map_or(w, |p| w.max(p)))
    }

    /// The server acts for the seat to act (bot seat, away player, or expired timer), or hands a
    /// waiting room whose owner stayed away to a player who is there.
    pub async fn auto_act(&mut self) {
        let started = Instant::now();
        match self.settle_log().await {
            Ok(false) => {}
            // The position changed: the next wake is the new decision's.
            Ok(true) => return,
            Err(err) => {
                tracing::error!(room = %self.lobby.room.id, %err, "the server could not act");
                self.paused_until = Some(Instant::now() + RETRY_AFTER_FAILURE);
                self.publish(&[]);
                return;
            }
        }
        let Some(table) = &self.table else {
            if self.lobby.game_id.is_some() {
                self.load_missing_game().await;
                return;
            }
            if self.lobby.status() != RoomStatus::Waiting {
                return;
            }
            if self.lobby.starts_by_itself() {
                self.start_by_itself().await;
                return;
            }
            let next = self.owner_to_replace().or_else(|| {
                self.owner_away_since
                    .is_some_and(|away| started >= away + self.timing.away_grace)
                    .then(|| self.successor(true))
                    .flatten()
            });
            if let Some(next) = next {
                self.hand_over(next).await;
            }
            return;
        };
        if table.result_due() {
            self.store_due_result().await;
            return;
        }
        if table.game.is_over() {
            return;
        }
        let seat = usize::from(table.game.seat());
        let level = self.bot_level(seat);
        let human = self.human(seat);
        let by = if !human {
            "bot"
        } else if self.away_since[seat].is_some_and(|a| started >= a + self.timing.away_grace) {
            self.bot_playing[seat] = true;
            "away"
        } else {
            "timer"
        };
        let result = match table.game.phase() {
            Phase::Roll => self.act_roll(by).await,
            _ => {
                let game = table.game;
                let pre = self.preselected[seat]
                    .as_deref()
                    .and_then(|text| game.parse_move(text).ok())
                    .filter(|mv| game.legal_moves().iter().any(|m| m.same_as(mv)));
                let choice = match pre {
                    Some(mv) => Some(mv),
                    None => self.bots.choose(&game, level).await,
                };
                match choice {
                    Some(mv) => self.act_move(seat, mv, by).await,
                    None => Ok(Vec::new()),
                }
            }
        };
        match result {
            Ok(events) => {
                self.paused_until = None;
                self.after_action(&events, started);
            }
            Err(err) => {
                tracing::error!(room = %self.lobby.room.id, %err, "the server could not act");
                self.paused_until = Some(Instant::now() + RETRY_AFTER_FAILURE);
                // The countdown shows the retry, not a deadline gone by.
                self.publish(&[]);
            }
        }
    }

    /// After an append that reported a failure, storage may hold the entry all the same (a connection
    /// lost while the commit went through): the room then rebuilds the game from the stored log and shows
    /// it, rather than append at a `seq` taken already and be refused forever. `Ok(true)`: rebuilt.
    pub async fn settle_log(&mut self) -> Result<bool, ActError> {
        let Some(table) = self.table.as_mut() else {
            return Ok(false);
        };
        if !table.log_unsure {
            return Ok(false);
        }
        if self.db.game_log_len(&table.game_id).await? == table.logged() {
            table.log_unsure = false;
            return Ok(false);
        }
        let row = self
            .db
            .game(&table.game_id)
            .await?
            .ok_or_else(|| ActError::Rebuild("game row missing".to_owned()))?;
        // An outage while the log is read stays one (`storage_unavailable`, not `internal`).
        let rebuilt = Table::restore(&self.db, &row, &self.lobby.room.settings.0).await?;
        tracing::warn!(room = %self.lobby.room.id, game = %row.id, "an action reported as failed was stored: game rebuilt from its log");
        self.table = Some(rebuilt);
        // Chosen for a position that may have passed.
        self.preselected.iter_mut().for_each(|p| *p = None);
        self.after_action(&[], Instant::now());
        Ok(true)
    }

    /// Rolls for the seat to act.
    pub async fn act_roll(&mut self, by: &str) -> Result<Vec<Event>, ActError> {
        let table = self
            .table
            .as_mut()
            .ok_or(ActError::Play(parchis_rules::PlayError::GameOver))?;
        Ok(table.roll(&self.db, by).await?.to_vec())
    }

    /// Plays `mv` for `seat` (the seat to act) and clears its pre-selection.
    pub async fn act_move(
        &mut self,
        seat: usize,
        mv: parchis_rules::Move,
        by: &str,
    ) -> Result<Vec<Event>, ActError> {
        let table = self
            .table
            .as_mut()
            .ok_or(ActError::Play(parchis_rules::PlayError::GameOver))?;
        let events = table.play(&self.db, mv, by).await?.to_vec();
        self.preselected[seat] = None;
        Ok(events)
    }

    /// Common checks of `roll` and `move`: returns the acting seat.
    pub fn acting_seat(&self, conn: ConnId) -> Result<usize, CommandError> {
        let player = self.hub.conn(conn).and_then(|c| c.player_id.as_deref());
        // The seats this connection acts for: its player's own, and those played at its device.
        let held: Vec<usize> = player
            .map(|p| self.seats_held_by(p).collect())
            .unwrap_or_default();
        if held.is_empty() {
            return Err(CommandError::new(
                ErrorCode::NotSeated,
                "You are not seated in this room (spectators only watch).",
            ));
        }
        let table = self.table.as_ref().ok_or_else(|| {
            CommandError::new(ErrorCode::NotStarted, "The game has not started yet.")
        })?;
        if table.game.is_over() {
            return Err(CommandError::new(ErrorCode::GameOver, "The game is over."));
        }
        let to_act = usize::from(table.game.seat());
        if !held.contains(&to_act) {
            let yours = self.seat_of_conn(conn).unwrap_or(held[0]);
            return Err(CommandError::new(
                ErrorCode::NotYourTurn,
                format!("It is seat {to_act}'s turn, not yours (seat {yours})."),
            ));
        }
        Ok(to_act)
    }

    // ----- lobby commands (REST) --------------------------------------------------------------

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
                if let Some(seat) =
                    self.lobby
                        .join(&player_id, &display_name, preferred_colour, code.as_deref())?
                {
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
                        self.hand_over(player_id.clone()).await;
                    }
                    if self.lobby.starts_by_itself() {
                        self.start_by_itself().await;
                    }
                }
            }
            RoomCommand::AddLocal {
                player_id,
                name,
                seat,
            } => {
                let seat = self.lobby.add_local(&player_id, &name, seat)?;
                self.db.update_seat(&self.lobby.room.id, &seat).await?;
                self.seat_changed(seat, None);
                if self.lobby.starts_by_itself() {
                    self.start_by_itself().await;
                }
            }
            RoomCommand::RemoveLocal { player_id, seat } => {
                let seat = self.lobby.remove_local(&player_id, seat)?;
                self.db.update_seat(&self.lobby.room.id, &seat).await?;
                self.seat_changed(seat, None);
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
            RoomCommand::Start { player_id } => {
                let plan = self.lobby.start(&player_id)?;
                self.start_game(plan).await?;
            }
            RoomCommand::Rename {
                player_id,
                display_name,
            } => self.show_name(&player_id, &display_name),
            RoomCommand::Erase {
                player_id,
                display_name,
            } => {
                // Their ratings went with the rest of their data.
                let unrated = self.lobby.set_rating(&player_id, None);
                self.show_name(&player_id, &display_name);
                if self.lobby.erase_local_names(&player_id, &display_name) {
                    let _ = self.events.send(self.lobby.lobby_event());
                    self.publish(&[]);
                }
                if unrated {
                    self.publish(&[]);
                }
                // Clients that reconnect or reload no longer get the messages; what is already on a
                // screen stays there until then.
                self.chat.forget_player(&player_id);
                self.close_revoked(&player_id, &Revoked::All);
            }
            RoomCommand::Revoke { player_id, tokens } => self.close_revoked(&player_id, &tokens),
        }
        let (connected, _) = self.presence();
        Ok(RoomSnapshot {
            players_connected: connected.count_ones() as usize,
            ..self.lobby.snapshot()
        })
    }

    /// `player_id` gives up their seat (REST `leave` and the WebSocket command): emptied while the room
    /// waits, handed to a bot while the game runs (`leave_running_game`); the seats played at their
    /// device go with it, and a waiting room they owned passes on.
    pub async fn leave(&mut self, player_id: &str) -> Result<(), AppError> {
        match self.lobby.seat_of(player_id) {
            Some(seat) if self.lobby.status() == RoomStatus::Playing => {
                self.leave_running_game(seat, player_id).await?;
            }
            _ => {
                let seat = self.lobby.leave(player_id)?;
                let locals = self.local_seats_freed(player_id, None);
                // One transaction: a failure leaves them seated, as the refusal says.
                let rows: Vec<SeatRow> = std::iter::once(seat).chain(locals).collect();
                self.db.update_seats(&self.lobby.room.id, &rows).await?;
                for row in rows {
                    self.seat_changed(row, None);
                }
            }
        }
        self.after_leaving(player_id).await;
        Ok(())
    }

    /// `player_id` leaves the running game at seat index `seat`: a bot plays it (and the seats played at
    /// their device) to the end, and the game counts as a loss for them (recorded with the seat, in one
    /// transaction); then it is shown to everyone.
    async fn leave_running_game(&mut self, seat: usize, player_id: &str) -> Result<(), AppError> {
        let game_id = match &self.table {
            Some(table) if self.lobby.status() == RoomStatus::Playing => table.game_id.clone(),
            _ => return Err(AppError::RoomNotWaiting),
        };
        let row = SeatRow {
            player_id: None,
            display_name: None,
            bot_level: Some(DEFAULT_BOT_LEVEL.as_str().to_owned()),
            local_of: None,
            ..self.lobby.seats[seat].clone()
        };
        // The people who played at this device go with it, to bots too, in the same transaction.
        let locals = self.local_seats_freed(player_id, Some(DEFAULT_BOT_LEVEL.as_str()));
        self.db
            .leave_running_game(
                &self.lobby.room.id,
                &game_id,
                &row,
                &locals,
                player_id,
                now_ms(),
            )
            .await?;
        self.seat_changed(row, None);
        for local in locals {
            self.seat_changed(local, None);
        }
        Ok(())
    }

    /// The seats played at `player_id`'s device as they are once that player left: emptied in a waiting
    /// room, or played by a bot at `bot_level` in a running game (as their own seat is). To be stored
    /// with the player's own seat, then shown.
    pub(super) fn local_seats_freed(
        &self,
        player_id: &str,
        bot_level: Option<&str>,
    ) -> Vec<SeatRow> {
        self.lobby
            .local_seats_of(player_id)
            .into_iter()
            .map(|index| SeatRow {
                bot_level: bot_level.map(str::to_owned),
                ..SeatRow::empty(self.lobby.seats[index].seat)
            })
            .collect()
    }

    /// Starts the game `plan` decided: stored first, then shown to everyone.
    async fn start_game(&mut self, plan: StartPlan) -> Result<(), AppError> {
        let table =
            Table::start(&plan.game, &self.lobby.room.settings.0).map_err(AppError::Internal)?;
        self.db.start_game(&plan.game, &plan.seats).await?;
        let game_id = plan.game.id.clone();
        let away_before: Vec<(crate::db::SeatRow, Option<Instant>)> = self
            .lobby
            .seats
            .iter()
            .cloned()
            .zip(self.away_since.iter().copied())
            .collect();
        self.lobby.apply_start(plan);
        self.follow_seat_draw(&away_before);
        self.table = Some(table);
        self.game_version = self.hub.version();
        self.reset_decision();
        let _ = self.events.send(self.lobby.lobby_event());
        let _ = self.events.send(RoomEvent::GameStarted { game_id });
        self.publish(&[]);
        self.game_version = self.hub.version();
        // A seat draw moved people: each connection whose seat changed is told its new one (after the
        // state that shows it, so a client never acts for a seat the room does not give it yet).
        let moved: Vec<ConnId> = self
            .hub
            .conns()
            .filter(|(_, c)| {
                c.player_id.as_deref().is_some_and(|p| {
                    let before = away_before
                        .iter()
                        .position(|(s, _)| s.player_id.as_deref() == Some(p));
                    before != self.lobby.seat_of(p)
                })
            })
            .map(|(id, _)| *id)
            .collect();
        for conn in moved {
            self.send_hello(conn);
        }
        self.send_previews(None);
        Ok(())
    }

    /// Starts a full quick-match room. The join that filled it is stored and stands either way: if the
    /// start fails it is logged, and the room tries again after a pause (its owner may Start it too).
    pub(super) async fn start_by_itself(&mut self) {
        let started = match self.lobby.plan_start() {
            Ok(plan) => self.start_game(plan).await,
            Err(err) => Err(err),
        };
        match started {
            Ok(()) => {
                self.paused_until = None;
                tracing::info!(room = %self.lobby.room.id, "full quick-match room started");
            }
            Err(err) => {
                self.paused_until = Some(Instant::now() + RETRY_AFTER_FAILURE);
                tracing::error!(room = %self.lobby.room.id, %err, "a full quick-match room did not start")
            }
        }
    }

    /// A seated player's new name, shown at once. Only the name changes: the seat keeps its presence, its
    /// bot cover and its turn.
    fn show_name(&mut self, player_id: &str, display_name: &str) {
        if self.lobby.rename(player_id, display_name) {
            let _ = self.events.send(self.lobby.lobby_event());
            self.publish(&[]);
        }
    }

    // ----- ownership of a waiting room -------------------------------------------------------

    /// Whether any connection of the owner is open.
    fn owner_connected(&self) -> bool {
        let owner = self.lobby.room.owner_id.as_str();
        self.hub
            .conns()
            .any(|(_, c)| c.player_id.as_deref() == Some(owner))
    }

    /// The seated player (not the owner) who would own the room next: the first one with an open
    /// connection, or, unless `present_only`, the first one at all.
    fn successor(&self, present_only: bool) -> Option<String> {
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
    async fn hand_over(&mut self, player_id: String) {
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

    /// After a seat draw, each seat's presence follows the person who now sits there (the time they went
    /// away included); nothing was preselected before the game.
    fn follow_seat_draw(&mut self, before: &[(crate::db::SeatRow, Option<Instant>)]) {
        let same = |a: &crate::db::SeatRow, b: &crate::db::SeatRow| {
            a.player_id == b.player_id
                && a.local_of == b.local_of
                && a.display_name == b.display_name
        };
        for index in 0..self.away_since.len() {
            let seat = &self.lobby.seats[index];
            self.away_since[index] = before
                .iter()
                .find(|(old, _)| same(old, seat))
                .and_then(|(_, away)| *away);
            self.bot_playing[index] = false;
            self.preselected[index] = None;
        }
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

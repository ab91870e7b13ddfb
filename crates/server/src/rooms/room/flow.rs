//! Game flow and clocks: when the server acts for a seat (bots, timers, away players), the actions
//! themselves and what follows each one.

use std::time::{Duration, Instant};

use parchis_rules::{Event, Phase};

use super::{RETRY_AFTER_FAILURE, Room};
use crate::db::now_ms;
use crate::model::{Acted, Actor, RoomStatus};
use crate::rooms::hub::ConnId;
use crate::rooms::protocol::{CommandError, ErrorCode};
use crate::rooms::table::{ActError, Table};

impl Room {
    /// The time a player has per decision when the room allows `secs`.
    pub(super) fn turn_limit(&self, secs: u32) -> Duration {
        self.timing.turn_second * secs
    }

    /// A new decision begins: restart the clocks.
    pub(super) fn reset_decision(&mut self) {
        self.decision_since = Instant::now();
        self.decision_since_ms = now_ms();
    }

    /// `game.deadline_ms`: when the server will act for the seat to act (the wake-up of
    /// [`Room::game_wake`], so the countdown and the action agree), while a person is waited on: the turn
    /// timer, or the end of the away grace of a player who went away during the decision, whichever
    /// comes first. `None` when nobody waits on a person: no timer and the player is there, a bot seat, or
    /// an away seat a bot covers already. Bots act after the short bot delay, each action: a countdown of
    /// half a second that starts again at every step would be flicker, not information.
    pub(super) fn deadline_ms(&self) -> Option<i64> {
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
        let acted = self.acted.take();
        self.publish_acted(acted, events);
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
    pub(super) fn take_ratings(&mut self) {
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
    pub(super) fn show_finished(&mut self) {
        if self.table.as_ref().is_some_and(|t| t.result.is_some())
            && self.lobby.status() != RoomStatus::Finished
        {
            self.lobby.room.status = RoomStatus::Finished;
            self.publish(&[]);
        }
    }

    /// Stores the result of a game that ended while storage failed, then shows it (result, seed, ratings,
    /// the room finished) as at a normal end; if it fails again, tries again after a pause.
    pub(super) async fn store_due_result(&mut self) {
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
    pub(super) fn lobby_wake(&self) -> Option<Instant> {
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
    pub(super) fn owner_to_replace(&self) -> Option<String> {
        if self.lobby.seat_of(&self.lobby.room.owner_id).is_some() {
            return None;
        }
        self.successor(false)
    }

    /// The pause before each action of a seat the server plays: the server's, at the room's pace.
    pub(super) fn bot_delay(&self) -> Duration {
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
    pub(super) fn game_wake(&self, table: &Table) -> Option<Instant> {
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
            Actor::Bot
        } else if self.away_since[seat].is_some_and(|a| started >= a + self.timing.away_grace) {
            self.bot_playing[seat] = true;
            Actor::Away
        } else {
            Actor::Timer
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
    pub async fn act_roll(&mut self, by: Actor) -> Result<Vec<Event>, ActError> {
        let table = self
            .table
            .as_mut()
            .ok_or(ActError::Play(parchis_rules::PlayError::GameOver))?;
        let seat = usize::from(table.game.seat());
        let events = table.roll(&self.db, by).await?.to_vec();
        self.acted = Some(Acted { seat, by });
        Ok(events)
    }

    /// Plays `mv` for `seat` (the seat to act) and clears its pre-selection.
    pub async fn act_move(
        &mut self,
        seat: usize,
        mv: parchis_rules::Move,
        by: Actor,
    ) -> Result<Vec<Event>, ActError> {
        let table = self
            .table
            .as_mut()
            .ok_or(ActError::Play(parchis_rules::PlayError::GameOver))?;
        let events = table.play(&self.db, mv, by).await?.to_vec();
        self.preselected[seat] = None;
        self.acted = Some(Acted { seat, by });
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
}

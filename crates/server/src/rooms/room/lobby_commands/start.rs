//! `POST /api/rooms/{id}/start` (and a full quick-match room starting by itself): the game begins.

use std::time::Instant;

use crate::error::AppError;
use crate::rooms::hub::ConnId;
use crate::rooms::lobby::{RoomEvent, StartPlan};
use crate::rooms::room::{RETRY_AFTER_FAILURE, Room};
use crate::rooms::table::Table;

impl Room {
    /// The owner starts the game: empty seats become bots (or a seat draw moves people, as the room says).
    pub(in crate::rooms::room) async fn start(&mut self, player_id: &str) -> Result<(), AppError> {
        let plan = self.lobby.start(player_id)?;
        self.start_game(plan).await
    }

    /// Starts the game `plan` decided: stored first, then shown to everyone.
    pub(in crate::rooms::room) async fn start_game(
        &mut self,
        plan: StartPlan,
    ) -> Result<(), AppError> {
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
    pub(in crate::rooms) async fn start_by_itself(&mut self) {
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

    /// After a seat draw, each seat's presence follows the person who now sits there (the time they went
    /// away included); nothing was preselected before the game.
    pub(in crate::rooms::room) fn follow_seat_draw(
        &mut self,
        before: &[(crate::db::SeatRow, Option<Instant>)],
    ) {
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
}

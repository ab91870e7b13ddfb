//! The running game of a room: the referee state, the secret seed, the log
//! position. Every roll and move is appended to the stored log before it is
//! applied here, so what clients see is always durable. The result of a game
//! is stored after its winning move, in a transaction of its own: until that
//! succeeds the game is over without a result ([`Table::result_due`]), and
//! the seed stays secret.

use parchis_proof::dice;
use parchis_rules::{Event, Events, Game, Move, PlayError};
use serde_json::{Value, json};

use crate::db::{Db, DbError, GameRow, LogAction, MovePayload, NewGame, RollPayload, now_ms};
use crate::model::Actor;
use crate::model::Rating;
use crate::rooms::public_state::LastRoll;
use crate::rooms::tally::Tally;
use crate::settings::RoomSettings;

/// Why an action was not applied.
#[derive(Debug, thiserror::Error)]
pub enum ActError {
    /// The rules refused it.
    #[error(transparent)]
    Play(#[from] PlayError),
    /// Storing the action failed; nothing was applied.
    #[error("storage: {0}")]
    Storage(#[from] DbError),
    /// The game could not be rebuilt from storage (to check a log entry whose append reported a failure).
    #[error("rebuilding the game: {0}")]
    Rebuild(String),
}

/// Why a stored game could not be rebuilt ([`Table::restore`]).
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    /// Reading the stored log failed (an outage, say: see [`DbError::outage`]).
    #[error(transparent)]
    Storage(#[from] DbError),
    /// What is stored makes no game: no seed, settings or a log entry the rules refuse.
    #[error("{0}")]
    Corrupt(String),
}

impl From<RestoreError> for ActError {
    fn from(err: RestoreError) -> Self {
        match err {
            RestoreError::Storage(err) => ActError::Storage(err),
            RestoreError::Corrupt(why) => ActError::Rebuild(why),
        }
    }
}

/// A game being played in a room.
#[derive(Debug, Clone)]
pub struct Table {
    /// Game id (the `games` row).
    pub game_id: String,
    /// The referee state.
    pub game: Game,
    /// Secret seed: rolls are derived from it; revealed once finished.
    seed: [u8; dice::SEED_LEN],
    /// The seed in hex, as stored.
    seed_hex: String,
    /// Public commitment to the seed.
    pub seed_hash: String,
    /// Rolls made so far (index of the next roll).
    pub rolls: u64,
    /// The latest roll (`None` before the first).
    pub last_roll: Option<LastRoll>,
    /// Next `game_log.seq`.
    seq: i64,
    /// Result once finished (also stored in `games.result`).
    pub result: Option<Value>,
    /// The people's ratings as the game just left them (seat, rating), until the room takes them to show.
    new_ratings: Vec<(usize, Rating)>,
    /// What each seat did so far (captures, sixes…), stored with the result for the end card.
    tally: Tally,
    /// An append reported a failure: the entry may be stored all the same (a connection lost while the
    /// commit went through), so the stored log must be checked before the game goes on.
    pub log_unsure: bool,
}

impl Table {
    /// The table of a game that was just started.
    pub fn start(new: &NewGame, settings: &RoomSettings) -> Result<Table, String> {
        let game = settings.new_game().map_err(|e| e.to_string())?;
        let seed = dice::decode_seed(&new.seed).ok_or("bad seed")?;
        Ok(Table {
            game_id: new.id.clone(),
            seed,
            seed_hex: new.seed.clone(),
            seed_hash: new.seed_hash.clone(),
            rolls: 0,
            last_roll: None,
            seq: 0,
            result: None,
            new_ratings: Vec::new(),
            tally: Tally::new(&game),
            log_unsure: false,
            game,
        })
    }

    /// Rebuilds a stored game by replaying its log through the rules crate.
    pub async fn restore(
        db: &Db,
        row: &GameRow,
        settings: &RoomSettings,
    ) -> Result<Table, RestoreError> {
        let corrupt = RestoreError::Corrupt;
        let seed_hex = row
            .seed
            .clone()
            .ok_or_else(|| corrupt("game without seed".to_owned()))?;
        let new = NewGame {
            id: row.id.clone(),
            room_id: row.room_id.clone(),
            seed_hash: row.seed_hash.clone(),
            seed: seed_hex,
            started_at: row.started_at,
        };
        let mut table = Table::start(&new, settings).map_err(corrupt)?;
        let log = db.game_log(&row.id).await?;
        for entry in log {
            let action = entry
                .action()
                .map_err(|e| corrupt(format!("log {}: {e}", entry.seq)))?;
            match action {
                LogAction::Roll(RollPayload { die, .. }) => {
                    let seat = table.game.seat();
                    let events = table.game.roll(die).map_err(|e| {
                        corrupt(format!(
                            "log {}: roll {die} refused on replay: {e}",
                            entry.seq
                        ))
                    })?;
                    table.tally.count(&table.game, seat, &events);
                    table.rolls += 1;
                    table.last_roll = Some(LastRoll { seat, die });
                }
                LogAction::Move(MovePayload { text, .. }) => {
                    let mv = table
                        .game
                        .parse_move(&text)
                        .map_err(|e| corrupt(format!("log {}: {e}", entry.seq)))?;
                    let seat = table.game.seat();
                    let events = table.game.play(mv).map_err(|e| {
                        corrupt(format!(
                            "log {}: move {text} refused on replay: {e}",
                            entry.seq
                        ))
                    })?;
                    table.tally.count(&table.game, seat, &events);
                }
            }
            table.seq = entry.seq + 1;
        }
        table.result = row.result.as_ref().map(|r| r.0.clone());
        // Killed (or storage failing) between the last move and storing the result: finish it now. If
        // that fails too the game is restored all the same, and its room tries again.
        if let Err(err) = table.store_result(db).await {
            tracing::error!(game = %row.id, %err, "storing the result of a restored game failed");
        }
        Ok(table)
    }

    /// Log entries applied so far (the `seq` of the next one).
    pub fn logged(&self) -> i64 {
        self.seq
    }

    /// The die the next roll will show (for the private preview).
    pub fn next_die(&self) -> u8 {
        dice::roll(&self.seed, self.rolls)
    }

    /// The seed, once the game's result is stored (never before: storage reveals it with the result).
    pub fn revealed_seed(&self) -> Option<&str> {
        self.result.is_some().then_some(self.seed_hex.as_str())
    }

    /// Whether the game is over but its result is not stored yet (storing it failed).
    pub fn result_due(&self) -> bool {
        self.game.is_over() && self.result.is_none()
    }

    /// Stores the result of a game that is over without one (nothing to do otherwise). Safe to call
    /// again after a failure: [`Db::finish_game`] writes nothing twice.
    pub async fn store_result(&mut self, db: &Db) -> Result<(), DbError> {
        match self.game.winner() {
            Some(side) if self.result.is_none() => self.finish(db, side).await,
            _ => Ok(()),
        }
    }

    /// Rolls for the seat to act: derive, check, store, apply. Once stored, the roll stands: an error
    /// means it was not stored (a result it wins is stored apart: `finish_if_over`).
    pub async fn roll(&mut self, db: &Db, by: Actor) -> Result<Events, ActError> {
        let die = self.next_die();
        let mut next = self.game;
        let events = next.roll(die)?;
        let payload = RollPayload {
            by,
            die,
            roll: self.rolls,
            seat: self.game.seat(),
        };
        if let Err(err) = db
            .append_log(&self.game_id, self.seq, &LogAction::Roll(payload), now_ms())
            .await
        {
            self.log_unsure = true;
            return Err(err.into());
        }
        self.seq += 1;
        self.rolls += 1;
        self.last_roll = Some(LastRoll {
            seat: payload.seat,
            die,
        });
        self.game = next;
        self.tally.count(&self.game, payload.seat, &events);
        self.finish_if_over(db, &events).await;
        Ok(events)
    }

    /// Plays a legal move for the seat to act: check, store, apply. As for [`Table::roll`], an error
    /// means nothing was stored.
    pub async fn play(&mut self, db: &Db, mv: Move, by: Actor) -> Result<Events, ActError> {
        let text = self.game.move_text(&mv);
        let mut next = self.game;
        let events = next.play(mv)?;
        let seat = self.game.seat();
        let payload = MovePayload { by, text, seat };
        if let Err(err) = db
            .append_log(&self.game_id, self.seq, &LogAction::Move(payload), now_ms())
            .await
        {
            self.log_unsure = true;
            return Err(err.into());
        }
        self.seq += 1;
        self.game = next;
        self.tally.count(&self.game, seat, &events);
        self.finish_if_over(db, &events).await;
        Ok(events)
    }

    /// Stores the result (revealing the seed) when `events` ended the game. The action that ended it is
    /// stored and applied already, so a failure here does not undo it: it is logged, the result stays
    /// due ([`Table::result_due`]) and the room stores it later.
    async fn finish_if_over(&mut self, db: &Db, events: &Events) {
        let Some(side) = events.iter().find_map(|e| match e {
            Event::GameWon { side } => Some(*side),
            _ => None,
        }) else {
            return;
        };
        if let Err(err) = self.finish(db, side).await {
            tracing::error!(game = %self.game_id, %err, "storing the result failed; the room will try again");
        }
    }

    /// Stores the result of a game won by `side` (revealing the seed, rating the people if it is rated).
    async fn finish(&mut self, db: &Db, side: u8) -> Result<(), DbError> {
        let layout = self.game.layout();
        let sides = &layout.side_of_seat[..usize::from(layout.n_seats)];
        let winner_seats: Vec<u8> = (0..layout.n_seats)
            .filter(|&s| sides[usize::from(s)] == side)
            .collect();
        let figures = self.tally.at_end(&self.game);
        let finished = db
            .finish_game(
                &self.game_id,
                json!({
                    "winner_side": side,
                    "winner_seats": &winner_seats,
                    "seats": &figures,
                }),
                now_ms(),
                self.game.rules().name(),
                // House rules: options other than the preset's for the mode.
                *self.game.options() != self.game.rules().options_for(self.game.mode()),
                sides,
                side,
                &figures,
            )
            .await?;
        self.result = Some(finished.result);
        self.new_ratings = finished
            .ratings
            .iter()
            .filter_map(|r| Some((usize::try_from(r.seat).ok()?, Rating::of(r.mu, r.games))))
            .collect();
        Ok(())
    }

    /// The people's ratings as the game left them, once (empty before it ends, when it was not rated, and
    /// after the first call).
    pub fn take_new_ratings(&mut self) -> Vec<(usize, Rating)> {
        std::mem::take(&mut self.new_ratings)
    }
}

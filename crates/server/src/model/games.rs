//! JSON shapes of a game's record, replay and analysis (`/api/games/{id}/…`), and of the figures its result
//! keeps per seat.

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::SeatView;
use crate::settings::RoomSettings;

/// One log entry of a game record.
#[derive(Debug, Serialize, ToSchema)]
pub struct LogEntry {
    /// Position in the log.
    pub seq: i64,
    /// `roll` or `move`.
    pub kind: String,
    /// Kind-specific details.
    pub payload: Value,
    /// When it happened, Unix ms.
    pub at: i64,
}

/// `GET /api/games/{id}/record`: everything `parchis verify` needs (PROTOCOL.md §8).
#[derive(Debug, Serialize, ToSchema)]
pub struct GameRecord {
    /// Game id.
    pub game_id: String,
    /// Room it was played in.
    pub room_id: String,
    /// Settings of the room.
    pub settings: RoomSettings,
    /// Seats as they were at start (bots filled in).
    pub seats: Vec<SeatView>,
    /// SHA-256 commitment to the seed, published from the start.
    pub seed_hash: String,
    /// The seed itself: `null` until the game has finished.
    pub seed: Option<String>,
    /// Start time, Unix ms.
    pub started_at: i64,
    /// End time, Unix ms, once finished.
    pub finished_at: Option<i64>,
    /// Result, once finished.
    pub result: Option<Value>,
    /// Every roll and move in order.
    pub log: Vec<LogEntry>,
}

/// `GET /api/games/{id}/replay`: a finished game, position by position, as the rules crate replays it.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameReplay {
    /// Game id.
    pub game_id: String,
    /// Room it was played in.
    pub room_id: String,
    /// The result as stored: `winner_side`, `winner_seats`, `seats` (each seat's figures: pieces home,
    /// captures made and suffered, sixes) and, for a rated game, `ratings` (each person's seat and rating
    /// before and after).
    #[schema(value_type = Option<Object>)]
    pub result: Option<Value>,
    /// The rules crate's full view of the starting position (seats, colours, board slots, pieces);
    /// each step only repeats what changes.
    #[schema(value_type = Object)]
    pub initial: Value,
    /// One entry per log entry, in order: `steps[k]` is the position after `log[k]`.
    pub steps: Vec<ReplayStep>,
}

/// One replayed log entry and the position after it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReplayStep {
    /// `log[].seq` of the entry.
    pub seq: u64,
    /// `roll` or `move`.
    pub kind: String,
    /// Seat that acted.
    pub seat: u8,
    /// The die, for a roll.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub die: Option<u8>,
    /// The move in notation, for a move.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<String>,
    /// Who decided: `player`, `bot`, `timer` or `away`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<Actor>,
    /// The rules crate's events for the entry (captures, three sixes, counts, turn changes…).
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Value>,
    /// Every piece's place after the entry, in the order of `initial.pieces`.
    pub pieces: Vec<ReplayPiece>,
    /// The turn after the entry, as in the view (`seat`, `phase`, `queued_counts`, …).
    #[schema(value_type = Object)]
    pub turn: Value,
}

/// Where one piece is after a replay step.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReplayPiece {
    /// Piece id, e.g. `y1`.
    pub id: String,
    /// `{"kind":"home"}`, `{"kind":"square","at":12}`, `{"kind":"lane","at":3}` or `{"kind":"goal"}`.
    #[schema(value_type = Object)]
    pub place: Value,
    /// The piece is one of a blockade there (as `View`'s pieces say).
    pub in_blockade: bool,
    /// The piece is the later of the two on its square (drawn second, captured first at an exit).
    pub last_arrived: bool,
}

/// Response of `GET /api/games/{id}/analysis`: a move of a finished game next to the expert bot's.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveAnalysis {
    /// The game.
    pub game_id: String,
    /// The log entry of the move.
    pub seq: u64,
    /// The seat that moved.
    pub seat: u8,
    /// The position the move was played in (RULES.md notation: `parchis legal` takes it).
    pub position: String,
    /// Every legal move there, in move notation.
    pub legal: Vec<String>,
    /// The move played.
    pub played: String,
    /// The move the expert bot picks there.
    pub expert: String,
    /// Whether they are the same move.
    pub agrees: bool,
}

/// One seat's figures for a game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SeatTally {
    /// The seat (turn order, from 0).
    pub seat: u8,
    /// Pieces this seat sent back to base (counted for the seat that moved, also when it moved a partner's
    /// piece).
    pub captures: u32,
    /// Pieces of this seat's colours sent back to base by anyone (the three-sixes penalty not included).
    pub captured: u32,
    /// Sixes this seat rolled.
    pub sixes: u32,
    /// Pieces of this seat's colours at the goal when the game ended (filled in by [`crate::rooms::tally::Tally::at_end`]).
    pub home: u8,
}

/// Who made a roll or move (a log entry's `payload.by`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Actor {
    /// The seat's person (or the player at whose device it is played).
    Player,
    /// The bot that plays a bot seat.
    Bot,
    /// A bot covering for a person who is away.
    Away,
    /// The server, for a person whose turn timer ran out.
    Timer,
}

/// Who made the roll or move an `update` announces (its `acted`): the seat acted for and by whom, so that
/// every client can say when the server acted for a person (their timer ran out, or they are away).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Acted {
    /// The seat the roll or move was made for (the seat to act).
    pub seat: usize,
    /// Who made it.
    pub by: Actor,
}

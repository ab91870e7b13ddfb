//! JSON shape of `GET /api/players/me/export`: everything the server keeps about a player.

use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::{Rating, RecentGame};

/// Response of `GET /api/players/me/export`: everything the server keeps about you, as one JSON file.
/// Secrets stay out (token and password hashes, the seeds of games still being played).
#[derive(Debug, Serialize, ToSchema)]
pub struct DataExport {
    /// When it was made, Unix ms.
    pub exported_at: i64,
    /// You as a player.
    pub player: ExportedPlayer,
    /// Your account, if you made one.
    pub account: Option<ExportedAccount>,
    /// Every room you sat in, newest first, with its game.
    pub rooms: Vec<ExportedRoom>,
    /// Every finished game you sat at, newest first.
    pub results: Vec<RecentGame>,
    /// Your ratings, per rule set.
    pub ratings: Vec<ExportedRating>,
    /// Every chat message you wrote, oldest first.
    pub chat_messages: Vec<ExportedMessage>,
    /// Every report you made of someone's message, oldest first.
    pub reports: Vec<ExportedReport>,
    /// Every seat someone played at your device, under the name you gave (by room and seat).
    pub local_players: Vec<ExportedLocalPlayer>,
    /// Every game you left while it ran (a bot played your seat on; it counts as a loss), oldest first.
    pub games_left: Vec<ExportedLeftGame>,
    /// Your figures in every finished game that kept them, per seat you held to its end, newest first
    /// (what your record adds up).
    pub figures: Vec<ExportedFigures>,
    /// Every device your tokens were handed out to and still work on (as `GET /api/sessions` lists
    /// them, with the `User-Agent` each sent), most recently used first.
    pub devices: Vec<ExportedDevice>,
    /// Every room whose owner removed you before its game, oldest first.
    pub removed_from_rooms: Vec<ExportedRemoval>,
}

/// A device signed in as you (`DataExport::devices`).
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedDevice {
    /// What it is, as the list of devices says (`Firefox on Android`).
    pub device: String,
    /// The `User-Agent` it sent when its token was handed out, as stored (at most 256 bytes).
    pub user_agent: Option<String>,
    /// Unix ms.
    pub signed_in_at: i64,
    /// Unix ms, to the hour.
    pub last_used_at: i64,
}

/// A room you were removed from (`DataExport::removed_from_rooms`).
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedRemoval {
    pub room_id: String,
    /// Unix ms.
    pub removed_at: i64,
}

/// Your figures in one finished game (`DataExport::figures`), as its `result.seats` entry of your seat.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedFigures {
    pub game_id: String,
    pub seat: i64,
    pub captures: i32,
    pub captured: i32,
    pub sixes: i32,
    pub home: i32,
}

/// A game you left while it ran (`DataExport::games_left`).
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedLeftGame {
    pub game_id: String,
    pub room_id: String,
    pub seat: i64,
    /// When you left, Unix ms.
    pub left_at: i64,
}

/// A seat someone played at your device (`DataExport::local_players`).
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedLocalPlayer {
    pub room_id: String,
    pub seat: i64,
    pub display_name: Option<String>,
}

/// You as a player (`DataExport::player`).
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedPlayer {
    pub id: String,
    pub display_name: String,
    /// Unix ms.
    pub created_at: i64,
}

/// Your account (`DataExport::account`).
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedAccount {
    pub username: String,
    /// Unix ms.
    pub created_at: i64,
    /// Devices signed in to it besides the one the player was made on.
    pub signed_in_devices: i64,
}

/// A room you sat in (`DataExport::rooms`).
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedRoom {
    pub room_id: String,
    /// `waiting`, `playing` or `finished`.
    pub status: String,
    /// Your seat.
    pub seat: i64,
    /// The room's settings.
    #[schema(value_type = Object)]
    pub settings: Value,
    /// Unix ms.
    pub created_at: i64,
    /// Its game, once started (its record: `GET /api/games/{id}/record`).
    pub game_id: Option<String>,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
}

/// A rating of yours (`DataExport::ratings`), with the skill estimate behind it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedRating {
    pub rules: String,
    /// As shown.
    pub rating: Rating,
    /// Skill estimate (Weng-Lin μ; the rating shown is 60 μ).
    pub mu: f64,
    /// Its uncertainty (σ).
    pub sigma: f64,
    /// When a rated game last changed it, Unix ms.
    pub updated_at: i64,
}

/// A chat message you wrote (`DataExport::chat_messages`).
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedMessage {
    pub room_id: String,
    pub seq: i64,
    pub text: String,
    /// Unix ms.
    pub at: i64,
}

/// A report you made (`DataExport::reports`).
#[derive(Debug, Serialize, ToSchema)]
pub struct ExportedReport {
    pub room_id: String,
    /// The reported message's number in its room's chat.
    pub seq: i64,
    pub reason: String,
    /// Unix ms.
    pub at: i64,
}

//! JSON shapes of the HTTP API (requests and responses).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::db::SeatRow;
use crate::settings::{BotLevel, Colour, RoomSettings};

/// Body of `POST /api/players`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct CreatePlayerRequest {
    /// Name shown to other players (1–32 characters after trimming).
    pub display_name: String,
}

/// Response of `POST /api/players`; the only time the token is ever shown.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerCreated {
    /// New player id.
    pub id: String,
    /// Name shown to other players.
    pub display_name: String,
    /// Secret bearer token (64 hex chars); the server keeps only its hash.
    pub token: String,
}

/// Body of `PATCH /api/players/me`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct RenamePlayerRequest {
    /// The new name shown to other players (1–32 characters after trimming).
    pub display_name: String,
}

/// A player as they see themselves (`GET` and `PATCH /api/players/me`); never the token.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerView {
    /// Player id.
    pub id: String,
    /// Name shown to other players.
    pub display_name: String,
    /// The account's username, once the player made one (`POST /api/account`).
    pub username: Option<String>,
}

/// Body of `POST /api/account` (make one) and `POST /api/sessions` (sign in with it).
#[derive(Debug, Deserialize, ToSchema)]
pub struct CredentialsRequest {
    /// 3–24 letters, digits, `_`, `-` or `.`; unique whatever the case.
    pub username: String,
    /// 8–128 characters (only checked when making the account).
    pub password: String,
}

/// One player on the leaderboard (`GET /api/leaderboard`).
#[derive(Debug, Serialize, ToSchema)]
pub struct Leader {
    /// 1 for the most wins; players with as many wins and games share a rank.
    pub rank: u32,
    /// The account's username (unique).
    pub username: String,
    /// The name the player shows at the table.
    pub display_name: String,
    /// Games counted: finished, of these rules without house rules, in the period, with at least two
    /// people seated.
    pub games: i64,
    /// Of those, the ones their side won.
    pub wins: i64,
    /// Their rating in these rules; `null` when they have played no rated game of them.
    pub rating: Option<Rating>,
}

/// A player's skill rating in one rule set (Weng-Lin, shown on a scale where everyone starts at 1500).
/// A game is rated when it has no house rules and people sit on at least two sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Rating {
    /// The rating shown (1500 before the first rated game).
    #[schema(example = 1563)]
    pub value: i64,
    /// Rated games behind it.
    pub games: i64,
    /// Fewer than 5 rated games: still settling (shown with a `?`, not on the rating leaderboard).
    pub provisional: bool,
}

impl Rating {
    /// The rating of skill estimate `mu` after `games` rated games.
    pub fn of(mu: f64, games: i64) -> Rating {
        Rating {
            value: crate::ratings::points(mu),
            games,
            provisional: games < crate::ratings::PROVISIONAL_GAMES,
        }
    }
}

/// Response of `GET /api/leaderboard`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Leaderboard {
    /// The rule set counted.
    pub rules: String,
    /// The period counted, in days up to now.
    pub days: u32,
    /// What ranks the players: `wins` (the most wins in the period) or `rating` (the best ratings, not
    /// provisional, of players who finished a rated game in the period).
    #[schema(example = "wins")]
    pub by: String,
    /// Best first, at most 20.
    pub players: Vec<Leader>,
}

/// One rule set of a player's record (`GET /api/players/me/stats`).
#[derive(Debug, Serialize, ToSchema)]
pub struct RuleSetStats {
    /// `playgridia`, `ludoteka` or `morocco`.
    pub rules: String,
    /// Finished games of these rules the player sat at, against bots too.
    pub games: i64,
    /// Of those, the ones their side won.
    pub wins: i64,
    /// Games with at least one other person seated (what the leaderboard counts, when they had no house
    /// rules).
    pub games_with_people: i64,
    /// Of those, the ones their side won.
    pub wins_with_people: i64,
    /// When the latest of them finished, Unix ms.
    pub last_finished_at: i64,
    /// Their rating in these rules; `null` when they have played no rated game of them.
    pub rating: Option<Rating>,
    /// What they did in these games, added up (the end-of-game figures of the seats they held).
    pub figures: RecordFigures,
}

/// A player's figures over their finished games of one rule set (`RuleSetStats::figures`): the sums of
/// their seats' `result.seats` entries. Only games that kept figures count: games finished before the
/// server counted them, and games the player left while they ran (a bot finished their seat), add nothing,
/// not even zeros; `games` says how many games the sums cover.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct RecordFigures {
    /// The games the sums cover (at most the rule set's `games`; 0: none has figures).
    pub games: i64,
    /// Pieces they sent back to base (also with a partner's piece they moved).
    pub captures: i64,
    /// Pieces of their colours sent back to base by anyone (the three-sixes penalty not included).
    pub captured: i64,
    /// Sixes they rolled.
    pub sixes: i64,
    /// Pieces of their colours at the goal when their games ended.
    pub home: i64,
}

/// One of a player's latest finished games (their record's `recent`).
#[derive(Debug, Serialize, ToSchema)]
pub struct RecentGame {
    /// The game (its replay: `GET /api/games/{id}/replay`).
    pub game_id: String,
    /// Its rule set.
    pub rules: String,
    /// Whether the player's side won.
    pub won: bool,
    /// People seated at it (1: the player against bots).
    pub people: i32,
    /// Whether its room played house rules (such games are not on the leaderboard).
    pub house_rules: bool,
    /// When it finished, Unix ms.
    pub finished_at: i64,
    /// What it did to the player's rating (after − before); `null` when it was not rated.
    pub rating_change: Option<i64>,
}

/// Response of `GET /api/players/me/stats`.
#[derive(Debug, Serialize, ToSchema)]
pub struct MyStats {
    /// Finished games, every rule set together.
    pub games: i64,
    /// Of those, the ones won.
    pub wins: i64,
    /// Per rule set played, in the order of their names (none played yet: empty).
    pub rules: Vec<RuleSetStats>,
    /// The latest finished games, newest first (at most 10).
    pub recent: Vec<RecentGame>,
}

/// Response of `GET /api/accounts/{username}/stats`: a player's name and record.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerStats {
    /// The account's username, as its owner wrote it.
    pub username: String,
    /// The name the player shows at the table.
    pub display_name: String,
    /// Finished games, every rule set together.
    pub games: i64,
    /// Of those, the ones won.
    pub wins: i64,
    /// Per rule set played, in the order of their names (none played yet: empty).
    pub rules: Vec<RuleSetStats>,
    /// The latest finished games, newest first (at most 10).
    pub recent: Vec<RecentGame>,
}

/// Response of `GET /api/accounts/{username}/ratings`: a player's rating in one rule set and how the
/// rated games moved it.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingHistory {
    /// The account's username, as its owner wrote it.
    pub username: String,
    /// The rule set.
    #[schema(example = "playgridia")]
    pub rules: String,
    /// Their rating in it now; `null` before their first rated game of it.
    pub rating: Option<Rating>,
    /// Their latest rated games of it (at most 100), oldest first: each game's `before` is the previous
    /// one's `after`.
    pub history: Vec<RatingPoint>,
}

/// One rated game of a player's rating history.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingPoint {
    /// The game (its replay: `GET /api/games/{id}/replay`).
    pub game_id: String,
    /// When it finished, Unix ms.
    pub finished_at: i64,
    /// The rating shown before it.
    #[schema(example = 1500)]
    pub before: i64,
    /// The rating shown after it.
    #[schema(example = 1527)]
    pub after: i64,
}

/// Body of `PATCH /api/account`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ChangePasswordRequest {
    /// The password now.
    pub password: String,
    /// The password from now on (8–128 characters).
    pub new_password: String,
}

/// Body of `DELETE /api/players/me`, needed for a player with an account (a guest may send none).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct EraseRequest {
    /// The account's current password (ignored for a guest, who has none).
    #[serde(default)]
    pub password: Option<String>,
}

/// Response of `POST /api/sessions`: the player signed in as, and a new token for this device (the
/// only time it is shown).
#[derive(Debug, Serialize, ToSchema)]
pub struct SignedIn {
    /// Player id (the same on every device).
    pub id: String,
    /// Name shown to other players.
    pub display_name: String,
    /// The account's username.
    pub username: String,
    /// Secret bearer token for this device (64 hex chars); the server keeps only its hash.
    pub token: String,
}

/// Response of `DELETE /api/sessions/others`: how many of the player's other devices it signed out.
#[derive(Debug, Serialize, ToSchema)]
pub struct SignedOutOthers {
    /// Tokens that stopped working: the other devices' sessions, and the first token (from
    /// `POST /api/players`) unless it is this device's or was revoked already. 0 when none was left.
    pub signed_out: u64,
}

/// Response of `GET /api/sessions`: the devices signed in to your account, most recently used first.
#[derive(Debug, Serialize, ToSchema)]
pub struct Devices {
    /// Every token of the account that still works: the devices signed in, and the first one (from
    /// `POST /api/players`) unless it was signed out.
    pub devices: Vec<Device>,
    /// After how many days unused a device is signed out by itself (the host's `SESSION_IDLE_DAYS`), so
    /// the owner knows a forgotten one does not stay signed in for ever; `null`: never.
    pub signed_out_after_days: Option<u32>,
}

/// A device signed in to your account.
#[derive(Debug, Serialize, ToSchema)]
pub struct Device {
    /// Opaque id (32 hex digits) for `DELETE /api/sessions/{id}`; derived from the token's hash, it
    /// reveals neither. The same for as long as the device stays signed in.
    #[schema(example = "3f2a9c0d4b1e8f7a6c5d4e3f2a1b0c9d")]
    pub id: String,
    /// What the device is, read from the `User-Agent` it signed in with: "Firefox on Android", "Safari
    /// on iPhone", "curl", or "Unknown device". A hint only: a client may send any `User-Agent`.
    #[schema(example = "Firefox on Android")]
    pub device: String,
    /// When it signed in (its token was handed out), Unix ms.
    pub signed_in_at: i64,
    /// When its token last authenticated a request, Unix ms: written at most once an hour, so up to an
    /// hour behind (a device that signed in and was not used since: `signed_in_at`).
    pub last_used_at: i64,
    /// Whether it is the device asking (the token of this request).
    pub current: bool,
}

/// Lifecycle of a room.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum RoomStatus {
    Waiting,
    Playing,
    Finished,
}

impl RoomStatus {
    /// Spelling stored in `rooms.status`.
    pub fn as_str(self) -> &'static str {
        match self {
            RoomStatus::Waiting => "waiting",
            RoomStatus::Playing => "playing",
            RoomStatus::Finished => "finished",
        }
    }

    /// Parses the stored spelling (unknown text reads as `finished`, the inert state).
    pub fn parse(text: &str) -> Self {
        match text {
            "waiting" => RoomStatus::Waiting,
            "playing" => RoomStatus::Playing,
            _ => RoomStatus::Finished,
        }
    }
}

/// One seat as clients see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct SeatView {
    /// Seat index in turn order, from 0.
    pub seat: u8,
    /// Human sitting here, if any.
    pub player_id: Option<String>,
    /// The player at whose device a person without a player of their own plays this seat (pass and
    /// play; `player_id` is then `null`).
    pub local_of: Option<String>,
    /// Their display name (or the name given for the person playing at `local_of`'s device).
    pub display_name: Option<String>,
    /// Bot level if a bot plays this seat.
    pub bot: Option<BotLevel>,
    /// Colour the seated human asked for.
    #[schema(value_type = Option<String>, example = "yellow")]
    pub preferred_colour: Option<Colour>,
    /// The seated person's rating in the room's rule set, as it is now (after a rated game ends, the new
    /// one); `null` for a bot, an empty seat, a person without a rated game of these rules, and in a game
    /// record (whose `result.ratings` says what the game did).
    pub rating: Option<Rating>,
}

impl SeatView {
    /// The view of a seat whose person has `rating`.
    pub fn rated(row: &SeatRow, rating: Option<Rating>) -> Self {
        SeatView {
            rating,
            ..SeatView::from(row)
        }
    }
}

impl From<&SeatRow> for SeatView {
    fn from(row: &SeatRow) -> Self {
        SeatView {
            seat: u8::try_from(row.seat).unwrap_or(u8::MAX),
            player_id: row.player_id.clone(),
            local_of: row.local_of.clone(),
            display_name: row.display_name.clone(),
            bot: row.bot_level.as_deref().and_then(BotLevel::parse),
            preferred_colour: row.preferred_colour.as_deref().and_then(Colour::from_name),
            rating: None,
        }
    }
}

/// A room as clients see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RoomView {
    /// Room id.
    pub id: String,
    /// Join code; hidden (`null`) for private rooms unless you own, sit in, or
    /// looked the room up by its code.
    pub join_code: Option<String>,
    /// Player who may start the game.
    pub owner_id: String,
    /// Lifecycle state.
    pub status: RoomStatus,
    /// Settings chosen at creation.
    pub settings: RoomSettings,
    /// Seats in turn order.
    pub seats: Vec<SeatView>,
    /// Creation time, Unix ms.
    pub created_at: i64,
    /// Current game, once started.
    pub game_id: Option<String>,
}

/// Body of `POST /api/rooms/{id}/join`.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct JoinRoomRequest {
    /// Colour you would like to play: yellow, blue, red, green, orange or turquoise.
    #[serde(default)]
    #[schema(value_type = Option<String>, example = "yellow")]
    pub preferred_colour: Option<Colour>,
    /// Join code; required for private rooms (unless the path already is the code).
    #[serde(default)]
    pub code: Option<String>,
}

/// Response listing rooms.
#[derive(Debug, Serialize, ToSchema)]
pub struct RoomList {
    /// Public rooms in which a seated player is present now: waiting for players (oldest first), or
    /// playing (newest first).
    pub rooms: Vec<RoomView>,
}

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
    #[schema(value_type = Object)]
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
    pub by: Option<String>,
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

/// Response of `GET /healthz` and `GET /readyz`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok` when healthy.
    pub status: &'static str,
}

/// A room you sit in, as your own list shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MyRoom {
    /// Room id (open `/room/{id}` to go back to it).
    pub room_id: String,
    /// Lifecycle state: `playing` rooms are games you can resume.
    pub status: RoomStatus,
    /// Settings chosen at creation.
    pub settings: RoomSettings,
    /// Your seat.
    pub seat: u8,
    /// Creation time, Unix ms.
    pub created_at: i64,
    /// Its game, once started.
    pub game: Option<MyGame>,
}

/// The game of a room in your list.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MyGame {
    /// Game id (record and replay).
    pub id: String,
    /// Start time, Unix ms.
    pub started_at: i64,
    /// End time, Unix ms, once finished.
    pub finished_at: Option<i64>,
    /// Whether your side won (`null` while the game runs).
    pub won: Option<bool>,
}

/// Response of `GET /api/players/me/rooms`.
#[derive(Debug, Serialize, ToSchema)]
pub struct MyRooms {
    /// The rooms you sit in, newest first (at most 30).
    pub rooms: Vec<MyRoom>,
}

/// Response of `GET /api/rules`: the rule sets, their modes and options, and the house rules a room may
/// set, for a form to offer them without knowing the rules itself.
#[derive(Debug, Serialize, ToSchema)]
pub struct RulesCatalogue {
    /// `playgridia`, `ludoteka`, `morocco`.
    pub rule_sets: Vec<RuleSetInfo>,
    /// The options of play a room may change (`house_rules` of `POST /api/rooms`), in a stable order.
    pub house_rules: Vec<HouseRuleInfo>,
}

/// One rule set of [`RulesCatalogue`].
#[derive(Debug, Serialize, ToSchema)]
pub struct RuleSetInfo {
    /// Its name in the API.
    pub name: &'static str,
    /// Every mode it is played in.
    pub modes: Vec<ModeInfo>,
}

/// One mode of a rule set.
#[derive(Debug, Serialize, ToSchema)]
pub struct ModeInfo {
    /// `individual`, `quick`, `pairs`, `1v1`, `6-piece` or `3v3`.
    pub name: &'static str,
    /// The numbers of players it is played by.
    pub players: Vec<u8>,
    /// The usual number (what a quick match takes when none is given).
    pub default_players: u8,
    /// Every option of the preset in this mode, by name, as text (the defaults a house-rules form shows).
    pub options: BTreeMap<&'static str, String>,
    /// Whether a room of this rule set and mode draws its seats when the game starts unless told
    /// otherwise (`draw_seats` of `POST /api/rooms`).
    pub draw_seats: bool,
}

/// One house rule a room may set.
#[derive(Debug, Serialize, ToSchema)]
pub struct HouseRuleInfo {
    /// The option's name (RULES.md, "Options").
    pub name: &'static str,
    /// The values it takes.
    pub values: HouseRuleValues,
}

/// The values of a house rule.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum HouseRuleValues {
    /// `"1"` (on) or `"0"` (off).
    Flag,
    /// One of these texts.
    OneOf { texts: Vec<&'static str> },
    /// A whole number from `min` to `max`.
    Number { min: u8, max: u8 },
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

/// Body of `POST /api/rooms/{id}/chat/{seq}/report`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ReportRequest {
    /// Why, in a few words for the host (optional; at most 200 characters, one line).
    #[serde(default)]
    pub reason: String,
}

/// Response of `POST /api/rooms/{id}/chat/{seq}/report`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReportView {
    /// The room of the message.
    pub room_id: String,
    /// The message's number in the room's chat.
    pub seq: i64,
    /// `false` when you had reported it already (nothing changed).
    pub new: bool,
}

/// A reported message as the host sees it (`GET /api/admin/reports`).
#[derive(Debug, Serialize, ToSchema)]
pub struct ReportedMessage {
    /// The room it was written in.
    pub room_id: String,
    /// Its number in the room's chat.
    pub seq: i64,
    /// What was written.
    pub text: String,
    /// Its writer (`DELETE /api/admin/players/{id}` erases them).
    pub player_id: String,
    /// The writer's name when writing.
    pub display_name: String,
    /// How many players reported it.
    pub reports: usize,
    /// Their reasons, newest first (empty ones left out).
    pub reasons: Vec<String>,
    /// When it was last reported, Unix ms.
    pub last_reported_at: i64,
}

/// Response of `GET /api/admin/reports`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReportList {
    /// Reported messages still standing (their writer not erased), most recently reported first.
    pub messages: Vec<ReportedMessage>,
}

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

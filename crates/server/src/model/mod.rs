//! JSON shapes of the HTTP API (requests and responses).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use parchis_rules::BoardKind;

use crate::settings::{BotLevel, Colour, RoomSettings};

mod export;
mod games;

pub use export::*;
pub use games::*;

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

    /// Parses the stored spelling; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "waiting" => Some(RoomStatus::Waiting),
            "playing" => Some(RoomStatus::Playing),
            "finished" => Some(RoomStatus::Finished),
            _ => None,
        }
    }
}

crate::settings::sql_text!(RoomStatus);

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
    #[schema(value_type = Option<crate::schema_names::ColourName>)]
    pub preferred_colour: Option<Colour>,
    /// The seated person's rating in the room's rule set, as it is now (after a rated game ends, the new
    /// one); `null` for a bot, an empty seat, a person without a rated game of these rules, and in a game
    /// record (whose `result.ratings` says what the game did).
    pub rating: Option<Rating>,
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
    #[schema(value_type = Option<crate::schema_names::ColourName>)]
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
    /// The boards (`four`, `six`): what a client needs to draw one without knowing the rules.
    pub boards: Vec<BoardInfo>,
}

/// One board of [`RulesCatalogue`]: its squares as the referee numbers them.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BoardInfo {
    /// `four` (68 squares) or `six` (102).
    #[schema(value_type = String, example = "four")]
    pub name: BoardKind,
    /// The circuit's squares, numbered 1 to `squares`.
    pub squares: u8,
    /// The squares of each colour's lane (`{"kind": "lane", "at": 1..=lane}`), the goal after them.
    pub lane: u8,
    /// The safe squares of the circuit (where no piece is captured), the exits among them.
    pub safe_squares: Vec<u8>,
    /// The exit square of each board slot, in slot order.
    pub exit_squares: Vec<u8>,
    /// The colours a seat may prefer on it (`colour` of a seat), in the server's order.
    #[schema(value_type = Vec<crate::schema_names::ColourName>)]
    pub colours: Vec<Colour>,
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
    /// The board it is played on (`four` or `six`, one of `boards`).
    #[schema(value_type = String, example = "four")]
    pub board: parchis_rules::BoardKind,
    /// The colour of each board slot, in turn order: slot 0's arm holds exit square 5 (Morocco's four-colour
    /// board starts with blue).
    #[schema(value_type = Vec<crate::schema_names::ColourName>)]
    pub slot_colours: Vec<Colour>,
    /// The house rules that change anything in this mode (those about allies do not where every seat
    /// plays one colour alone): a form offers these.
    pub house_rules: Vec<&'static str>,
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

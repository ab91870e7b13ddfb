//! Room settings as clients send them, and their (for now basic) validation.

use std::collections::BTreeMap;

use parchis_rules::Options;
use parchis_rules::options::OptionError;
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

use crate::error::AppError;

pub use parchis_rules::{Colour, Mode, RuleSet};

/// Strength of a bot seat: the `parchis-bots` levels (`easy`, `medium` and `hard` are accepted as aliases).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum BotLevel {
    /// Plays a uniformly random legal move.
    #[serde(alias = "easy")]
    Random,
    /// One-ply heuristic.
    #[serde(alias = "medium")]
    Greedy,
    /// Searches ahead over the dice.
    #[serde(alias = "hard")]
    Expert,
}

/// String form used in the database for the small text enums above.
macro_rules! text_enum {
    ($ty:ty { $($variant:ident => $text:literal),* $(,)? }) => {
        impl $ty {
            /// The stored (and JSON) spelling.
            pub fn as_str(self) -> &'static str {
                match self { $(Self::$variant => $text),* }
            }
            /// Parses the stored spelling; `None` for anything else.
            pub fn parse(text: &str) -> Option<Self> {
                match text {
                    $($text => Some(Self::$variant),)*
                    // Spellings of earlier versions, still in old rows.
                    "easy" => Self::parse("random"),
                    "medium" => Self::parse("greedy"),
                    "hard" => Self::parse("expert"),
                    _ => None,
                }
            }
        }
    };
}
text_enum!(BotLevel { Random => "random", Greedy => "greedy", Expert => "expert" });

/// Stores a small text enum (one with `as_str` and `parse`) as its spelling in a `TEXT` column, read and
/// written through sqlx on either backend: a spelling it does not know fails to decode.
macro_rules! sql_text {
    ($ty:ty) => {
        impl<DB: sqlx::Database> sqlx::Type<DB> for $ty
        where
            String: sqlx::Type<DB>,
        {
            fn type_info() -> DB::TypeInfo {
                <String as sqlx::Type<DB>>::type_info()
            }

            fn compatible(ty: &DB::TypeInfo) -> bool {
                <String as sqlx::Type<DB>>::compatible(ty)
            }
        }

        impl<'r, DB: sqlx::Database> sqlx::Decode<'r, DB> for $ty
        where
            String: sqlx::Decode<'r, DB>,
        {
            fn decode(
                value: <DB as sqlx::Database>::ValueRef<'r>,
            ) -> Result<Self, sqlx::error::BoxDynError> {
                let text = <String as sqlx::Decode<'r, DB>>::decode(value)?;
                <$ty>::parse(&text)
                    .ok_or_else(|| format!("not a {}: {text:?}", stringify!($ty)).into())
            }
        }

        impl<'q, DB: sqlx::Database> sqlx::Encode<'q, DB> for $ty
        where
            String: sqlx::Encode<'q, DB>,
        {
            fn encode_by_ref(
                &self,
                buf: &mut <DB as sqlx::Database>::ArgumentBuffer,
            ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
                <String as sqlx::Encode<'q, DB>>::encode(self.as_str().to_owned(), buf)
            }
        }
    };
}
pub(crate) use sql_text;

sql_text!(BotLevel);

/// How quickly the server plays the seats it plays (bots, and people it covers for): a pause of
/// `BOT_DELAY_MS` before each roll or move, so people can follow, or a quarter of it for a table that
/// would rather not wait (a game against bots).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum BotPace {
    /// The server's pause (`BOT_DELAY_MS`, 500 ms unless the host changed it).
    #[default]
    Normal,
    /// A quarter of that pause.
    Fast,
}

impl BotPace {
    /// The pause before each action of a server-played seat, the server's `normal` one given.
    pub fn delay(self, normal: std::time::Duration) -> std::time::Duration {
        match self {
            BotPace::Normal => normal,
            BotPace::Fast => normal / 4,
        }
    }
}

/// Bot level given to seats still empty when the owner starts the game.
pub const DEFAULT_BOT_LEVEL: BotLevel = BotLevel::Greedy;

/// Validated settings of a room, stored as JSON in `rooms.settings`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RoomSettings {
    /// Rule set the referee applies: `playgridia`, `ludoteka` or `morocco`.
    #[schema(value_type = crate::schema_names::RuleSetName)]
    pub rules: RuleSet,
    /// Game mode: `individual`, `quick`, `pairs`, `1v1`, `6-piece` or `3v3`.
    #[schema(value_type = crate::schema_names::ModeName)]
    pub mode: Mode,
    /// Number of seats (humans plus bots).
    pub players: u8,
    /// Bot level per seat as asked at creation, `null` for a seat meant for a human; length == `players`.
    /// Who plays each seat now is in the room's seats: the owner may change a seat's bot before the start,
    /// seats nobody took get a bot at the start, and one drawn at random moves with its seat.
    pub bots: Vec<Option<BotLevel>>,
    /// Seconds a player has per turn; `null` means no limit.
    pub turn_time_secs: Option<u32>,
    /// Whether players see the next die roll before moving.
    pub preview_next_roll: bool,
    /// Whether the room is listed in `GET /api/rooms` and joinable without the code.
    pub public: bool,
    /// Made by `POST /api/quick-match`: other quick matches may seat players here, and the game starts
    /// by itself once every seat is taken. Absent from rooms stored before quick match existed.
    #[serde(default)]
    pub quick_match: bool,
    /// House rules: the options of play this room changes on top of its preset, by name, as text
    /// (`{"capture_bonus": "10"}`); only those that differ from the preset for the mode. Empty: the
    /// preset as it is (and absent from rooms stored before house rules existed).
    #[serde(default)]
    pub house_rules: BTreeMap<String, String>,
    /// Who sits where is drawn at random when the game starts (and so which colour each plays, who
    /// starts and, in pairs, who partners whom), as Playgridia's pairs and the Morocco text ask; otherwise
    /// everyone keeps the seat they took. Absent from rooms stored before the draw existed: no draw.
    #[serde(default)]
    pub draw_seats: bool,
    /// How quickly the server plays bots and covered seats: `normal` or `fast` (a quarter of the pause).
    /// Absent from rooms stored before it existed: normal.
    #[serde(default)]
    pub bot_pace: BotPace,
}

/// Whether rooms of `rules` × `mode` draw their seats unless told otherwise: where the rule set's text
/// draws them (Playgridia's pairs: « les places sont tirées au sort »; Morocco: « Le plus petit résultat au
/// tirage reçoit bleu et commence »). Elsewhere players keep the seats they took (friends choose partners).
pub fn draws_seats_by_default(rules: RuleSet, mode: Mode) -> bool {
    rules == RuleSet::Morocco || (rules == RuleSet::Playgridia && mode == Mode::Pairs)
}

impl RoomSettings {
    /// A fresh game for the settings (validated at room creation).
    pub fn new_game(&self) -> Result<parchis_rules::Game, parchis_rules::SetupError> {
        parchis_rules::Game::with_options(self.rules, self.mode, self.players, self.options()?)
    }

    /// The referee's options for this room: the preset for the mode with the house rules applied.
    pub fn options(&self) -> Result<Options, OptionError> {
        self.rules.options_for(self.mode).with_house_rules(
            self.house_rules
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str())),
        )
    }
}

/// Body of `POST /api/rooms`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct CreateRoomRequest {
    /// Rule set: `playgridia`, `ludoteka` or `morocco`.
    #[schema(value_type = crate::schema_names::RuleSetName)]
    pub rules: RuleSet,
    /// Game mode: `individual`, `quick`, `pairs`, `1v1`, `6-piece` or `3v3`.
    #[schema(value_type = crate::schema_names::ModeName)]
    pub mode: Mode,
    /// Number of seats.
    pub players: u8,
    /// Bot level per seat (`null` = human seat); shorter lists are padded with `null`.
    #[serde(default)]
    pub bots: Vec<Option<BotLevel>>,
    /// Per-turn limit in seconds; `null` for none; omitted = the server default.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u32>)]
    pub turn_time_secs: Option<Option<u32>>,
    /// Show the next roll in advance (default false).
    #[serde(default)]
    pub preview_next_roll: bool,
    /// List the room publicly (default false).
    #[serde(default)]
    pub public: bool,
    /// House rules: options of play to change on top of the preset (`GET /api/rules` lists them and their
    /// values), by name; values as text, numbers or booleans (`{"capture_bonus": 10, "three_sixes": "off"}`).
    #[serde(default)]
    #[schema(value_type = Object)]
    pub house_rules: BTreeMap<String, serde_json::Value>,
    /// Draw the seats at random when the game starts; omitted = the rule set's own custom for the mode
    /// (`GET /api/rules`: `rule_sets[].modes[].draw_seats`).
    #[serde(default)]
    pub draw_seats: Option<bool>,
    /// `normal` (default) or `fast`: the pause before each action of a bot (or of a seat the server
    /// covers) is the server's, or a quarter of it.
    #[serde(default)]
    pub bot_pace: BotPace,
}

/// Body of `POST /api/quick-match`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct QuickMatchRequest {
    /// Rule set: `playgridia`, `ludoteka` or `morocco`.
    #[schema(value_type = crate::schema_names::RuleSetName)]
    pub rules: RuleSet,
    /// Game mode: `individual`, `quick`, `pairs`, `1v1`, `6-piece` or `3v3`.
    #[schema(value_type = crate::schema_names::ModeName)]
    pub mode: Mode,
    /// Number of seats; omitted = the mode's usual count.
    #[serde(default)]
    pub players: Option<u8>,
}

/// The settings of a quick-match room for `req`: a public room with the defaults of `POST /api/rooms`
/// (every seat for a human, the server's turn timer), checked the same way.
pub fn quick_match_settings(
    req: QuickMatchRequest,
    default_turn_secs: u32,
) -> Result<RoomSettings, AppError> {
    let create = CreateRoomRequest {
        rules: req.rules,
        mode: req.mode,
        players: req.players.unwrap_or_else(|| req.mode.default_players()),
        bots: Vec::new(),
        turn_time_secs: None,
        preview_next_roll: false,
        public: true,
        house_rules: BTreeMap::new(),
        draw_seats: None,
        bot_pace: BotPace::Normal,
    };
    Ok(RoomSettings {
        quick_match: true,
        ..validate_settings(create, default_turn_secs)?
    })
}

/// Distinguishes an explicit `null` (Some(None)) from an absent field (None).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<u32>>, D::Error> {
    Option::<u32>::deserialize(d).map(Some)
}

/// Seats a room may have (each mode allows some of them: `GET /api/rules`).
pub const PLAYERS: std::ops::RangeInclusive<u8> = 2..=6;

/// Allowed per-turn limits, in seconds.
pub const TURN_TIME_RANGE: std::ops::RangeInclusive<u32> = 5..=3600;

/// Checks a room request and turns it into stored settings. Whether rules × mode × players is playable is
/// the referee's call (`parchis_rules::Game::new`), made at the end.
pub fn validate_settings(
    req: CreateRoomRequest,
    default_turn_secs: u32,
) -> Result<RoomSettings, AppError> {
    let invalid =
        |reason: &'static str, message: String| Err(AppError::InvalidSettings { reason, message });
    let players = req.players;
    if !PLAYERS.contains(&players) {
        return invalid(
            "players",
            format!(
                "A room needs {} to {} players, not {players}.",
                PLAYERS.start(),
                PLAYERS.end()
            ),
        );
    }
    if req.bots.len() > usize::from(players) {
        return invalid(
            "too_many_bots",
            format!(
                "`bots` lists {} seats but the room has only {players}.",
                req.bots.len()
            ),
        );
    }
    let mut bots = req.bots;
    bots.resize(usize::from(players), None);
    if bots.iter().all(Option::is_some) {
        return invalid(
            "no_human_seat",
            "At least one seat must be left for a human player.".to_owned(),
        );
    }
    let turn_time_secs = req.turn_time_secs.unwrap_or(Some(default_turn_secs));
    if let Some(secs) = turn_time_secs
        && !TURN_TIME_RANGE.contains(&secs)
    {
        return invalid(
            "turn_time",
            format!(
                "`turn_time_secs` must be between {} and {} (or null), not {secs}.",
                TURN_TIME_RANGE.start(),
                TURN_TIME_RANGE.end()
            ),
        );
    }
    let house_rules = house_rules(req.rules, req.mode, req.house_rules)?;
    let settings = RoomSettings {
        rules: req.rules,
        mode: req.mode,
        players,
        bots,
        turn_time_secs,
        preview_next_roll: req.preview_next_roll,
        public: req.public,
        quick_match: false,
        house_rules,
        draw_seats: req
            .draw_seats
            .unwrap_or_else(|| draws_seats_by_default(req.rules, req.mode)),
        bot_pace: req.bot_pace,
    };
    // The referee has the last word on whether rules × mode × players is playable.
    if let Err(err) = settings.new_game() {
        return invalid(err.code(), format!("{err}."));
    }
    Ok(settings)
}

/// Checks house rules against the referee's options and keeps, in its own spelling (`true` → `1`), each
/// one that changes the preset for the mode.
fn house_rules(
    rules: RuleSet,
    mode: Mode,
    asked: BTreeMap<String, serde_json::Value>,
) -> Result<BTreeMap<String, String>, AppError> {
    use serde_json::Value;
    let invalid = |message: String| {
        Err(AppError::InvalidSettings {
            reason: "house_rule",
            message,
        })
    };
    let preset = rules.options_for(mode);
    let mut options = preset;
    for (name, value) in &asked {
        let text = match value {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => u8::from(*b).to_string(),
            _ => {
                return invalid(format!(
                    "House rule `{name}`: give its value as text, a number or a boolean."
                ));
            }
        };
        options = match options.with_house_rules([(name.as_str(), text.as_str())]) {
            Ok(o) => o,
            Err(e) => return invalid(format!("House rule `{name}`: {e}.")),
        };
    }
    Ok(options
        .diff(&preset)
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: &str) -> CreateRoomRequest {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn seats_are_drawn_where_the_rule_sets_text_draws_them_unless_the_room_says_otherwise() {
        let draws = |json: &str| validate_settings(request(json), 30).unwrap().draw_seats;
        assert!(draws(
            r#"{"rules":"playgridia","mode":"pairs","players":4}"#
        ));
        assert!(draws(r#"{"rules":"morocco","mode":"1v1","players":2}"#));
        assert!(!draws(
            r#"{"rules":"playgridia","mode":"individual","players":4}"#
        ));
        assert!(!draws(r#"{"rules":"ludoteka","mode":"pairs","players":4}"#));
        assert!(!draws(
            r#"{"rules":"morocco","mode":"individual","players":4,"draw_seats":false}"#
        ));
        assert!(draws(
            r#"{"rules":"ludoteka","mode":"individual","players":4,"draw_seats":true}"#
        ));
        // Rooms stored before the draw existed do not draw.
        let old: RoomSettings = serde_json::from_str(
            r#"{"rules":"morocco","mode":"individual","players":4,"bots":[null,null,null,null],
                "turn_time_secs":30,"preview_next_roll":false,"public":true}"#,
        )
        .unwrap();
        assert!(!old.draw_seats);
    }

    #[test]
    fn omitted_turn_time_takes_the_default_and_null_means_none() {
        let s = validate_settings(
            request(r#"{"rules":"ludoteka","mode":"individual","players":4}"#),
            30,
        )
        .unwrap();
        assert_eq!(s.turn_time_secs, Some(30));
        assert_eq!(s.bots, vec![None; 4]);
        let s = validate_settings(
            request(
                r#"{"rules":"ludoteka","mode":"individual","players":4,"turn_time_secs":null}"#,
            ),
            30,
        )
        .unwrap();
        assert_eq!(s.turn_time_secs, None);
    }

    #[test]
    fn rooms_stored_before_quick_match_still_load() {
        let stored = r#"{"rules":"ludoteka","mode":"individual","players":4,"bots":[null,null,null,null],
            "turn_time_secs":30,"preview_next_roll":false,"public":true}"#;
        let s: RoomSettings = serde_json::from_str(stored).unwrap();
        assert!(!s.quick_match);
    }

    #[test]
    fn a_quick_match_takes_the_modes_usual_player_count_and_the_defaults() {
        let req = |json: &str| serde_json::from_str::<QuickMatchRequest>(json).unwrap();
        let s = quick_match_settings(req(r#"{"rules":"playgridia","mode":"pairs"}"#), 30).unwrap();
        assert_eq!((s.players, s.turn_time_secs), (4, Some(30)));
        assert!(s.public && s.quick_match && !s.preview_next_roll);
        assert_eq!(s.bots, vec![None; 4]);
        let err = quick_match_settings(
            req(r#"{"rules":"playgridia","mode":"1v1","players":4}"#),
            30,
        )
        .unwrap_err();
        assert_eq!(err.code(), "invalid_settings");
        assert_eq!(reason(&err), "bad_player_count");
    }

    #[test]
    fn house_rules_are_kept_in_the_referees_spelling_and_only_when_they_change_the_preset() {
        let s = validate_settings(
            request(
                r#"{"rules":"playgridia","mode":"individual","players":4,
                    "house_rules":{"capture_bonus":10,"three_sixes":"off","exit_mandatory":true,"goal_bonus":"10"}}"#,
            ),
            30,
        )
        .unwrap();
        let kept: Vec<(&str, &str)> = s
            .house_rules
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(kept, [("capture_bonus", "10"), ("three_sixes", "off")]);
        assert_eq!(s.options().unwrap().capture_bonus, 10);
        for bad in [
            r#"{"start":"home"}"#,
            r#"{"capture_bonus":100}"#,
            r#"{"six":"8"}"#,
            r#"{"no_such_rule":"1"}"#,
            r#"{"capture_bonus":[10]}"#,
        ] {
            let json = format!(
                r#"{{"rules":"playgridia","mode":"individual","players":4,"house_rules":{bad}}}"#
            );
            let err = validate_settings(request(&json), 30).unwrap_err();
            assert_eq!(err.code(), "invalid_settings", "{bad}");
            assert_eq!(reason(&err), "house_rule", "{bad}");
        }
    }

    #[test]
    fn pairs_need_four_players() {
        let err = validate_settings(
            request(r#"{"rules":"playgridia","mode":"pairs","players":3}"#),
            30,
        )
        .unwrap_err();
        assert_eq!(err.code(), "invalid_settings");
        assert_eq!(reason(&err), "bad_player_count");
    }

    #[test]
    fn all_bot_rooms_are_refused() {
        let err = validate_settings(
            request(r#"{"rules":"morocco","mode":"1v1","players":2,"bots":["random","expert"]}"#),
            30,
        )
        .unwrap_err();
        assert_eq!(err.code(), "invalid_settings");
        assert_eq!(reason(&err), "no_human_seat");
    }

    /// The check that refused settings, as the error body names it.
    fn reason(err: &AppError) -> &'static str {
        match err {
            AppError::InvalidSettings { reason, .. } => reason,
            other => panic!("not a settings error: {other:?}"),
        }
    }

    #[test]
    fn each_refusal_of_room_settings_names_its_check_for_the_client_to_translate() {
        for (json, expected) in [
            (
                r#"{"rules":"playgridia","mode":"individual","players":7}"#,
                "players",
            ),
            (
                r#"{"rules":"playgridia","mode":"individual","players":2,"bots":[null,"greedy","greedy"]}"#,
                "too_many_bots",
            ),
            (
                r#"{"rules":"playgridia","mode":"individual","players":2,"turn_time_secs":2}"#,
                "turn_time",
            ),
            (
                r#"{"rules":"playgridia","mode":"individual","players":4,"house_rules":{"capture_bonus":"lots"}}"#,
                "house_rule",
            ),
            (
                r#"{"rules":"playgridia","mode":"individual","players":4,"house_rules":{"pieces_to_win":"9"}}"#,
                "house_rule",
            ),
        ] {
            let err = validate_settings(request(json), 30).unwrap_err();
            assert_eq!(reason(&err), expected, "{json}: {err}");
        }
    }
}

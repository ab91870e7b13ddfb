//! Rule-set options: every rule that differs between the seed texts is a named option, and a preset is a
//! bundle of them. Any combination of options is a valid house rule.

use crate::mode::Mode;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The three rule sets of the seed texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleSet {
    /// Playgridia's Parchís (seeds 000 in French, 003 in Spanish).
    Playgridia,
    /// Ludoteka's Parcheesi (seed 001).
    Ludoteka,
    /// The northern-Morocco variant (seed 002).
    Morocco,
}

impl RuleSet {
    /// Every rule set (preset), in the order of RULES.md.
    pub const ALL: [RuleSet; 3] = [RuleSet::Playgridia, RuleSet::Ludoteka, RuleSet::Morocco];

    /// The preset's name in the notation, the CLI and the API: `playgridia`, `ludoteka` or `morocco` (also what
    /// `Display` writes, serde uses and `str::parse` reads).
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Playgridia => "playgridia",
            RuleSet::Ludoteka => "ludoteka",
            RuleSet::Morocco => "morocco",
        }
    }

    /// The options of this preset, before the mode adjusts them.
    pub fn options(self) -> Options {
        match self {
            RuleSet::Playgridia => Options {
                pieces_per_colour: 4,
                start: Start::Home,
                pieces_to_win: 4,
                win: Win::AllColours,
                exit_mandatory: true,
                six: Six::SevenWhenNoneHome(Scope::Player),
                three_sixes: Penalty::LastMoved,
                penalty_spares_safe_and_blockade: false,
                capture_bonus: 20,
                goal_bonus: 10,
                exit_capture: ExitCapture::LastArrivedWhenFull,
                must_open_blockade_on_six: true,
                morocco_priorities: false,
                allied_blockade_on_safe: false,
                mixed_pairs_only_on_safe: false,
                lane_blockades: false,
                capture_allies: false,
                partner_moves: PartnerMoves::WhenFinished,
                first_roll: false,
                shared_path: false,
            },
            RuleSet::Ludoteka => Options {
                pieces_per_colour: 4,
                start: Start::OnExit(2),
                pieces_to_win: 4,
                win: Win::AllColours,
                exit_mandatory: true,
                six: Six::SevenWhenNoneHome(Scope::Colour),
                three_sixes: Penalty::MovedWithSecondSix,
                penalty_spares_safe_and_blockade: false,
                capture_bonus: 20,
                goal_bonus: 10,
                exit_capture: ExitCapture::LastArrivedWhenFull,
                must_open_blockade_on_six: false,
                morocco_priorities: false,
                allied_blockade_on_safe: false,
                mixed_pairs_only_on_safe: false,
                lane_blockades: true,
                capture_allies: true,
                partner_moves: PartnerMoves::WhenStuck,
                first_roll: false,
                shared_path: false,
            },
            RuleSet::Morocco => Options {
                pieces_per_colour: 4,
                start: Start::Home,
                pieces_to_win: 4,
                win: Win::AllColours,
                exit_mandatory: true,
                six: Six::TwelveWhenAllInPlay,
                three_sixes: Penalty::MovedWithSecondSix,
                penalty_spares_safe_and_blockade: true,
                capture_bonus: 20,
                goal_bonus: 10,
                exit_capture: ExitCapture::AllOpponents,
                must_open_blockade_on_six: true,
                morocco_priorities: true,
                allied_blockade_on_safe: true,
                mixed_pairs_only_on_safe: true,
                lane_blockades: true,
                capture_allies: false,
                partner_moves: PartnerMoves::Never,
                first_roll: true,
                shared_path: false,
            },
        }
    }

    /// The options of this preset adjusted for a mode (quick starts one piece out and wins with two, …).
    pub fn options_for(self, mode: Mode) -> Options {
        let mut o = self.options();
        match mode {
            Mode::Quick => {
                o.start = Start::OnExit(1);
                o.pieces_to_win = 2;
            }
            Mode::SixPiece => {
                o.pieces_per_colour = 6;
                o.pieces_to_win = 6;
                o.start = Start::SafeSquares;
                o.win = Win::AnyColour;
            }
            Mode::OneVsOne if self == RuleSet::Morocco => o.shared_path = true,
            _ => {}
        }
        o
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RuleSet {
    type Err = crate::SetupError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RuleSet::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| crate::SetupError::UnknownRuleSet(s.to_string()))
    }
}

/// Where the pieces are when the game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Start {
    /// All pieces in base (Playgridia, Morocco).
    Home,
    /// This many pieces of each colour on its exit square, the rest in base (Ludoteka: 2; quick mode: 1).
    OnExit(u8),
    /// One piece on each of the first three safe squares of the path (Ludoteka 6-piece).
    SafeSquares,
}

/// Who must have finished for a side to win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Win {
    /// Every colour of the side has `pieces_to_win` pieces home.
    AllColours,
    /// Any one colour of the side has `pieces_to_win` pieces home (6-piece mode).
    AnyColour,
}

/// Whose pieces decide whether a six counts seven.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Scope {
    /// None of the player's own pieces is in base (Playgridia: "aucun de vos pions").
    Player,
    /// None of the moving piece's colour is in base (Ludoteka: "toutes les pièces de la même couleur").
    Colour,
}

/// What a rolled six moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Six {
    /// Always six squares (house rule `six=6`).
    Six,
    /// Seven when no piece (of the scope) is in base; finished pieces are not in base.
    SevenWhenNoneHome(Scope),
    /// Twelve for a colour whose pieces are all in play (none in base, none finished), six when that colour
    /// has no legal twelve or is not all in play (Morocco, « cette couleur avance de 12 au lieu de 6 »).
    TwelveWhenAllInPlay,
}

/// The three-sixes penalty: which piece goes back to base.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Penalty {
    /// No penalty: the third six is an ordinary six.
    Off,
    /// The last piece moved this turn, counts included (Playgridia).
    LastMoved,
    /// The piece moved with the second six (Ludoteka, Morocco).
    MovedWithSecondSix,
}

/// Capturing on your exit square when you bring a piece out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ExitCapture {
    /// Never: a full exit square cannot be entered.
    Never,
    /// When the exit square already holds two pieces, capture the capturable one, the last arrived if both are.
    LastArrivedWhenFull,
    /// Capture every opponent on the exit square, even a lone one (Morocco).
    AllOpponents,
}

/// When a player may (must) move a partner's pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PartnerMoves {
    /// Never: a player moves only their own pieces (Morocco).
    Never,
    /// Once all of the player's own pieces have arrived.
    WhenFinished,
    /// Whenever the player has no legal move of their own (Ludoteka).
    WhenStuck,
}

/// Every rule that differs between rule sets. Field names are the option names used by the notation,
/// `RULES.md` and the API.
///
/// As JSON (a view's `options`) it is an object of every option name to its value as house rules and the
/// notation write it: flags as booleans, numbers as numbers, the rest as their texts
/// (`{"six": "7player", "three_sixes": "last", "capture_bonus": 20, "first_roll": false, …}`), so a value read
/// from a view can be sent back as a house rule (`options_json.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// Pieces of each colour (4; 6 in the 6-piece mode).
    pub pieces_per_colour: u8,
    /// Starting layout.
    pub start: Start,
    /// Pieces of a colour that must arrive (4; 2 in quick mode; 6 in 6-piece).
    pub pieces_to_win: u8,
    /// Which colours of a side must finish.
    pub win: Win,
    /// A 5 must bring a piece out when one can come out.
    pub exit_mandatory: bool,
    /// What a six moves.
    pub six: Six,
    /// The three-sixes penalty.
    pub three_sixes: Penalty,
    /// The penalised piece is spared on a safe square or in a blockade (Morocco).
    pub penalty_spares_safe_and_blockade: bool,
    /// Squares counted for a capture (0: none).
    pub capture_bonus: u8,
    /// Squares counted for a piece reaching the goal (0: none).
    pub goal_bonus: u8,
    /// Capture rule when coming out onto your exit square.
    pub exit_capture: ExitCapture,
    /// On a rolled six, a piece of one of your blockades must move if one can.
    pub must_open_blockade_on_six: bool,
    /// Mandatory capture with the Morocco priorities (12 before 6, blockade first, loss of the re-roll).
    pub morocco_priorities: bool,
    /// Two allied colours on a safe square form a blockade (Morocco).
    pub allied_blockade_on_safe: bool,
    /// On an ordinary square two pieces must be of one colour (Morocco).
    pub mixed_pairs_only_on_safe: bool,
    /// Two pieces of one colour on a lane square block that lane.
    pub lane_blockades: bool,
    /// Pieces of the same side (partner, or a player's other colour) can capture each other.
    pub capture_allies: bool,
    /// When a player moves the partner's pieces.
    pub partner_moves: PartnerMoves,
    /// Morocco's special first roll.
    pub first_roll: bool,
    /// A player's second colour comes out on, and goes home by, the first colour's path (Morocco 2 players).
    pub shared_path: bool,
}

/// The values an option takes (see [`Options::values`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionValues {
    /// `1` (on) or `0` (off).
    Flag,
    /// One of these texts.
    OneOf(&'static [&'static str]),
    /// A whole number from `min` to `max`.
    Number {
        /// The smallest value.
        min: u8,
        /// The largest value.
        max: u8,
    },
}

/// An option name did not exist or its value did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad option `{}`: {reason}", crate::error::clip(&format!("{key}={value}")))]
pub struct OptionError {
    /// The option name given (as given, even when it is no option).
    pub key: String,
    /// The value given, as text.
    pub value: String,
    /// Why it was refused, e.g. `no such option`, `number out of range`, `expected 1 or 0`.
    pub reason: &'static str,
}

impl Options {
    /// The option names, in the canonical order used by the notation.
    pub const NAMES: [&'static str; 20] = [
        "pieces_per_colour",
        "start",
        "pieces_to_win",
        "win",
        "exit_mandatory",
        "six",
        "three_sixes",
        "penalty_spares_safe_and_blockade",
        "capture_bonus",
        "goal_bonus",
        "exit_capture",
        "must_open_blockade_on_six",
        "morocco_priorities",
        "allied_blockade_on_safe",
        "mixed_pairs_only_on_safe",
        "lane_blockades",
        "capture_allies",
        "partner_moves",
        "first_roll",
        "shared_path",
    ];

    /// The options that are the set-up of a mode (how many pieces, where they start, what wins, whose path a
    /// second colour takes), chosen by choosing the mode: no house rule changes them.
    pub const SET_UP: [&'static str; 5] = [
        "pieces_per_colour",
        "start",
        "pieces_to_win",
        "win",
        "shared_path",
    ];

    /// The options a table may change as house rules: the rules of play, every option but the
    /// [`Options::SET_UP`] ones, in the canonical order.
    pub fn house_rules() -> impl Iterator<Item = &'static str> {
        Options::NAMES
            .into_iter()
            .filter(|name| !Options::SET_UP.contains(name))
    }

    /// The house rules about allies (a partner, or a seat's second colour): they change nothing in a mode
    /// where every seat plays one colour alone.
    pub const ALLY_RULES: [&'static str; 3] =
        ["allied_blockade_on_safe", "capture_allies", "partner_moves"];

    /// The house rules that change anything in `mode`, in the canonical order: every one, but
    /// [`Options::ALLY_RULES`] in a mode without allies ([`Mode::has_allies`]).
    ///
    /// ```
    /// use parchis_rules::{Mode, Options};
    ///
    /// assert!(Options::house_rules_in(Mode::Pairs).any(|name| name == "capture_allies"));
    /// assert!(!Options::house_rules_in(Mode::Individual).any(|name| name == "capture_allies"));
    /// ```
    pub fn house_rules_in(mode: Mode) -> impl Iterator<Item = &'static str> {
        Options::house_rules()
            .filter(move |name| mode.has_allies() || !Options::ALLY_RULES.contains(name))
    }

    /// The values option `name` takes, in the texts of [`Options::get`] and [`Options::set`] (for a form to
    /// offer them); `None` for a name that is not an option.
    pub fn values(name: &str) -> Option<OptionValues> {
        use OptionValues::*;
        Some(match name {
            "pieces_per_colour" => OneOf(&["4", "6"]),
            "start" => OneOf(&["home", "exit1", "exit2", "safe"]),
            "pieces_to_win" => Number { min: 1, max: 6 },
            "win" => OneOf(&["all", "any"]),
            "six" => OneOf(&["6", "7player", "7colour", "12"]),
            "three_sixes" => OneOf(&["off", "last", "second"]),
            "capture_bonus" | "goal_bonus" => Number { min: 0, max: 40 },
            "exit_capture" => OneOf(&["never", "full", "all"]),
            "partner_moves" => OneOf(&["never", "finished", "stuck"]),
            "exit_mandatory"
            | "penalty_spares_safe_and_blockade"
            | "must_open_blockade_on_six"
            | "morocco_priorities"
            | "allied_blockade_on_safe"
            | "mixed_pairs_only_on_safe"
            | "lane_blockades"
            | "capture_allies"
            | "first_roll"
            | "shared_path" => Flag,
            _ => return None,
        })
    }

    /// These options with house rules (`name`, `value`) applied in order. Only [`Options::house_rules`] may
    /// change: a set-up option, an unknown name or a bad value is refused with the option named.
    ///
    /// ```
    /// use parchis_rules::{Game, Mode, Penalty, RuleSet};
    ///
    /// let preset = RuleSet::Playgridia.options_for(Mode::Individual);
    /// let options = preset
    ///     .with_house_rules([("three_sixes", "off"), ("capture_bonus", "10")])
    ///     .unwrap();
    /// assert_eq!(options.three_sixes, Penalty::Off);
    /// assert_eq!(options.capture_bonus, 10);
    ///
    /// // The notation names the options that differ from the preset, in the order of RULES.md.
    /// let game = Game::with_options(RuleSet::Playgridia, Mode::Individual, 4, options).unwrap();
    /// assert!(game.notation().starts_with("playgridia[three_sixes=off,capture_bonus=10] individual/4 "));
    ///
    /// // The set-up is the mode's, not a house rule; a value out of range is refused too.
    /// let err = preset.with_house_rules([("pieces_per_colour", "6")]).unwrap_err();
    /// assert_eq!(err.key, "pieces_per_colour");
    /// let err = preset.with_house_rules([("goal_bonus", "50")]).unwrap_err();
    /// assert_eq!(err.reason, "number out of range");
    /// ```
    pub fn with_house_rules<'a>(
        mut self,
        rules: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Options, OptionError> {
        for (key, value) in rules {
            if Options::SET_UP.contains(&key) {
                return Err(OptionError {
                    key: key.into(),
                    value: value.into(),
                    reason: "part of the mode's set-up, not a house rule (choose the mode instead)",
                });
            }
            self.set(key, value)?;
        }
        Ok(self)
    }

    /// Refuses the values [`Options::set`] never gives (the fields are public, so a caller of
    /// `Game::with_options` can build any: no pieces, a start of three on the exit, a bonus of 250): every
    /// option's value, written by [`Options::get`], must read back through `set`, so the bounds are `set`'s own.
    pub fn check(&self) -> Result<(), OptionError> {
        let mut scratch = *self;
        for name in Options::NAMES {
            scratch.set(name, &self.get(name).unwrap_or_default())?;
        }
        Ok(())
    }

    /// The value of an option as text.
    pub fn get(&self, key: &str) -> Option<String> {
        let b = |v: bool| if v { "1" } else { "0" }.to_string();
        Some(match key {
            "pieces_per_colour" => self.pieces_per_colour.to_string(),
            "start" => match self.start {
                Start::Home => "home".into(),
                Start::OnExit(n) => format!("exit{n}"),
                Start::SafeSquares => "safe".into(),
            },
            "pieces_to_win" => self.pieces_to_win.to_string(),
            "win" => match self.win {
                Win::AllColours => "all".into(),
                Win::AnyColour => "any".into(),
            },
            "exit_mandatory" => b(self.exit_mandatory),
            "six" => match self.six {
                Six::Six => "6".into(),
                Six::SevenWhenNoneHome(Scope::Player) => "7player".into(),
                Six::SevenWhenNoneHome(Scope::Colour) => "7colour".into(),
                Six::TwelveWhenAllInPlay => "12".into(),
            },
            "three_sixes" => match self.three_sixes {
                Penalty::Off => "off".into(),
                Penalty::LastMoved => "last".into(),
                Penalty::MovedWithSecondSix => "second".into(),
            },
            "penalty_spares_safe_and_blockade" => b(self.penalty_spares_safe_and_blockade),
            "capture_bonus" => self.capture_bonus.to_string(),
            "goal_bonus" => self.goal_bonus.to_string(),
            "exit_capture" => match self.exit_capture {
                ExitCapture::Never => "never".into(),
                ExitCapture::LastArrivedWhenFull => "full".into(),
                ExitCapture::AllOpponents => "all".into(),
            },
            "must_open_blockade_on_six" => b(self.must_open_blockade_on_six),
            "morocco_priorities" => b(self.morocco_priorities),
            "allied_blockade_on_safe" => b(self.allied_blockade_on_safe),
            "mixed_pairs_only_on_safe" => b(self.mixed_pairs_only_on_safe),
            "lane_blockades" => b(self.lane_blockades),
            "capture_allies" => b(self.capture_allies),
            "partner_moves" => match self.partner_moves {
                PartnerMoves::Never => "never".into(),
                PartnerMoves::WhenFinished => "finished".into(),
                PartnerMoves::WhenStuck => "stuck".into(),
            },
            "first_roll" => b(self.first_roll),
            "shared_path" => b(self.shared_path),
            _ => return None,
        })
    }

    /// Sets an option from text (the inverse of [`Options::get`]).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        let err = |reason| OptionError {
            key: key.into(),
            value: value.into(),
            reason,
        };
        let flag = || match value {
            "1" | "true" | "yes" => Ok(true),
            "0" | "false" | "no" => Ok(false),
            _ => Err(err("expected 1 or 0")),
        };
        let num = |lo: u8, hi: u8| {
            value
                .parse::<u8>()
                .ok()
                .filter(|n| (lo..=hi).contains(n))
                .ok_or_else(|| err("number out of range"))
        };
        match key {
            "pieces_per_colour" => {
                self.pieces_per_colour = num(4, 6).and_then(|n| {
                    if n == 4 || n == 6 {
                        Ok(n)
                    } else {
                        Err(err("expected 4 or 6"))
                    }
                })?
            }
            "start" => {
                self.start = match value {
                    "home" => Start::Home,
                    "safe" => Start::SafeSquares,
                    v => match v.strip_prefix("exit").and_then(|n| n.parse().ok()) {
                        Some(n @ 1..=2) => Start::OnExit(n),
                        _ => return Err(err("expected home, exit1, exit2 or safe")),
                    },
                }
            }
            "pieces_to_win" => self.pieces_to_win = num(1, 6)?,
            "win" => {
                self.win = match value {
                    "all" => Win::AllColours,
                    "any" => Win::AnyColour,
                    _ => return Err(err("expected all or any")),
                }
            }
            "exit_mandatory" => self.exit_mandatory = flag()?,
            "six" => {
                self.six = match value {
                    "6" => Six::Six,
                    "7player" => Six::SevenWhenNoneHome(Scope::Player),
                    "7colour" => Six::SevenWhenNoneHome(Scope::Colour),
                    "12" => Six::TwelveWhenAllInPlay,
                    _ => return Err(err("expected 6, 7player, 7colour or 12")),
                }
            }
            "three_sixes" => {
                self.three_sixes = match value {
                    "off" => Penalty::Off,
                    "last" => Penalty::LastMoved,
                    "second" => Penalty::MovedWithSecondSix,
                    _ => return Err(err("expected off, last or second")),
                }
            }
            "penalty_spares_safe_and_blockade" => self.penalty_spares_safe_and_blockade = flag()?,
            "capture_bonus" => self.capture_bonus = num(0, 40)?,
            "goal_bonus" => self.goal_bonus = num(0, 40)?,
            "exit_capture" => {
                self.exit_capture = match value {
                    "never" => ExitCapture::Never,
                    "full" => ExitCapture::LastArrivedWhenFull,
                    "all" => ExitCapture::AllOpponents,
                    _ => return Err(err("expected never, full or all")),
                }
            }
            "must_open_blockade_on_six" => self.must_open_blockade_on_six = flag()?,
            "morocco_priorities" => self.morocco_priorities = flag()?,
            "allied_blockade_on_safe" => self.allied_blockade_on_safe = flag()?,
            "mixed_pairs_only_on_safe" => self.mixed_pairs_only_on_safe = flag()?,
            "lane_blockades" => self.lane_blockades = flag()?,
            "capture_allies" => self.capture_allies = flag()?,
            "partner_moves" => {
                self.partner_moves = match value {
                    "never" => PartnerMoves::Never,
                    "finished" => PartnerMoves::WhenFinished,
                    "stuck" => PartnerMoves::WhenStuck,
                    _ => return Err(err("expected never, finished or stuck")),
                }
            }
            "first_roll" => self.first_roll = flag()?,
            "shared_path" => self.shared_path = flag()?,
            _ => return Err(err("no such option")),
        }
        Ok(())
    }

    /// The options that differ from `base`, as `(name, value)` in canonical order.
    pub fn diff(&self, base: &Options) -> Vec<(&'static str, String)> {
        if self == base {
            // The usual case (a preset as it is): no text to build.
            return Vec::new();
        }
        Options::NAMES
            .iter()
            .filter_map(|&k| {
                let (mine, theirs) = (self.get(k)?, base.get(k)?);
                (mine != theirs).then_some((k, mine))
            })
            .collect()
    }
}

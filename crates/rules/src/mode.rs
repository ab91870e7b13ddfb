//! Game modes: who sits where, which colours each seat plays, and who plays together.

use crate::board::BoardKind;
use crate::colour::Colour;
use crate::options::RuleSet;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A way of seating players (names as used by the CLI, the API and the tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Mode {
    /// 2–4 players, one colour each; two players sit opposite.
    #[serde(rename = "individual")]
    Individual,
    /// Like individual; one piece starts out and two home win (Playgridia's "Rapide").
    #[serde(rename = "quick")]
    Quick,
    /// 2 against 2, partners opposite (yellow+red against blue+green).
    #[serde(rename = "pairs")]
    Pairs,
    /// Two players with two colours each.
    #[serde(rename = "1v1")]
    OneVsOne,
    /// Two players with two colours of six pieces each.
    #[serde(rename = "6-piece")]
    SixPiece,
    /// Six players in two teams of three on the six-colour board.
    #[serde(rename = "3v3")]
    ThreeVsThree,
}

impl Mode {
    /// Every mode, in the order of the notation's list (individual, quick, pairs, 1v1, 6-piece, 3v3).
    pub const ALL: [Mode; 6] = [
        Mode::Individual,
        Mode::Quick,
        Mode::Pairs,
        Mode::OneVsOne,
        Mode::SixPiece,
        Mode::ThreeVsThree,
    ];

    /// The name used by the notation, the CLI and the API: `individual`, `quick`, `pairs`, `1v1`, `6-piece` or
    /// `3v3` (also what `Display` writes, serde uses and `str::parse` reads).
    pub fn name(self) -> &'static str {
        match self {
            Mode::Individual => "individual",
            Mode::Quick => "quick",
            Mode::Pairs => "pairs",
            Mode::OneVsOne => "1v1",
            Mode::SixPiece => "6-piece",
            Mode::ThreeVsThree => "3v3",
        }
    }

    /// The board the mode is played on: the six-colour board (102 squares) for 3 v 3, the four-colour board
    /// (68 squares) for every other mode.
    pub fn board(self) -> BoardKind {
        if self == Mode::ThreeVsThree {
            BoardKind::Six
        } else {
            BoardKind::Four
        }
    }

    /// The player counts this mode accepts.
    pub fn players(self) -> std::ops::RangeInclusive<u8> {
        match self {
            Mode::Individual | Mode::Quick => 2..=4,
            Mode::Pairs => 4..=4,
            Mode::OneVsOne | Mode::SixPiece => 2..=2,
            Mode::ThreeVsThree => 6..=6,
        }
    }

    /// The usual player count of this mode.
    pub fn default_players(self) -> u8 {
        *self.players().end()
    }

    /// Whether a seat has an ally: a partner (pairs, 3 v 3) or a second colour of its own (1 v 1, 6 pieces).
    /// Where none has (individual, quick), the house rules about allies change nothing
    /// ([`Options::house_rules_in`](crate::Options::house_rules_in)).
    pub fn has_allies(self) -> bool {
        !matches!(self, Mode::Individual | Mode::Quick)
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = crate::SetupError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Mode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| crate::SetupError::UnknownMode(s.to_string()))
    }
}

/// The colours of each board slot, in turn order (counter-clockwise).
pub fn slot_colours(rules: RuleSet, board: BoardKind) -> &'static [Colour] {
    use Colour::*;
    match (board, rules) {
        (BoardKind::Six, _) => &[Yellow, Blue, Red, Green, Orange, Turquoise],
        // Seed 002: "L'ordre est bleu, jaune, vert, rouge."
        (BoardKind::Four, RuleSet::Morocco) => &[Blue, Yellow, Green, Red],
        (BoardKind::Four, _) => &[Yellow, Blue, Red, Green],
    }
}

/// One seat's part of the layout: its board slots (colours) and its side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatPlan {
    /// The board slots (0-based, index into [`slot_colours`]) the seat plays; only the first `n_slots` count.
    pub slots: [u8; 2],
    /// How many colours the seat plays: 1, or 2 in 1v1 and 6-piece.
    pub n_slots: u8,
    /// The seat's side (team), 0-based; seats of one side win together.
    pub side: u8,
}

/// The seats of a mode: which slots each seat plays and its side. `None` when the player count does not fit.
pub fn seat_plan(rules: RuleSet, mode: Mode, players: u8) -> Option<Vec<SeatPlan>> {
    if !mode.players().contains(&players) {
        return None;
    }
    let one = |slot: u8, side: u8| SeatPlan {
        slots: [slot, 0],
        n_slots: 1,
        side,
    };
    let two = |a: u8, b: u8, side: u8| SeatPlan {
        slots: [a, b],
        n_slots: 2,
        side,
    };
    Some(match mode {
        Mode::Individual | Mode::Quick => match players {
            2 => vec![one(0, 0), one(2, 1)],
            n => (0..n).map(|s| one(s, s)).collect(),
        },
        Mode::Pairs => (0..4).map(|s| one(s, s % 2)).collect(),
        Mode::OneVsOne | Mode::SixPiece => {
            if rules == RuleSet::Morocco && mode == Mode::OneVsOne {
                // Seed 002: blue-yellow against green-red, order blue, yellow, green, red.
                vec![two(0, 1, 0), two(2, 3, 1)]
            } else {
                // Seed 001: yellow and red against blue and green.
                vec![two(0, 2, 0), two(1, 3, 1)]
            }
        }
        Mode::ThreeVsThree => (0..6).map(|s| one(s, s % 2)).collect(),
    })
}

//! The six colours a piece can have, with their one-letter names.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A piece colour. The letter (`y`, `b`, `r`, `g`, `o`, `t`) is used by the notation and move texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// Yellow, letter `y`: board slot 0 (exit square 5); in Morocco slot 1 (exit 22).
    Yellow,
    /// Blue, letter `b`: board slot 1 (exit square 22); in Morocco slot 0 (exit 5), the first to play.
    Blue,
    /// Red, letter `r`: board slot 2 (exit square 39); in Morocco slot 3 (exit 56).
    Red,
    /// Green, letter `g`: board slot 3 (exit square 56); in Morocco slot 2 (exit 39).
    Green,
    /// Orange, letter `o`: slot 4 of the six-colour board (exit square 73), in 3 v 3 only.
    Orange,
    /// Turquoise, letter `t`: slot 5 of the six-colour board (exit square 90), in 3 v 3 only.
    Turquoise,
}

impl Colour {
    /// Every colour, in the order of the six-colour board's slots (`y b r g o t`).
    pub const ALL: [Colour; 6] = [
        Colour::Yellow,
        Colour::Blue,
        Colour::Red,
        Colour::Green,
        Colour::Orange,
        Colour::Turquoise,
    ];

    /// The one-letter name used by the notation and the move texts: `y`, `b`, `r`, `g`, `o` or `t`.
    pub fn letter(self) -> char {
        match self {
            Colour::Yellow => 'y',
            Colour::Blue => 'b',
            Colour::Red => 'r',
            Colour::Green => 'g',
            Colour::Orange => 'o',
            Colour::Turquoise => 't',
        }
    }

    /// The colour of a letter of [`Colour::letter`]; `None` for any other character (case matters).
    pub fn from_letter(c: char) -> Option<Colour> {
        Colour::ALL.into_iter().find(|col| col.letter() == c)
    }

    /// The English name in lower case (`yellow` … `turquoise`), as `Display` and serde write it.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Yellow => "yellow",
            Colour::Blue => "blue",
            Colour::Red => "red",
            Colour::Green => "green",
            Colour::Orange => "orange",
            Colour::Turquoise => "turquoise",
        }
    }

    /// The colour of a name of [`Colour::name`] (lower case only); `None` for any other text.
    pub fn from_name(s: &str) -> Option<Colour> {
        Colour::ALL.into_iter().find(|col| col.name() == s)
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

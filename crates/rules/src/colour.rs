//! The six colours a piece can have, with their one-letter names.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A piece colour. The letter (`y`, `b`, `r`, `g`, `o`, `t`) is used by the notation and move texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    Yellow,
    Blue,
    Red,
    Green,
    Orange,
    Turquoise,
}

impl Colour {
    pub const ALL: [Colour; 6] = [
        Colour::Yellow,
        Colour::Blue,
        Colour::Red,
        Colour::Green,
        Colour::Orange,
        Colour::Turquoise,
    ];

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

    pub fn from_letter(c: char) -> Option<Colour> {
        Colour::ALL.into_iter().find(|col| col.letter() == c)
    }

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

    pub fn from_name(s: &str) -> Option<Colour> {
        Colour::ALL.into_iter().find(|col| col.name() == s)
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#![doc = include_str!("../README.md")]
// Every public item is documented; CI's clippy (`-D warnings`) keeps it so.
#![warn(missing_docs)]

pub mod board;
pub mod colour;
pub mod error;
pub mod event;
pub mod game;
pub mod mode;
pub mod moves;
pub mod notation;
pub mod options;
mod options_json;
pub mod perft;
pub mod view;

pub use board::{BoardKind, Place};
pub use colour::Colour;
pub use error::{IllegalMove, MoveParseError, PlayError, PositionError, SetupError};
pub use event::{Event, EventSink, Events, NoEvents, PieceRef};
pub use game::{Game, Layout, Phase};
pub use mode::Mode;
pub use moves::{Move, MoveList};
pub use notation::Setup;
pub use options::{
    ExitCapture, OptionValues, Options, PartnerMoves, Penalty, RuleSet, Scope, Six, Start, Win,
};
pub use perft::{Action, divide, perft};
pub use view::View;

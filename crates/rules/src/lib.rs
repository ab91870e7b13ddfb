//! # parchis-rules
//!
//! The referee of Parchís and its sister games, as the seed texts describe them: Playgridia's Parchís,
//! Ludoteka's Parcheesi and the northern-Morocco variant. Pure: no I/O, no clock, no randomness — the die is
//! an input.
//!
//! ```
//! use parchis_rules::{Game, Mode, RuleSet, Phase};
//! let mut game = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
//! let events = game.roll(5).unwrap();           // yellow rolls a 5…
//! assert_eq!(game.phase(), Phase::Move { die: 5 });
//! let mv = game.parse_move("y1:h-5").unwrap();  // …and must bring a piece out
//! game.play(mv).unwrap();
//! let line = game.notation();
//! assert_eq!(line.parse::<Game>().unwrap(), game);
//! # let _ = events;
//! ```
//!
//! Simulations and searches that do not need the events use the same rules without building them, and
//! play the move they pick by its number in the legal list (the fastest way to play one):
//!
//! ```
//! use parchis_rules::{Game, Mode, NoEvents, RuleSet};
//! let mut game = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
//! game.roll_with(5, &mut NoEvents).unwrap();
//! let picked = game.legal().len() - 1;
//! game.play_legal_with(picked, &mut NoEvents).unwrap();
//! ```

pub mod board;
pub mod colour;
pub mod error;
pub mod event;
pub mod game;
pub mod mode;
pub mod moves;
pub mod notation;
pub mod options;
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

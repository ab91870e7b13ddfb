//! What happened: the domain events returned by [`crate::Game::roll`] and [`crate::Game::play`], for a
//! server to broadcast and a client to animate.

use crate::board::Place;
use crate::colour::Colour;
use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A piece by colour and 1-based number, written `y1`, `b4`…
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceRef {
    /// The piece's colour.
    pub colour: Colour,
    /// Its number within the colour, 1..=`pieces_per_colour` (4 or 6).
    pub number: u8,
}

impl fmt::Display for PieceRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.colour.letter(), self.number)
    }
}

impl std::str::FromStr for PieceRef {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        let mut chars = s.chars();
        let colour = chars.next().and_then(Colour::from_letter).ok_or(())?;
        let number: u8 = chars.as_str().parse().map_err(|_| ())?;
        if number == 0 {
            return Err(());
        }
        Ok(PieceRef { colour, number })
    }
}

impl Serialize for PieceRef {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for PieceRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse()
            .map_err(|_| serde::de::Error::custom(format!("bad piece `{s}`")))
    }
}

/// One thing that happened. Seats are 0-based indices in turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The seat rolled the die.
    Rolled {
        /// The seat that rolled.
        seat: u8,
        /// The face, 1..=6 (what a six moves is decided by the move, see [`Event::Moved`]).
        die: u8,
    },
    /// The roll had no legal move and was lost.
    NoLegalMove {
        /// The seat that rolled.
        seat: u8,
        /// The face, 1..=6.
        die: u8,
    },
    /// A piece moved (`count` tells a 20/10 count move from a die move).
    Moved {
        /// The seat that moved (the piece may be a partner's).
        seat: u8,
        /// The piece moved.
        piece: PieceRef,
        /// Where it was ([`Place::Home`] when it came out of base).
        from: Place,
        /// Where it is now.
        to: Place,
        /// Squares travelled: 0 for a piece coming out of base (`to` tells where it went), else 1..=40 (the
        /// die, 7 or 12 for a six, or a count).
        distance: u8,
        /// `true` for a count (capture or arrival bonus), `false` for a die move.
        count: bool,
    },
    /// A piece was sent back to base by another.
    Captured {
        /// The piece sent back to base.
        piece: PieceRef,
        /// The piece that captured it.
        by: PieceRef,
        /// The square of the capture.
        at: Place,
    },
    /// A piece arrived at the goal.
    ReachedGoal {
        /// The piece that arrived.
        piece: PieceRef,
    },
    /// Two pieces of one colour (or allies on a safe square) now block a square.
    BlockadeFormed {
        /// The square blocked.
        at: Place,
        /// The colour of the piece that arrived and formed it.
        colour: Colour,
    },
    /// A blockade was opened by one of its pieces leaving.
    BlockadeOpened {
        /// The square no longer blocked.
        at: Place,
        /// The colour of the piece that left.
        colour: Colour,
    },
    /// A count (20 for a capture, 10 for an arrival) was granted to the seat.
    BonusGranted {
        /// The seat that will play the count.
        seat: u8,
        /// Squares to count: option `capture_bonus` or `goal_bonus`, 1..=40.
        amount: u8,
    },
    /// A count could not be played exactly by any piece and was lost.
    BonusLost {
        /// The seat that earned the count.
        seat: u8,
        /// Squares of the count lost.
        amount: u8,
    },
    /// Morocco: a capture by 6 when a 12 was possible forfeits the re-roll.
    RerollLost {
        /// The seat that loses its extra roll.
        seat: u8,
    },
    /// Third six in a row: the roll is void, maybe a piece goes home, the turn ends.
    ThreeSixes {
        /// The seat that rolled the third six.
        seat: u8,
        /// The piece sent back to base (option `three_sixes`), or `None` when no piece goes home.
        sent_home: Option<PieceRef>,
        /// Where that piece was, or `None` when no piece goes home.
        from: Option<Place>,
    },
    /// The same seat rolls again (after a six).
    ExtraRoll {
        /// The seat that rolls again.
        seat: u8,
    },
    /// The turn passed to this seat.
    TurnPassed {
        /// The seat now to roll.
        seat: u8,
    },
    /// The side won; the game is over.
    GameWon {
        /// The winning side: 0-based, a seat's index in individual and quick, else its team
        /// ([`Layout::side_of_seat`](crate::Layout::side_of_seat)).
        side: u8,
    },
}

/// One line of English for people reading a game (the `parchis play` command): pieces, squares and moves in
/// the notation's own spelling (`y1`, `h`, `l3`, `goal`); seats and sides by their 0-based index.
impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Event::Rolled { seat, die } => write!(f, "seat {seat} rolls {die}"),
            Event::NoLegalMove { seat, die } => write!(f, "seat {seat} has no move with {die}"),
            Event::Moved {
                piece,
                from,
                to,
                count,
                distance,
                ..
            } => {
                write!(f, "{piece} {from} → {to}")?;
                if count {
                    write!(f, " (count of {distance})")?;
                }
                Ok(())
            }
            Event::Captured { piece, by, at } => write!(f, "{by} captures {piece} on {at}"),
            Event::ReachedGoal { piece } => write!(f, "{piece} reaches the goal"),
            Event::BlockadeFormed { at, colour } => write!(f, "{} blockade on {at}", colour.name()),
            Event::BlockadeOpened { at, colour } => {
                write!(f, "{} blockade on {at} opened", colour.name())
            }
            Event::BonusGranted { seat, amount } => {
                write!(f, "seat {seat} earns a count of {amount}")
            }
            Event::BonusLost { seat, amount } => {
                write!(
                    f,
                    "seat {seat} loses the count of {amount}: no piece can play it"
                )
            }
            Event::RerollLost { seat } => {
                write!(
                    f,
                    "seat {seat} loses the extra roll: the capture by 6 passed over a 12"
                )
            }
            Event::ThreeSixes {
                seat,
                sent_home,
                from,
            } => match (sent_home, from) {
                (Some(piece), Some(from)) => {
                    write!(
                        f,
                        "third six for seat {seat}: {piece} goes home from {from}"
                    )
                }
                _ => write!(f, "third six for seat {seat}: no piece goes home"),
            },
            Event::ExtraRoll { seat } => write!(f, "seat {seat} rolls again"),
            Event::TurnPassed { seat } => write!(f, "seat {seat} to roll"),
            Event::GameWon { side } => write!(f, "side {side} wins"),
        }
    }
}

/// The events of one call: on the stack, no allocation.
pub type Events = ArrayVec<Event, 32>;

/// Where [`crate::Game::roll_with`], [`crate::Game::play_with`] and [`crate::Game::play_unchecked_with`] put
/// their events: an [`Events`] list the caller owns, or [`NoEvents`] to skip building them at all (simulations
/// and search). The rules applied are the same either way; only the reporting differs.
pub trait EventSink {
    /// Whether events are recorded; when `false` the engine does not even build them.
    const ENABLED: bool;
    /// Records one event, in the order they happened.
    fn push(&mut self, event: Event);
}

impl EventSink for Events {
    const ENABLED: bool = true;
    #[inline]
    fn push(&mut self, event: Event) {
        ArrayVec::push(self, event);
    }
}

/// An [`EventSink`] that drops every event (and lets the engine skip building them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoEvents;

impl EventSink for NoEvents {
    const ENABLED: bool = false;
    #[inline(always)]
    fn push(&mut self, _event: Event) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_reads_as_one_line_in_the_notations_spelling() {
        let y1 = PieceRef {
            colour: Colour::Yellow,
            number: 1,
        };
        let b2 = PieceRef {
            colour: Colour::Blue,
            number: 2,
        };
        let cases = [
            (
                Event::Moved {
                    seat: 0,
                    piece: y1,
                    from: Place::Lane(3),
                    to: Place::Goal,
                    distance: 5,
                    count: false,
                },
                "y1 l3 → goal",
            ),
            (Event::ReachedGoal { piece: y1 }, "y1 reaches the goal"),
            (
                Event::BlockadeFormed {
                    at: Place::Square(12),
                    colour: Colour::Blue,
                },
                "blue blockade on 12",
            ),
            (
                Event::BlockadeOpened {
                    at: Place::Square(12),
                    colour: Colour::Blue,
                },
                "blue blockade on 12 opened",
            ),
            (
                Event::BonusLost {
                    seat: 2,
                    amount: 10,
                },
                "seat 2 loses the count of 10: no piece can play it",
            ),
            (
                Event::RerollLost { seat: 1 },
                "seat 1 loses the extra roll: the capture by 6 passed over a 12",
            ),
            (
                Event::ThreeSixes {
                    seat: 1,
                    sent_home: Some(b2),
                    from: Some(Place::Square(40)),
                },
                "third six for seat 1: b2 goes home from 40",
            ),
            (
                Event::ThreeSixes {
                    seat: 1,
                    sent_home: None,
                    from: None,
                },
                "third six for seat 1: no piece goes home",
            ),
            (Event::GameWon { side: 1 }, "side 1 wins"),
        ];
        for (event, text) in cases {
            assert_eq!(event.to_string(), text);
        }
    }
}

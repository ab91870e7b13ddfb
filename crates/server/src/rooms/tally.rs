//! What each seat did in a game, counted from the referee's events as they happen: the end card's table
//! (stored with the result). Nothing here judges a rule; it only counts what the rules crate reported.

use parchis_rules::{Event, Game};

use crate::model::SeatTally;

/// The running counts of a game, one entry per seat.
#[derive(Debug, Clone)]
pub struct Tally {
    /// Indexed by seat.
    seats: Vec<SeatTally>,
}

impl Tally {
    /// Zero for every seat of `game`.
    pub fn new(game: &Game) -> Tally {
        Tally {
            seats: (0..game.layout().n_seats)
                .map(|seat| SeatTally {
                    seat,
                    ..SeatTally::default()
                })
                .collect(),
        }
    }

    /// Counts the events of one action by `seat` (the seat to act before it), played on `game` (either
    /// side of the action: only its layout is read).
    pub fn count(&mut self, game: &Game, seat: u8, events: &[Event]) {
        for event in events {
            match *event {
                Event::Rolled { die: 6, .. } => self.add(seat, |t| t.sixes += 1),
                Event::Captured { piece, .. } => {
                    self.add(seat, |t| t.captures += 1);
                    if let Some(owner) = seat_of(game, piece.colour) {
                        self.add(owner, |t| t.captured += 1);
                    }
                }
                _ => {}
            }
        }
    }

    /// The counts with each seat's pieces at the goal in `game` as it ended.
    pub fn at_end(&self, game: &Game) -> Vec<SeatTally> {
        let layout = game.layout();
        self.seats
            .iter()
            .map(|t| {
                let colours = layout.seat_colours[usize::from(t.seat)];
                let home = (0..layout.n_colours)
                    .filter(|c| colours & (1 << c) != 0)
                    .map(|c| game.finished(c))
                    .sum();
                SeatTally { home, ..*t }
            })
            .collect()
    }

    /// Adds to the entry of `seat` (a seat the game does not have is counted nowhere).
    fn add(&mut self, seat: u8, what: impl FnOnce(&mut SeatTally)) {
        if let Some(entry) = self.seats.get_mut(usize::from(seat)) {
            what(entry);
        }
    }
}

/// The seat that plays `colour` in `game`.
fn seat_of(game: &Game, colour: parchis_rules::Colour) -> Option<u8> {
    let index = game.layout().colour_index(colour)?;
    Some(game.layout().seat_of_colour[usize::from(index)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use parchis_rules::{Mode, RuleSet};

    /// Plays `game` with the given dice, always the first legal move, until the dice run out; counts.
    fn play(game: &mut Game, tally: &mut Tally, dice: &[u8]) {
        for &die in dice {
            while !game.is_over() && !game.legal().is_empty() {
                let seat = game.seat();
                let mv = game.legal()[0];
                let events = game.play(mv).unwrap();
                tally.count(game, seat, &events);
            }
            if game.is_over() {
                return;
            }
            let seat = game.seat();
            let events = game.roll(die).unwrap();
            tally.count(game, seat, &events);
        }
    }

    #[test]
    fn a_capture_counts_for_the_mover_and_against_the_owner_of_the_piece_taken() {
        // Yellow (seat 0) on square 10 rolls 3 onto red's lone piece on 13, off the safe squares.
        let mut game: Game = "playgridia individual/2 y:10,h,h,h/r:13,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-"
            .parse()
            .unwrap();
        let mut tally = Tally::new(&game);
        let events = game.roll(3).unwrap();
        tally.count(&game, 0, &events);
        let capture = game.legal()[0];
        let events = game.play(capture).unwrap();
        tally.count(&game, 0, &events);
        let end = tally.at_end(&game);
        assert_eq!((end[0].captures, end[0].captured), (1, 0));
        assert_eq!((end[1].captures, end[1].captured), (0, 1));
    }

    #[test]
    fn pieces_at_the_goal_are_counted_for_the_seat_of_their_colour() {
        // Two yellow pieces home, one red; counted from the position, not from events.
        let game: Game = "playgridia individual/2 y:goal,goal,h,h/r:goal,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-"
            .parse()
            .unwrap();
        let end = Tally::new(&game).at_end(&game);
        assert_eq!(end.iter().map(|t| t.home).collect::<Vec<_>>(), [2, 1]);
    }

    #[test]
    fn sixes_are_counted_for_the_seat_that_rolled_them() {
        let mut game = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
        let mut tally = Tally::new(&game);
        // Seat 0 rolls 6 then 1 (no piece out: neither moves anything), seat 1 rolls 6, 6, 2.
        play(&mut game, &mut tally, &[6, 1, 6, 6, 2]);
        let end = tally.at_end(&game);
        assert_eq!(
            end.iter().map(|t| t.sixes).collect::<Vec<_>>(),
            [1, 2, 0, 0]
        );
        assert!(end.iter().all(|t| t.home == 0 && t.captures == 0));
    }
}

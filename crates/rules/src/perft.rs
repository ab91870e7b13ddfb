//! Perft: the number of action sequences of a given length from a position, where an action is a roll
//! (each of the six faces a branch) or a legal move. As in chess engines, the counts of fixed positions
//! are fixtures that pin every rule at once: any change to what is legal changes some count. A finished
//! game has no action, so it ends no sequence of one action or more.

use crate::event::NoEvents;
use crate::game::{Game, Phase};
use crate::moves::Move;

/// The number of sequences of exactly `depth` actions (rolls and moves) from `game`; 1 for depth 0.
///
/// The first counts from the start of Playgridia individual/4 follow from the rules by hand (RULES.md,
/// "Perft"): 6 faces; then a 5 must bring out one piece and any other face lets a die be rolled again, so
/// 1 + 5 × 6 = 31.
///
/// ```
/// use parchis_rules::{Game, Mode, RuleSet, perft};
///
/// let game = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
/// assert_eq!(perft(&game, 1), 6);
/// assert_eq!(perft(&game, 2), 31);
/// assert_eq!(perft(&game, 3), 161);
/// ```
pub fn perft(game: &Game, depth: u32) -> u64 {
    match depth {
        0 => 1,
        // The last action is only counted: no position needs to be made for it.
        1 => match game.phase() {
            Phase::Roll => 6,
            Phase::Move { .. } | Phase::Count { .. } => game.legal().len() as u64,
            Phase::Over { .. } => 0,
        },
        _ => divide(game, depth).iter().map(|(_, n)| n).sum(),
    }
}

/// One action of a position, for [`divide`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// The die showing this face.
    Roll(u8),
    /// A legal move.
    Play(Move),
}

/// [`perft`] split by the first action: each action of `game` with the sequences of `depth` actions
/// that begin with it (what tells two engines apart when their totals differ).
pub fn divide(game: &Game, depth: u32) -> Vec<(Action, u64)> {
    let below = depth.saturating_sub(1);
    match game.phase() {
        Phase::Over { .. } => Vec::new(),
        Phase::Roll => (1..=6)
            .map(|die| {
                let mut next = *game;
                next.roll_with(die, &mut NoEvents)
                    .expect("every face can be rolled when a roll is due");
                (Action::Roll(die), perft(&next, below))
            })
            .collect(),
        Phase::Move { .. } | Phase::Count { .. } => game
            .legal()
            .iter()
            .map(|&m| {
                let mut next = *game;
                next.play_unchecked_with(m, &mut NoEvents);
                (Action::Play(m), perft(&next, below))
            })
            .collect(),
    }
}

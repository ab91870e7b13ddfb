//! The random play the `rules` bench times and the `random_games` example profiles, in one place so both
//! measure the same thing.

use parchis_rules::{Game, Mode, NoEvents, Phase, RuleSet};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{Rng, RngExt, SeedableRng};

/// A uniform draw in `0..n` from 32 random bits (Lemire's multiply-and-shift with rejection: exactly uniform;
/// the rejection test, taken with probability below n / 2³², is the only branch, and its retries draw from
/// `rng`).
#[inline(always)]
pub fn below(first: u32, rng: &mut Xoshiro256PlusPlus, n: u32) -> u32 {
    let mut m = u64::from(first) * u64::from(n);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

/// Plays one random game to the end through the event-free entry points; returns the number of moves played.
///
/// Each roll draws 64 bits: the high half (what `next_u32` returns) picks the die, and the low half, as
/// uniform and independent, is kept to pick the move of that roll. So a roll and its move cost one step of
/// the generator, and picking among one move needs no branch (it draws 0). A count (a bonus) is not
/// preceded by a roll and draws its own 32 bits.
#[inline(never)]
pub fn random_game(start: &Game, rng: &mut Xoshiro256PlusPlus) -> u32 {
    let mut g = *start;
    let mut moves = 0;
    let mut for_the_move = 0u32;
    loop {
        match g.phase() {
            Phase::Over { .. } => return moves,
            Phase::Roll => {
                let bits = rng.next_u64();
                for_the_move = bits as u32;
                let die = 1 + below((bits >> 32) as u32, rng, 6) as u8;
                let _ = g.roll_with(die, &mut NoEvents);
            }
            phase => {
                // A move phase always follows its roll at once.
                let first = match phase {
                    Phase::Move { .. } => for_the_move,
                    _ => rng.next_u32(),
                };
                let n = g.legal().len() as u32;
                let _ = g.play_legal_with(below(first, rng, n) as usize, &mut NoEvents);
                moves += 1;
            }
        }
    }
}

/// The `legal_moves` bench's positions: waiting for a move, sampled from seeded random games.
pub fn sample_positions(n: usize) -> Vec<Game> {
    let start = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut g = start;
        while !g.is_over() && out.len() < n {
            match g.phase() {
                Phase::Roll => {
                    let _ = g.roll_with(rng.random_range(1..=6), &mut NoEvents);
                }
                _ => {
                    out.push(g);
                    let legal = g.legal();
                    g.play_unchecked(legal[rng.random_range(0..legal.len())]);
                }
            }
        }
    }
    out
}

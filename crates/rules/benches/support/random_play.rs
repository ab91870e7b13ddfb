//! The random play the `rules` bench times and the `random_games` example profiles, in one place so both
//! measure the same thing.

use parchis_rules::{Game, Mode, NoEvents, Phase, RuleSet};
use rand::rngs::SmallRng;
use rand::{Rng, RngExt, SeedableRng};

/// A uniform draw in `0..n` (Lemire's multiply-and-shift with rejection: exactly uniform, and the rejection
/// test, taken with probability below n / 2³², is the only branch).
#[inline(always)]
pub fn below(rng: &mut SmallRng, n: u32) -> u32 {
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

/// Plays one random game to the end through the event-free entry points; returns the number of moves played.
#[inline(never)]
pub fn random_game(start: &Game, rng: &mut SmallRng) -> u32 {
    let mut g = *start;
    let mut moves = 0;
    loop {
        match g.phase() {
            Phase::Over { .. } => return moves,
            Phase::Roll => {
                let _ = g.roll_with(1 + below(rng, 6) as u8, &mut NoEvents);
            }
            _ => {
                let legal = g.legal();
                let m = match legal.len() {
                    1 => legal[0],
                    n => legal[below(rng, n as u32) as usize],
                };
                g.play_unchecked_with(m, &mut NoEvents);
                moves += 1;
            }
        }
    }
}

/// The `legal_moves` bench's positions: waiting for a move, sampled from seeded random games.
pub fn sample_positions(n: usize) -> Vec<Game> {
    let start = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
    let mut rng = SmallRng::seed_from_u64(7);
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

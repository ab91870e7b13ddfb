//! Plays seeded random games exactly like the `random_game` bench (event-free, `SmallRng`), for profiling
//! with instruction counts: `valgrind --tool=callgrind target/release/examples/random_games 500`.

use parchis_rules::{Game, Mode, NoEvents, Phase, RuleSet};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;

/// The bench's uniform draw in `0..n` (Lemire's multiply-and-shift with rejection).
#[inline(always)]
fn below(rng: &mut SmallRng, n: u32) -> u32 {
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

#[inline(never)]
fn random_game(start: &Game, rng: &mut SmallRng) -> u32 {
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

fn main() {
    let games: u32 = std::env::args()
        .nth(1)
        .map_or(500, |s| s.parse().expect("a number of games"));
    let start = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
    let mut rng = SmallRng::seed_from_u64(1);
    let mut moves = 0u64;
    for _ in 0..games {
        moves += u64::from(random_game(black_box(&start), &mut rng));
    }
    println!("{games} games, {moves} moves");
}

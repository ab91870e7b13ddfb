//! Plays seeded random games exactly like the `random_game` bench (event-free, `SmallRng`), for profiling
//! with instruction counts: `valgrind --tool=callgrind target/release/examples/random_games 500`.
//! `random_games legal 100` instead generates the legal moves of the `legal_moves` bench's 1024 sampled
//! positions 100 times.

use parchis_rules::{Game, Mode, MoveList, NoEvents, Phase, RuleSet};
use rand::rngs::SmallRng;
use rand::{Rng, RngExt, SeedableRng};
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

/// The `legal_moves` bench's positions: waiting for a move, sampled from seeded random games.
fn sample_positions(n: usize) -> Vec<Game> {
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

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().map(String::as_str) == Some("legal") {
        let rounds: u32 = args
            .nth(1)
            .map_or(100, |s| s.parse().expect("a number of rounds"));
        let positions = sample_positions(1024);
        let mut list = MoveList::new();
        let mut n = 0;
        for _ in 0..rounds {
            for g in &positions {
                black_box(g).generate_legal_moves(&mut list);
                n += list.len();
            }
        }
        println!("{rounds} rounds, {n} moves");
        return;
    }
    let games: u32 = args
        .next()
        .map_or(500, |s| s.parse().expect("a number of games"));
    let start = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
    let mut rng = SmallRng::seed_from_u64(1);
    let mut moves = 0u64;
    for _ in 0..games {
        moves += u64::from(random_game(black_box(&start), &mut rng));
    }
    println!("{games} games, {moves} moves");
}

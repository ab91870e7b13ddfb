//! Plays seeded random games exactly like the `random_game` bench (event-free, rand's named
//! `Xoshiro256PlusPlus`), for profiling with instruction counts:
//! `valgrind --tool=callgrind target/release/examples/random_games 500`.
//! `random_games legal 100` instead generates the legal moves of the `legal_moves` bench's 1024 sampled
//! positions 100 times.

#[path = "../benches/support/random_play.rs"]
mod random_play;

use parchis_rules::{Game, Mode, MoveList, RuleSet};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use random_play::{random_game, sample_positions};
use std::hint::black_box;

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
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut moves = 0u64;
    for _ in 0..games {
        moves += u64::from(random_game(black_box(&start), &mut rng));
    }
    println!("{games} games, {moves} moves");
}

//! The random bot: a uniformly random legal move.

use crate::Bot;
use parchis_rules::{Game, Move};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// Plays a uniformly random legal move (seeded, so deterministic).
#[derive(Debug, Clone)]
pub struct RandomBot {
    rng: Xoshiro256PlusPlus,
}

impl RandomBot {
    /// A random bot whose choices are fixed by the seed.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, _game: &Game, legal: &[Move]) -> Move {
        legal[self.rng.random_range(0..legal.len())]
    }
}

//! The hot path allocates nothing: rolling, reading the legal moves and playing them (with events, and through
//! the event-free calls), for a whole game of every preset × mode, counts zero heap allocations.

use parchis_rules::{Game, Mode, NoEvents, Phase, RuleSet};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};
use std::alloc::System;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

#[test]
fn rolling_and_playing_a_whole_game_allocates_nothing() {
    let mut starts = Vec::new();
    for r in RuleSet::ALL {
        for m in Mode::ALL {
            starts.push(Game::new(r, m, m.default_players()).unwrap());
        }
    }
    let mut rng = SmallRng::seed_from_u64(5);
    let region = Region::new(GLOBAL);
    let mut actions = 0u64;
    for start in &starts {
        let mut g = *start;
        while !g.is_over() {
            if g.phase() == Phase::Roll {
                let _events = g.roll(rng.random_range(1..=6)).unwrap();
            } else {
                let legal = g.legal();
                let m = legal[rng.random_range(0..legal.len())];
                let _events = g.play(m).unwrap();
            }
            actions += 1;
        }
        // The event-free calls of simulations and benchmarks.
        let mut g = *start;
        while !g.is_over() {
            if g.phase() == Phase::Roll {
                g.roll_with(rng.random_range(1..=6), &mut NoEvents).unwrap();
            } else {
                let legal = g.legal();
                g.play_unchecked_with(legal[rng.random_range(0..legal.len())], &mut NoEvents);
            }
            actions += 1;
        }
    }
    let stats = region.change();
    assert!(actions > 1000);
    assert_eq!(
        stats.allocations, 0,
        "{actions} actions allocated {} times",
        stats.allocations
    );
}

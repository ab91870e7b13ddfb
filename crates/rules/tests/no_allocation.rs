//! The hot path allocates nothing: rolling, reading the legal moves and playing them (with events, and through
//! the event-free calls), for a whole game of every preset × mode, counts zero heap allocations.

use parchis_rules::{Game, Mode, NoEvents, Phase, RuleSet};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// Plays one seeded game of every start, through `roll` / `play` and through the event-free calls; returns the
/// number of actions.
fn play_all(starts: &[Game]) -> u64 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut actions = 0u64;
    for start in starts {
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
    actions
}

#[test]
fn rolling_and_playing_a_whole_game_allocates_nothing() {
    let mut starts = Vec::new();
    for r in RuleSet::ALL {
        for m in Mode::ALL {
            starts.push(Game::new(r, m, m.default_players()).unwrap());
        }
    }
    // allocation-counter counts this thread's allocations only, so the test harness's other threads cannot
    // pollute the count. A measurement that sees a known allocation proves the counter is in place.
    let known = allocation_counter::measure(|| drop(std::hint::black_box(Box::new(1u64))));
    assert_eq!(known.count_total, 1, "the counting allocator is installed");
    let mut actions = 0;
    let counted = allocation_counter::measure(|| actions = play_all(&starts));
    assert!(actions > 1000);
    assert_eq!(
        counted.count_total, 0,
        "{} allocations in {actions} rolls and moves",
        counted.count_total
    );
}

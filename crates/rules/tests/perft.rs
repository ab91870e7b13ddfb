//! Perft: how many sequences of rolls and moves of each length follow a position. The first counts from
//! the start are derived by hand from the rules; the rest are fixtures (`fixtures/perft.txt`) for the start
//! of every preset × mode and for positions deep in seeded games, so that a change to any rule shows as a
//! changed count. Every fixture is also counted a second, slow way, through the checked calls (`roll`,
//! `play` of a freshly generated move list), which must agree with the fast one.
//!
//! After an intended rule change, `PERFT_BLESS=1 cargo test -p parchis-rules --test perft` rewrites the
//! fixture file; its diff shows which positions changed. The seeded games come from rand's named
//! `Xoshiro256PlusPlus`, whose output for a seed does not change between rand versions.

mod common;

use common::every_preset_and_mode;
use parchis_rules::{Game, MoveList, Phase, divide, perft};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/perft.txt");

/// Depths counted: deeper from the start (few branches) than mid-game (many pieces out).
const START_DEPTH: u32 = 8;
const MID_DEPTH: u32 = 6;

/// The same count as `perft`, through the checked calls only, with the legal moves generated afresh.
fn slow_perft(game: &Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    match game.phase() {
        Phase::Over { .. } => 0,
        Phase::Roll => (1..=6)
            .map(|die| {
                let mut next = *game;
                next.roll(die).unwrap();
                slow_perft(&next, depth - 1)
            })
            .sum(),
        _ => {
            let mut moves = MoveList::new();
            game.generate_legal_moves(&mut moves);
            moves
                .iter()
                .map(|&m| {
                    let mut next = *game;
                    next.play(m).unwrap();
                    slow_perft(&next, depth - 1)
                })
                .sum()
        }
    }
}

/// The fixture positions: each start, and the position after 40 and 150 actions of a seeded game.
fn positions() -> Vec<(String, Game, u32)> {
    let mut out = Vec::new();
    for (r, m, p) in every_preset_and_mode() {
        let start = Game::new(r, m, p).unwrap();
        out.push((format!("{r} {m}/{p} start"), start, START_DEPTH));
        let mut g = start;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(u64::from(p) * 1000 + out.len() as u64);
        for actions in 1..=150 {
            if g.is_over() {
                break;
            }
            if g.phase() == Phase::Roll {
                g.roll(rng.random_range(1..=6)).unwrap();
            } else {
                let legal = g.legal();
                g.play(legal[rng.random_range(0..legal.len())]).unwrap();
            }
            if actions == 40 || actions == 150 {
                out.push((format!("{r} {m}/{p} after {actions}"), g, MID_DEPTH));
            }
        }
    }
    out
}

/// One fixture line: `counts | notation`, the counts of depths 1, 2, … separated by spaces.
fn line(game: &Game, depth: u32) -> String {
    let counts: Vec<String> = (1..=depth).map(|d| perft(game, d).to_string()).collect();
    format!("{} | {}", counts.join(" "), game.notation())
}

#[test]
fn from_the_start_only_a_five_brings_a_piece_out_and_a_six_rolls_again() {
    let start = Game::new(
        parchis_rules::RuleSet::Playgridia,
        parchis_rules::Mode::Individual,
        4,
    )
    .unwrap();
    // One action: the six faces of yellow's die.
    assert_eq!(perft(&start, 1), 6);
    // Two: after a 5 yellow must bring out one piece (one move); after any other face nothing moves and
    // a die is rolled again (blue's, or yellow's after a six): 1 + 5 × 6.
    assert_eq!(perft(&start, 2), 31);
    // Three: after 1–4, blue rolls and then moves out on a 5 or someone rolls: 4 × (1 + 5 × 6); after a 6,
    // yellow's second roll likewise: 1 + 5 × 6; after a 5, the exit and then blue's roll: 1 × 6.
    assert_eq!(perft(&start, 3), 4 * 31 + 31 + 6);
    // Divided by the first roll.
    let by_face: Vec<u64> = divide(&start, 3).into_iter().map(|(_, n)| n).collect();
    assert_eq!(by_face, [31, 31, 31, 31, 6, 31]);
}

#[test]
fn perft_counts_match_the_fixtures_and_the_checked_calls() {
    let positions = positions();
    let lines: Vec<String> = positions
        .iter()
        .map(|(name, game, depth)| format!("{name} | {}", line(game, *depth)))
        .collect();
    let text = format!(
        "# perft fixtures: name | counts of depths 1.. | position. Written by `PERFT_BLESS=1 cargo test -p parchis-rules --test perft`.\n{}\n",
        lines.join("\n")
    );
    if std::env::var_os("PERFT_BLESS").is_some() {
        std::fs::write(FIXTURES, &text).unwrap();
    }
    let recorded = std::fs::read_to_string(FIXTURES).expect("the fixture file");
    for (want, got) in recorded.lines().skip(1).zip(&lines) {
        assert_eq!(want, got, "perft changed");
    }
    assert_eq!(
        recorded.lines().count(),
        lines.len() + 1,
        "fixtures added or missing"
    );
    // The slow count agrees at every fixture (one action shallower, to keep debug builds quick).
    for (name, game, depth) in &positions {
        let d = depth - 1;
        assert_eq!(slow_perft(game, d), perft(game, d), "{name} at depth {d}");
    }
}

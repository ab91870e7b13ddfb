//! Speed of the referee: complete random games and legal-move generation. Each bench also asserts its
//! result, so a broken engine cannot look fast.
//!
//! The random games play the full rules through the event-free entry points (`roll_with` / `play_unchecked_with`
//! with [`NoEvents`]); `tests/quiet_play.rs` checks move for move that they play exactly like `roll` / `play`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parchis_rules::{Game, Mode, MoveList, NoEvents, Phase, RuleSet};
use rand::rngs::SmallRng;
use rand::{Rng, RngExt, SeedableRng};
use std::hint::black_box;

/// A uniform draw in `0..n` (Lemire's multiply-and-shift with rejection: exactly uniform, and the rejection
/// test, taken with probability below n / 2³², is the only branch).
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

/// Plays one random game to the end; returns the number of moves played.
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
                // A uniformly random legal move (no draw when there is only one).
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

/// Positions waiting for a move, sampled from random games.
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

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_game");
    for (name, rules, mode, players) in [
        (
            "playgridia_individual_4",
            RuleSet::Playgridia,
            Mode::Individual,
            4,
        ),
        ("ludoteka_3v3_6", RuleSet::Ludoteka, Mode::ThreeVsThree, 6),
        ("morocco_1v1_2", RuleSet::Morocco, Mode::OneVsOne, 2),
    ] {
        let start = Game::new(rules, mode, players).unwrap();
        let mut rng = SmallRng::seed_from_u64(1);
        group.throughput(Throughput::Elements(1));
        group.bench_function(name, |b| {
            b.iter(|| {
                let moves = random_game(black_box(&start), &mut rng);
                assert!(moves > 0);
                moves
            })
        });
    }
    group.finish();
}

fn legal(c: &mut Criterion) {
    let positions = sample_positions(1024);
    let total: usize = positions.iter().map(|g| g.legal_moves().len()).sum();
    assert!(
        total >= positions.len(),
        "every sampled position has a legal move"
    );
    let mut group = c.benchmark_group("legal_moves");
    group.throughput(Throughput::Elements(positions.len() as u64));
    let mut list = MoveList::new();
    group.bench_function("playgridia_individual_4_per_1024_positions", |b| {
        b.iter(|| {
            let mut n = 0;
            for g in &positions {
                black_box(g).generate_legal_moves(&mut list);
                n += list.len();
            }
            assert_eq!(n, total);
            n
        })
    });
    group.finish();
}

criterion_group!(benches, games, legal);
criterion_main!(benches);

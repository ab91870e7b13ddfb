//! Speed of the referee: complete random games and legal-move generation. Each bench also asserts its
//! result, so a broken engine cannot look fast.
//!
//! The random games play the full rules through the event-free entry points (`roll_with` / `play_legal_with`
//! with [`NoEvents`]); `tests/quiet_play.rs` checks move for move that they play exactly like `roll` / `play`.

#[path = "support/random_play.rs"]
mod random_play;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parchis_rules::{Game, Mode, MoveList, RuleSet};
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use random_play::{random_game, sample_positions};
use std::hint::black_box;

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
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
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

/// Perft from the start of a four-player Playgridia game at depth 8 (every roll face and legal move of 8
/// actions): the count is the one `tests/fixtures/perft.txt` records.
fn perft(c: &mut Criterion) {
    let start = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
    let fixtures = include_str!("../tests/fixtures/perft.txt");
    let recorded: u64 = fixtures
        .lines()
        .find(|l| l.starts_with("playgridia individual/4 start |"))
        .and_then(|l| l.split('|').nth(1))
        .and_then(|counts| counts.split_whitespace().nth(7))
        .and_then(|n| n.parse().ok())
        .expect("the depth-8 count of the four-player start in the fixtures");
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(recorded));
    group.bench_function("playgridia_individual_4_start_depth_8", |b| {
        b.iter(|| {
            let n = parchis_rules::perft(black_box(&start), 8);
            assert_eq!(n, recorded);
            n
        })
    });
    group.finish();
}

criterion_group!(benches, games, legal, perft);
criterion_main!(benches);

//! A diagnostic: an expert that knows the next `ROLLS` dice of the game (one rollout per move, greedy
//! continuation for every seat, greedy's evaluation at the end) against three greedy bots. An upper bound on
//! what short look-ahead over greedy continuations can win.
use parchis_bots::{Bot, GreedyBot, mix_seed, wilson95};
use parchis_rules::{Game, Mode, Phase, RuleSet};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(400);
    let rolls: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(6);
    let mut wins = 0;
    for i in 0..games {
        let me = (i % 4) as u8;
        let mut g = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix_seed(1, i));
        let mut greedy = GreedyBot::new();
        for _ in 0..20_000 {
            match g.phase() {
                Phase::Over { .. } => break,
                Phase::Roll => {
                    g.roll(rng.random_range(1..=6)).unwrap();
                }
                _ => {
                    let legal = g.legal_moves();
                    let m = if g.seat() == me && legal.len() > 1 {
                        let mut best = (legal[0], f32::NEG_INFINITY);
                        for &m in &legal {
                            let mut sim = g;
                            sim.play(m).unwrap();
                            let mut r = rng.clone();
                            let mut n = 0;
                            loop {
                                match sim.phase() {
                                    Phase::Over { .. } => break,
                                    Phase::Roll => {
                                        if n == rolls {
                                            break;
                                        }
                                        sim.roll(r.random_range(1..=6)).unwrap();
                                        n += 1;
                                    }
                                    _ => {
                                        let l = sim.legal_moves();
                                        let mm = greedy.choose(&sim, &l);
                                        sim.play(mm).unwrap();
                                    }
                                }
                            }
                            let v = parchis_bots::eval::evaluate(&sim, me);
                            if v > best.1 {
                                best = (m, v);
                            }
                        }
                        best.0
                    } else {
                        greedy.choose(&g, &legal)
                    };
                    g.play(m).unwrap();
                }
            }
        }
        if g.winner() == Some(me) {
            wins += 1;
        }
    }
    let (lo, hi) = wilson95(wins, games as u32);
    println!(
        "clairvoyant {rolls} rolls: {wins}/{games} = {:.1}% [{:.1}, {:.1}]",
        100.0 * wins as f64 / games as f64,
        100.0 * lo,
        100.0 * hi
    );
}

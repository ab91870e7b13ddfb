//! Fits the weights of [`parchis_bots::value`] by multinomial logistic regression on positions of
//! greedy-vs-greedy games, labelled by the side that went on to win:
//! `cargo run --release -p parchis-bots --example train -- [RULES] [MODE] [PLAYERS] [GAMES] [SEED]`
//! (defaults: playgridia individual 4 20000 1). Prints the weights as a Rust array, and the log-loss of the
//! fitted and of the current [`parchis_bots::value::WEIGHTS`] on held-out games (every fifth game).

use parchis_bots::value::{NAMES, NF, WEIGHTS, side_features};
use parchis_bots::{Bot, GreedyBot, mix_seed};
use parchis_rules::{Game, Mode, Phase, RuleSet};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

struct Sample {
    f: Vec<[f32; NF]>,
    winner: usize,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let rules: RuleSet = arg(0, "playgridia").parse()?;
    let mode: Mode = arg(1, "individual").parse()?;
    let players: u8 = arg(2, "4").parse()?;
    let games: u64 = arg(3, "20000").parse()?;
    let seed: u64 = arg(4, "1").parse()?;
    let mut train = Vec::new();
    let mut valid = Vec::new();
    for i in 0..games {
        let mut g = Game::new(rules, mode, players)?;
        let n_sides = g.layout().n_sides() as usize;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix_seed(seed, i));
        let mut bot = GreedyBot::new();
        let mut states = Vec::new();
        for _ in 0..20_000 {
            match g.phase() {
                Phase::Over { .. } => break,
                Phase::Roll => {
                    if rng.random_range(0..8u32) == 0 {
                        states.push(side_features(&g)[..n_sides].to_vec());
                    }
                    g.roll(rng.random_range(1..=6))?;
                }
                _ => {
                    let legal = g.legal_moves();
                    let m = bot.choose(&g, &legal);
                    g.play(m)?;
                }
            }
        }
        let Some(w) = g.winner() else { continue };
        let out = if i % 5 == 0 { &mut valid } else { &mut train };
        out.extend(states.into_iter().map(|f| Sample {
            f,
            winner: w as usize,
        }));
    }
    eprintln!(
        "{} training / {} validation positions",
        train.len(),
        valid.len()
    );
    let mut w = [0.0f64; NF];
    let (mut m, mut v) = ([0.0f64; NF], [0.0f64; NF]);
    let (lr, b1, b2, l2) = (0.05, 0.9, 0.999, 1e-4);
    for it in 1..=600 {
        let (loss, grad) = loss_grad(&train, &w);
        for k in 0..NF {
            let g = grad[k] + l2 * w[k];
            m[k] = b1 * m[k] + (1.0 - b1) * g;
            v[k] = b2 * v[k] + (1.0 - b2) * g * g;
            let mh = m[k] / (1.0 - b1.powi(it));
            let vh = v[k] / (1.0 - b2.powi(it));
            w[k] -= lr * mh / (vh.sqrt() + 1e-8);
        }
        if it % 100 == 0 {
            eprintln!("iteration {it}: training log-loss {loss:.5}");
        }
    }
    let current: [f64; NF] = WEIGHTS.map(f64::from);
    eprintln!(
        "validation log-loss: fitted {:.5}, current WEIGHTS {:.5}, uniform {:.5}",
        loss_grad(&valid, &w).0,
        loss_grad(&valid, &current).0,
        (players as f64).ln()
    );
    println!("pub const WEIGHTS: [f32; NF] = [");
    for k in 0..NF {
        println!("    {:.4}, // {}", w[k], NAMES[k]);
    }
    println!("];");
    Ok(())
}

/// Mean negative log-likelihood of the winners and its gradient.
fn loss_grad(data: &[Sample], w: &[f64; NF]) -> (f64, [f64; NF]) {
    let mut loss = 0.0;
    let mut grad = [0.0f64; NF];
    for s in data {
        let z: Vec<f64> =
            s.f.iter()
                .map(|f| f.iter().zip(w).map(|(a, b)| f64::from(*a) * b).sum())
                .collect();
        let mx = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = z.iter().map(|x| (x - mx).exp()).collect();
        let sum: f64 = e.iter().sum();
        loss -= (e[s.winner] / sum).ln();
        for (side, f) in s.f.iter().enumerate() {
            let d = e[side] / sum - if side == s.winner { 1.0 } else { 0.0 };
            for k in 0..NF {
                grad[k] += d * f64::from(f[k]);
            }
        }
    }
    let n = data.len().max(1) as f64;
    (loss / n, grad.map(|g| g / n))
}

//! Fits a linear move policy ([`parchis_bots::value::policy_score`]) to the expert's choices in four-player
//! games against greedy bots (conditional logit over the legal moves):
//! `cargo run --release -p parchis-bots --example distill -- GAMES SEED THREADS` (the expert as configured by
//! `SHARP`, `ROLLS`, `BUDGET`, `POLICY` like the `tune` example). Prints the weights.

use parchis_bots::value::{NP, move_features};
use parchis_bots::{Bot, ExpertBot, GreedyBot, mix_seed};
use parchis_rules::{Game, Mode, Phase, RuleSet};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

type Decision = (Vec<[f32; NP]>, usize, usize); // features per move, expert's choice, greedy's choice

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let games: u64 = arg(0, "400").parse()?;
    let seed: u64 = arg(1, "7").parse()?;
    let threads: usize = arg(2, "1").parse()?;
    let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let rolls: usize = env("ROLLS", "6").parse()?;
    let budget: u32 = env("BUDGET", "16000").parse()?;
    let sharp = match std::env::var("SHARP") {
        Ok(spec) if spec == "off" => None,
        Ok(spec) => Some(parchis_bots::sharp::Params::parse(&spec)?),
        Err(_) => Some(parchis_bots::sharp::Params::DEFAULT),
    };
    let policy = read_policy()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let data: Vec<Decision> = pool.install(|| {
        (0..games)
            .into_par_iter()
            .flat_map_iter(|i| {
                let mut out = Vec::new();
                let mut g = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix_seed(seed, i));
                let me = (i % 4) as u8;
                let mut expert = ExpertBot::with_budget(mix_seed(seed, i + 1_000_000), budget)
                    .with_rollout_rolls(rolls)
                    .with_sharp(sharp)
                    .with_policy(policy);
                let mut greedy = GreedyBot::new();
                for _ in 0..20_000 {
                    match g.phase() {
                        Phase::Over { .. } => break,
                        Phase::Roll => {
                            g.roll(rng.random_range(1..=6)).unwrap();
                        }
                        _ => {
                            let legal = g.legal_moves();
                            let gm = greedy.choose(&g, &legal);
                            let m = if g.seat() == me && legal.len() > 1 {
                                let em = expert.choose(&g, &legal);
                                let side = g.layout().side_of_seat[me as usize];
                                let feats = legal
                                    .iter()
                                    .map(|&m| {
                                        let mut next = g;
                                        next.play(m).unwrap();
                                        move_features(&next, side)
                                    })
                                    .collect();
                                let ei = legal.iter().position(|m| m.same_as(&em)).unwrap();
                                let gi = legal.iter().position(|m| m.same_as(&gm)).unwrap();
                                out.push((feats, ei, gi));
                                em
                            } else {
                                gm
                            };
                            g.play(m).unwrap();
                        }
                    }
                }
                out
            })
            .collect()
    });
    let (train, valid): (Vec<_>, Vec<_>) =
        data.into_iter().enumerate().partition(|(i, _)| i % 5 != 0);
    let train: Vec<Decision> = train.into_iter().map(|x| x.1).collect();
    let valid: Vec<Decision> = valid.into_iter().map(|x| x.1).collect();
    eprintln!(
        "{} training / {} validation decisions",
        train.len(),
        valid.len()
    );
    let mut w = [0.0f64; NP];
    w[NP - 1] = 1.0; // start from greedy
    let (mut m1, mut m2) = ([0.0f64; NP], [0.0f64; NP]);
    for it in 1..=800 {
        let (loss, grad) = loss_grad(&train, &w);
        for k in 0..NP {
            let g = grad[k] + 1e-4 * w[k];
            m1[k] = 0.9 * m1[k] + 0.1 * g;
            m2[k] = 0.999 * m2[k] + 0.001 * g * g;
            w[k] -= 0.03 * (m1[k] / (1.0 - 0.9f64.powi(it)))
                / ((m2[k] / (1.0 - 0.999f64.powi(it))).sqrt() + 1e-8);
        }
        if it % 200 == 0 {
            eprintln!("iteration {it}: log-loss {loss:.4}");
        }
    }
    let agree = |d: &[Decision], w: &[f64; NP]| {
        d.iter().filter(|x| argmax(&x.0, w) == x.1).count() as f64 / d.len().max(1) as f64
    };
    let greedy_agree =
        valid.iter().filter(|x| x.1 == x.2).count() as f64 / valid.len().max(1) as f64;
    eprintln!(
        "validation: fitted policy agrees with the expert {:.1}%, greedy {:.1}%",
        100.0 * agree(&valid, &w),
        100.0 * greedy_agree
    );
    println!(
        "{}",
        w.iter()
            .map(|x| format!("{x:.5}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    Ok(())
}

fn read_policy() -> Result<Option<[f32; NP]>, Box<dyn std::error::Error>> {
    let Ok(path) = std::env::var("POLICY") else {
        return Ok(None);
    };
    let text = std::fs::read_to_string(path)?;
    let v: Vec<f32> = text
        .trim()
        .split(',')
        .map(|x| x.trim().parse())
        .collect::<Result<_, _>>()?;
    let mut w = [0.0f32; NP];
    w.copy_from_slice(&v);
    Ok(Some(w))
}

fn argmax(f: &[[f32; NP]], w: &[f64; NP]) -> usize {
    let mut best = (0, f64::NEG_INFINITY);
    for (i, x) in f.iter().enumerate() {
        let s: f64 = x.iter().zip(w).map(|(a, b)| f64::from(*a) * b).sum();
        if s > best.1 {
            best = (i, s);
        }
    }
    best.0
}

fn loss_grad(data: &[Decision], w: &[f64; NP]) -> (f64, [f64; NP]) {
    let mut loss = 0.0;
    let mut grad = [0.0f64; NP];
    for (f, c, _) in data {
        let z: Vec<f64> = f
            .iter()
            .map(|x| x.iter().zip(w).map(|(a, b)| f64::from(*a) * b).sum())
            .collect();
        let mx = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = z.iter().map(|x| (x - mx).exp()).collect();
        let sum: f64 = e.iter().sum();
        loss -= (e[*c] / sum).ln();
        for (i, x) in f.iter().enumerate() {
            let d = e[i] / sum - if i == *c { 1.0 } else { 0.0 };
            for k in 0..NP {
                grad[k] += d * f64::from(x[k]);
            }
        }
    }
    let n = data.len().max(1) as f64;
    (loss / n, grad.map(|g| g / n))
}

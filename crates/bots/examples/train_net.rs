//! Fits the weights of [`parchis_bots::net`]: Playgridia four-player individual games where one seat (rotating)
//! plays the expert's rollout policy (one ply of the sharper evaluation, following its counts) against three
//! greedy bots; positions at the roll, from the expert seat's point of view, labelled by the winner.
//! `cargo run --release -p parchis-bots --example train_net -- [GAMES] [SEED] [EPOCHS] [OUT]`
//! (defaults: 20000 1 8 crates/bots/src/net_weights.rs). Env EXPERT_GAMES / EXPERT / EXPERT_SAMPLE add games
//! where the seat plays a cheap expert instead (see `main`). Seeded: the same arguments give the same weights,
//! whatever THREADS. Use a seed no evaluation uses (arena game i of seed s has the dice `mix_seed(s, i)`). Prints the held-out log-loss (every fifth game) of the model and of the sharp leaf.

use parchis_bots::greedy::line_value;
use parchis_bots::net::{HIDDEN, NI, SIDES, forward, inputs};
use parchis_bots::sharp::{Params, evaluate, leaf_value};
use parchis_bots::{Bot, ExpertBot, GreedyBot, mix_seed};
use parchis_rules::{Game, Mode, Phase, RuleSet};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use std::fmt::Write as _;

/// The value of a position for `side` after its pending counts are played as well as possible (as the expert's
/// rollouts play its own seat).
fn line(g: &Game, side: u8, depth: u8) -> f32 {
    line_value(g, side, depth, &|g, s| evaluate(g, s, &Params::DEFAULT))
}

/// One training game: the sampled positions (inputs, sharp leaf), the label and whether the seat won.
struct Played {
    xs: Vec<[f32; NI]>,
    sh: Vec<f32>,
    label: u8,
    won: bool,
}

/// Game `i`: dice `mix_seed(seed, i)`, seat `i % 4` plays one ply of `sharp` (`expert` None) or a cheap expert
/// of that many nodes, the others greedy; one roll in `sample_every` sampled.
fn play(seed: u64, i: u64, expert: Option<u32>, sample_every: u32) -> Option<Played> {
    let me = (i % 4) as u8;
    let mut g = Game::new(RuleSet::Playgridia, Mode::Individual, 4).ok()?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix_seed(seed, i));
    let mut greedy = GreedyBot::new();
    let mut bot = expert.map(|n| ExpertBot::with_budget(mix_seed(seed, i + 1_000_000_000), n));
    let mut xs = Vec::new();
    let mut sh = Vec::new();
    for _ in 0..20_000 {
        match g.phase() {
            Phase::Over { .. } => break,
            Phase::Roll => {
                if rng.random_range(0..sample_every) == 0 {
                    xs.push(inputs(&g, me));
                    sh.push(leaf_value(&g, me, &Params::DEFAULT));
                }
                g.roll(rng.random_range(1..=6)).ok()?;
            }
            _ => {
                let legal = g.legal_moves();
                let m = if g.seat() == me && legal.len() > 1 {
                    if let Some(b) = bot.as_mut() {
                        b.choose(&g, &legal)
                    } else {
                        let mut best = (legal[0], f32::NEG_INFINITY);
                        for &m in &legal {
                            let mut n = g;
                            n.play_unchecked(m);
                            let v = line(&n, me, 3);
                            if v > best.1 {
                                best = (m, v);
                            }
                        }
                        best.0
                    }
                } else {
                    greedy.choose(&g, &legal)
                };
                g.play(m).ok()?;
            }
        }
    }
    let w = g.winner()?;
    // Label: the winner's place in turn order from the expert seat.
    Some(Played {
        xs,
        sh,
        label: (w + 4 - me) % 4,
        won: w == me,
    })
}

struct Data {
    x: Vec<[f32; NI]>,
    y: Vec<u8>,
    sharp: Vec<f32>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let games: u64 = arg(0, "20000").parse()?;
    let seed: u64 = arg(1, "1").parse()?;
    let epochs: usize = arg(2, "8").parse()?;
    let out = arg(3, "crates/bots/src/net_weights.rs");
    let sample_every: u32 = std::env::var("SAMPLE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4);
    let t0 = std::time::Instant::now();
    let mut train = Data {
        x: Vec::new(),
        y: Vec::new(),
        sharp: Vec::new(),
    };
    let mut valid = Data {
        x: Vec::new(),
        y: Vec::new(),
        sharp: Vec::new(),
    };
    // Env EXPERT_GAMES=N, EXPERT=NODES: N more games (indices GAMES..GAMES+N) where the rotating seat plays a
    // cheap expert (`ExpertBot::with_budget(_, NODES)`, the current network leaf) instead of one ply of
    // `sharp`, so that the labels are win chances under a continuation closer to the expert's own (DAgger);
    // their positions sampled one roll in EXPERT_SAMPLE (default SAMPLE). THREADS (default 1): games played on
    // that many threads, results kept in game order (the same file whatever the count).
    let env = |k: &str, d: u64| -> u64 {
        std::env::var(k)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(d)
    };
    let expert_games = env("EXPERT_GAMES", 0);
    let expert_nodes = env("EXPERT", 1500) as u32;
    let expert_sample = env("EXPERT_SAMPLE", u64::from(sample_every)) as u32;
    let threads = env("THREADS", 1) as usize;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let results: Vec<Option<Played>> = pool.install(|| {
        use rayon::prelude::*;
        (0..games + expert_games)
            .into_par_iter()
            .map(|i| {
                if i < games {
                    play(seed, i, None, sample_every)
                } else {
                    play(seed, i, Some(expert_nodes), expert_sample)
                }
            })
            .collect()
    });
    let mut sharp_wins = 0u32;
    let mut expert_wins = 0u32;
    for (i, r) in results.into_iter().enumerate() {
        let Some(p) = r else { continue };
        if (i as u64) < games {
            sharp_wins += u32::from(p.won);
        } else {
            expert_wins += u32::from(p.won);
        }
        let d = if i % 5 == 0 { &mut valid } else { &mut train };
        d.y.extend(std::iter::repeat_n(p.label, p.xs.len()));
        d.x.extend(p.xs);
        d.sharp.extend(p.sh);
    }
    if expert_games > 0 {
        eprintln!(
            "cheap expert ({expert_nodes} nodes) seat won {:.1} % of {expert_games} games",
            100.0 * f64::from(expert_wins) / expert_games as f64
        );
    }
    eprintln!(
        "{} training / {} validation positions from {games} games ({:.0} s); 1-ply sharp seat won {:.1} %",
        train.x.len(),
        valid.x.len(),
        t0.elapsed().as_secs_f64(),
        100.0 * f64::from(sharp_wins) / games.max(1) as f64
    );

    // Inputs standardised for training; the scaling is folded into the first layer at the end.
    let n = train.x.len() as f64;
    let mut mean = [0.0f64; NI];
    let mut sd = [0.0f64; NI];
    for x in &train.x {
        for i in 0..NI {
            mean[i] += f64::from(x[i]) / n;
        }
    }
    for x in &train.x {
        for i in 0..NI {
            let d = f64::from(x[i]) - mean[i];
            sd[i] += d * d / n;
        }
    }
    let sd: Vec<f32> = sd.iter().map(|v| (v.sqrt() as f32).max(1e-3)).collect();
    let mean: Vec<f32> = mean.iter().map(|&v| v as f32).collect();
    let norm = |x: &[f32; NI]| -> [f32; NI] {
        let mut z = [0.0f32; NI];
        for i in 0..NI {
            z[i] = (x[i] - mean[i]) / sd[i];
        }
        z
    };

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix_seed(seed, 999));
    let mut w1: Vec<f32> = (0..NI * HIDDEN)
        .map(|_| (rng.random::<f32>() * 2.0 - 1.0) * (6.0 / (NI + HIDDEN) as f32).sqrt())
        .collect();
    let mut b1 = vec![0.0f32; HIDDEN];
    let mut w2: Vec<f32> = (0..HIDDEN * SIDES)
        .map(|_| (rng.random::<f32>() * 2.0 - 1.0) * (6.0 / (HIDDEN + SIDES) as f32).sqrt())
        .collect();
    let mut b2 = vec![0.0f32; SIDES];
    let np = w1.len() + b1.len() + w2.len() + b2.len();
    let mut m = vec![0.0f32; np];
    let mut v = vec![0.0f32; np];
    let mut grad = vec![0.0f32; np];
    let (b1m, b2m, l2) = (0.9f32, 0.999f32, 1e-5f32);
    let batch = 256;
    let mut order: Vec<usize> = (0..train.x.len()).collect();
    let mut step = 0i32;
    let eval = |w1: &[f32], b1: &[f32], w2: &[f32], b2: &[f32], d: &Data| -> (f64, f64) {
        let mut h = [0.0f32; HIDDEN];
        let (mut ce, mut bin) = (0.0f64, 0.0f64);
        for (x, &y) in d.x.iter().zip(&d.y) {
            let z = forward(&norm(x), w1, b1, w2, b2, &mut h);
            let mx = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let s: f32 = z.iter().map(|&a| (a - mx).exp()).sum();
            let p: Vec<f64> = z.iter().map(|&a| f64::from((a - mx).exp() / s)).collect();
            ce -= p[y as usize].max(1e-9).ln();
            let p0 = p[0].clamp(1e-9, 1.0 - 1e-9);
            bin -= if y == 0 { p0.ln() } else { (1.0 - p0).ln() };
        }
        let n = d.x.len().max(1) as f64;
        (ce / n, bin / n)
    };
    let sharp_bin = {
        let mut bin = 0.0f64;
        for (&p, &y) in valid.sharp.iter().zip(&valid.y) {
            let p = f64::from(p).clamp(1e-9, 1.0 - 1e-9);
            bin -= if y == 0 { p.ln() } else { (1.0 - p).ln() };
        }
        bin / valid.x.len().max(1) as f64
    };
    eprintln!("sharp leaf (temperature 70): validation binary log-loss {sharp_bin:.5}");
    for epoch in 0..epochs {
        let lr = 2e-3f32 * 0.6f32.powi(epoch as i32);
        // Fisher–Yates with the seeded generator.
        for k in (1..order.len()).rev() {
            let j = rng.random_range(0..=k);
            order.swap(k, j);
        }
        for chunk in order.chunks(batch) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            let (gw1, rest) = grad.split_at_mut(w1.len());
            let (gb1, rest) = rest.split_at_mut(b1.len());
            let (gw2, gb2) = rest.split_at_mut(w2.len());
            let mut h = [0.0f32; HIDDEN];
            for &idx in chunk {
                let x = norm(&train.x[idx]);
                let z = forward(&x, &w1, &b1, &w2, &b2, &mut h);
                let mx = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let s: f32 = z.iter().map(|&a| (a - mx).exp()).sum();
                let mut dz = [0.0f32; SIDES];
                for k in 0..SIDES {
                    dz[k] =
                        (z[k] - mx).exp() / s - if k == train.y[idx] as usize { 1.0 } else { 0.0 };
                    gb2[k] += dz[k];
                }
                let mut dh = [0.0f32; HIDDEN];
                for j in 0..HIDDEN {
                    if h[j] > 0.0 {
                        let mut acc = 0.0;
                        for k in 0..SIDES {
                            gw2[j * SIDES + k] += h[j] * dz[k];
                            acc += w2[j * SIDES + k] * dz[k];
                        }
                        dh[j] = acc;
                    }
                }
                for j in 0..HIDDEN {
                    gb1[j] += dh[j];
                }
                for i in 0..NI {
                    let xi = x[i];
                    if xi != 0.0 {
                        let row = &mut gw1[i * HIDDEN..(i + 1) * HIDDEN];
                        for j in 0..HIDDEN {
                            row[j] += xi * dh[j];
                        }
                    }
                }
            }
            step += 1;
            let inv = 1.0 / chunk.len() as f32;
            let c1 = 1.0 - b1m.powi(step);
            let c2 = 1.0 - b2m.powi(step);
            for (k, p) in w1
                .iter_mut()
                .chain(b1.iter_mut())
                .chain(w2.iter_mut())
                .chain(b2.iter_mut())
                .enumerate()
            {
                let g = grad[k] * inv + l2 * *p;
                m[k] = b1m * m[k] + (1.0 - b1m) * g;
                v[k] = b2m * v[k] + (1.0 - b2m) * g * g;
                *p -= lr * (m[k] / c1) / ((v[k] / c2).sqrt() + 1e-8);
            }
        }
        let (ce, bin) = eval(&w1, &b1, &w2, &b2, &valid);
        eprintln!(
            "epoch {epoch}: validation log-loss {ce:.5} (4-way), {bin:.5} (expert wins or not) ({:.0} s)",
            t0.elapsed().as_secs_f64()
        );
    }

    // Fold the standardisation into the first layer: h = b1 + Σ w1 (x − mean) / sd.
    let mut fw1 = w1.clone();
    let mut fb1 = b1.clone();
    for i in 0..NI {
        for j in 0..HIDDEN {
            fw1[i * HIDDEN + j] = w1[i * HIDDEN + j] / sd[i];
            fb1[j] -= w1[i * HIDDEN + j] * mean[i] / sd[i];
        }
    }
    let mut s = String::new();
    writeln!(
        s,
        "//! Weights of [`crate::net`], written by `examples/train_net.rs` (do not edit by hand):"
    )?;
    writeln!(
        s,
        "//! `train_net {games} {seed} {epochs}`, SAMPLE={sample_every}{}.\n",
        if expert_games > 0 {
            format!(
                ", EXPERT_GAMES={expert_games} EXPERT={expert_nodes} EXPERT_SAMPLE={expert_sample} (any THREADS)"
            )
        } else {
            String::new()
        }
    )?;
    let arr = |s: &mut String, doc: &str, name: &str, w: &[f32]| -> std::fmt::Result {
        writeln!(s, "/// {doc}")?;
        writeln!(s, "pub static {name}: [f32; {}] = [", w.len())?;
        for c in w.chunks(8) {
            let line: Vec<String> = c.iter().map(|x| format!("{x:e}")).collect();
            writeln!(s, "    {},", line.join(", "))?;
        }
        writeln!(s, "];")
    };
    arr(&mut s, "Input-to-hidden weights, input-major.", "W1", &fw1)?;
    arr(&mut s, "Hidden biases.", "B1", &fb1)?;
    arr(&mut s, "Hidden-to-logit weights, hidden-major.", "W2", &w2)?;
    arr(&mut s, "Logit biases.", "B2", &b2)?;
    std::fs::write(&out, s)?;
    eprintln!("wrote {out}");
    Ok(())
}

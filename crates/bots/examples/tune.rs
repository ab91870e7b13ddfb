//! Seeded four-player arenas of one expert variant against greedy bots, for tuning:
//! `NET=1 ROLLS=10 LEAF=learned BUDGET=16000 cargo run --release -p parchis-bots --example tune -- GAMES SEED THREADS [PLAYERS] [MODE]`.
//! Same seat rotation and seeds as [`parchis_bots::arena`] with `expert,greedy,greedy,greedy`.

use parchis_bots::{Bot, ExpertBot, GreedyBot, mix_seed, play_game_with, wilson95};
use parchis_rules::{Game, Mode, RuleSet};
use rayon::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let games: u64 = arg(0, "600").parse()?;
    let seed: u64 = arg(1, "11").parse()?;
    let threads: usize = arg(2, "1").parse()?;
    let players: usize = arg(3, "4").parse()?;
    let mode: Mode = arg(4, "individual").parse()?;
    let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let rolls: usize = env("ROLLS", "10").parse()?;
    let learned = env("LEAF", "sharp") == "learned";
    let exact = env("EXACT", "1") == "1";
    // SHARP unset: the default expert (sharper evaluation with its default weights); SHARP=off: greedy's.
    let sharp = match std::env::var("SHARP") {
        Ok(spec) if spec == "off" => None,
        Ok(spec) => Some(parchis_bots::sharp::Params::parse(&spec)?),
        Err(_) => Some(parchis_bots::sharp::Params::DEFAULT),
    };
    let policy = match std::env::var("POLICY") {
        Ok(path) => {
            let text = std::fs::read_to_string(path)?;
            let v: Vec<f32> = text
                .trim()
                .split(',')
                .map(|x| x.trim().parse())
                .collect::<Result<_, _>>()?;
            let mut w = [0.0f32; parchis_bots::value::NP];
            w.copy_from_slice(&v);
            Some(w)
        }
        Err(_) => None,
    };
    // NET=0: the sharper softmax leaf instead of the network (the default before round 4).
    let net_leaf = env("NET", "1") == "1";
    // NETPOLICY=0: the expert's own rollout moves by one ply of the sharper evaluation (the default before
    // round 6) instead of the network.
    let net_policy = env("NETPOLICY", "1") == "1";
    let one_ply = env("ONEPLY", "0") == "1";
    let net_ply = env("ONEPLY", "0") == "net";
    let budget: u32 = env("BUDGET", "16000").parse()?;
    let variant: u32 = env("VARIANT", "0").parse()?;
    let end_t: u32 = env("ENDT", "60").parse()?;
    let end_x: u32 = env("ENDX", "4").parse()?;
    let z: f32 = env("Z", "1.5").parse()?;
    let ext: u32 = env("EXT", "3").parse()?;
    let started = std::time::Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let results: Vec<(bool, Vec<u64>)> = pool.install(|| {
        (0..games)
            .into_par_iter()
            .map(|i| {
                let rot = i as usize % players;
                let dice = mix_seed(seed, i);
                let expert_seat = rot; // entry 0 sits in seat (0 + rot) % n
                let bots: Vec<Box<dyn Bot>> = (0..players)
                    .map(|s| {
                        if s == expert_seat && net_ply {
                            Box::new(OnePlyBot(parchis_bots::net::win_prob)) as Box<dyn Bot>
                        } else if s == expert_seat && one_ply {
                            let w = policy.expect("ONEPLY needs POLICY");
                            Box::new(OnePlyBot(move |g: &Game, side| {
                                parchis_bots::value::policy_score(g, side, &w)
                            }))
                        } else if s == expert_seat {
                            Box::new(
                                ExpertBot::with_budget(mix_seed(dice, s as u64 + 1000), budget)
                                    .with_rollout_rolls(rolls)
                                    .with_learned_leaf(learned)
                                    .with_net_leaf(net_leaf)
                                    .with_net_policy(net_policy)
                                    .with_exact_greedy(exact)
                                    .with_sharp(sharp)
                                    .with_policy(policy)
                                    .with_variant(variant)
                                    .with_endgame(end_t, end_x)
                                    .with_adaptive(z, ext),
                            ) as Box<dyn Bot>
                        } else {
                            Box::new(GreedyBot::new())
                        }
                    })
                    .collect();
                let g = Game::new(RuleSet::Playgridia, mode, players as u8).unwrap();
                let rec = play_game_with(g, bots, dice, 20_000);
                let side = rec.last.layout().side_of_seat[expert_seat];
                (rec.winner == Some(side), rec.times[expert_seat].clone())
            })
            .collect()
    });
    let wins = results.iter().filter(|r| r.0).count() as u32;
    let mut t: Vec<u64> = results.into_iter().flat_map(|r| r.1).collect();
    t.sort_unstable();
    let q = |f: f64| t[((t.len() as f64 * f) as usize).min(t.len() - 1)] as f64 / 1e6;
    let (lo, hi) = wilson95(wins, games as u32);
    println!(
        "NET={net_leaf} NETPOLICY={net_policy} VARIANT={variant} ENDT={end_t} ENDX={end_x} Z={z} EXT={ext} POLICY={:?} ONEPLY={one_ply} SHARP={} ROLLS={rolls} LEAF={} EXACT={exact} BUDGET={budget} games {games} seed {seed}: expert {wins} wins {:.1}% [{:.1}, {:.1}]  p50 {:.2} ms p99 {:.2} ms  ({:.0} s)",
        std::env::var("POLICY").ok(),
        std::env::var("SHARP").unwrap_or_else(|_| "default".into()),
        if learned { "learned" } else { "eval" },
        100.0 * wins as f64 / games as f64,
        100.0 * lo,
        100.0 * hi,
        q(0.5),
        q(0.99),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// One ply of a position value: plays the move after which `value(position, mover's side)` is highest
/// (a linear policy over `move_features`, or the learned model of `parchis_bots::net`).
struct OnePlyBot<F: Fn(&Game, u8) -> f32 + Send>(F);

impl<F: Fn(&Game, u8) -> f32 + Send> Bot for OnePlyBot<F> {
    fn name(&self) -> &str {
        "one-ply"
    }
    fn choose(&mut self, game: &Game, legal: &[parchis_rules::Move]) -> parchis_rules::Move {
        let side = game.layout().side_of_seat[game.seat() as usize];
        let mut best = (legal[0], f32::NEG_INFINITY);
        for &m in legal {
            let mut next = *game;
            next.play(m).unwrap();
            let v = (self.0)(&next, side);
            if v > best.1 {
                best = (m, v);
            }
        }
        best.0
    }
}

//! Where the expert and greedy disagree in four-player games (a diagnostic).
use parchis_bots::{Bot, ExpertBot, GreedyBot, mix_seed};
use parchis_rules::{Game, Mode, Phase, RuleSet};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let verbose = std::env::args().nth(2).is_some();
    let mut stats = std::collections::BTreeMap::<String, u32>::new();
    let (mut decisions, mut differ) = (0, 0);
    for i in 0..games {
        let mut g = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
        let mut rng = SmallRng::seed_from_u64(mix_seed(99, i));
        let mut expert = ExpertBot::new(i);
        let mut greedy = GreedyBot::new();
        loop {
            match g.phase() {
                Phase::Over { .. } => break,
                Phase::Roll => {
                    g.roll(rng.random_range(1..=6)).unwrap();
                }
                _ => {
                    let legal = g.legal_moves();
                    let gm = greedy.choose(&g, &legal);
                    let m = if g.seat() == 0 && legal.len() > 1 {
                        decisions += 1;
                        let em = expert.choose(&g, &legal);
                        if !em.same_as(&gm) {
                            differ += 1;
                            let kind = |m: &parchis_rules::Move| {
                                let mut next = g;
                                next.play(*m).unwrap();
                                let p = m.piece as usize;
                                let safe = next.board().is_safe_cell(
                                    next.board()
                                        .cell(next.layout().path_slot[next.layout().colour_of_piece(m.piece) as usize], next.raw_pos(m.piece))
                                        .unwrap_or(0),
                                );
                                format!(
                                    "{}{}{}{}",
                                    if m.captures() { "cap " } else { "" },
                                    if next.in_blockade(m.piece) { "blk " } else { "" },
                                    if g.in_blockade(m.piece) { "open " } else { "" },
                                    if safe { "safe" } else { "" }
                                ) + &format!(" from{}", (g.raw_pos(p as u8) / 16))
                            };
                            let key = format!(
                                "{:?} | greedy [{}] expert [{}]",
                                match g.phase() {
                                    Phase::Count { amount } => format!("count{amount}"),
                                    _ => "die".into(),
                                },
                                kind(&gm),
                                kind(&em)
                            );
                            if verbose {
                                println!("{}  g {} e {}  {}", g.notation(), g.move_text(&gm), g.move_text(&em), key);
                            }
                            *stats.entry(key).or_default() += 1;
                        }
                        em
                    } else {
                        gm
                    };
                    g.play(m).unwrap();
                }
            }
        }
    }
    println!("{decisions} decisions, {differ} differ");
    let mut v: Vec<_> = stats.into_iter().collect();
    v.sort_by_key(|x| std::cmp::Reverse(x.1));
    for (k, n) in v.iter().take(40) {
        println!("{n:5}  {k}");
    }
}

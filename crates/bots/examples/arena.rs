//! Runs an arena until the CLI exists:
//! `cargo run --release -p parchis-bots --example arena -- playgridia individual expert,greedy,greedy,greedy 2000 1`
//! (arguments: rules, mode, bots, games, seed, threads; all optional, threads 0 = every core).

use parchis_bots::{ArenaConfig, Level, arena};
use parchis_rules::{Mode, RuleSet};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let rules: RuleSet = arg(0, "playgridia").parse()?;
    let mode: Mode = arg(1, "1v1").parse()?;
    let bots = arg(2, "expert,greedy")
        .split(',')
        .map(str::parse)
        .collect::<Result<Vec<Level>, _>>()?;
    let mut config = ArenaConfig::new(rules, mode, bots);
    config.games = arg(3, "200").parse()?;
    config.seed = arg(4, "1").parse()?;
    config.threads = arg(5, "0").parse()?;
    let report = arena(&config)?;
    print!("{report}");
    Ok(())
}

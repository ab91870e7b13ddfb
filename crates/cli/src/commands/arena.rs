use clap::Args as ClapArgs;
use parchis_bots::Level;
use parchis_bots::arena::{ArenaConfig, arena};
use parchis_rules::{Mode, RuleSet};

#[derive(ClapArgs)]
pub struct Args {
    #[arg(long)]
    rules: String,
    #[arg(long)]
    mode: String,
    /// One bot level per seat, comma-separated: random, greedy or expert (e.g. expert,greedy,greedy,greedy).
    #[arg(long, value_delimiter = ',', required = true)]
    bots: Vec<String>,
    #[arg(long, default_value_t = 100)]
    games: u32,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (0: every core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
}

pub fn run(a: Args) -> Result<(), String> {
    let rules: RuleSet = a
        .rules
        .parse()
        .map_err(|e: parchis_rules::SetupError| e.to_string())?;
    let mode: Mode = a
        .mode
        .parse()
        .map_err(|e: parchis_rules::SetupError| e.to_string())?;
    let bots = a
        .bots
        .iter()
        .map(|b| b.trim().parse::<Level>().map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    if a.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let mut config = ArenaConfig::new(rules, mode, bots);
    config.games = a.games;
    config.seed = a.seed;
    config.threads = a.threads;
    let report = arena(&config).map_err(|e| e.to_string())?;
    print!("{report}");
    Ok(())
}

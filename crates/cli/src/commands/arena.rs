//! `parchis arena`: bots play each other (this crate's random, greedy and expert, or a program speaking the
//! engine protocol of ENGINE.md) for many seeded games, seats rotating, and the report gives each bot's wins
//! and decision times.

use crate::external::External;
use clap::Args as ClapArgs;
use parchis_bots::arena::{ArenaConfig, arena};
use parchis_bots::{Entrant, Level};
use parchis_rules::{Mode, RuleSet};
use std::sync::Arc;
use std::time::Duration;

#[derive(ClapArgs)]
pub struct Args {
    /// Rule set: playgridia, ludoteka or morocco.
    #[arg(long)]
    rules: String,
    /// Mode: individual, quick, pairs, 1v1, 6-piece or 3v3 (the player count is the number of --bots).
    #[arg(long)]
    mode: String,
    /// One bot per seat, comma-separated: random, greedy, expert or the NAME of an --engine (e.g.
    /// expert,greedy,greedy,greedy or mine,greedy).
    #[arg(long, value_delimiter = ',', required = true)]
    bots: Vec<String>,
    /// A bot in another program, as NAME=COMMAND (a shell command line speaking the engine protocol of
    /// ENGINE.md, e.g. mine="python3 my_bot.py"); may be given several times.
    #[arg(long = "engine", value_name = "NAME=COMMAND")]
    engines: Vec<String>,
    /// How long an engine may take to start and to answer each move, in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    engine_timeout_ms: u64,
    /// Games to play; the seats rotate game by game, so a multiple of the number of bots seats each bot
    /// in each seat equally often. Every decision time is kept until the end: about 4 KB of memory a game
    /// (1 GB for 250,000).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Seeds the dice and the bots: the same seed, the same games.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (0: every core; at most 1024).
    // Bounded as simulate's: --threads 100000 hung starting them.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=1024))]
    threads: u16,
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
    let mut engines: Vec<Arc<External>> = Vec::new();
    for spec in &a.engines {
        let (name, command) = spec
            .split_once('=')
            .map(|(n, c)| (n.trim(), c.trim()))
            .filter(|(n, c)| !n.is_empty() && !c.is_empty())
            .ok_or_else(|| format!("--engine wants NAME=COMMAND, not `{spec}`"))?;
        if name.parse::<Level>().is_ok() || name.contains(',') {
            return Err(format!(
                "--engine name `{name}` is taken: choose one that is not a level or a list"
            ));
        }
        if engines.iter().any(|e| e.name == name) {
            return Err(format!("--engine `{name}` is given twice"));
        }
        engines.push(Arc::new(External {
            name: name.to_owned(),
            command: command.to_owned(),
            timeout: Duration::from_millis(a.engine_timeout_ms),
        }));
    }
    let bots = a
        .bots
        .iter()
        .map(|b| {
            let b = b.trim();
            match engines.iter().find(|e| e.name == b) {
                Some(e) => Ok(Entrant::Other(e.clone())),
                None => b
                    .parse::<Level>()
                    .map(Entrant::Level)
                    .map_err(|e| format!("{e}, or the name of an --engine")),
            }
        })
        .collect::<Result<Vec<_>, String>>()?;
    // Otherwise the report would read as a test of the engine that never played.
    if let Some(unseated) = engines
        .iter()
        .find(|e| !a.bots.iter().any(|b| b.trim() == e.name))
    {
        return Err(format!(
            "--engine `{}` has no seat in --bots: name it there (e.g. --bots {},greedy) or leave it out",
            unseated.name, unseated.name
        ));
    }
    if a.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let mut config = ArenaConfig::new(rules, mode, bots);
    config.games = a.games;
    config.seed = a.seed;
    config.threads = usize::from(a.threads);
    let report = arena(&config).map_err(|e| e.to_string())?;
    print!("{report}");
    Ok(())
}

//! `parchis perft POSITION`: how many sequences of rolls and moves of each length follow a position (to
//! check the move generator), optionally divided by the first action.

use clap::Args as ClapArgs;
use parchis_rules::{Action, divide, perft};
use std::time::Instant;

/// Deepest search allowed: the counts grow about tenfold per action, and depth 9 already takes minutes.
const MAX_DEPTH: u32 = 12;

#[derive(ClapArgs)]
pub struct Args {
    /// A position in parchis notation (quote it), e.g. from `parchis new`.
    position: String,
    /// Count the sequences of 1 to this many actions (rolls and moves).
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Print the count under each first action (roll face or move) at the deepest depth.
    #[arg(long)]
    divide: bool,
}

pub fn run(a: Args) -> Result<(), String> {
    let game = super::parse_position(&a.position)?;
    if !(1..=MAX_DEPTH).contains(&a.depth) {
        return Err(format!("--depth is 1 to {MAX_DEPTH}"));
    }
    for depth in 1..=a.depth {
        let start = Instant::now();
        let count = perft(&game, depth);
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "depth {depth}: {count}  ({seconds:.3} s, {:.0} sequences/s)",
            count as f64 / seconds.max(1e-9)
        );
    }
    if a.divide {
        for (action, count) in divide(&game, a.depth) {
            let text = match action {
                Action::Roll(die) => format!("roll {die}"),
                Action::Play(m) => game.move_text(&m),
            };
            println!("{text}: {count}");
        }
    }
    Ok(())
}

//! `parchis bot POSITION`: the move a bot (random, greedy or expert) picks in a position, seeded.

use clap::Args as ClapArgs;
use parchis_bots::{Level, make_bot};

#[derive(ClapArgs)]
pub struct Args {
    /// A position in parchis notation (quote it).
    position: String,
    /// Roll this die first (required when the position waits for a roll).
    #[arg(long)]
    die: Option<u64>,
    /// Bot level: random, greedy or expert (the server's bot seats and its analysis of finished games).
    #[arg(long, default_value = "expert")]
    level: String,
    /// Seeds the bot's own randomness (the expert's rollouts, the random bot): the same seed, the same move.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Prints the move the bot picks in the position.
pub fn run(a: Args) -> Result<(), String> {
    let level: Level = a.level.trim().parse().map_err(|e| format!("{e}"))?;
    let mut game = super::parse_position(&a.position)?;
    super::roll_if_waiting(&mut game, a.die)?;
    let legal = game.legal_moves();
    if legal.is_empty() {
        return Err(super::no_legal_move(&game));
    }
    let choice = make_bot(level, a.seed).choose(&game, &legal);
    println!("{}", game.move_text(&choice));
    Ok(())
}

//! `parchis`: the command line of the parchis rules crate.
//!
//! `new` prints a start position, `legal` lists legal moves, `play` applies rolls and moves, `simulate` plays
//! seeded random games and measures speed, `perft` counts the sequences of actions from a position, `bot`
//! prints a bot's move, `engine` plays one over the engine protocol (ENGINE.md), which `arena --engine` also
//! speaks to seat bots from other programs. Bad input gets a clear message and a non-zero exit.

mod commands;
mod external;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "parchis",
    version,
    about = "Parchís rules engine: positions, legal moves, play, simulation"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the start position of a game.
    New(commands::new::Args),
    /// List the legal moves of a position (rolling --die first if it waits for a roll).
    Legal(commands::legal::Args),
    /// Apply rolls (a die value: 1..6) and moves (y1:5-12, or y1) to a position; print events and the result.
    Play(commands::play::Args),
    /// Print the JSON view of a position (what the server sends to clients).
    View(commands::view::Args),
    /// Play seeded random games and report speed and wins by seat.
    Simulate(commands::simulate::Args),
    /// Check a game record (GET /api/games/{id}/record): seed, every roll, every move; exit 0 if honest.
    Verify(commands::verify::Args),
    /// Play seeded games between bots on every core; print win rates (95% CI) and decision times.
    Arena(commands::arena::Args),
    /// Count the sequences of rolls and moves of each length from a position (with --divide, per first action).
    Perft(commands::perft::Args),
    /// Print the move a bot (expert by default) picks in a position (rolling --die first if it waits for a roll).
    Bot(commands::bot::Args),
    /// Play a bot over the engine protocol on standard input and output (ENGINE.md).
    Engine(commands::engine::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::New(a) => commands::new::run(a),
        Command::Legal(a) => commands::legal::run(a),
        Command::Play(a) => commands::play::run(a),
        Command::View(a) => commands::view::run(a),
        Command::Simulate(a) => commands::simulate::run(a),
        Command::Verify(a) => commands::verify::run(a),
        Command::Arena(a) => commands::arena::run(a),
        Command::Perft(a) => commands::perft::run(a),
        Command::Bot(a) => commands::bot::run(a),
        Command::Engine(a) => commands::engine::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

//! `parchis engine`: one of this crate's bots behind the engine protocol (ENGINE.md), on standard input and
//! output. The reference an engine author can compare theirs with, and what the protocol's tests run.

use crate::external::HELLO;
use clap::Args as ClapArgs;
use parchis_bots::{Bot, Level, make_bot};
use parchis_rules::Game;
use std::io::{BufRead, Write};

#[derive(ClapArgs)]
pub struct Args {
    /// Bot level: random, greedy or expert.
    #[arg(long, default_value = "greedy")]
    level: String,
}

/// Answers the protocol until `quit` or the end of input.
pub fn run(a: Args) -> Result<(), String> {
    let level: Level = a.level.trim().parse().map_err(|e| format!("{e}"))?;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut bot: Box<dyn Bot> = make_bot(level, 0);
    let mut game: Option<Game> = None;
    let mut say = |text: String| -> Result<(), String> {
        writeln!(out, "{text}")
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write: {e}"))
    };
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| format!("cannot read: {e}"))?;
        let line = line.trim();
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        match command {
            "" => {}
            "parchis-engine" if line == HELLO => {
                say(format!("id name parchis {level}"))?;
                say("ready".into())?;
            }
            "parchis-engine" => say(format!("info error: this engine speaks `{HELLO}`"))?,
            "newgame" => match rest.trim().parse::<u64>() {
                Ok(seed) => bot = make_bot(level, seed),
                Err(_) => say(format!("info error: `newgame` wants a seed, not `{rest}`"))?,
            },
            "position" => match rest.parse::<Game>() {
                Ok(g) => game = Some(g),
                Err(e) => {
                    game = None;
                    say(format!("info error: bad position: {e}"))?;
                }
            },
            // The moves are found again from the position: the list is for engines without a referee.
            "legal" => {}
            "go" => {
                let legal = game.as_ref().map(Game::legal_moves).unwrap_or_default();
                match (&game, legal.is_empty()) {
                    (Some(g), false) => {
                        let m = bot.choose(g, &legal);
                        say(format!("move {}", g.move_text(&m)))?;
                    }
                    _ => say("info error: no position with a legal move to play".into())?,
                }
            }
            "quit" => return Ok(()),
            other => say(format!("info error: unknown command `{other}`"))?,
        }
    }
    Ok(())
}

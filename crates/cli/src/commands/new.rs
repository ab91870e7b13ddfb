//! `parchis new`: the start position of a rule set, mode and player count, in parchis notation.

use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    game: super::GameArgs,
}

pub fn run(a: Args) -> Result<(), String> {
    let game = a.game.new_game()?;
    println!("{game}");
    Ok(())
}

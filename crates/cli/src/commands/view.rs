//! `parchis view POSITION`: the rules crate's full view of a position (seats, colours, pieces, turn) as JSON.

use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// A position in parchis notation (quote it).
    position: String,
}

pub fn run(a: Args) -> Result<(), String> {
    let game = super::parse_position(&a.position)?;
    println!(
        "{}",
        serde_json::to_string_pretty(&game.view()).map_err(|e| e.to_string())?
    );
    Ok(())
}

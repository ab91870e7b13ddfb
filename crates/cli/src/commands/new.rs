use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// Rule set: playgridia, ludoteka or morocco.
    #[arg(long)]
    rules: String,
    /// Mode: individual, quick, pairs, 1v1, 6-piece or 3v3.
    #[arg(long)]
    mode: String,
    /// Number of players (default: the mode's usual count).
    #[arg(long)]
    players: Option<u8>,
    /// House-rule option, name=value (repeatable), e.g. --option capture_allies=1.
    #[arg(long = "option")]
    options: Vec<String>,
}

pub fn run(a: Args) -> Result<(), String> {
    let game = super::new_game(&a.rules, &a.mode, a.players, &a.options)?;
    println!("{game}");
    Ok(())
}

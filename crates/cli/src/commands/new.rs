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

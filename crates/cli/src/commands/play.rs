use clap::Args as ClapArgs;

#[derive(ClapArgs)]
pub struct Args {
    /// A position in parchis notation (quote it).
    position: String,
    /// Rolls (a die value 1..6) and moves (y1:5-12, y1:h-5, or just y1 when it has one legal move), in order.
    #[arg(required = true)]
    actions: Vec<String>,
    /// Print events as JSON lines.
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> Result<(), String> {
    let mut game = super::parse_position(&a.position)?;
    for action in &a.actions {
        let events = if let Ok(die) = action.parse::<u8>() {
            game.roll(die).map_err(|e| format!("{action}: {e}"))?
        } else {
            let mv = game
                .parse_move(action)
                .map_err(|e| format!("{action}: {e}"))?;
            game.play(mv).map_err(|e| format!("{action}: {e}"))?
        };
        for e in &events {
            if a.json {
                println!("{}", serde_json::to_string(e).map_err(|e| e.to_string())?);
            } else {
                println!("{e}");
            }
        }
    }
    println!("{game}");
    Ok(())
}

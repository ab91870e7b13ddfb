//! `parchis legal POSITION`: the legal moves of a position (after a roll when given), one a line or as JSON.

use clap::Args as ClapArgs;
use parchis_rules::Phase;

#[derive(ClapArgs)]
pub struct Args {
    /// A position in parchis notation (quote it).
    position: String,
    /// Roll this die first (required when the position waits for a roll).
    #[arg(long)]
    die: Option<u64>,
    /// Print one JSON object instead of one move per line: seat, phase, moves (each with its text, from, to,
    /// captures) and position (after the roll).
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> Result<(), String> {
    let mut game = super::parse_position(&a.position)?;
    super::roll_if_waiting(&mut game, a.die)?;
    if a.json {
        let view = game.view();
        let out = serde_json::json!({
            "phase": view.turn.phase,
            "seat": view.turn.seat,
            "moves": view.legal_moves,
            "position": view.notation,
        });
        println!(
            "{}",
            serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
        );
    } else {
        for m in game.legal_texts() {
            println!("{m}");
        }
        if !matches!(game.phase(), Phase::Move { .. } | Phase::Count { .. }) {
            eprintln!("{}", super::no_legal_move(&game));
        }
    }
    Ok(())
}

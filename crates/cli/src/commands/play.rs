//! `parchis play POSITION ACTION…`: plays rolls and moves from a position through the rules and prints the
//! events and the position reached (text or JSON lines).

use clap::Args as ClapArgs;
use parchis_rules::{Phase, PlayError};

#[derive(ClapArgs)]
pub struct Args {
    /// A position in parchis notation (quote it).
    position: String,
    /// Rolls (a die value 1..6) and moves (y1:5-12, y1:h-5, or just y1 when it has one legal move), in order.
    #[arg(required = true)]
    actions: Vec<String>,
    /// Print one JSON object a line: each event ({"type": …}), then the new position ({"position": …}).
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> Result<(), String> {
    let mut game = super::parse_position(&a.position)?;
    for action in &a.actions {
        // A stray space (a shell variable, a copied cell) is not part of the action.
        let action = action.trim();
        let said = super::clip(action);
        // All digits is a die, whatever its value: 300 is a bad die, not an unreadable move.
        let events = if !action.is_empty() && action.bytes().all(|b| b.is_ascii_digit()) {
            let die = action.parse::<u8>().unwrap_or(u8::MAX);
            game.roll(die).map_err(|e| match e {
                PlayError::BadDie(_) => {
                    format!("{said}: a die shows 1 to 6, not {said}")
                }
                e => format!("{said}: {e}"),
            })?
        } else {
            // Said before reading the move: `y1` while waiting for a roll had "no legal move now".
            match game.phase() {
                Phase::Roll => return Err(format!("{said}: {}", PlayError::MustRoll)),
                Phase::Over { .. } => return Err(format!("{said}: {}", PlayError::GameOver)),
                _ => {}
            }
            let mv = game
                .parse_move(action)
                .map_err(|e| format!("{said}: {e}"))?;
            game.play(mv).map_err(|e| format!("{said}: {e}"))?
        };
        for e in &events {
            if a.json {
                println!("{}", serde_json::to_string(e).map_err(|e| e.to_string())?);
            } else {
                println!("{e}");
            }
        }
    }
    if a.json {
        println!("{}", serde_json::json!({ "position": game.notation() }));
    } else {
        println!("{game}");
    }
    Ok(())
}

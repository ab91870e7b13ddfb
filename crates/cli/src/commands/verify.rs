//! `parchis verify RECORD.json`: re-derives every roll from the revealed seed,
//! replays every move through the rules crate, and says whether the game
//! record (as `GET /api/games/{id}/record` returns it) is honest.

use std::path::PathBuf;

/// Arguments of `parchis verify`.
#[derive(clap::Args)]
pub struct Args {
    /// The game record JSON file (`-` reads standard input).
    pub record: PathBuf,
}

/// Exit 0 with `honest: …`; an `Err` (exit non-zero) names the first discrepancy.
pub fn run(args: Args) -> Result<(), String> {
    let text = if args.record.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(|e| e.to_string())?
    } else {
        std::fs::read_to_string(&args.record)
            .map_err(|e| format!("{}: {e}", args.record.display()))?
    };
    let record: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("not a JSON record: {e}"))?;
    let verified = parchis_server::verify::verify_record(&record)
        .map_err(|e| format!("DISHONEST record: {e}"))?;
    println!(
        "honest: {} rolls re-derived from the seed, {} moves replayed, winner side {}",
        verified.rolls,
        verified.moves,
        verified
            .winner_side
            .map_or_else(|| "none (not finished)".to_owned(), |s| s.to_string())
    );
    Ok(())
}

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
    // A file of another kind (a room, a game's view) or a game still running is no evidence of cheating:
    // say what it is before judging honesty.
    for (field, is_kind) in [
        (
            "settings",
            serde_json::Value::is_object as fn(&serde_json::Value) -> bool,
        ),
        ("seed_hash", serde_json::Value::is_string),
        ("log", serde_json::Value::is_array),
    ] {
        if !is_kind(&record[field]) {
            return Err(format!(
                "not a game record (GET /api/games/{{id}}/record): no `{field}`"
            ));
        }
    }
    if record["seed"].is_null() && record["finished_at"].is_null() {
        return Err(
            "the game is not finished: its seed is revealed at its end, verify it then".into(),
        );
    }
    let verified =
        parchis_proof::verify_record(&record).map_err(|e| format!("DISHONEST record: {e}"))?;
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

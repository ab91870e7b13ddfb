//! Checks a game record (`GET /api/games/{id}/record`) for honesty: the seed
//! matches its commitment, every roll is the one the seed gives, and every
//! move is legal when replayed through the rules crate. Used by
//! `parchis verify` and by the tests.

use parchis_rules::{Game, Mode, RuleSet};
use serde_json::Value;

use crate::fairness;

/// What an honest record contained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// Rolls re-derived from the seed.
    pub rolls: u64,
    /// Moves replayed.
    pub moves: u64,
    /// Winning side, if the game is over.
    pub winner_side: Option<u8>,
    /// The replayed game at the end of the log.
    pub game: Game,
}

/// Verifies `record`; `Err` names the first discrepancy found.
pub fn verify_record(record: &Value) -> Result<Verified, String> {
    let settings = &record["settings"];
    let rules: RuleSet = text(settings, "rules")?
        .parse()
        .map_err(|e| format!("settings.rules: {e}"))?;
    let mode: Mode = text(settings, "mode")?
        .parse()
        .map_err(|e| format!("settings.mode: {e}"))?;
    let players = settings["players"]
        .as_u64()
        .and_then(|p| u8::try_from(p).ok())
        .ok_or("settings.players is missing")?;
    let seed_hex = record["seed"]
        .as_str()
        .ok_or("the seed is not revealed (is the game finished?)")?;
    let seed = fairness::decode_seed(seed_hex).ok_or("the seed is not 64 hex characters")?;
    let committed = text(record, "seed_hash")?;
    if fairness::seed_hash(&seed) != committed {
        return Err(format!(
            "the seed hashes to {} but the record committed to {committed}",
            fairness::seed_hash(&seed)
        ));
    }
    let mut game =
        Game::new(rules, mode, players).map_err(|e| format!("cannot set up the game: {e}"))?;
    let log = record["log"].as_array().ok_or("the record has no log")?;
    let (mut rolls, mut moves) = (0u64, 0u64);
    for (k, entry) in log.iter().enumerate() {
        let at = format!("log[{k}]");
        if entry["seq"].as_u64() != Some(k as u64) {
            return Err(format!("{at}: seq is {} instead of {k}", entry["seq"]));
        }
        if game.is_over() {
            return Err(format!("{at}: the game was already over"));
        }
        let payload = &entry["payload"];
        let seat = payload["seat"].as_u64();
        if seat != Some(u64::from(game.seat())) {
            return Err(format!(
                "{at}: seat {} acted but it was seat {}'s turn",
                payload["seat"],
                game.seat()
            ));
        }
        match entry["kind"].as_str() {
            Some("roll") => {
                let die = payload["die"].as_u64().ok_or(format!("{at}: no die"))?;
                if payload["roll"].as_u64() != Some(rolls) {
                    return Err(format!(
                        "{at}: roll index {} instead of {rolls}",
                        payload["roll"]
                    ));
                }
                let fair = fairness::roll(&seed, rolls);
                if die != u64::from(fair) {
                    return Err(format!(
                        "{at}: roll {rolls} is {die} but the seed gives {fair}"
                    ));
                }
                game.roll(fair)
                    .map_err(|e| format!("{at}: the roll was not allowed: {e}"))?;
                rolls += 1;
            }
            Some("move") => {
                let text = payload["move"].as_str().ok_or(format!("{at}: no move"))?;
                let mv = game
                    .parse_move(text)
                    .map_err(|e| format!("{at}: move {text}: {e}"))?;
                game.play(mv)
                    .map_err(|e| format!("{at}: move {text} is illegal: {e}"))?;
                moves += 1;
            }
            other => return Err(format!("{at}: unknown kind {other:?}")),
        }
    }
    let finished = !record["finished_at"].is_null();
    if finished != game.is_over() {
        return Err(format!(
            "the record says finished={finished} but the replayed game is {}",
            if game.is_over() { "over" } else { "not over" }
        ));
    }
    if finished {
        let claimed = record["result"]["winner_side"].as_u64();
        if claimed != game.winner().map(u64::from) {
            return Err(format!(
                "the result names side {:?} but the replay's winner is side {:?}",
                claimed,
                game.winner()
            ));
        }
    }
    Ok(Verified {
        rolls,
        moves,
        winner_side: game.winner(),
        game,
    })
}

/// A required string field.
fn text<'a>(value: &'a Value, field: &str) -> Result<&'a str, String> {
    value[field]
        .as_str()
        .ok_or_else(|| format!("`{field}` is missing"))
}

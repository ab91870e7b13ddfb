//! Checks a game record (`GET /api/games/{id}/record`) for honesty: the seed
//! matches its commitment, every roll is the one the seed gives, and every
//! move is legal when replayed through the rules crate. Used by
//! `parchis verify`, by the server's `GET /api/games/{id}/replay` and analyses
//! (through [`replay_record`], which also reports every step) and by the tests.

use parchis_rules::{Event, Game, Mode, RuleSet};
use serde_json::Value;

use crate::dice;

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

/// One position of a replayed record, as handed to [`replay_record`]'s callback.
#[derive(Debug, Clone, Copy)]
pub struct ReplayedStep<'a> {
    /// The log entry just applied; `None` for the starting position.
    pub entry: Option<&'a Value>,
    /// What the rules crate reported for that entry (empty for the start).
    pub events: &'a [Event],
    /// The game after the entry.
    pub game: &'a Game,
}

/// Verifies `record`; `Err` names the first discrepancy found.
pub fn verify_record(record: &Value) -> Result<Verified, String> {
    replay_record(record, |_| {})
}

/// Verifies `record` like [`verify_record`], calling `on_step` with the starting
/// position and then after every log entry (with its events and the game after it).
pub fn replay_record(
    record: &Value,
    mut on_step: impl FnMut(ReplayedStep<'_>),
) -> Result<Verified, String> {
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
    let seed = dice::decode_seed(seed_hex).ok_or("the seed is not 64 hex characters")?;
    let committed = text(record, "seed_hash")?;
    if dice::seed_hash(&seed) != committed {
        return Err(format!(
            "the seed hashes to {} but the record committed to {committed}",
            dice::seed_hash(&seed)
        ));
    }
    // House rules (absent from records of rooms made before them): name → value as text.
    let house_rules: Vec<(&str, &str)> = match &settings["house_rules"] {
        Value::Null => Vec::new(),
        Value::Object(rules) => rules
            .iter()
            .map(|(k, v)| {
                v.as_str()
                    .map(|v| (k.as_str(), v))
                    .ok_or(format!("settings.house_rules.{k} is not text"))
            })
            .collect::<Result<_, _>>()?,
        _ => return Err("settings.house_rules is not an object".into()),
    };
    let options = rules
        .options_for(mode)
        .with_house_rules(house_rules)
        .map_err(|e| format!("settings.house_rules: {e}"))?;
    let mut game = Game::with_options(rules, mode, players, options)
        .map_err(|e| format!("cannot set up the game: {e}"))?;
    on_step(ReplayedStep {
        entry: None,
        events: &[],
        game: &game,
    });
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
        let events = match entry["kind"].as_str() {
            Some("roll") => {
                let die = payload["die"].as_u64().ok_or(format!("{at}: no die"))?;
                if payload["roll"].as_u64() != Some(rolls) {
                    return Err(format!(
                        "{at}: roll index {} instead of {rolls}",
                        payload["roll"]
                    ));
                }
                let fair = dice::roll(&seed, rolls);
                if die != u64::from(fair) {
                    return Err(format!(
                        "{at}: roll {rolls} is {die} but the seed gives {fair}"
                    ));
                }
                let events = game
                    .roll(fair)
                    .map_err(|e| format!("{at}: the roll was not allowed: {e}"))?;
                rolls += 1;
                events
            }
            Some("move") => {
                let text = payload["move"].as_str().ok_or(format!("{at}: no move"))?;
                let mv = game
                    .parse_move(text)
                    .map_err(|e| format!("{at}: move {text}: {e}"))?;
                let events = game
                    .play(mv)
                    .map_err(|e| format!("{at}: move {text} is illegal: {e}"))?;
                moves += 1;
                events
            }
            other => return Err(format!("{at}: unknown kind {other:?}")),
        };
        on_step(ReplayedStep {
            entry: Some(entry),
            events: &events,
            game: &game,
        });
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

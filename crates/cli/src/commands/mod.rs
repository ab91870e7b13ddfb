//! One file per command.

pub mod arena;
pub mod legal;
pub mod new;
pub mod play;
pub mod simulate;
pub mod verify;
pub mod view;

use parchis_rules::{Game, Mode, Options, RuleSet};

/// Reads a position argument.
pub fn parse_position(text: &str) -> Result<Game, String> {
    text.parse::<Game>().map_err(|e| e.to_string())
}

/// Builds a new game from names and `key=value` house-rule options.
pub fn new_game(
    rules: &str,
    mode: &str,
    players: Option<u8>,
    options: &[String],
) -> Result<Game, String> {
    let rules: RuleSet = rules
        .parse()
        .map_err(|e: parchis_rules::SetupError| e.to_string())?;
    let mode: Mode = mode
        .parse()
        .map_err(|e: parchis_rules::SetupError| e.to_string())?;
    let mut opts: Options = rules.options_for(mode);
    for kv in options {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("option `{kv}` must be name=value"))?;
        opts.set(k, v).map_err(|e| e.to_string())?;
    }
    Game::with_options(rules, mode, players.unwrap_or(mode.default_players()), opts)
        .map_err(|e| e.to_string())
}

//! One file per command.

pub mod arena;
pub mod bot;
pub mod engine;
pub mod legal;
pub mod new;
pub mod perft;
pub mod play;
pub mod simulate;
pub mod verify;
pub mod view;

use parchis_rules::{Game, Mode, Options, Phase, RuleSet};

/// An argument as a message quotes it: whole if short, else its start and `…` (one line, not a pasted file).
pub fn clip(text: &str) -> String {
    match text.char_indices().nth(40) {
        None => text.to_owned(),
        Some((end, _)) => format!("{}…", &text[..end]),
    }
}

/// Says why a position has no legal move: the game is over, or the roll found none and passed.
pub fn no_legal_move(game: &Game) -> String {
    match game.phase() {
        Phase::Over { side } => format!("no legal move: the game is over (side {side} won)"),
        _ => format!("no legal move: the roll passed ({})", game.notation()),
    }
}

/// Reads a position argument.
pub fn parse_position(text: &str) -> Result<Game, String> {
    text.parse::<Game>().map_err(|e| e.to_string())
}

/// Rolls `die` when the position waits for a roll (and insists on one then); refuses a die otherwise.
pub fn roll_if_waiting(game: &mut Game, die: Option<u64>) -> Result<(), String> {
    match (game.phase(), die) {
        // Read wider than a die so that 256 gets the die's message, not "256 is not in 0..=255".
        (Phase::Roll, Some(d)) => match u8::try_from(d) {
            Ok(d) => game.roll(d).map(drop).map_err(|e| e.to_string()),
            Err(_) => Err(format!("a die shows 1 to 6, not {d}")),
        },
        (Phase::Roll, None) => Err("the position waits for a roll: give --die N".into()),
        (_, Some(_)) => Err("the position does not wait for a roll: drop --die".into()),
        _ => Ok(()),
    }
}

/// The arguments that choose a game: rule set, mode, players and options.
#[derive(clap::Args)]
pub struct GameArgs {
    /// Rule set: playgridia, ludoteka or morocco.
    #[arg(long)]
    rules: String,
    /// Mode: individual, quick, pairs, 1v1, 6-piece or 3v3.
    #[arg(long)]
    mode: String,
    /// Number of players (default: the mode's usual count).
    #[arg(long)]
    players: Option<u8>,
    /// An option, name=value (repeatable), e.g. --option capture_allies=1: a house rule, or for research any
    /// other option, set-up included (RULES.md, "Options").
    #[arg(long = "option")]
    options: Vec<String>,
}

impl GameArgs {
    /// The start position these arguments describe.
    pub fn new_game(&self) -> Result<Game, String> {
        let rules: RuleSet = self
            .rules
            .parse()
            .map_err(|e: parchis_rules::SetupError| e.to_string())?;
        let mode: Mode = self
            .mode
            .parse()
            .map_err(|e: parchis_rules::SetupError| e.to_string())?;
        let mut opts: Options = rules.options_for(mode);
        for kv in &self.options {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("option `{kv}` must be name=value"))?;
            opts.set(k, v).map_err(|e| e.to_string())?;
        }
        let players = self.players.unwrap_or(mode.default_players());
        Game::with_options(rules, mode, players, opts).map_err(|e| e.to_string())
    }
}

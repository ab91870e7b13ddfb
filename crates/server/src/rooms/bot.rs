//! Bot move choice for the seats the server plays (bot seats, away players,
//! expired turn timers), behind one small type so the room needs no more.
//!
//! Levels are `parchis-bots` levels: random, greedy, expert.

use parchis_bots::expert::ExpertBot;
use parchis_bots::{Bot, Level, make_bot, mix_seed};
use parchis_rules::{Game, Move};

use crate::settings::{BotLevel, DEFAULT_BOT_LEVEL};

/// The `parchis-bots` level for a room's bot level.
pub fn level(level: BotLevel) -> Level {
    match level {
        BotLevel::Random => Level::Random,
        BotLevel::Greedy => Level::Greedy,
        BotLevel::Expert => Level::Expert,
    }
}

/// A bot seed from an id (a room's, a game's): reproducible, different per id, the same on every machine.
pub fn seed_of(id: &str) -> u64 {
    u64::from_str_radix(&crate::auth::sha256_hex(id)[..16], 16).unwrap_or_default()
}

/// Longest an expert bot thinks on the server: its node budget is deterministic but its duration depends on
/// the machine's load, and a room should not wait long for a bot.
const EXPERT_TIME_CAP: std::time::Duration = std::time::Duration::from_millis(40);

/// A bot as the server plays it: the expert with a time cap.
fn server_bot(level: BotLevel, seed: u64) -> Box<dyn Bot> {
    match level {
        BotLevel::Expert => Box::new(ExpertBot::new(seed).with_time_cap(EXPERT_TIME_CAP)),
        other => make_bot(self::level(other), seed),
    }
}

/// One bot per seat and level, created on first use.
pub struct Bots {
    /// Seeds the random bots (fixed per room so behaviour is reproducible in tests).
    seed: u64,
    /// Bots made so far, by seat, with the level they were made for.
    made: Vec<Option<(BotLevel, Box<dyn Bot>)>>,
}

impl std::fmt::Debug for Bots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bots").field("seed", &self.seed).finish()
    }
}

impl Bots {
    /// No bots yet; `seed` seeds the random ones.
    pub fn new(seed: u64) -> Self {
        Bots {
            seed,
            made: Vec::new(),
        }
    }

    /// A legal move for the seat to act, chosen by a bot of `level`
    /// (the default level when the seat is a human being covered).
    /// `None` only if there is no legal move.
    ///
    /// The bot thinks on tokio's blocking pool: an expert's search (tens of milliseconds) must not hold one
    /// of the few async workers that carry every room's traffic.
    pub async fn choose(&mut self, game: &Game, level: Option<BotLevel>) -> Option<Move> {
        let legal = game.legal_moves();
        if legal.is_empty() {
            return None;
        }
        let level = level.unwrap_or(DEFAULT_BOT_LEVEL);
        let seat = usize::from(game.seat());
        if self.made.len() <= seat {
            self.made.resize_with(seat + 1, || None);
        }
        let slot = &mut self.made[seat];
        let mut bot = match slot.take() {
            Some((l, bot)) if l == level => bot,
            _ => server_bot(level, mix_seed(self.seed, seat as u64)),
        };
        let position = *game;
        let choice = legal.clone();
        let (bot, mv) = match tokio::task::spawn_blocking(move || {
            let mv = bot.choose(&position, &choice);
            (bot, mv)
        })
        .await
        {
            Ok(done) => done,
            // The bot panicked: play the first legal move with a fresh bot next time.
            Err(_) => return legal.first().copied(),
        };
        *slot = Some((level, bot));
        // Trust, but verify: a bot answer outside the legal list falls back to the first move.
        Some(if legal.iter().any(|m| m.same_as(&mv)) {
            mv
        } else {
            legal[0]
        })
    }
}

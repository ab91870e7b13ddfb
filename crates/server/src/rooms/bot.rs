//! Bot move choice for the seats the server plays (bot seats, away players,
//! expired turn timers), behind one small type so the room needs no more.
//!
//! Levels are `parchis-bots` levels: random, greedy, expert.

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
    pub fn choose(&mut self, game: &Game, level: Option<BotLevel>) -> Option<Move> {
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
        if slot.as_ref().is_none_or(|(l, _)| *l != level) {
            let bot = make_bot(self::level(level), mix_seed(self.seed, seat as u64));
            *slot = Some((level, bot));
        }
        let (_, bot) = slot.as_mut()?;
        let mv = bot.choose(game, &legal);
        // Trust, but verify: a bot answer outside the legal list falls back to the first move.
        Some(if legal.iter().any(|m| m.same_as(&mv)) {
            mv
        } else {
            legal[0]
        })
    }
}

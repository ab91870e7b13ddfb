//! # parchis-bots
//!
//! Bots for [`parchis_rules`]: a [`Bot`] picks one of the legal moves of the seat to act, and an
//! [`arena`](arena::arena) pits bots against each other over many seeded games.
//!
//! Three levels ([`Level`]):
//!
//! - **random** ([`RandomBot`]): a uniformly random legal move, from a seeded generator;
//! - **greedy** ([`GreedyBot`]): one ply of a heuristic evaluation ([`eval`]) of the position after each
//!   move, from the mover's *side* (team) point of view: progress, pieces out, lane and goal, blockades,
//!   pieces left exposed to opponents 1..=12 squares behind, counts earned by captures and arrivals (played
//!   as well as possible in the same look-ahead), partner's progress counted as one's own;
//! - **expert** ([`ExpertBot`]): with two sides, expectimax over the dice (chance at every
//!   [`Phase::Roll`](parchis_rules::Phase), following whose turn it really is after counts and extra rolls),
//!   opponents modelled by the greedy policy, greedy's evaluation at the leaves, iterative deepening under a
//!   node budget; with three or more sides, rollouts over shared sampled dice where the opponents play
//!   exactly as greedy does and the expert's side by its sharper evaluation ([`sharp`]), valued by its win
//!   probability (see [`expert`]).
//!
//! Every bot is deterministic for a given seed (the random bot and the expert's rollouts use it).
//!
//! ```
//! use parchis_bots::{Level, make_bot};
//! use parchis_rules::{Game, Mode, RuleSet, Phase};
//! let mut game = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
//! let mut bot = make_bot("expert".parse::<Level>().unwrap(), 7);
//! game.roll(5).unwrap();
//! let legal = game.legal_moves();
//! let mv = bot.choose(&game, &legal);
//! game.play(mv).unwrap();
//! ```
//!
//! ## Arena
//!
//! [`arena::arena`] plays [`ArenaConfig::games`] games of one rule set × mode with one [`Entrant`] per seat
//! (*entries*: a [`Level`], or any bot a [`BotMaker`] makes, such as the `parchis` CLI's external engines),
//! on all cores, and returns an [`ArenaReport`] (printable with `Display`): each entry's win rate with a
//! 95 % Wilson interval, and decision times (p50 / p99) per level or maker.
//!
//! ```
//! use parchis_bots::{ArenaConfig, Level, arena};
//! use parchis_rules::{Mode, RuleSet};
//! let mut config = ArenaConfig::new(RuleSet::Playgridia, Mode::OneVsOne, vec![Level::Greedy, Level::Random]);
//! config.games = 4;
//! config.seed = 1;
//! let report = arena(&config).unwrap();
//! assert_eq!(report.entries.len(), 2);
//! println!("{report}");
//! ```
//!
//! Fairness: game `i` rotates the seats by `i % n` (entry `k` sits in seat `(k + i) % n`), so over a
//! multiple of `n` games every entry sits in every seat equally often, and the dice of game `i` come from a
//! `Xoshiro256PlusPlus` seeded from `seed` and `i` alone: the results do not depend on the number of threads.
//! It is one of rand's named generators, whose output for a seed is kept across rand versions (unlike
//! `SmallRng`, which was this same generator on 64-bit hosts: seeded results did not change).

pub mod arena;
pub mod eval;
pub mod expert;
pub mod greedy;
pub mod net;
pub mod random;
mod scan;
#[rustfmt::skip]
#[doc(hidden)]
pub mod net_weights;
#[rustfmt::skip]
#[doc(hidden)]
pub mod net_weights_b;
pub mod sharp;
pub mod value;

pub use arena::{
    ArenaConfig, ArenaError, ArenaReport, BotMaker, Entrant, EntryStats, GameRecord, LevelTiming,
    arena, bot_seed, play_game, play_game_with, wilson95,
};
pub use expert::{ExpertBot, Search};
pub use greedy::GreedyBot;
pub use random::RandomBot;

use parchis_rules::{Game, Move};
use std::fmt;
use std::str::FromStr;

/// A player: picks one of the legal moves of the seat to act.
pub trait Bot: Send {
    /// The level name (`random`, `greedy`, `expert`).
    fn name(&self) -> &str;

    /// Picks one of `legal`, the non-empty legal moves of `game` (as [`Game::legal_moves`] returns them) for
    /// the seat to act. The returned move is one of `legal`.
    fn choose(&mut self, game: &Game, legal: &[Move]) -> Move;

    /// Why this bot can no longer be trusted, if it failed (an engine in another process that crashed, said
    /// something other than a legal move or took too long): it then plays the first legal move to keep the
    /// game valid, and an [`arena()`] stops with this message. The bots of this crate never fail.
    fn failure(&self) -> Option<String> {
        None
    }
}

/// A bot strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// [`RandomBot`].
    Random,
    /// [`GreedyBot`].
    Greedy,
    /// [`ExpertBot`].
    Expert,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Random, Level::Greedy, Level::Expert];

    /// The level's name as parsed and displayed.
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Greedy => "greedy",
            Level::Expert => "expert",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// An unknown level name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLevel(pub String);

impl fmt::Display for UnknownLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown bot level `{}` (expected random, greedy or expert)",
            self.0
        )
    }
}

impl std::error::Error for UnknownLevel {}

impl FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        Level::ALL
            .into_iter()
            .find(|l| l.name() == t)
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

/// A bot of the given level. `seed` fixes its choices (only the random bot draws numbers).
pub fn make_bot(level: Level, seed: u64) -> Box<dyn Bot> {
    match level {
        Level::Random => Box::new(RandomBot::new(seed)),
        Level::Greedy => Box::new(GreedyBot::new()),
        Level::Expert => Box::new(ExpertBot::new(seed)),
    }
}

/// Mixes a seed and an index into a new, well-spread seed (splitmix64).
pub fn mix_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

//! `parchis.Bot`: the built-in bots (random, greedy, expert), to play against or to learn from.

use crate::errors;
use crate::game::Game;
use parchis_bots::Level;
use parchis_rules::{Phase, PlayError};
use pyo3::prelude::*;
use std::sync::Mutex;

/// A bot of one level. `Bot(level="greedy", seed=0)`; `choose(game)` returns one of
/// `game.legal_moves()`. The seed fixes its choices (the random bot and the expert's rollouts draw numbers).
#[pyclass(module = "parchis")]
pub struct Bot {
    level: Level,
    seed: u64,
    /// The bot keeps state between choices (its generator); the lock makes the object shareable between
    /// Python threads, one choice at a time.
    bot: Mutex<Box<dyn parchis_bots::Bot>>,
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (level = "greedy", seed = 0))]
    fn new(level: &str, seed: i128) -> PyResult<Self> {
        let seed = crate::seed_bits(seed);
        let level: Level = level.parse().map_err(errors::bad_level)?;
        Ok(Bot {
            level,
            seed,
            bot: Mutex::new(parchis_bots::make_bot(level, seed)),
        })
    }

    #[getter]
    fn level(&self) -> &'static str {
        self.level.name()
    }

    fn __repr__(&self) -> String {
        format!("Bot('{}', seed={})", self.level.name(), self.seed)
    }

    /// The bot's move for the seat to act, in its text form (pass it to `game.play`). The game is not
    /// changed. Other Python threads run while the bot thinks.
    fn choose(&self, py: Python<'_>, game: &Game) -> PyResult<String> {
        let g = game.inner;
        match g.phase() {
            Phase::Roll => return Err(errors::play(PlayError::MustRoll)),
            Phase::Over { .. } => return Err(errors::play(PlayError::GameOver)),
            Phase::Move { .. } | Phase::Count { .. } => {}
        }
        let legal = g.legal_moves();
        let chosen = py.detach(|| {
            // A panic inside a choice would have unwound out of `choose`; the bot is still usable.
            let mut bot = self.bot.lock().unwrap_or_else(|e| e.into_inner());
            bot.choose(&g, &legal)
        });
        Ok(g.move_text(&chosen))
    }
}

//! `parchis.Game`: one game, played by rolls and moves; every refusal leaves it unchanged.

use crate::errors;
use parchis_rules::{Mode, NoEvents, Phase, PlayError, RuleSet};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString, PyTuple};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// A game of Parchís, Parcheesi or the northern-Morocco variant.
///
/// `Game(rules="playgridia", mode="individual", players=None, house_rules=None)` starts one
/// (`players` defaults to the mode's usual count; `house_rules` maps option names of `HOUSE_RULES` to
/// values); `Game.parse(notation)` continues one from its position notation.
#[pyclass(module = "parchis", eq, from_py_object)]
#[derive(Clone, PartialEq)]
pub struct Game {
    pub(crate) inner: parchis_rules::Game,
}

/// The text of a house rule's value as the rules crate reads it (`1`/`0` for flags, digits for numbers).
fn house_rule_value(key: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
    // `bool` first: a Python bool is also an int.
    if let Ok(b) = value.cast::<PyBool>() {
        Ok(if b.is_true() { "1" } else { "0" }.to_string())
    } else if let Ok(i) = value.cast::<PyInt>() {
        Ok(i.to_string())
    } else if value.is_instance_of::<PyString>() {
        value.extract::<String>()
    } else {
        Err(errors::bad_house_rule(key))
    }
}

/// Events as Python dicts (`{"type": "moved", "piece": "y1", "from": {...}, ...}`): the JSON the server sends.
fn events_to_py<'py>(
    py: Python<'py>,
    events: &[parchis_rules::Event],
) -> PyResult<Bound<'py, PyAny>> {
    Ok(pythonize::pythonize(py, events)?)
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (rules = "playgridia", mode = "individual", players = None, house_rules = None))]
    fn new(
        rules: &str,
        mode: &str,
        players: Option<i64>,
        house_rules: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let rules: RuleSet = rules.parse().map_err(errors::setup)?;
        let mode: Mode = mode.parse().map_err(errors::setup)?;
        let mut pairs = Vec::new();
        if let Some(house_rules) = house_rules {
            for (key, value) in house_rules.iter() {
                let key: String = key
                    .extract()
                    .map_err(|_| errors::bad_house_rule_name(&key))?;
                let value = house_rule_value(&key, &value)?;
                pairs.push((key, value));
            }
        }
        let options = rules
            .options_for(mode)
            .with_house_rules(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .map_err(|e| errors::setup(e.into()))?;
        let players = match players {
            None => mode.default_players(),
            // A count past a byte is as wrong as 7: the rules crate names the counts the mode allows.
            Some(n) => u8::try_from(n).unwrap_or(u8::MAX),
        };
        let inner = parchis_rules::Game::with_options(rules, mode, players, options)
            .map_err(errors::setup)?;
        Ok(Game { inner })
    }

    /// The game a position notation describes (`str(game)` gives it back).
    #[staticmethod]
    fn parse(notation: &str) -> PyResult<Self> {
        let inner = notation.parse().map_err(errors::position)?;
        Ok(Game { inner })
    }

    /// The position notation: everything needed to continue the game.
    fn notation(&self) -> String {
        self.inner.notation()
    }

    fn __str__(&self) -> String {
        self.inner.notation()
    }

    fn __repr__(&self) -> String {
        format!("Game.parse('{}')", self.inner.notation())
    }

    /// An independent copy (to search ahead without touching this game).
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// Pickled as its notation (so games cross to worker processes).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let parse = py.get_type::<Game>().getattr("parse")?;
        (parse, (self.inner.notation(),)).into_pyobject(py)
    }

    /// The rule set: `playgridia`, `ludoteka` or `morocco`.
    #[getter]
    fn rules(&self) -> &'static str {
        self.inner.rules().name()
    }

    /// The mode: `individual`, `quick`, `pairs`, `1v1`, `6-piece` or `3v3`.
    #[getter]
    fn mode(&self) -> &'static str {
        self.inner.mode().name()
    }

    #[getter]
    fn players(&self) -> u8 {
        self.inner.players()
    }

    /// The seat to act (0-based, in turn order).
    #[getter]
    fn seat(&self) -> u8 {
        self.inner.seat()
    }

    /// What is due: `roll`, `move` (play the die in `die`), `count` (play the 20 or 10 in `count`) or
    /// `over`.
    #[getter]
    fn phase(&self) -> &'static str {
        match self.inner.phase() {
            Phase::Roll => "roll",
            Phase::Move { .. } => "move",
            Phase::Count { .. } => "count",
            Phase::Over { .. } => "over",
        }
    }

    /// The die to move with, in the `move` phase.
    #[getter]
    fn die(&self) -> Option<u8> {
        match self.inner.phase() {
            Phase::Move { die } => Some(die),
            _ => None,
        }
    }

    /// The count (a bonus: 20 for a capture, 10 for an arrival) to play, in the `count` phase.
    #[getter]
    fn count(&self) -> Option<u8> {
        match self.inner.phase() {
            Phase::Count { amount } => Some(amount),
            _ => None,
        }
    }

    /// The counts waiting after the current one, in order.
    #[getter]
    fn queued_counts(&self) -> Vec<u32> {
        // Lists of ints: a `Vec<u8>` would come out as `bytes`.
        self.inner
            .queued_counts()
            .iter()
            .map(|&c| c.into())
            .collect()
    }

    #[getter]
    fn sixes_in_a_row(&self) -> u8 {
        self.inner.sixes_in_a_row()
    }

    /// The winning side once the game is over (seats of one side are partners), else `None`.
    #[getter]
    fn winner(&self) -> Option<u8> {
        self.inner.winner()
    }

    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// The side (team) of each seat, in seat order.
    #[getter]
    fn sides(&self) -> Vec<u32> {
        let layout = self.inner.layout();
        layout.side_of_seat[..usize::from(layout.n_seats)]
            .iter()
            .map(|&side| side.into())
            .collect()
    }

    /// The legal moves of the seat to act, in their text form (`y1:h-5`, `y1:5-12`, `y1:63-l2`,
    /// `y1:l7-goal`); empty when a roll is due or the game is over.
    fn legal_moves(&self) -> Vec<String> {
        self.inner.legal_texts()
    }

    /// How many legal moves there are (`play_index` takes 0 to this minus one), without building their texts.
    #[getter]
    fn legal_count(&self) -> usize {
        self.inner.legal().len()
    }

    /// Plays the game to its end in place, with dice and moves drawn uniformly from a generator seeded by
    /// `seed` (the same seed, the same game), and returns the winning side: a native random rollout for
    /// Monte Carlo search. Returns at once when the game is already over.
    fn playout(&mut self, py: Python<'_>, seed: i128) -> u8 {
        let seed = crate::seed_bits(seed);
        let mut g = self.inner;
        let (played, side) = py.detach(move || {
            let mut rng = SmallRng::seed_from_u64(seed);
            loop {
                match g.phase() {
                    Phase::Over { side } => break (g, side),
                    Phase::Roll => {
                        let die = rng.random_range(1..=6);
                        // A die of 1 to 6 in the roll phase is always accepted.
                        let _ = g.roll_with(die, &mut NoEvents);
                    }
                    Phase::Move { .. } | Phase::Count { .. } => {
                        let index = rng.random_range(0..g.legal().len());
                        let _ = g.play_legal_with(index, &mut NoEvents);
                    }
                }
            }
        });
        self.inner = played;
        side
    }

    /// Rolls `die` (1 to 6: the dice are the caller's) and returns the events.
    fn roll<'py>(&mut self, py: Python<'py>, die: i64) -> PyResult<Bound<'py, PyAny>> {
        // A number past a byte is as bad a die as 7; the rules crate says which refusal comes first.
        let die = u8::try_from(die).unwrap_or(0);
        let events = self.inner.roll(die).map_err(errors::play)?;
        events_to_py(py, &events)
    }

    /// Plays a move given in its text form (one of `legal_moves()`, or a bare piece such as `y1` when that
    /// piece has one legal move) and returns the events.
    #[pyo3(name = "play")]
    fn play_text<'py>(&mut self, py: Python<'py>, r#move: &str) -> PyResult<Bound<'py, PyAny>> {
        match self.inner.phase() {
            Phase::Roll => return Err(errors::play(PlayError::MustRoll)),
            Phase::Over { .. } => return Err(errors::play(PlayError::GameOver)),
            Phase::Move { .. } | Phase::Count { .. } => {}
        }
        let m = self.inner.parse_move(r#move).map_err(errors::move_text)?;
        let events = self.inner.play(m).map_err(errors::play)?;
        events_to_py(py, &events)
    }

    /// Plays the legal move at `index` in `legal_moves()` and returns the events.
    fn play_index<'py>(&mut self, py: Python<'py>, index: i64) -> PyResult<Bound<'py, PyAny>> {
        // A negative number is past the list as much as a large one.
        let index = usize::try_from(index).unwrap_or(usize::MAX);
        let events = self.inner.play_legal(index).map_err(errors::play)?;
        events_to_py(py, &events)
    }

    /// The whole position as a dict: seats, every piece and where it is, the turn, the legal moves with
    /// their squares, the options (the JSON the server sends its clients).
    fn view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(pythonize::pythonize(py, &self.inner.view())?)
    }

    /// Each piece's progress along its own path, by piece index (colour by colour, in seat order): 0 in
    /// its base, 1 on its exit square, up to the goal (72 on the four-colour board): a compact observation
    /// for learning code.
    fn progress(&self) -> Vec<u32> {
        (0..self.inner.n_pieces())
            .map(|p| self.inner.raw_pos(p).into())
            .collect()
    }

    /// The piece names in the order of `progress()` (`y1`, `y2`, …).
    fn piece_names(&self) -> Vec<String> {
        let layout = self.inner.layout();
        (0..self.inner.n_pieces())
            .map(|p| layout.piece_ref(p).to_string())
            .collect()
    }
}

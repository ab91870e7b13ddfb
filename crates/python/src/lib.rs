//! `parchis` for Python: the referee ([`parchis_rules`]) and the bots ([`parchis_bots`]) in-process, so that
//! research code and bots written in Python step games at native speed instead of over the `parchis engine`
//! line protocol. Built and installed with maturin (`pip install ./crates/python`); see `PYTHON.md`.
//!
//! Nothing here decides a rule: every method hands its work to the rules crate and turns its answer (or
//! its refusal, with the same machine-readable codes as the server and the CLI) into Python values.

mod bot;
mod errors;
mod game;

use pyo3::prelude::*;

/// A seed as the generators take it: any Python int from −2¹²⁷ up, kept to its low 64 bits (so −1 and
/// 2⁶⁴ − 1 are the same seed), since seeds are commonly drawn signed or with `getrandbits(64)`.
pub(crate) fn seed_bits(seed: i128) -> u64 {
    seed as u64
}

#[pymodule]
fn parchis(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<game::Game>()?;
    m.add_class::<bot::Bot>()?;
    errors::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    let rule_sets: Vec<&str> = parchis_rules::RuleSet::ALL
        .iter()
        .map(|r| r.name())
        .collect();
    m.add("RULE_SETS", pyo3::types::PyTuple::new(py, rule_sets)?)?;
    let modes: Vec<&str> = parchis_rules::Mode::ALL.iter().map(|m| m.name()).collect();
    m.add("MODES", pyo3::types::PyTuple::new(py, modes)?)?;
    let house: Vec<&str> = parchis_rules::Options::house_rules().collect();
    m.add("HOUSE_RULES", pyo3::types::PyTuple::new(py, house)?)?;
    let levels: Vec<&str> = parchis_bots::Level::ALL.iter().map(|l| l.name()).collect();
    m.add("LEVELS", pyo3::types::PyTuple::new(py, levels)?)?;
    Ok(())
}

//! The exceptions: one base class, `ParchisError` (a `ValueError`), and one subclass per kind of refusal.
//! Each carries `code`, the same machine-readable code the server and the CLI give (`must_roll`,
//! `must_bring_piece_out`, `bad_position`, …), beside its human sentence.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    parchis,
    ParchisError,
    PyValueError,
    "A refusal of the referee; `code` names it for programs, the message for people."
);
create_exception!(
    parchis,
    SetupError,
    ParchisError,
    "A game could not be set up: unknown rule set or mode, a player count the mode is not played by, a bad house rule."
);
create_exception!(
    parchis,
    PositionError,
    ParchisError,
    "A position notation could not be read or describes no valid position."
);
create_exception!(
    parchis,
    PlayError,
    ParchisError,
    "A roll or move was refused (wrong phase, bad die, illegal or unreadable move); the game is unchanged."
);

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ParchisError", py.get_type::<ParchisError>())?;
    m.add("SetupError", py.get_type::<SetupError>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    m.add("PlayError", py.get_type::<PlayError>())?;
    Ok(())
}

/// The exception of type `E` with its message and `code`.
fn raise<E: pyo3::PyTypeInfo>(code: &str, message: String) -> PyErr {
    Python::attach(|py| {
        let err = PyErr::new::<E, _>(message);
        // Setting an attribute on a fresh exception instance cannot fail short of memory exhaustion, and
        // then the exception still says what went wrong.
        let _ = err.value(py).setattr("code", code);
        err
    })
}

pub(crate) fn setup(e: parchis_rules::SetupError) -> PyErr {
    raise::<SetupError>(e.code(), e.to_string())
}

pub(crate) fn position(e: parchis_rules::PositionError) -> PyErr {
    raise::<PositionError>(e.code(), e.to_string())
}

pub(crate) fn play(e: parchis_rules::PlayError) -> PyErr {
    raise::<PlayError>(e.code(), e.to_string())
}

pub(crate) fn move_text(e: parchis_rules::MoveParseError) -> PyErr {
    raise::<PlayError>(e.code(), e.to_string())
}

pub(crate) fn bad_level(e: parchis_bots::UnknownLevel) -> PyErr {
    raise::<SetupError>("unknown_level", e.to_string())
}

pub(crate) fn bad_house_rule(key: &str) -> PyErr {
    raise::<SetupError>(
        "bad_option",
        format!("house rule `{key}` must be a str, an int or a bool"),
    )
}

pub(crate) fn bad_house_rule_name(key: &Bound<'_, PyAny>) -> PyErr {
    raise::<SetupError>(
        "bad_option",
        format!("house rule names are strings, not {key:?}"),
    )
}

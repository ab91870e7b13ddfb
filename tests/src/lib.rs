//! Shared helpers for the black-box tests live in `tests/common/`; this
//! library target is intentionally empty.

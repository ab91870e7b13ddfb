//! Bots (work in progress).

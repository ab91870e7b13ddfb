//! Load generator for `parchis-server` (ISSUE 6).
//!
//! * [`session`] creates rooms through the REST API, connects four simulated
//!   players per room over WebSocket and plays real games through the
//!   protocol at a chosen pace, measuring move→broadcast latency.
//! * [`baseline`] is a bare tokio-tungstenite broadcaster speaking just enough
//!   of the same protocol for the same session code to drive it, so the two
//!   servers can be compared on the same machine.
//! * [`procstat`] reads a process's CPU time and RSS from `/proc`.
//! * [`merge`] adds up the reports of several processes that shared one run (`--shard`).
//! * [`limits`] raises the open-file limit (no `unsafe` here: the `rlimit` crate does it).

pub mod baseline;
pub mod limits;
pub mod merge;
pub mod procstat;
pub mod session;
pub mod spawn;
pub mod stats;

//! What lets anyone check a finished game without trusting the server: the dice proof ([`dice`]: the
//! seed's public commitment and every roll derived from the seed, PROTOCOL.md §5) and the game record's
//! replay ([`replay`]: `GET /api/games/{id}/record` replayed through the rules crate, every roll
//! re-derived and every move checked). The server uses it to roll and to serve replays, `parchis verify`
//! to judge a record; it needs neither a network nor a database.

pub mod dice;
pub mod replay;

pub use replay::{ReplayedStep, Verified, replay_record, verify_record};

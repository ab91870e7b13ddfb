//! Live rooms: one task per room owns its state (lobby, game, connections);
//! handlers reach it only through the [`registry::RoomRegistry`] interface.

pub mod access;
pub mod bot;
pub mod chat;
mod commands;
pub mod hub;
pub mod lobby;
pub mod messages;
pub mod patch;
pub mod protocol;
pub mod public_state;
pub mod registry;
pub mod relayed;
pub mod room;
pub mod table;
pub mod tally;
mod task;

pub use lobby::{Lobby, Revoked, RoomCommand, RoomEvent, RoomSnapshot};
pub use registry::{LocalRegistry, RegistryStats, RoomLink, RoomRegistry, RoomSender};
pub use room::{ConnectRequest, Timing};

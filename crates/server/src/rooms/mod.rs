//! Live rooms: one task per room owns its state; handlers reach it only
//! through the [`registry::RoomRegistry`] interface.

pub mod lobby;
pub mod registry;
mod task;

pub use lobby::{Lobby, RoomCommand, RoomEvent, RoomSnapshot};
pub use registry::{LocalRegistry, RegistryStats, RoomRegistry};

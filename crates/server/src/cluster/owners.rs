//! The owners other nodes were found to have when this node's claims failed: while such an owner is
//! alive, a request for its room does not try a claim that would fail again (each a round trip to
//! PostgreSQL, asked again every few milliseconds by every request for the room until the owner is
//! declared dead; BENCHMARKS.md, Cluster (c)).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a failed claim's owner is believed (it may give the room up meanwhile; a dead one is
/// seen at once in the nodes alive).
const BELIEVED: Duration = Duration::from_secs(1);

/// Room → (its owner, when a claim found it).
#[derive(Default)]
pub(super) struct KnownOwners(Mutex<HashMap<String, (String, Instant)>>);

impl KnownOwners {
    /// A claim of `room` found `owner` holding it.
    pub fn found(&self, room: &str, owner: String) {
        let mut known = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // Old entries go with the new ones, so that the map never outgrows the rooms in play.
        if known.len() > 1024 {
            known.retain(|_, (_, at)| at.elapsed() < BELIEVED);
        }
        known.insert(room.to_owned(), (owner, Instant::now()));
    }

    /// This node owns `room` now.
    pub fn forget(&self, room: &str) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(room);
    }

    /// Whether `room` was found owned lately by a node that `alive` says lives.
    pub fn held_elsewhere(&self, room: &str, alive: impl Fn(&str) -> bool) -> bool {
        let known = self.0.lock().unwrap_or_else(|e| e.into_inner());
        known
            .get(room)
            .is_some_and(|(owner, at)| at.elapsed() < BELIEVED && alive(owner))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_owner_is_believed_while_alive_and_for_a_second_at_most() {
        let known = KnownOwners::default();
        assert!(!known.held_elsewhere("r", |_| true));
        known.found("r", "n2".to_owned());
        assert!(known.held_elsewhere("r", |n| n == "n2"));
        assert!(!known.held_elsewhere("r", |_| false), "a dead owner");
        known.0.lock().unwrap().get_mut("r").unwrap().1 -= BELIEVED;
        assert!(!known.held_elsewhere("r", |_| true), "found too long ago");
        known.found("r", "n2".to_owned());
        known.forget("r");
        assert!(!known.held_elsewhere("r", |_| true));
    }
}

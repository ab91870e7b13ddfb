//! A room's fan-out: its connections, the versioned public state, and a
//! bounded ring of recent updates for reconnecting clients. Each update is
//! serialised once and the same bytes are queued to every connection.
//!
//! The public state is kept in parts (room/seats/spectators, the game's small
//! fields, the game view) so that an update only rebuilds and diffs what can
//! have changed: the view is rebuilt only when the game changed, and each part
//! is diffed on its own with its paths prefixed. The whole state is assembled
//! only for snapshots.

use std::collections::{HashMap, VecDeque};

use parchis_rules::{Event, Game};
use serde_json::{Map, Value, json};
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;

use super::protocol::{Outbound, frame};

/// Identifies one connection within its room.
pub type ConnId = u64;

/// Updates kept for reconnects (older ones get a snapshot instead). 32 updates
/// (~25 KiB per busy room at ~800 bytes each) cover a couple of rounds of play,
/// enough for a short network drop; a longer absence gets a snapshot.
pub const RING: usize = 32;
/// Messages queued per connection before it counts as too slow.
pub const OUTBOUND_QUEUE: usize = 256;

/// One open connection as the room sees it.
#[derive(Debug)]
pub struct Conn {
    /// Its bounded outbound queue; never awaited, so it cannot block the room.
    pub tx: mpsc::Sender<Outbound>,
    /// The authenticated player, `None` for an anonymous spectator.
    pub player_id: Option<String>,
}

/// The public state as the room builds it (see [`Hub`]).
#[derive(Debug, Default)]
pub struct PublicParts {
    /// Top-level fields other than `game` (`room`, `seats`, `spectators`).
    pub lobby: Map<String, Value>,
    /// The game, if one was started.
    pub game: Option<GamePart>,
}

/// The `game` part of the public state.
#[derive(Debug)]
pub struct GamePart {
    /// Fields of `game` other than `view`.
    pub fields: Map<String, Value>,
    /// The game, whose `view()` is `game.view`.
    pub game: Game,
}

/// The last published game part, with its view built.
#[derive(Debug)]
struct PublishedGame {
    fields: Map<String, Value>,
    game: Game,
    view: Value,
}

/// Versioned public state plus the connections watching it.
#[derive(Debug)]
pub struct Hub {
    /// Names this life of the room, so versions from before a restart are not mistaken for current ones.
    pub epoch: String,
    /// Version of the state; +1 per published update.
    version: u64,
    /// The public state last published, top-level fields but `game` (patches are computed from it).
    lobby: Map<String, Value>,
    /// Its `game` field, `None` for `null`.
    game: Option<PublishedGame>,
    /// Recent updates, oldest first, as sent.
    ring: VecDeque<(u64, Outbound)>,
    /// Open connections.
    conns: HashMap<ConnId, Conn>,
    /// Next connection id to hand out.
    next_id: ConnId,
}

impl Hub {
    /// A hub at version 0 with `state`.
    pub fn new(state: PublicParts) -> Self {
        Hub {
            epoch: crate::auth::new_id(),
            version: 0,
            lobby: state.lobby,
            game: state.game.map(PublishedGame::from),
            ring: VecDeque::with_capacity(RING),
            conns: HashMap::new(),
            next_id: 1,
        }
    }

    /// Current version.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Current public state (assembled: for snapshots and tests).
    pub fn state(&self) -> Value {
        let mut state = self.lobby.clone();
        state.insert(
            "game".to_owned(),
            self.game
                .as_ref()
                .map_or(Value::Null, PublishedGame::to_value),
        );
        Value::Object(state)
    }

    /// Publishes `state` with `events` as one update (nothing if neither changed).
    /// Returns connections dropped for being too slow.
    pub fn publish(&mut self, events: &[Event], state: PublicParts) -> Vec<ConnId> {
        let mut patch = Vec::new();
        let mut path = String::new();
        diff_object(&self.lobby, &state.lobby, &mut path, &mut patch);
        self.lobby = state.lobby;
        match (&mut self.game, state.game) {
            (None, None) => {}
            (old @ Some(_), None) => {
                patch.push(json!({ "op": "replace", "path": "/game", "value": null }));
                *old = None;
            }
            (old @ None, Some(new)) => {
                let new = PublishedGame::from(new);
                patch.push(json!({ "op": "replace", "path": "/game", "value": new.to_value() }));
                *old = Some(new);
            }
            (Some(old), Some(new)) => {
                path.push_str("/game");
                // "view" is not among `fields`, so this never reports it removed.
                diff_object(&old.fields, &new.fields, &mut path, &mut patch);
                old.fields = new.fields;
                if old.game != new.game {
                    let view = view_value(&new.game);
                    path.push_str("/view");
                    diff(&old.view, &view, &mut path, &mut patch);
                    old.view = view;
                    old.game = new.game;
                }
            }
        }
        if events.is_empty() && patch.is_empty() {
            return Vec::new();
        }
        self.version += 1;
        let message = Outbound::Text(frame(&json!({
            "type": "update",
            "version": self.version,
            "events": events,
            "patch": patch,
        })));
        if self.ring.len() == RING {
            self.ring.pop_front();
        }
        self.ring.push_back((self.version, message.clone()));
        self.broadcast(&message)
    }

    /// Queues `message` to every connection; returns those dropped as too slow.
    pub fn broadcast(&mut self, message: &Outbound) -> Vec<ConnId> {
        let ids: Vec<ConnId> = self.conns.keys().copied().collect();
        ids.into_iter()
            .filter(|&id| !self.send(id, message.clone()))
            .collect()
    }

    /// The snapshot message for the current state.
    pub fn snapshot(&self) -> Outbound {
        Outbound::Text(frame(&json!({
            "type": "snapshot",
            "version": self.version,
            "epoch": self.epoch,
            "state": self.state(),
        })))
    }

    /// The updates after `since` if all are still in the ring (`None`: send a snapshot).
    pub fn missed_since(&self, since: u64, epoch: &str) -> Option<Vec<Outbound>> {
        if epoch != self.epoch || since > self.version {
            return None;
        }
        if since == self.version {
            return Some(Vec::new());
        }
        let oldest = self.ring.front()?.0;
        (since + 1 >= oldest).then(|| {
            self.ring
                .iter()
                .filter(|(v, _)| *v > since)
                .map(|(_, m)| m.clone())
                .collect()
        })
    }

    /// Registers a connection; returns its id.
    pub fn add(&mut self, conn: Conn) -> ConnId {
        let id = self.next_id;
        self.next_id += 1;
        self.conns.insert(id, conn);
        id
    }

    /// Forgets a connection (its queue closes, which ends its writer).
    pub fn remove(&mut self, id: ConnId) -> Option<Conn> {
        self.conns.remove(&id)
    }

    /// The connection, if still open.
    pub fn conn(&self, id: ConnId) -> Option<&Conn> {
        self.conns.get(&id)
    }

    /// All open connections.
    pub fn conns(&self) -> impl Iterator<Item = (&ConnId, &Conn)> {
        self.conns.iter()
    }

    /// Number of open connections.
    pub fn len(&self) -> usize {
        self.conns.len()
    }

    /// Whether no connection is open.
    pub fn is_empty(&self) -> bool {
        self.conns.is_empty()
    }

    /// Queues one message without waiting; a full queue drops the connection
    /// (returns false, as for a closed one), so one slow client never holds up the room.
    pub fn send(&mut self, id: ConnId, message: Outbound) -> bool {
        let Some(conn) = self.conns.get(&id) else {
            return true;
        };
        match conn.tx.try_send(message) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) => {
                tracing::info!(conn = id, "disconnecting a client that is too slow");
                self.conns.remove(&id);
                false
            }
            Err(TrySendError::Closed(_)) => {
                self.conns.remove(&id);
                false
            }
        }
    }
}

impl From<GamePart> for PublishedGame {
    fn from(part: GamePart) -> Self {
        PublishedGame {
            view: view_value(&part.game),
            fields: part.fields,
            game: part.game,
        }
    }
}

impl PublishedGame {
    /// The `game` field of the public state.
    fn to_value(&self) -> Value {
        let mut game = self.fields.clone();
        game.insert("view".to_owned(), self.view.clone());
        Value::Object(game)
    }
}

/// `game.view()` as JSON.
fn view_value(game: &Game) -> Value {
    serde_json::to_value(game.view()).unwrap_or(Value::Null)
}

/// Appends to `patch` the JSON Patch (RFC 6902) operations turning `left` into
/// `right`, with paths under `path` (the JSON Pointer of both values, restored on return).
fn diff(left: &Value, right: &Value, path: &mut String, patch: &mut Vec<Value>) {
    match (left, right) {
        (Value::Object(l), Value::Object(r)) => diff_object(l, r, path, patch),
        (Value::Array(l), Value::Array(r)) => {
            let len = path.len();
            let common = l.len().min(r.len());
            for (i, (lv, rv)) in l.iter().zip(r).enumerate() {
                push_index(path, i);
                diff(lv, rv, path, patch);
                path.truncate(len);
            }
            // Extra elements on the left: remove from the end so indices stay valid.
            for i in (common..l.len()).rev() {
                push_index(path, i);
                patch.push(json!({ "op": "remove", "path": path.as_str() }));
                path.truncate(len);
            }
            for (i, rv) in r.iter().enumerate().skip(common) {
                push_index(path, i);
                patch.push(json!({ "op": "add", "path": path.as_str(), "value": rv }));
                path.truncate(len);
            }
        }
        _ if left == right => {}
        _ => patch.push(json!({ "op": "replace", "path": path.as_str(), "value": right })),
    }
}

/// [`diff`] for two objects.
fn diff_object(
    left: &Map<String, Value>,
    right: &Map<String, Value>,
    path: &mut String,
    patch: &mut Vec<Value>,
) {
    let len = path.len();
    for (key, rv) in right {
        push_key(path, key);
        match left.get(key) {
            Some(lv) => diff(lv, rv, path, patch),
            None => patch.push(json!({ "op": "add", "path": path.as_str(), "value": rv })),
        }
        path.truncate(len);
    }
    for key in left.keys().filter(|k| !right.contains_key(*k)) {
        push_key(path, key);
        patch.push(json!({ "op": "remove", "path": path.as_str() }));
        path.truncate(len);
    }
}

/// Appends `/key` to a JSON Pointer, escaped (`~` → `~0`, `/` → `~1`).
fn push_key(path: &mut String, key: &str) {
    path.push('/');
    for c in key.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

/// Appends `/index` to a JSON Pointer.
fn push_index(path: &mut String, index: usize) {
    use std::fmt::Write;
    let _ = write!(path, "/{index}");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(left: Value, right: Value) {
        let mut patch = Vec::new();
        diff(&left, &right, &mut String::new(), &mut patch);
        let patch: json_patch::Patch = serde_json::from_value(Value::Array(patch)).unwrap();
        let mut doc = left;
        json_patch::patch(&mut doc, &patch).unwrap();
        assert_eq!(doc, right);
    }

    #[test]
    fn diff_applies_to_the_new_value() {
        check(
            json!({"a": 1, "b": [1, 2, 3]}),
            json!({"a": 2, "b": [1], "c": {"x/y~": null}}),
        );
        check(
            json!({"a": [1], "k~/": 1}),
            json!({"a": [1, {"b": 2}, 3], "k~/": 2}),
        );
        check(json!([{"a": 1}, 2]), json!([{"a": 2, "b": 1}]));
        check(json!({"a": {"b": 1}}), json!({"a": null}));
        check(json!({"x": 1}), json!({"x": 1}));
    }
}

//! A room's fan-out: its connections, the versioned public state, and a
//! bounded ring of recent updates for reconnecting clients. Each update is
//! serialised once and the same bytes are queued to every connection.
//!
//! The public state is kept typed, in parts ([`super::public_state`]). An update
//! compares each part with the one last published and writes RFC 6902
//! operations only for the fields that differ, serialising just those values
//! straight into the message bytes: no `serde_json::Value` tree is built or
//! diffed. The game's [`View`] is rebuilt only when the game changed. The whole
//! state is serialised only for snapshots.

use std::collections::{HashMap, VecDeque};

use parchis_rules::{Event, Game, View};
use serde_json::Value;
use tokio::sync::mpsc::error::TrySendError;

use super::messages;
use super::patch::PatchWriter;
use super::protocol::Outbound;
use super::public_state::{
    GAME, GameFields, GamePart, GameRef, LobbyState, PublicParts, StateRef, diff_game_fields,
    diff_lobby, diff_view,
};
use super::relayed::{RelayOut, RoomRelay, Sink};
use crate::model::Acted;

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
    /// Where its messages go: its bounded outbound queue, never awaited so that it cannot block the
    /// room, or (cluster mode) the room's relay to the node holding the socket.
    pub sink: Sink,
    /// The authenticated player, `None` for an anonymous spectator.
    pub player_id: Option<String>,
    /// Hash of the token it authenticated with: revoking that token closes it.
    pub token_hash: Option<String>,
}

/// The last published game part, with its view built.
#[derive(Debug)]
struct PublishedGame {
    fields: GameFields,
    game: Game,
    view: View,
}

/// Versioned public state plus the connections watching it.
#[derive(Debug)]
pub struct Hub {
    /// Names this life of the room, so versions from before a restart are not mistaken for current ones.
    pub epoch: String,
    /// Version of the state; +1 per published update.
    version: u64,
    /// The public state last published, top-level fields but `game` (patches are computed from it).
    lobby: LobbyState,
    /// Its `game` field, `None` for `null`.
    game: Option<PublishedGame>,
    /// Recent updates, oldest first, as sent.
    ring: VecDeque<(u64, Outbound)>,
    /// The snapshot of the latest version, once asked for: resyncs and connections share one copy
    /// rather than each queueing a fresh one (a client asking again and again without reading would
    /// otherwise make the server hold hundreds of copies).
    snapshot: Option<(u64, Outbound)>,
    /// Open connections.
    conns: HashMap<ConnId, Conn>,
    /// Next connection id to hand out.
    next_id: ConnId,
    /// How many broadcasts (updates, chat) this life of the room made: a relayed connection's private
    /// messages say which one they follow.
    broadcasts: u64,
    /// Cluster mode: the queue to other nodes, opened with the first relayed connection.
    relay: Option<RoomRelay>,
    /// How many connections are relayed (broadcasts go to the relay only while some are).
    relayed: usize,
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
            snapshot: None,
            conns: HashMap::new(),
            next_id: 1,
            broadcasts: 0,
            relay: None,
            relayed: 0,
        }
    }

    /// Current version.
    pub fn version(&self) -> u64 {
        self.version
    }

    fn state_ref(&self) -> StateRef<'_> {
        StateRef {
            room: &self.lobby.room,
            seats: &self.lobby.seats,
            spectators: self.lobby.spectators,
            game: self.game.as_ref().map(PublishedGame::as_ref),
        }
    }

    /// Current public state (assembled: for tests).
    pub fn state(&self) -> Value {
        serde_json::to_value(self.state_ref()).unwrap_or(Value::Null)
    }

    /// The lobby part last published.
    pub fn lobby(&self) -> &LobbyState {
        &self.lobby
    }

    /// Publishes the new state with `events` as one update (nothing if neither
    /// changed): `acted` says who made the roll or move it announces, `lobby` is
    /// `None` when the caller knows it did not change, `game` is the game part
    /// (`None`: no game). Returns connections dropped for being too slow.
    pub fn publish(
        &mut self,
        acted: Option<Acted>,
        events: &[Event],
        lobby: Option<LobbyState>,
        game: Option<GamePart>,
    ) -> Vec<ConnId> {
        let mut patch = PatchWriter::new();
        if let Some(lobby) = lobby
            && self.lobby != lobby
        {
            diff_lobby(&self.lobby, &lobby, &mut patch);
            self.lobby = lobby;
        }
        match (&mut self.game, game) {
            (None, None) => {}
            (old @ Some(_), None) => {
                patch.replace(&[GAME], &Value::Null);
                *old = None;
            }
            (old @ None, Some(new)) => {
                let new = PublishedGame::from(new);
                patch.replace(&[GAME], &new.as_ref());
                *old = Some(new);
            }
            (Some(old), Some(new)) => {
                if old.fields != new.fields {
                    diff_game_fields(&old.fields, &new.fields, &mut patch);
                    old.fields = new.fields;
                }
                if old.game != new.game {
                    let view = new.game.view();
                    diff_view(&old.view, &view, &mut patch);
                    old.view = view;
                    old.game = new.game;
                }
            }
        }
        if events.is_empty() && patch.is_empty() {
            return Vec::new();
        }
        self.version += 1;
        // The cached snapshot is of the version before: no one can be sent it any more. Kept, it would
        // stay for as long as the room is idle, ~4 KiB a room (the last connection's catch-up): with four
        // players a room, 1 KiB or more of server memory per idle player (BENCHMARKS.md, Load).
        self.snapshot = None;
        let message = messages::update(self.version, acted, events, patch.ops());
        if self.ring.len() == RING {
            self.ring.pop_front();
        }
        self.ring.push_back((self.version, message.clone()));
        self.broadcast(&message)
    }

    /// Queues `message` to every connection (to the relay once for all the relayed ones); returns
    /// those whose queue is full or closed. They stay registered: the room forgets them
    /// ([`super::room::Room::forget`]), which also counts them gone and starts their seat's away clock.
    pub fn broadcast(&mut self, message: &Outbound) -> Vec<ConnId> {
        self.broadcasts += 1;
        let mut dropped = Vec::new();
        for (&id, conn) in &self.conns {
            let Sink::Local(tx) = &conn.sink else {
                continue;
            };
            match tx.try_send(message.clone()) {
                Ok(()) => {}
                Err(TrySendError::Full(_)) => {
                    tracing::info!(conn = id, "disconnecting a client that is too slow");
                    dropped.push(id);
                }
                Err(TrySendError::Closed(_)) => dropped.push(id),
            }
        }
        if self.relayed > 0
            && !self.push(RelayOut::Broadcast {
                seq: self.broadcasts,
                message: message.clone(),
            })
        {
            tracing::warn!(
                "the relay to other nodes is too slow: dropping the room's sockets there"
            );
            dropped.extend(
                self.conns
                    .iter()
                    .filter(|(_, c)| matches!(c.sink, Sink::Relayed(_)))
                    .map(|(id, _)| *id),
            );
        }
        dropped
    }

    /// Queues `out` to the relay; `false` if it is too slow (or gone).
    fn push(&self, out: RelayOut) -> bool {
        self.relay.as_ref().is_some_and(|relay| relay.push(out))
    }

    /// The snapshot message for the current state (built once per version).
    pub fn snapshot(&mut self) -> Outbound {
        if let Some((version, snapshot)) = &self.snapshot
            && *version == self.version
        {
            return snapshot.clone();
        }
        let snapshot = messages::snapshot(self.version, &self.epoch, self.state_ref());
        self.snapshot = Some((self.version, snapshot.clone()));
        snapshot
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
        if let Sink::Relayed(relayed) = &conn.sink {
            self.relayed += 1;
            if self.relay.is_none() {
                self.relay = Some(relayed.publisher.open(&self.lobby.room.id));
            }
        }
        self.conns.insert(id, conn);
        id
    }

    /// Forgets a connection (its queue closes, which ends its writer; a relayed one's node is told).
    pub fn remove(&mut self, id: ConnId) -> Option<Conn> {
        let conn = self.conns.remove(&id)?;
        if let Sink::Relayed(relayed) = &conn.sink {
            self.relayed -= 1;
            self.push(RelayOut::To {
                gateway: relayed.gateway.clone(),
                session: relayed.session.clone(),
                after: self.broadcasts,
                message: None,
            });
        }
        Some(conn)
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

    /// Queues one message without waiting; false when the queue is full or closed (the room then
    /// forgets the connection, so one slow client never holds up the room).
    pub fn send(&mut self, id: ConnId, message: Outbound) -> bool {
        let Some(conn) = self.conns.get(&id) else {
            return true;
        };
        let tx = match &conn.sink {
            Sink::Local(tx) => tx,
            Sink::Relayed(relayed) => {
                let out = RelayOut::To {
                    gateway: relayed.gateway.clone(),
                    session: relayed.session.clone(),
                    after: self.broadcasts,
                    message: Some(message),
                };
                return self.push(out);
            }
        };
        match tx.try_send(message) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) => {
                tracing::info!(conn = id, "disconnecting a client that is too slow");
                false
            }
            Err(TrySendError::Closed(_)) => false,
        }
    }
}

impl From<GamePart> for PublishedGame {
    fn from(part: GamePart) -> Self {
        PublishedGame {
            view: part.game.view(),
            fields: part.fields,
            game: part.game,
        }
    }
}

impl PublishedGame {
    /// The `game` field of the public state.
    fn as_ref(&self) -> GameRef<'_> {
        let GameFields {
            id,
            seed_hash,
            seed,
            rolls,
            last_roll,
            deadline_ms,
            result,
        } = &self.fields;
        GameRef {
            id,
            seed_hash,
            seed: seed.as_deref(),
            rolls: *rolls,
            last_roll: *last_roll,
            deadline_ms: *deadline_ms,
            result: result.as_ref(),
            view: &self.view,
        }
    }
}

#[cfg(test)]
mod tests {
    use parchis_rules::{Mode, Phase, RuleSet};
    use tokio::sync::mpsc;

    use super::*;
    use crate::model::{Rating, RoomStatus};
    use crate::rooms::public_state::{LastRoll, RoomState, SeatState, SeatStatus};
    use crate::settings::RoomSettings;

    fn lobby(status: &str, connected: usize, spectators: usize) -> LobbyState {
        LobbyState {
            room: RoomState {
                id: "r1".into(),
                status: RoomStatus::parse(status).unwrap(),
                owner_id: "p0".into(),
                settings: RoomSettings {
                    rules: RuleSet::Ludoteka,
                    mode: Mode::Individual,
                    players: 4,
                    bots: vec![None; 4],
                    turn_time_secs: None,
                    preview_next_roll: false,
                    public: true,
                    quick_match: false,
                    house_rules: Default::default(),
                    draw_seats: false,
                    bot_pace: Default::default(),
                },
            },
            seats: (0..4)
                .map(|i| SeatState {
                    seat: i,
                    player_id: Some(format!("p{i}")),
                    local_of: None,
                    display_name: Some(format!("Player ~/{i}")),
                    rating: (i as usize >= connected).then(|| Rating::of(25.0 + i as f64, i)),
                    bot: None,
                    status: if (i as usize) < connected {
                        SeatStatus::Connected
                    } else {
                        SeatStatus::Away
                    },
                    bot_playing: false,
                    label: "x",
                })
                .collect(),
            spectators,
        }
    }

    fn fields(rolls: u64, over: bool) -> GameFields {
        GameFields {
            id: "g1".into(),
            seed_hash: "abc".into(),
            seed: over.then(|| "5eed".into()),
            rolls,
            // Made up from the count, as the deadline is: null before the first roll, then an object.
            last_roll: (rolls > 0).then(|| LastRoll {
                seat: (rolls % 4) as u8,
                die: (rolls % 6 + 1) as u8,
            }),
            deadline_ms: (!over).then_some(1_000 + rolls as i64),
            result: over.then(|| serde_json::json!({"winner_side": 0})),
        }
    }

    /// Publishes `parts` and checks that the update's patch turns the previous state into the new one.
    fn publish_and_check(
        hub: &mut Hub,
        rx: &mut mpsc::Receiver<Outbound>,
        events: &[Event],
        parts: PublicParts,
    ) {
        let before = hub.state();
        let version = hub.version();
        assert!(
            hub.publish(None, events, Some(parts.lobby), parts.game)
                .is_empty()
        );
        let after = hub.state();
        if hub.version() == version {
            assert_eq!(before, after, "nothing published but the state changed");
            return;
        }
        let Ok(Outbound::Text(text)) = rx.try_recv() else {
            panic!("no update queued")
        };
        let update: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(update["type"], "update");
        assert_eq!(update["version"], hub.version());
        assert_eq!(update["events"], serde_json::to_value(events).unwrap());
        let patch: json_patch::Patch = serde_json::from_value(update["patch"].clone()).unwrap();
        let mut doc = before;
        json_patch::patch(&mut doc, &patch).unwrap();
        assert_eq!(doc, after);
        // The snapshot is the same state.
        let Outbound::Text(snapshot) = hub.snapshot() else {
            panic!("snapshot is text")
        };
        let snapshot: Value = serde_json::from_str(&snapshot).unwrap();
        assert_eq!(snapshot["state"], after);
        assert_eq!(snapshot["version"], hub.version());
    }

    #[test]
    fn snapshots_of_one_version_share_one_copy_and_a_new_version_gets_its_own() {
        let mut hub = Hub::new(PublicParts {
            lobby: lobby("waiting", 0, 0),
            game: None,
        });
        let text = |o: Outbound| match o {
            Outbound::Text(t) => t,
            Outbound::Close(..) => panic!("snapshot is text"),
        };
        let first = text(hub.snapshot());
        let again = text(hub.snapshot());
        // A client asking again and again makes the server queue the same bytes, not new copies.
        assert_eq!(first.as_str().as_ptr(), again.as_str().as_ptr());
        hub.publish(None, &[], Some(lobby("waiting", 1, 0)), None);
        let newer = text(hub.snapshot());
        assert_ne!(first.as_str(), newer.as_str());
        let newer: Value = serde_json::from_str(&newer).unwrap();
        assert_eq!(newer["version"], hub.version());
        assert_eq!(newer["state"], hub.state());
    }

    #[test]
    fn a_snapshot_is_not_kept_once_its_version_is_past() {
        let mut hub = Hub::new(PublicParts {
            lobby: lobby("waiting", 0, 0),
            game: None,
        });
        // A connection's catch-up, then the presence update its arrival publishes.
        let _sent = hub.snapshot();
        hub.publish(None, &[], Some(lobby("waiting", 1, 0)), None);
        assert!(
            hub.snapshot.is_none(),
            "an idle room keeps a snapshot no one can be sent"
        );
    }

    #[test]
    fn patches_turn_each_state_into_the_next() {
        let mut hub = Hub::new(PublicParts {
            lobby: lobby("waiting", 0, 0),
            game: None,
        });
        let (tx, mut rx) = mpsc::channel(OUTBOUND_QUEUE);
        hub.add(Conn {
            sink: Sink::Local(tx),
            player_id: None,
            token_hash: None,
        });
        for connected in 1..=4 {
            let parts = PublicParts {
                lobby: lobby("waiting", connected, 1),
                game: None,
            };
            publish_and_check(&mut hub, &mut rx, &[], parts);
        }
        let mut game = Game::new(RuleSet::Ludoteka, Mode::Individual, 4).unwrap();
        let mut rolls = 0;
        let parts = |game: Game, rolls, status| PublicParts {
            lobby: lobby(status, 4, 1),
            game: Some(GamePart {
                fields: fields(rolls, game.is_over()),
                game,
            }),
        };
        publish_and_check(&mut hub, &mut rx, &[], parts(game, rolls, "playing"));
        // A reproducible pseudo-random game, checking every update.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..3_000 {
            if game.is_over() {
                break;
            }
            let events = if game.phase() == Phase::Roll {
                rolls += 1;
                game.roll(1 + (next() % 6) as u8).unwrap()
            } else {
                let moves = game.legal_moves();
                let mv = moves[(next() as usize) % moves.len()];
                game.play(mv).unwrap()
            };
            // Nothing changed: no update.
            publish_and_check(&mut hub, &mut rx, &[], parts(game, rolls, "playing"));
            publish_and_check(&mut hub, &mut rx, &events, parts(game, rolls, "playing"));
        }
        publish_and_check(&mut hub, &mut rx, &[], parts(game, rolls, "finished"));
        publish_and_check(
            &mut hub,
            &mut rx,
            &[],
            PublicParts {
                lobby: lobby("waiting", 2, 0),
                game: None,
            },
        );
    }
}

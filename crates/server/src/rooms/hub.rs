//! A room's fan-out: its connections, the versioned public state, and a
//! bounded ring of recent updates for reconnecting clients. Each update is
//! serialised once and the same bytes are queued to every connection.
//!
//! The public state is kept typed, in parts (room/seats/spectators, the game's
//! small fields, the game's [`View`]). An update compares each part with the
//! one last published as plain structs and writes RFC 6902 operations only for
//! the fields that differ, serialising just those values straight into the
//! message bytes: no `serde_json::Value` tree is built or diffed. The view is
//! rebuilt only when the game changed. The whole state is serialised only for
//! snapshots.

use std::collections::{HashMap, VecDeque};

use parchis_rules::view::{PieceView, TurnView};
use parchis_rules::{Event, Game, View};
use serde::Serialize;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;

use super::patch::{PatchWriter, Seg, into_text, write_json};
use super::protocol::Outbound;
use crate::model::Rating;
use crate::settings::{BotLevel, RoomSettings};

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
    /// Hash of the token it authenticated with: revoking that token closes it.
    pub token_hash: Option<String>,
}

/// The top-level fields of the public state other than `game`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LobbyState {
    /// `room`.
    pub room: RoomState,
    /// `seats`, in seat order.
    pub seats: Vec<SeatState>,
    /// `spectators`: connections that are not a seated player's.
    pub spectators: usize,
}

/// `room` of the public state.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoomState {
    /// Room id.
    pub id: String,
    /// `waiting`, `playing` or `finished`.
    pub status: String,
    /// Owner's player id.
    pub owner_id: String,
    /// The room's settings.
    pub settings: RoomSettings,
}

/// One entry of `seats`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeatState {
    /// Seat index.
    pub seat: i64,
    /// Seated human, if any.
    pub player_id: Option<String>,
    /// The player at whose device a person without a player of their own plays this seat (pass and
    /// play): that player's client shows the seat's turns as its own.
    pub local_of: Option<String>,
    /// Their display name (or the name given for the person playing at `local_of`'s device).
    pub display_name: Option<String>,
    /// Their rating in the room's rules (`None`: a bot, an empty seat, or no rated game yet).
    pub rating: Option<Rating>,
    /// Bot level of a bot seat.
    pub bot: Option<BotLevel>,
    /// `bot`, `empty`, `connected` or `away`.
    pub status: &'static str,
    /// Whether the server plays this seat (bot seat, or away player covered by a bot).
    pub bot_playing: bool,
    /// Text to show for the status.
    pub label: &'static str,
}

/// Fields of `game` other than `view`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameFields {
    /// Game id.
    pub id: String,
    /// Commitment to the seed.
    pub seed_hash: String,
    /// The seed, once the game is over.
    pub seed: Option<String>,
    /// Rolls made so far.
    pub rolls: u64,
    /// The latest roll, so that a client that connects (or reloads) shows the die the others see.
    pub last_roll: Option<LastRoll>,
    /// When the current decision's timer runs out, Unix ms.
    pub deadline_ms: Option<i64>,
    /// Result once finished.
    pub result: Option<Value>,
}

/// The latest roll of a game (`game.last_roll`): it stays the die shown after the move phase that
/// `view.turn.die` ends, e.g. while the seat that rolled a six rolls again or plays a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LastRoll {
    /// The seat that rolled.
    pub seat: u8,
    /// The die it rolled.
    pub die: u8,
}

/// The public state as the room builds it (see [`Hub`]).
#[derive(Debug)]
pub struct PublicParts {
    /// Top-level fields other than `game`.
    pub lobby: LobbyState,
    /// The game, if one was started.
    pub game: Option<GamePart>,
}

/// The `game` part of the public state.
#[derive(Debug)]
pub struct GamePart {
    /// Fields of `game` other than `view`.
    pub fields: GameFields,
    /// The game, whose `view()` is `game.view`.
    pub game: Game,
}

/// The last published game part, with its view built.
#[derive(Debug)]
struct PublishedGame {
    fields: GameFields,
    game: Game,
    view: View,
}

/// The public state as serialised (PROTOCOL.md §2 `snapshot.state`).
#[derive(Serialize)]
struct StateRef<'a> {
    room: &'a RoomState,
    seats: &'a [SeatState],
    spectators: usize,
    game: Option<GameRef<'a>>,
}

/// `game` as serialised.
#[derive(Serialize)]
struct GameRef<'a> {
    id: &'a str,
    seed_hash: &'a str,
    seed: Option<&'a str>,
    rolls: u64,
    last_roll: Option<LastRoll>,
    deadline_ms: Option<i64>,
    result: Option<&'a Value>,
    view: &'a View,
}

/// A `snapshot` message.
#[derive(Serialize)]
struct SnapshotRef<'a> {
    r#type: &'static str,
    version: u64,
    epoch: &'a str,
    state: StateRef<'a>,
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
}

const GAME: Seg = Seg::Key("game");
const VIEW: Seg = Seg::Key("view");

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
    /// changed): `lobby` is `None` when the caller knows it did not change,
    /// `game` is the game part (`None`: no game). Returns connections dropped
    /// for being too slow.
    pub fn publish(
        &mut self,
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
        let mut buf = Vec::with_capacity(patch.ops().len() + 64 + 96 * events.len());
        buf.extend_from_slice(b"{\"type\":\"update\",\"version\":");
        write_json(&mut buf, &self.version);
        buf.extend_from_slice(b",\"events\":");
        write_json(&mut buf, events);
        buf.extend_from_slice(b",\"patch\":[");
        buf.extend_from_slice(patch.ops());
        buf.extend_from_slice(b"]}");
        let message = Outbound::Text(into_text(buf));
        if self.ring.len() == RING {
            self.ring.pop_front();
        }
        self.ring.push_back((self.version, message.clone()));
        self.broadcast(&message)
    }

    /// Queues `message` to every connection; returns those whose queue is full or closed. They stay
    /// registered: the room forgets them ([`super::room::Room::forget`]), which also counts them gone
    /// and starts their seat's away clock.
    pub fn broadcast(&mut self, message: &Outbound) -> Vec<ConnId> {
        let mut dropped = Vec::new();
        for (&id, conn) in &self.conns {
            match conn.tx.try_send(message.clone()) {
                Ok(()) => {}
                Err(TrySendError::Full(_)) => {
                    tracing::info!(conn = id, "disconnecting a client that is too slow");
                    dropped.push(id);
                }
                Err(TrySendError::Closed(_)) => dropped.push(id),
            }
        }
        dropped
    }

    /// The snapshot message for the current state (built once per version).
    pub fn snapshot(&mut self) -> Outbound {
        if let Some((version, snapshot)) = &self.snapshot
            && *version == self.version
        {
            return snapshot.clone();
        }
        let mut buf = Vec::with_capacity(4096);
        write_json(
            &mut buf,
            &SnapshotRef {
                r#type: "snapshot",
                version: self.version,
                epoch: &self.epoch,
                state: self.state_ref(),
            },
        );
        let snapshot = Outbound::Text(into_text(buf));
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

    /// Queues one message without waiting; false when the queue is full or closed (the room then
    /// forgets the connection, so one slow client never holds up the room).
    pub fn send(&mut self, id: ConnId, message: Outbound) -> bool {
        let Some(conn) = self.conns.get(&id) else {
            return true;
        };
        match conn.tx.try_send(message) {
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

/// Patch of the top-level fields other than `game`.
fn diff_lobby(old: &LobbyState, new: &LobbyState, patch: &mut PatchWriter) {
    use Seg::{Index, Key};
    let LobbyState {
        room,
        seats,
        spectators,
    } = new;
    if old.room != *room {
        let RoomState {
            id,
            status,
            owner_id,
            settings,
        } = room;
        let r = Key("room");
        patch.replace_if(&[r, Key("id")], &old.room.id, id);
        patch.replace_if(&[r, Key("status")], &old.room.status, status);
        patch.replace_if(&[r, Key("owner_id")], &old.room.owner_id, owner_id);
        patch.replace_if(&[r, Key("settings")], &old.room.settings, settings);
    }
    if old.seats.len() == seats.len() {
        for (i, (o, n)) in old.seats.iter().zip(seats).enumerate() {
            patch.replace_if(&[Key("seats"), Index(i)], o, n);
        }
    } else {
        patch.replace(&[Key("seats")], seats);
    }
    patch.replace_if(&[Key("spectators")], &old.spectators, spectators);
}

/// Patch of `game`'s fields other than `view`.
fn diff_game_fields(old: &GameFields, new: &GameFields, patch: &mut PatchWriter) {
    use Seg::Key;
    let GameFields {
        id,
        seed_hash,
        seed,
        rolls,
        last_roll,
        deadline_ms,
        result,
    } = new;
    patch.replace_if(&[GAME, Key("id")], &old.id, id);
    patch.replace_if(&[GAME, Key("seed_hash")], &old.seed_hash, seed_hash);
    patch.replace_if(&[GAME, Key("seed")], &old.seed, seed);
    patch.replace_if(&[GAME, Key("rolls")], &old.rolls, rolls);
    patch.replace_if(&[GAME, Key("last_roll")], &old.last_roll, last_roll);
    patch.replace_if(&[GAME, Key("deadline_ms")], &old.deadline_ms, deadline_ms);
    patch.replace_if(&[GAME, Key("result")], &old.result, result);
}

/// Patch of `game.view`: only the pieces, turn fields and moves that changed.
fn diff_view(old: &View, new: &View, patch: &mut PatchWriter) {
    use Seg::Key;
    // Destructured so that a field added to `View` fails to compile here until handled.
    let View {
        rules,
        mode,
        board,
        options,
        seats,
        pieces,
        turn,
        legal_moves,
        notation,
    } = new;
    patch.replace_if(&[GAME, VIEW, Key("rules")], &old.rules, rules);
    patch.replace_if(&[GAME, VIEW, Key("mode")], &old.mode, mode);
    patch.replace_if(&[GAME, VIEW, Key("board")], &old.board, board);
    patch.replace_if(&[GAME, VIEW, Key("options")], &old.options, options);
    patch.replace_if(&[GAME, VIEW, Key("seats")], &old.seats, seats);
    if old.pieces.len() == pieces.len() {
        for (i, (o, n)) in old.pieces.iter().zip(pieces).enumerate() {
            if o != n {
                diff_piece(o, n, i, patch);
            }
        }
    } else {
        patch.replace(&[GAME, VIEW, Key("pieces")], pieces);
    }
    if old.turn != *turn {
        diff_turn(&old.turn, turn, patch);
    }
    patch.replace_if(
        &[GAME, VIEW, Key("legal_moves")],
        &old.legal_moves,
        legal_moves,
    );
    patch.replace_if(&[GAME, VIEW, Key("notation")], &old.notation, notation);
}

/// Patch of `game.view.pieces[i]`.
fn diff_piece(old: &PieceView, new: &PieceView, i: usize, patch: &mut PatchWriter) {
    use Seg::{Index, Key};
    let PieceView {
        id,
        colour,
        path_slot,
        place,
        last_arrived,
        in_blockade,
    } = new;
    let at = |key| [GAME, VIEW, Key("pieces"), Index(i), Key(key)];
    patch.replace_if(&at("id"), &old.id, id);
    patch.replace_if(&at("colour"), &old.colour, colour);
    patch.replace_if(&at("path_slot"), &old.path_slot, path_slot);
    patch.replace_if(&at("place"), &old.place, place);
    patch.replace_if(&at("last_arrived"), &old.last_arrived, last_arrived);
    patch.replace_if(&at("in_blockade"), &old.in_blockade, in_blockade);
}

/// Patch of `game.view.turn`.
fn diff_turn(old: &TurnView, new: &TurnView, patch: &mut PatchWriter) {
    use Seg::Key;
    let TurnView {
        seat,
        phase,
        queued_counts,
        sixes_in_a_row,
        first_roll,
        winner_side,
    } = new;
    if old.phase != *phase {
        // The phase is flattened into `turn` and its variants have different
        // fields: replace the whole (small) object.
        patch.replace(&[GAME, VIEW, Key("turn")], new);
        return;
    }
    let at = |key| [GAME, VIEW, Key("turn"), Key(key)];
    patch.replace_if(&at("seat"), &old.seat, seat);
    patch.replace_if(&at("queued_counts"), &old.queued_counts, queued_counts);
    patch.replace_if(&at("sixes_in_a_row"), &old.sixes_in_a_row, sixes_in_a_row);
    patch.replace_if(&at("first_roll"), &old.first_roll, first_roll);
    patch.replace_if(&at("winner_side"), &old.winner_side, winner_side);
}

#[cfg(test)]
mod tests {
    use parchis_rules::{Mode, Phase, RuleSet};

    use super::*;

    fn lobby(status: &str, connected: usize, spectators: usize) -> LobbyState {
        LobbyState {
            room: RoomState {
                id: "r1".into(),
                status: status.into(),
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
                        "connected"
                    } else {
                        "away"
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
            hub.publish(events, Some(parts.lobby), parts.game)
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
        hub.publish(&[], Some(lobby("waiting", 1, 0)), None);
        let newer = text(hub.snapshot());
        assert_ne!(first.as_str(), newer.as_str());
        let newer: Value = serde_json::from_str(&newer).unwrap();
        assert_eq!(newer["version"], hub.version());
        assert_eq!(newer["state"], hub.state());
    }

    #[test]
    fn patches_turn_each_state_into_the_next() {
        let mut hub = Hub::new(PublicParts {
            lobby: lobby("waiting", 0, 0),
            game: None,
        });
        let (tx, mut rx) = mpsc::channel(OUTBOUND_QUEUE);
        hub.add(Conn {
            tx,
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

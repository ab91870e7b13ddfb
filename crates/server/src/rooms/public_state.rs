//! The public state every client of a room sees (PROTOCOL.md §2 `snapshot.state`), kept typed in parts,
//! and how one published state is patched into the next: each part is compared with the one last
//! published as plain structs, and RFC 6902 operations are written only for the fields that differ.

use parchis_rules::Game;
use parchis_rules::View;
use parchis_rules::view::{PieceView, TurnView};
use serde::Serialize;
use serde_json::Value;

use super::patch::{PatchWriter, Seg};
use crate::model::{Rating, RoomStatus};
use crate::settings::{BotLevel, RoomSettings};

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
    /// Where the room is in its life.
    pub status: RoomStatus,
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
    pub status: SeatStatus,
    /// Whether the server plays this seat (bot seat, or away player covered by a bot).
    pub bot_playing: bool,
    /// Text to show for the status.
    pub label: &'static str,
}

/// How a seat is held, as clients see it (`seats[].status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatStatus {
    /// A bot plays it.
    Bot,
    /// Nobody sits there.
    Empty,
    /// Its person has a connection open.
    Connected,
    /// Its person has none (a bot may be covering for them: `bot_playing`).
    Away,
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

/// The public state as the room builds it (see `Hub`).
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

/// The public state as serialised (PROTOCOL.md §2 `snapshot.state`).
#[derive(Serialize)]
pub struct StateRef<'a> {
    pub room: &'a RoomState,
    pub seats: &'a [SeatState],
    pub spectators: usize,
    pub game: Option<GameRef<'a>>,
}

/// `game` as serialised.
#[derive(Serialize)]
pub struct GameRef<'a> {
    pub id: &'a str,
    pub seed_hash: &'a str,
    pub seed: Option<&'a str>,
    pub rolls: u64,
    pub last_roll: Option<LastRoll>,
    pub deadline_ms: Option<i64>,
    pub result: Option<&'a Value>,
    pub view: &'a View,
}

/// The path of `game`.
pub(super) const GAME: Seg = Seg::Key("game");
/// The path of `view` in `game`.
pub(super) const VIEW: Seg = Seg::Key("view");

/// Patch of the top-level fields other than `game`.
pub(super) fn diff_lobby(old: &LobbyState, new: &LobbyState, patch: &mut PatchWriter) {
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
pub(super) fn diff_game_fields(old: &GameFields, new: &GameFields, patch: &mut PatchWriter) {
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
pub(super) fn diff_view(old: &View, new: &View, patch: &mut PatchWriter) {
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
pub(super) fn diff_piece(old: &PieceView, new: &PieceView, i: usize, patch: &mut PatchWriter) {
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
pub(super) fn diff_turn(old: &TurnView, new: &TurnView, patch: &mut PatchWriter) {
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

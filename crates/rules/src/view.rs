//! The public view of a game, as JSON for servers and clients: every piece, the turn, and the legal moves
//! of the seat to act, so a client never computes a rule.

use crate::board::{BoardKind, Place};
use crate::colour::Colour;
use crate::event::PieceRef;
use crate::event::{Event, Events};
use crate::game::{Game, Phase};
use crate::mode::Mode;
use crate::moves::Move;
use crate::options::{Options, RuleSet};
use serde::{Deserialize, Serialize};

/// A serialisable snapshot of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View {
    /// The preset the game started from.
    pub rules: RuleSet,
    /// The mode.
    pub mode: Mode,
    /// The board: four colours (68 squares) or six (102 squares).
    pub board: BoardKind,
    /// Every option in force, house rules included (as JSON: option names to their texts, see [`Options`]).
    pub options: Options,
    /// Every seat, in turn order (index = seat number).
    pub seats: Vec<SeatView>,
    /// Every piece of the game, colour by colour in the layout's order, numbers ascending.
    pub pieces: Vec<PieceView>,
    /// Whose turn it is and what is due.
    pub turn: TurnView,
    /// The legal moves of the seat to act, in the order of [`Game::legal_moves`] (empty when a roll is due or
    /// the game is over).
    pub legal_moves: Vec<MoveView>,
    /// The position notation, to continue the game elsewhere (CLI, analysis).
    pub notation: String,
}

/// One seat of a [`View`]: the player sitting there, the colours it plays and its side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatView {
    /// The seat, 0-based in turn order.
    pub seat: u8,
    /// Its side (team), 0-based; seats of one side win together.
    pub side: u8,
    /// The colours the seat plays: one, or two in 1v1 and 6-piece.
    pub colours: Vec<Colour>,
}

/// One piece of a [`View`] and where it stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PieceView {
    /// The piece as moves name it (`y1`).
    pub id: PieceRef,
    /// Its colour.
    pub colour: Colour,
    /// Board slot whose exit and lane the piece uses (to draw lanes and goals).
    pub path_slot: u8,
    /// Where it stands: base, a circuit square, a lane square of `path_slot`'s lane, or the goal.
    pub place: Place,
    /// Arrived second on a shared square.
    pub last_arrived: bool,
    /// One of the two pieces of a blockade (nobody passes or lands there).
    pub in_blockade: bool,
}

/// The turn part of a [`View`]: who acts and what is due.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurnView {
    /// The seat to act, 0-based.
    pub seat: u8,
    /// What is due: a roll, a move with a die, a count, or the end (in JSON its fields sit beside `seat`:
    /// `"phase": "move", "die": 5`).
    #[serde(flatten)]
    pub phase: Phase,
    /// Counts waiting after the current one, in the order they will be played.
    pub queued_counts: Vec<u8>,
    /// Sixes rolled in a row this turn, 0..=2 (a third one is the three-sixes penalty, option `three_sixes`).
    pub sixes_in_a_row: u8,
    /// The seat to act still owes Morocco's special first roll (option `first_roll`).
    pub first_roll: bool,
    /// The winning side once the game is over, else `None`.
    pub winner_side: Option<u8>,
}

/// One legal move of a [`View`], for a client to offer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveView {
    /// Stable text form, to send back as the move.
    pub text: String,
    /// The piece that moves (for Morocco's first roll of a 5, the first of the two; `text` names both).
    pub piece: PieceRef,
    /// Where it stands now.
    pub from: Place,
    /// Where it goes.
    pub to: Place,
    /// The move captures ([`Move::captures`](crate::Move::captures)).
    pub captures: bool,
    /// The piece arrives at the goal.
    #[serde(default)]
    pub goal: bool,
    /// The piece stops on a safe circuit square (an exit, exit + 7 or exit − 5), where it cannot be captured.
    #[serde(default)]
    pub safe: bool,
    /// The move forms a blockade where the piece stops.
    #[serde(default)]
    pub blockade: bool,
    /// The count the move earns (20 for a capture, 10 for an arrival, as the options say; 0 for none).
    #[serde(default)]
    pub bonus: u8,
}

/// What a legal move does, read from the events playing it on a copy of the game produces: a client says
/// "captures, +20" without knowing a rule.
fn effects(game: &Game, m: Move, slot: u8, view: &mut MoveView) {
    let mut copy = *game;
    let mut events = Events::new();
    copy.play_unchecked_with(m, &mut events);
    for e in &events {
        match e {
            Event::ReachedGoal { .. } => view.goal = true,
            Event::BlockadeFormed { .. } => view.blockade = true,
            Event::BonusGranted { amount, .. } => view.bonus = view.bonus.saturating_add(*amount),
            _ => {}
        }
    }
    let board = game.board();
    view.safe = board
        .cell(slot, m.to)
        .is_some_and(|cell| board.is_circuit_cell(cell) && board.is_safe_cell(cell));
}

impl Game {
    /// The public view of this game.
    ///
    /// ```
    /// use parchis_rules::{Game, Mode, RuleSet};
    ///
    /// let mut game = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
    /// game.roll(5).unwrap();
    /// let json = serde_json::to_value(game.view()).unwrap();
    /// assert_eq!(json["turn"]["seat"], 0);
    /// assert_eq!(json["turn"]["phase"], "move");
    /// assert_eq!(json["turn"]["die"], 5);
    /// assert_eq!(json["legal_moves"][0]["text"], "y1:h-5"); // to send back as the move
    /// assert_eq!(json["options"]["six"], "7player");
    /// ```
    pub fn view(&self) -> View {
        let l = self.layout();
        let seats = (0..l.n_seats)
            .map(|s| SeatView {
                seat: s,
                side: l.side_of_seat[s as usize],
                colours: (0..l.n_colours)
                    .filter(|c| l.seat_colours[s as usize] & (1 << c) != 0)
                    .map(|c| l.colours[c as usize])
                    .collect(),
            })
            .collect();
        let pieces = (0..l.n_pieces())
            .map(|p| {
                let c = l.colour_of_piece(p);
                PieceView {
                    id: l.piece_ref(p),
                    colour: l.colours[c as usize],
                    path_slot: l.path_slot[c as usize],
                    place: self.place(p),
                    last_arrived: self.cell_pieces(p)[1] == Some(p),
                    in_blockade: self.in_blockade(p),
                }
            })
            .collect();
        let legal_moves = self
            .legal_moves()
            .iter()
            .map(|m| {
                let slot = l.path_slot[l.colour_of_piece(m.piece) as usize];
                let mut view = MoveView {
                    text: self.move_text(m),
                    piece: l.piece_ref(m.piece),
                    from: self.place(m.piece),
                    to: self.board().place(slot, m.to),
                    captures: m.captures(),
                    goal: false,
                    safe: false,
                    blockade: false,
                    bonus: 0,
                };
                effects(self, *m, slot, &mut view);
                view
            })
            .collect();
        View {
            rules: self.rules(),
            mode: self.mode(),
            board: self.board(),
            options: *self.options(),
            seats,
            pieces,
            turn: TurnView {
                seat: self.seat(),
                phase: self.phase(),
                queued_counts: self.queued_counts().to_vec(),
                sixes_in_a_row: self.sixes_in_a_row(),
                first_roll: self.first_roll_pending(self.seat()),
                winner_side: self.winner(),
            },
            legal_moves,
            notation: self.notation(),
        }
    }
}

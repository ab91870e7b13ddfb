//! The public view of a game, as JSON for servers and clients: every piece, the turn, and the legal moves
//! of the seat to act, so a client never computes a rule.

use crate::board::{BoardKind, Place};
use crate::colour::Colour;
use crate::event::PieceRef;
use crate::game::{Game, Phase};
use crate::mode::Mode;
use crate::options::{Options, RuleSet};
use serde::{Deserialize, Serialize};

/// A serialisable snapshot of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View {
    pub rules: RuleSet,
    pub mode: Mode,
    pub board: BoardKind,
    pub options: Options,
    pub seats: Vec<SeatView>,
    pub pieces: Vec<PieceView>,
    pub turn: TurnView,
    pub legal_moves: Vec<MoveView>,
    /// The position notation, to continue the game elsewhere (CLI, analysis).
    pub notation: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatView {
    pub seat: u8,
    pub side: u8,
    pub colours: Vec<Colour>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PieceView {
    pub id: PieceRef,
    pub colour: Colour,
    /// Board slot whose exit and lane the piece uses (to draw lanes and goals).
    pub path_slot: u8,
    pub place: Place,
    /// Arrived second on a shared square.
    pub last_arrived: bool,
    pub in_blockade: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurnView {
    pub seat: u8,
    #[serde(flatten)]
    pub phase: Phase,
    pub queued_counts: Vec<u8>,
    pub sixes_in_a_row: u8,
    pub first_roll: bool,
    pub winner_side: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveView {
    /// Stable text form, to send back as the move.
    pub text: String,
    pub piece: PieceRef,
    pub from: Place,
    pub to: Place,
    pub captures: bool,
}

impl Game {
    /// The public view of this game.
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
            .map(|m| MoveView {
                text: self.move_text(m),
                piece: l.piece_ref(m.piece),
                from: self.place(m.piece),
                to: self
                    .board()
                    .place(l.path_slot[l.colour_of_piece(m.piece) as usize], m.to),
                captures: m.captures(),
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

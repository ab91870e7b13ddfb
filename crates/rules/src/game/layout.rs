//! Who sits where: colours by index in turn order, their board slots, seats and sides, built once per game.

use super::{MAX_COLOURS, MAX_PIECES};
use crate::board::BoardKind;
use crate::colour::Colour;
use crate::error::SetupError;
use crate::event::PieceRef;
use crate::mode::{Mode, seat_plan, slot_colours};
use crate::options::{Options, RuleSet};

/// Who sits where: colours by index (in turn order), their board slots, seats and sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The board: four colours (68 squares) or six (102 squares).
    pub board: BoardKind,
    /// Colours in play, 2..=6; colour indices are `0..n_colours`.
    pub n_colours: u8,
    /// Pieces of each colour: 4 or 6 (6 in the 6-piece mode).
    pub pieces_per_colour: u8,
    /// The colour of each colour index, in board-slot order (counter-clockwise); entries from `n_colours` on
    /// mean nothing.
    pub colours: [Colour; MAX_COLOURS],
    /// The board slot whose base the colour has.
    pub home_slot: [u8; MAX_COLOURS],
    /// The board slot whose exit and lane the colour uses (differs with `shared_path`).
    pub path_slot: [u8; MAX_COLOURS],
    /// The seat that plays each colour index.
    pub seat_of_colour: [u8; MAX_COLOURS],
    /// Seats (players), 2..=6; seat numbers are `0..n_seats`, in turn order.
    pub n_seats: u8,
    /// Bit mask of colour indices played by each seat.
    pub seat_colours: [u8; MAX_COLOURS],
    /// The side (team) of each seat, 0-based: the seat itself in individual and quick, seat % 2 in pairs and
    /// 3 v 3, seat 0 and seat 1 in 1v1 and 6-piece. Seats of one side win together.
    pub side_of_seat: [u8; MAX_COLOURS],
    /// Colour index of each piece (a table: no division on the hot path).
    pub piece_colour: [u8; MAX_PIECES],
    /// Bit mask of the colours of each seat's partners (same side, other seats).
    pub partner_colours: [u8; MAX_COLOURS],
}

impl Layout {
    pub(super) fn new(
        rules: RuleSet,
        mode: Mode,
        players: u8,
        options: &Options,
    ) -> Result<Layout, SetupError> {
        let plan = seat_plan(rules, mode, players).ok_or(SetupError::PlayerCount {
            mode,
            players,
            allowed: mode.players(),
        })?;
        let board = mode.board();
        let names = slot_colours(rules, board);
        let mut slots: Vec<(u8, u8, u8)> = Vec::new(); // (slot, seat, path slot)
        for (seat, p) in plan.iter().enumerate() {
            for k in 0..p.n_slots as usize {
                let path = if options.shared_path {
                    p.slots[0]
                } else {
                    p.slots[k]
                };
                slots.push((p.slots[k], seat as u8, path));
            }
        }
        slots.sort_unstable();
        let mut l = Layout {
            board,
            n_colours: slots.len() as u8,
            pieces_per_colour: options.pieces_per_colour,
            colours: [Colour::Yellow; MAX_COLOURS],
            home_slot: [0; MAX_COLOURS],
            path_slot: [0; MAX_COLOURS],
            seat_of_colour: [0; MAX_COLOURS],
            n_seats: plan.len() as u8,
            seat_colours: [0; MAX_COLOURS],
            side_of_seat: [0; MAX_COLOURS],
            piece_colour: [0; MAX_PIECES],
            partner_colours: [0; MAX_COLOURS],
        };
        for p in 0..MAX_PIECES {
            l.piece_colour[p] = (p / options.pieces_per_colour as usize).min(MAX_COLOURS - 1) as u8;
        }
        if l.n_colours as usize * options.pieces_per_colour as usize > MAX_PIECES {
            return Err(SetupError::TooManyPieces);
        }
        for (ci, &(slot, seat, path)) in slots.iter().enumerate() {
            l.colours[ci] = names[slot as usize];
            l.home_slot[ci] = slot;
            l.path_slot[ci] = path;
            l.seat_of_colour[ci] = seat;
            l.seat_colours[seat as usize] |= 1 << ci;
        }
        for (seat, p) in plan.iter().enumerate() {
            l.side_of_seat[seat] = p.side;
        }
        for seat in 0..plan.len() {
            for other in (0..plan.len()).filter(|&o| o != seat && plan[o].side == plan[seat].side) {
                l.partner_colours[seat] |= l.seat_colours[other];
            }
        }
        Ok(l)
    }

    /// Pieces in the game (`n_colours × pieces_per_colour`); piece indices are `0..n_pieces`.
    pub fn n_pieces(&self) -> u8 {
        self.n_colours * self.pieces_per_colour
    }

    /// The colour index of a piece index.
    #[inline]
    pub fn colour_of_piece(&self, piece: u8) -> u8 {
        self.piece_colour[piece as usize]
    }

    /// The side of a colour index (the side of the seat that plays it).
    #[inline]
    pub fn side_of_colour(&self, ci: u8) -> u8 {
        self.side_of_seat[self.seat_of_colour[ci as usize] as usize]
    }

    /// The colour index of a colour, or `None` when that colour is not in this game.
    pub fn colour_index(&self, colour: Colour) -> Option<u8> {
        (0..self.n_colours).find(|&c| self.colours[c as usize] == colour)
    }

    /// The piece as moves and events name it (`y1`), from its index.
    pub fn piece_ref(&self, piece: u8) -> PieceRef {
        let c = self.colour_of_piece(piece);
        PieceRef {
            colour: self.colours[c as usize],
            number: piece - c * self.pieces_per_colour + 1,
        }
    }

    /// The piece index of a named piece, or `None` when its colour is not in the game or its number is not
    /// 1..=`pieces_per_colour`.
    pub fn piece_of_ref(&self, r: PieceRef) -> Option<u8> {
        let c = self.colour_index(r.colour)?;
        (r.number >= 1 && r.number <= self.pieces_per_colour)
            .then(|| c * self.pieces_per_colour + r.number - 1)
    }

    /// Sides (teams) in the game: one per player (2..=4) in individual and quick, else 2.
    pub fn n_sides(&self) -> u8 {
        self.side_of_seat[..self.n_seats as usize]
            .iter()
            .max()
            .map_or(0, |m| m + 1)
    }
}

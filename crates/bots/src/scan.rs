//! One pass over a game's pieces that both evaluations of the expert ([`crate::sharp`] and
//! [`crate::value`]) start from: who owns each piece, which circuit cell it stands on, where blockades
//! stand, who has pieces at home, and how far each seat moves with each face of the die.

use parchis_rules::{Game, Six};

use crate::eval::MAX_SIDES;

/// Most pieces on a board (six colours × four, or four colours × six).
const MAX_PIECES: usize = 24;

/// The pieces of a position, as the evaluations read them.
pub(crate) struct Scan {
    /// Number of pieces.
    pub n: usize,
    /// Number of seats.
    pub n_seats: usize,
    /// Stored position of the goal.
    pub goal: u8,
    /// Stored position of the last circuit square (beyond it: the lane).
    pub last: u8,
    /// Squares on the circuit.
    pub len: u8,
    /// Seat of each piece.
    pub seat: [u8; MAX_PIECES],
    /// Side of each piece.
    pub side: [u8; MAX_PIECES],
    /// Circuit cell of each piece (255 off the circuit).
    pub cell: [u8; MAX_PIECES],
    /// Circuit cells holding a blockade, one bit each.
    pub blocked: u128,
    /// Pieces at home per seat.
    pub seat_home: [u8; MAX_SIDES],
    /// Pieces at home per colour.
    pub colour_home: [u8; MAX_SIDES],
    /// The distance each seat moves with each face (index 1–6; 0: that face brings a piece out instead).
    pub dist: [[u8; 7]; MAX_SIDES],
}

impl Scan {
    /// Scans `g`.
    pub fn new(g: &Game) -> Scan {
        let l = g.layout();
        let b = g.board();
        let mut s = Scan {
            n: l.n_pieces() as usize,
            n_seats: l.n_seats as usize,
            goal: b.goal_pos(),
            last: b.last_circuit() + 1,
            len: b.circuit_len(),
            seat: [0; MAX_PIECES],
            side: [0; MAX_PIECES],
            cell: [255; MAX_PIECES],
            blocked: 0,
            seat_home: [0; MAX_SIDES],
            colour_home: [0; MAX_SIDES],
            dist: [[0; 7]; MAX_SIDES],
        };
        for p in 0..s.n {
            let c = l.colour_of_piece(p as u8);
            s.seat[p] = l.seat_of_colour[c as usize];
            s.side[p] = l.side_of_colour(c);
            let pos = g.raw_pos(p as u8);
            if pos == 0 {
                s.seat_home[s.seat[p] as usize] += 1;
                s.colour_home[c as usize] += 1;
            } else if pos <= s.last
                && let Some(x) = b.cell(l.path_slot[c as usize], pos)
            {
                s.cell[p] = x;
                if g.in_blockade(p as u8) {
                    s.blocked |= 1u128 << x;
                }
            }
        }
        let opts = g.options();
        for (seat, d) in s.dist.iter_mut().enumerate().take(s.n_seats) {
            let home = s.seat_home[seat];
            for face in 1..=6u8 {
                d[face as usize] = match face {
                    5 if opts.exit_mandatory && home > 0 => 0,
                    6 => match opts.six {
                        Six::SevenWhenNoneHome(_) if home == 0 => 7,
                        _ => 6,
                    },
                    _ => face,
                };
            }
        }
        s
    }
}

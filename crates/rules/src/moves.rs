//! A move, move lists on the stack, and the stable text form of moves (`y1:5-12`).

use crate::board::Place;
use crate::error::MoveParseError;
use crate::event::PieceRef;
use crate::game::Game;
use arrayvec::ArrayVec;
use std::fmt::Write as _;

/// Marks "no piece" in [`Move::companion`].
pub const NO_PIECE: u8 = 0xFF;

/// One legal action: a piece going from one stored position to another (see [`crate::board`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Piece index (colour index × pieces per colour + number − 1).
    pub piece: u8,
    /// Stored position before (0: base).
    pub from: u8,
    /// Stored position after.
    pub to: u8,
    /// Morocco's first roll of a 5: a second piece comes out five squares ahead ([`NO_PIECE`] otherwise).
    pub companion: u8,
    /// [`Move::CAPTURE`], [`Move::ENTER`]: facts about the move for bots and clients.
    pub flags: u8,
}

impl Move {
    /// Bit of [`Move::flags`]: the move captures (sends at least one piece back to base).
    pub const CAPTURE: u8 = 1;
    /// Bit of [`Move::flags`]: the move brings a piece out of base.
    pub const ENTER: u8 = 2;

    /// Whether the move captures: it lands on a capturable lone piece off the safe squares, or comes out onto
    /// an exit square where option `exit_capture` captures. A capture earns a count (`capture_bonus`).
    pub fn captures(&self) -> bool {
        self.flags & Move::CAPTURE != 0
    }
    /// Whether the move brings a piece out of base (onto its exit square, or past it on Morocco's first roll).
    pub fn enters(&self) -> bool {
        self.flags & Move::ENTER != 0
    }
    /// Squares travelled (0 for a piece coming out onto its exit square).
    pub fn distance(&self) -> u8 {
        if self.from == 0 {
            self.to.saturating_sub(1)
        } else {
            self.to - self.from
        }
    }
    /// Same action (flags are derived, so they are not compared).
    pub fn same_as(&self, other: &Move) -> bool {
        self.piece == other.piece && self.to == other.to && self.companion == other.companion
    }
}

/// Legal moves, on the stack. A seat moves at most 12 pieces (two colours of six), with two distances each
/// for Morocco's 12-or-6, plus two pieces coming out.
pub type MoveList = ArrayVec<Move, 32>;

impl Game {
    /// The text form of a move: `y1:5-12`, `y1:h-5`, `y1:63-l2`, `y1:l7-goal`, `b1:h-5+b2:h-10`.
    pub fn move_text(&self, m: &Move) -> String {
        let mut s = String::new();
        let one = |s: &mut String, piece: u8, from: u8, to: u8| {
            let c = self.layout.colour_of_piece(piece);
            let slot = self.layout.path_slot[c as usize];
            let b = self.board();
            let _ = write!(
                s,
                "{}:{}-{}",
                self.layout.piece_ref(piece),
                b.place(slot, from),
                b.place(slot, to)
            );
        };
        one(&mut s, m.piece, m.from, m.to);
        if m.companion != NO_PIECE {
            s.push('+');
            one(&mut s, m.companion, 0, 6);
        }
        s
    }

    /// Parses a move text against the legal moves. A bare piece (`y1`) is accepted when that piece has
    /// exactly one legal move.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let text = text.trim();
        let (main, companion) = match text.split_once('+') {
            Some((a, b)) => (a, Some(b)),
            None => (text, None),
        };
        let parse_one = |part: &str| -> Result<(u8, Option<(Place, Place)>), MoveParseError> {
            let (piece, route) = match part.split_once(':') {
                Some((p, r)) => (p, Some(r)),
                None => (part, None),
            };
            let r: PieceRef = piece
                .parse()
                .map_err(|_| MoveParseError::Syntax(text.to_string()))?;
            let idx = self
                .layout
                .piece_of_ref(r)
                .ok_or(MoveParseError::NoSuchPiece(r.to_string()))?;
            let route = match route {
                Some(route) => {
                    let (a, b) = route
                        .split_once('-')
                        .ok_or_else(|| MoveParseError::Syntax(text.to_string()))?;
                    let from: Place = a
                        .parse()
                        .map_err(|_| MoveParseError::Syntax(text.to_string()))?;
                    let to: Place = b
                        .parse()
                        .map_err(|_| MoveParseError::Syntax(text.to_string()))?;
                    Some((from, to))
                }
                None => None,
            };
            Ok((idx, route))
        };
        let (piece, route) = parse_one(main)?;
        let comp = companion.map(parse_one).transpose()?;
        let legal = self.legal_moves();
        let matches: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.piece == piece)
            .filter(|m| match route {
                Some((f, t)) => self.place(m.piece) == f && self.place_after(m) == t,
                None => true,
            })
            .filter(|m| match comp {
                Some((c, _)) => m.companion == c,
                None => m.companion == NO_PIECE || route.is_none(),
            })
            .collect();
        match matches.as_slice() {
            [m] => Ok(*m),
            [] => {
                // Not legal: build the move the text names, so `play` can say which rule forbids it.
                let Some((from, to)) = route else {
                    return Err(MoveParseError::NoLegalMoveForPiece(main.to_string()));
                };
                // A move from elsewhere is not this piece's move at all (`play` compares destinations).
                let at = self.place(piece);
                if from != at {
                    return Err(MoveParseError::PieceNotThere {
                        piece: self.layout.piece_ref(piece).to_string(),
                        at: at.to_string(),
                        said: from.to_string(),
                    });
                }
                let c = self.layout.colour_of_piece(piece);
                let to = self
                    .board()
                    .pos_of_place(self.layout.path_slot[c as usize], to)
                    .ok_or_else(|| MoveParseError::Syntax(text.to_string()))?;
                Ok(Move {
                    piece,
                    from: self.pos[piece as usize],
                    to,
                    companion: comp.map_or(NO_PIECE, |c| c.0),
                    flags: 0,
                })
            }
            _ => Err(MoveParseError::Ambiguous(text.to_string())),
        }
    }

    fn place_after(&self, m: &Move) -> Place {
        let c = self.layout.colour_of_piece(m.piece);
        self.board().place(self.layout.path_slot[c as usize], m.to)
    }
}

//! The validated game state: every piece, whose turn, the phase, and the helpers that keep its cells and
//! blockades consistent. Its parts live beside it: who sits where ([`Layout`]), the step generator
//! (`steps`), the stored legal moves and their in-place generator (`legal`), the general move generator
//! (`movegen`) and rolling and playing (`acting`).

mod acting;
mod layout;
mod legal;
mod movegen;
mod steps;

pub use layout::Layout;

use crate::board::{BoardKind, Place};
use crate::error::SetupError;
use crate::mode::Mode;
use crate::options::{Options, PartnerMoves, RuleSet, Start};
use legal::Legal;
use serde::{Deserialize, Serialize};

/// Most pieces a game can have: 6 colours × 4 or 4 colours × 6.
pub const MAX_PIECES: usize = 24;
/// Most colours (and seats) a game can have.
pub const MAX_COLOURS: usize = 6;
const NONE: u8 = 0xFF;
/// Entries of `Game::cells`: every `u8` (the board has `CELLS` cells, then `NOWHERE`).
pub(crate) const CELL_SLOTS: usize = 256;

/// Where the turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The seat to act must roll.
    Roll,
    /// The seat to act must move with this die (there is at least one legal move).
    Move {
        /// The face rolled, 1..=6 (a six may move 7 or 12: option `six`).
        die: u8,
    },
    /// The seat to act must play this count, 20 for a capture or 10 for an arrival in every preset (there is
    /// at least one legal move).
    Count {
        /// Squares to count, 1..=40 (options `capture_bonus` and `goal_bonus`).
        amount: u8,
    },
    /// The game is over; this side won.
    Over {
        /// The winning side, 0-based ([`Layout::side_of_seat`]).
        side: u8,
    },
}

/// A validated game: every piece, whose turn, the phase, the counts pending and the state of the sixes.
///
/// Every method keeps it valid: [`Game::roll`] and [`Game::play`] either apply a legal action and return its
/// events, or return an error and leave the game unchanged. It is `Copy`, so a bot can search by copying.
///
/// The die is an input. A roll with no legal move is resolved at once, and a six rolls again (Playgridia:
/// « Il fait aussi rejouer quand vous n'aviez aucun coup légal », RULES.md):
///
/// ```
/// use parchis_rules::{Event, Game, Mode, Phase, Place, RuleSet};
///
/// let mut game = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
/// // Every piece in base and a 6: no legal move (only a 5 brings a piece out), and yellow rolls again.
/// let events = game.roll(6).unwrap();
/// assert_eq!(
///     events.as_slice(),
///     [
///         Event::Rolled { seat: 0, die: 6 },
///         Event::NoLegalMove { seat: 0, die: 6 },
///         Event::ExtraRoll { seat: 0 },
///     ]
/// );
/// assert_eq!(game.phase(), Phase::Roll);
///
/// // A 5 must bring a piece out: it is the only legal move.
/// game.roll(5).unwrap();
/// assert_eq!(game.phase(), Phase::Move { die: 5 });
/// let legal = game.legal_moves();
/// assert_eq!(legal.len(), 1);
/// assert!(legal[0].enters());
/// let events = game.play(legal[0]).unwrap();
/// assert!(matches!(events[0], Event::Moved { from: Place::Home, to: Place::Square(5), .. }));
/// assert_eq!(events.last(), Some(&Event::TurnPassed { seat: 1 }));
/// assert_eq!(game.place(0), Place::Square(5)); // piece 0 is y1
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    pub(crate) rules: RuleSet,
    pub(crate) mode: Mode,
    pub(crate) players: u8,
    pub(crate) options: Options,
    pub(crate) layout: Layout,
    /// Stored position of each piece: 0 at home, progress + 1 on the path, `goal_pos` at the goal.
    pub(crate) pos: [u8; MAX_PIECES],
    /// The pieces on each cell (piece + 1, 0 empty), in arrival order: `[0]` came first.
    /// One entry per `u8`, so that a cell read from the path tables indexes it without a bounds check; the
    /// entries from `NOWHERE` on are always empty.
    pub(crate) cells: [[u8; 2]; CELL_SLOTS],
    /// Blockades along each board slot's path, as a mask indexed by stored position (circuit and lane):
    /// checking a move's way is one mask test. Updated only when a blockade forms or opens.
    pub(crate) path_blocked: [u128; MAX_COLOURS],
    pub(crate) seat: u8,
    pub(crate) phase: Phase,
    /// Sixes rolled in a row this turn.
    pub(crate) sixes: u8,
    /// Last piece moved this turn, counts included (Playgridia's penalty).
    pub(crate) last_moved: u8,
    /// Piece moved with the latest six (the penalty of Ludoteka and Morocco).
    pub(crate) last_six_moved: u8,
    /// That six move ended on a safe square or in a blockade (Morocco spares the piece then).
    pub(crate) last_six_spared: bool,
    /// A six was rolled: the seat rolls again once the counts are played.
    pub(crate) extra_roll: bool,
    /// Counts waiting after the current one, in order.
    pub(crate) queued: [u8; 4],
    pub(crate) n_queued: u8,
    /// Seats (bit mask) that have not made Morocco's special first roll yet.
    pub(crate) first_roll: u8,
    /// The legal moves of the current phase, generated once when the phase begins (derived state: a
    /// move or count is validated against it without generating again).
    pub(crate) legal: Legal,
    /// Derived from the layout and options: the roll's short path applies (see `Game::quick`).
    pub(crate) quick: bool,
    /// Derived: what a piece of each colour landing next to a lone piece off the safe squares does, by the
    /// lone piece's cell entry: bit `entry` captures it, bit `32 + entry` may not land (Morocco's mixed
    /// pairs). The step generator tests it without a branch.
    pub(crate) lone_landing: [u64; MAX_COLOURS],
    /// Derived: the landing row (`LANDING_ROWS`) of each piece's path, so that a move reaches its cells in one
    /// lookup from the piece rather than through its colour, its path's slot and the board.
    pub(crate) piece_row: [u8; MAX_PIECES],
}

/// Whether a piece of colour `mover` captures a lone piece of colour `victim` it lands on (off safe squares).
#[inline(always)]
fn capturable(layout: &Layout, options: &Options, mover: u8, victim: u8) -> bool {
    mover != victim
        && (options.capture_allies || layout.side_of_colour(mover) != layout.side_of_colour(victim))
}

impl Game {
    /// A new game at its start position, for a preset.
    pub fn new(rules: RuleSet, mode: Mode, players: u8) -> Result<Game, SetupError> {
        Game::with_options(rules, mode, players, rules.options_for(mode))
    }

    /// A new game with house-rule options.
    pub fn with_options(
        rules: RuleSet,
        mode: Mode,
        players: u8,
        options: Options,
    ) -> Result<Game, SetupError> {
        // Values `Options::set` never gives (the fields are public) are refused, not played.
        options.check()?;
        let layout = Layout::new(rules, mode, players, &options)?;
        if options.pieces_to_win == 0 || options.pieces_to_win > options.pieces_per_colour {
            return Err(SetupError::PiecesToWin);
        }
        let mut g = Game {
            rules,
            mode,
            players,
            options,
            layout,
            pos: [0; MAX_PIECES],
            cells: [[0; 2]; CELL_SLOTS],
            path_blocked: [0; MAX_COLOURS],
            seat: 0,
            phase: Phase::Roll,
            sixes: 0,
            last_moved: NONE,
            last_six_moved: NONE,
            last_six_spared: false,
            extra_roll: false,
            queued: [0; 4],
            n_queued: 0,
            first_roll: if options.first_roll {
                (1u8 << layout.n_seats) - 1
            } else {
                0
            },
            legal: Legal::EMPTY,
            quick: Game::quick(&layout, &options),
            lone_landing: Game::lone_landing(&layout, &options),
            piece_row: [0; MAX_PIECES],
        };
        for piece in 0..layout.n_pieces() {
            let slot = layout.path_slot[layout.colour_of_piece(piece) as usize];
            g.piece_row[piece as usize] = layout.board.landing_row_index(slot);
        }
        let starts: &[u8] = match options.start {
            Start::Home => &[],
            Start::OnExit(1) => &[0],
            Start::OnExit(_) => &[0, 0],
            Start::SafeSquares => &[0, 7, 12],
        };
        if starts.len() > options.pieces_per_colour as usize {
            return Err(SetupError::TooManyPieces);
        }
        for c in 0..layout.n_colours {
            for (k, &progress) in starts.iter().enumerate() {
                let piece = c * layout.pieces_per_colour + k as u8;
                // « un maximum de deux jetons » (seed 001), « Jamais plus de deux pions » (seed 002): a start
                // that would put a third piece on a square (two colours sharing a path, each starting two
                // pieces on its exit) is refused, not built.
                if g.cell_at(piece, progress + 1)
                    .is_some_and(|cell| g.cells[cell as usize][1] != 0)
                {
                    return Err(SetupError::TooManyPieces);
                }
                g.put(piece, progress + 1);
            }
        }
        Ok(g)
    }

    // ----- accessors -------------------------------------------------------------------------------

    /// The preset the game started from (its options may differ: [`Game::options`]).
    pub fn rules(&self) -> RuleSet {
        self.rules
    }
    /// The mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }
    /// The player count (seats), within [`Mode::players`].
    pub fn players(&self) -> u8 {
        self.players
    }
    /// Every option in force: the preset's for the mode, with any house rules.
    pub fn options(&self) -> &Options {
        &self.options
    }
    /// Who sits where: colours, seats, sides, and the index of each piece.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
    /// The board: four colours (68 squares) or six (102 squares).
    pub fn board(&self) -> BoardKind {
        self.layout.board
    }
    /// The seat to act.
    pub fn seat(&self) -> u8 {
        self.seat
    }
    /// What the seat to act must do now: roll, move with a die, play a count, or nothing (game over).
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// Whether a side has won ([`Phase::Over`]); no roll or move is accepted then.
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over { .. })
    }
    /// The winning side once the game is over, else `None`.
    pub fn winner(&self) -> Option<u8> {
        match self.phase {
            Phase::Over { side } => Some(side),
            _ => None,
        }
    }
    /// Sixes rolled in a row this turn, 0..=2 (the notation's `sixes=`; a third six triggers option
    /// `three_sixes`).
    pub fn sixes_in_a_row(&self) -> u8 {
        self.sixes
    }
    /// Counts waiting after the one being played.
    pub fn queued_counts(&self) -> &[u8] {
        &self.queued[..self.n_queued as usize]
    }
    /// Pieces in the game; piece indices (of [`Move::piece`](crate::Move::piece), [`Game::place`] …) are `0..n_pieces`.
    pub fn n_pieces(&self) -> u8 {
        self.layout.n_pieces()
    }
    /// Where a piece is.
    pub fn place(&self, piece: u8) -> Place {
        let c = self.layout.colour_of_piece(piece);
        self.board()
            .place(self.layout.path_slot[c as usize], self.pos[piece as usize])
    }
    /// The raw stored position of a piece (0 home, progress + 1, goal).
    pub fn raw_pos(&self, piece: u8) -> u8 {
        self.pos[piece as usize]
    }
    /// Whether the seat still has to make Morocco's special first roll.
    pub fn first_roll_pending(&self, seat: u8) -> bool {
        self.first_roll & (1 << seat) != 0
    }
    /// The pieces on `piece`'s square, `piece` included, in arrival order (`[1]` arrived last); `[None, None]`
    /// in base or at the goal, `[Some(piece), None]` alone.
    pub fn cell_pieces(&self, piece: u8) -> [Option<u8>; 2] {
        match self.cell_of(piece) {
            Some(cell) => self.cells[cell as usize].map(|p| p.checked_sub(1)),
            None => [None, None],
        }
    }
    /// Whether the piece is one of the two pieces of a blockade.
    pub fn in_blockade(&self, piece: u8) -> bool {
        self.cell_of(piece).is_some_and(|c| self.is_blockade(c))
    }
    /// Pieces of a colour index that have arrived.
    pub fn finished(&self, ci: u8) -> u8 {
        let goal = self.board().goal_pos();
        self.colour_pieces(ci)
            .filter(|&p| self.pos[p as usize] == goal)
            .count() as u8
    }

    // ----- geometry helpers ------------------------------------------------------------------------

    #[inline]
    fn colour_pieces(&self, ci: u8) -> std::ops::Range<u8> {
        let n = self.layout.pieces_per_colour;
        ci * n..ci * n + n
    }

    #[inline]
    pub(crate) fn cell_at(&self, piece: u8, pos: u8) -> Option<u8> {
        let c = self.layout.colour_of_piece(piece);
        self.board().cell(self.layout.path_slot[c as usize], pos)
    }

    #[inline]
    pub(crate) fn cell_of(&self, piece: u8) -> Option<u8> {
        self.cell_at(piece, self.pos[piece as usize])
    }

    #[inline]
    fn colour_on(&self, cell_entry: u8) -> u8 {
        self.layout.colour_of_piece(cell_entry - 1)
    }

    /// Whether the two pieces on a cell block it (kept up to date by `put` and `lift`).
    #[inline]
    pub(crate) fn is_blockade(&self, cell: u8) -> bool {
        let row = self.board().cell_positions(cell);
        match row.iter().position(|&p| p != 0) {
            Some(slot) => self.path_blocked[slot] >> row[slot] & 1 != 0,
            None => false,
        }
    }

    /// Marks or clears a blockade on a cell in the mask of every path through it.
    fn set_blockade(&mut self, cell: u8, on: bool) {
        let board = self.board();
        let row = &board.cell_positions(cell)[..board.slots() as usize];
        for (mask, &pos) in self.path_blocked.iter_mut().zip(row) {
            if pos != 0 {
                let bit = 1u128 << pos;
                if on {
                    *mask |= bit;
                } else {
                    *mask &= !bit;
                }
            }
        }
    }

    /// The blockade rule itself: two pieces of one colour (or allies on a safe square, where allowed).
    fn compute_blockade(&self, cell: u8) -> bool {
        let [a, b] = self.cells[cell as usize];
        if b == 0 {
            return false;
        }
        let board = self.board();
        if !board.is_circuit_cell(cell) && !self.options.lane_blockades {
            return false;
        }
        let (ca, cb) = (self.colour_on(a), self.colour_on(b));
        ca == cb
            || (self.options.allied_blockade_on_safe
                && board.is_safe_cell(cell)
                && self.layout.side_of_colour(ca) == self.layout.side_of_colour(cb))
    }

    #[inline]
    fn capturable(&self, mover: u8, victim: u8) -> bool {
        capturable(&self.layout, &self.options, mover, victim)
    }

    pub(crate) fn put(&mut self, piece: u8, pos: u8) {
        match self.cell_at(piece, pos) {
            Some(cell) => self.put_at(piece, pos, cell),
            None => self.pos[piece as usize] = pos,
        }
    }

    /// [`Game::put`] when the cell of `pos` is known.
    #[inline(always)]
    fn put_at(&mut self, piece: u8, pos: u8, cell: u8) {
        self.pos[piece as usize] = pos;
        let slot = &mut self.cells[cell as usize];
        if slot[0] == 0 {
            // Alone on its cell: no blockade, and the cell's bit was clear (an empty cell blocks nothing).
            slot[0] = piece + 1;
        } else {
            slot[1] = piece + 1;
            self.blockade_formed(cell);
        }
    }

    /// A second piece arrived on `cell`: marks the blockade if the two make one.
    #[inline(never)]
    fn blockade_formed(&mut self, cell: u8) {
        if self.compute_blockade(cell) {
            self.set_blockade(cell, true);
        }
    }

    fn lift(&mut self, piece: u8) {
        if let Some(cell) = self.cell_of(piece) {
            self.lift_at(piece, cell);
        }
    }

    /// [`Game::lift`] when the piece's cell is known. At most one piece is left: never a blockade.
    #[inline]
    fn lift_at(&mut self, piece: u8, cell: u8) {
        let slot = &mut self.cells[cell as usize];
        let was_full = slot[1] != 0;
        if slot[0] == piece + 1 {
            *slot = [slot[1], 0];
        } else {
            slot[1] = 0;
        }
        if was_full {
            self.set_blockade(cell, false);
        }
    }

    // ----- who controls what -----------------------------------------------------------------------

    #[inline]
    fn partner_colours(&self, seat: u8) -> u8 {
        self.layout.partner_colours[seat as usize]
    }

    fn all_finished(&self, mask: u8) -> bool {
        let goal = self.board().goal_pos();
        (0..self.layout.n_colours)
            .filter(|c| mask & (1 << c) != 0)
            .all(|c| self.colour_pieces(c).all(|p| self.pos[p as usize] == goal))
    }

    /// Colours the seat moves before considering "when stuck" help.
    #[inline]
    fn controlled(&self, seat: u8) -> u8 {
        let own = self.layout.seat_colours[seat as usize];
        if self.options.partner_moves == PartnerMoves::WhenFinished {
            let partners = self.partner_colours(seat);
            if partners != 0 && self.all_finished(own) {
                return partners;
            }
        }
        own
    }
}

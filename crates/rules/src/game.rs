//! The validated game state and its turn state machine: roll, legal moves, play.

use crate::board::{BoardKind, LANDING_ROW, LANDING_ROWS, NO_CELL, NOWHERE, Place};
use crate::colour::Colour;
use crate::error::{IllegalMove, PlayError, SetupError};
use crate::event::{Event, EventSink, Events, PieceRef};
use crate::mode::{Mode, seat_plan, slot_colours};
use crate::moves::{Move, MoveList, NO_PIECE};
use crate::options::{
    ExitCapture, Options, PartnerMoves, Penalty, RuleSet, Scope, Six, Start, Win,
};
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
    fn new(
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

const LEGAL_CAP: usize = 32;
const NO_MOVE: Move = Move {
    piece: NO_PIECE,
    from: 0,
    to: 0,
    companion: NO_PIECE,
    flags: 0,
};

/// The move list the generator fills (on the stack, nothing to initialise).
type Gen = MoveList;

/// The stored legal moves of the current phase: only the first `n` entries mean anything, and only they are
/// compared, hashed and shown (so storing a list is one short copy and clearing it is free).
#[derive(Clone, Copy)]
pub(crate) struct Legal {
    m: [Move; LEGAL_CAP],
    n: u8,
}

impl Legal {
    const EMPTY: Legal = Legal {
        m: [NO_MOVE; LEGAL_CAP],
        n: 0,
    };
    #[inline(always)]
    fn as_slice(&self) -> &[Move] {
        &self.m[..self.n as usize]
    }
}

impl PartialEq for Legal {
    fn eq(&self, other: &Legal) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Legal {}

impl std::hash::Hash for Legal {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl std::fmt::Debug for Legal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Whether a piece of colour `mover` captures a lone piece of colour `victim` it lands on (off safe squares).
#[inline(always)]
fn capturable(layout: &Layout, options: &Options, mover: u8, victim: u8) -> bool {
    mover != victim
        && (options.capture_allies || layout.side_of_colour(mover) != layout.side_of_colour(victim))
}

/// The squares a piece passes when it advances `distance` (ones in bits 0 ..= distance − 2), to test against a
/// path's blockade mask shifted to the square after the start.
#[inline(always)]
fn way_mask(distance: u8) -> u128 {
    WAY_MASKS[distance as usize]
}

/// `way_mask` of every distance: one load instead of a 128-bit shift (which the compiler would compute
/// ahead, for every roll, even when no blockade asks for it).
static WAY_MASKS: [u128; 256] = {
    let mut t = [0u128; 256];
    let mut d = 1;
    while d < 256 {
        t[d] = if d > 128 {
            u128::MAX
        } else {
            (1u128 << (d - 1)) - 1
        };
        d += 1;
    }
    t
};

/// The fields the step generator reads, borrowed apart from the stored move list so that the generator can
/// write the legal moves in place.
struct Steps<'a> {
    layout: &'a Layout,
    pos: &'a [u8; MAX_PIECES],
    cells: &'a [[u8; 2]; CELL_SLOTS],
    path_blocked: &'a [u128; MAX_COLOURS],
    lone_landing: &'a [u64; MAX_COLOURS],
}

/// What the steps of one colour by one distance share, computed once per colour.
struct Way {
    c: u8,
    distance: u8,
    goal: u8,
    /// The path's cells, `NOWHERE` (empty) at home, at the goal and past it.
    land: &'static [u8; LANDING_ROW],
    /// The board's safe cells.
    safe: &'static [bool; 256],
    /// `Game::lone_landing` of the colour.
    lone_landing: u64,
    /// The path's blockades (`Game::path_blocked`).
    blocked: u128,
    /// `way_mask(distance)` (only when `blocked` is not 0).
    /// Its low 64 bits only: a step or count is at most 40 (the largest bonus), so the way fits, and testing
    /// the low half of the shifted blockades spares half of a 128-bit shift.
    way: u64,
}

impl Steps<'_> {
    /// What a step of colour `c`'s pieces by `distance` is checked against (`way` still to be filled in
    /// when a blockade stands on the path).
    #[inline(always)]
    fn way_of(&self, c: u8, distance: u8) -> Way {
        let board = self.layout.board;
        let slot = self.layout.path_slot[c as usize];
        Way {
            c,
            distance,
            goal: board.goal_pos(),
            land: board.landing_row(slot),
            safe: board.safe_cells(),
            lone_landing: self.lone_landing[c as usize],
            blocked: self.path_blocked[slot as usize],
            way: 0,
        }
    }

    /// The moves of colour `c`'s pieces advancing exactly `distance`, written at `out[n..]` in piece order;
    /// returns the new count. The same rules as `Game::gen_steps` / `Game::step_on` (a piece at home or at
    /// the goal does not step, nor past the goal; no blockade on the way; no landing on a full square; a
    /// lone opponent off the safe squares is captured; Morocco's mixed pairs only on safe squares), written
    /// without branching on where each piece stands: a candidate is always stored and counted only when
    /// legal (only landing next to a lone piece takes a branch).
    #[inline(always)]
    fn push(&self, c: u8, distance: u8, out: &mut [Move; LEGAL_CAP], n: usize) -> usize {
        let mut w = self.way_of(c, distance);
        // Most of the time no blockade stands on the path: then the way needs no test.
        if w.blocked == 0 {
            self.pieces::<false>(&w, out, n)
        } else {
            w.way = way_mask(distance) as u64;
            self.pieces::<true>(&w, out, n)
        }
    }

    /// [`Steps::push`] for a colour known to have four pieces.
    #[inline(always)]
    fn push_four(&self, c: u8, distance: u8, out: &mut [Move; LEGAL_CAP], n: usize) -> usize {
        let mut w = self.way_of(c, distance);
        // A quick game bars no mixed pair (`Game::quick`).
        if w.blocked == 0 {
            self.four::<false, false>(&w, c * 4, out, n)
        } else {
            w.way = way_mask(distance) as u64;
            self.four::<true, false>(&w, c * 4, out, n)
        }
    }

    #[inline(always)]
    fn pieces<const BLOCKS: bool>(
        &self,
        w: &Way,
        out: &mut [Move; LEGAL_CAP],
        mut n: usize,
    ) -> usize {
        let per = self.layout.pieces_per_colour;
        let first = w.c * per;
        if per == 4 {
            n = self.four::<BLOCKS, true>(w, first, out, n);
        } else {
            for piece in first..first + per {
                n = self.one::<BLOCKS>(w, piece, out, n);
            }
        }
        n
    }

    /// [`Steps::pieces`] for four pieces: the four positions as the bytes of one word pick at once the
    /// pieces that step at all (not at home, not past the goal); all four are looked at and only those count.
    #[inline(always)]
    fn four<const BLOCKS: bool, const BARS: bool>(
        &self,
        w: &Way,
        first: u8,
        out: &mut [Move; LEGAL_CAP],
        mut n: usize,
    ) -> usize {
        const ONES: u32 = 0x0101_0101;
        const HIGHS: u32 = 0x8080_8080;
        let first = first as usize;
        let four = &self.pos[first..first + 4];
        let from = u32::from_le_bytes([four[0], four[1], four[2], four[3]]);
        // Every stored position and every target stays below 128 (goal ≤ 106, distance ≤ 20), so each byte's
        // high bit is free to hold the comparisons and no carry or borrow crosses bytes.
        let to = from + u32::from(w.distance) * ONES;
        let out_of_base = from.wrapping_add(0x7F * ONES) & HIGHS;
        let not_past_goal = (u32::from(w.goal | 0x80) * ONES).wrapping_sub(to) & HIGHS;
        let steps = out_of_base & not_past_goal;
        // All four, without a loop: how many pieces step is random, and a loop's exit mispredicted (wall clock
        // ~4 % less, though ~8 % more instructions).
        for k in 0..4 {
            let shift = 8 * k;
            let landed = self.land::<BLOCKS, BARS>(
                w,
                (first + k as usize) as u8,
                (from >> shift) as u8,
                (to >> shift) as u8,
                out,
                n,
            ) - n;
            n += landed & (steps >> (shift + 7)) as usize & 1;
        }
        n
    }

    /// A piece stepping from `from` to `to`: stored, and counted when no blockade bars the way and the
    /// landing is allowed (the caller checks that the piece is out of its base and does not pass the goal).
    /// No branch: a capture or a barred mixed pair is read from the colour's `lone_landing` mask by the
    /// landing cell's first entry (a mispredicted branch here cost more than the few instructions).
    #[inline(always)]
    fn land<const BLOCKS: bool, const BARS: bool>(
        &self,
        w: &Way,
        piece: u8,
        from: u8,
        to: u8,
        out: &mut [Move; LEGAL_CAP],
        n: usize,
    ) -> usize {
        let mut ok = true;
        if BLOCKS {
            // Stored positions from + 1 ..= to − 1 must hold no blockade.
            ok &= (w.blocked >> (from + 1)) as u64 & w.way == 0;
        }
        // The goal has no cell: nothing to land on (`NOWHERE` is always empty). A step past the goal reads
        // whatever cell the masked index gives, and is not counted.
        let cell = w.land[(to & 0x7F) as usize];
        let [a, b] = self.cells[cell as usize];
        ok &= b == 0;
        let lone = w.lone_landing >> (a & 31);
        let exposed = !w.safe[cell as usize];
        let captures = exposed & (lone & 1 != 0);
        if BARS {
            ok &= !(exposed & (lone >> 32 & 1 != 0));
        }
        // At most 30 moves are ever stored (six colours' four pieces and exits): the mask only drops the check.
        let slot = &mut out[n & (LEGAL_CAP - 1)];
        if BARS {
            *slot = Move {
                piece,
                from,
                to,
                companion: NO_PIECE,
                flags: u8::from(captures) * Move::CAPTURE,
            };
        } else {
            // A quick game (the only caller without bars) stores no move with a companion (that is Morocco's
            // first roll), so every stored entry's companion is already `NO_PIECE`: one store less per piece.
            debug_assert_eq!(slot.companion, NO_PIECE);
            slot.piece = piece;
            slot.from = from;
            slot.to = to;
            slot.flags = u8::from(captures) * Move::CAPTURE;
        }
        n + usize::from(ok)
    }

    /// Any piece of the colour stepping by the way's distance: [`Steps::land`], counted only when the piece
    /// is out of its base and does not pass the goal.
    #[inline(always)]
    fn one<const BLOCKS: bool>(
        &self,
        w: &Way,
        piece: u8,
        out: &mut [Move; LEGAL_CAP],
        n: usize,
    ) -> usize {
        let from = self.pos[piece as usize];
        let to = from + w.distance; // a piece at the goal overshoots it
        let steps = (from != 0) & (to <= w.goal);
        // `land` adds 0 or 1; keep it only when the piece steps at all (no branch).
        let landed = self.land::<BLOCKS, true>(w, piece, from, to, out, n) - n;
        n + (landed & usize::from(steps))
    }
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
    /// Pieces in the game; piece indices (of [`Move::piece`], [`Game::place`] …) are `0..n_pieces`.
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

    // ----- legal moves -----------------------------------------------------------------------------

    /// The legal moves of the seat to act (empty when it must roll or the game is over).
    pub fn legal_moves(&self) -> MoveList {
        self.legal().iter().copied().collect()
    }

    /// [`Game::legal_moves`] into a list the caller owns (cleared first).
    pub fn legal_moves_into(&self, out: &mut MoveList) {
        out.clear();
        out.extend(self.legal().iter().copied());
    }

    /// The legal moves of the seat to act, without copying them.
    #[inline]
    pub fn legal(&self) -> &[Move] {
        self.legal.as_slice()
    }

    /// Generates the legal moves of the current phase from scratch, as the game does once when a phase
    /// begins ([`Game::legal`] returns the stored result). Public for benchmarks and checks.
    pub fn generate_legal_moves(&self, out: &mut MoveList) {
        out.clear();
        match self.phase {
            Phase::Move { die } => self.die_moves(die, out),
            Phase::Count { amount } => self.count_moves(amount, out),
            _ => {}
        }
    }

    /// Stores the legal moves of the phase just entered.
    #[inline]
    fn set_legal(&mut self, moves: &Gen) {
        self.legal.m[..moves.len()].copy_from_slice(moves);
        self.legal.n = moves.len() as u8;
    }

    /// Recomputes the stored legal moves from the position (after building it from a setup).
    pub(crate) fn refresh_legal(&mut self) {
        let mut list = Gen::new();
        match self.phase {
            Phase::Move { die } => self.die_moves(die, &mut list),
            Phase::Count { amount } => self.count_moves(amount, &mut list),
            _ => {}
        }
        self.set_legal(&list);
    }

    #[inline]
    fn clear_legal(&mut self) {
        self.legal.n = 0;
    }

    /// The step moves of the colours in `mask` by `distance`, written in place into the stored list from
    /// entry `n`; returns the new count (the stored count is left to the caller).
    #[inline(always)]
    fn push_steps(&mut self, mask: u8, distance: u8, mut n: usize) -> usize {
        let steps = Steps {
            layout: &self.layout,
            pos: &self.pos,
            cells: &self.cells,
            path_blocked: &self.path_blocked,
            lone_landing: &self.lone_landing,
        };
        let mut bits = mask;
        while bits != 0 {
            let c = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            n = steps.push(c, distance, &mut self.legal.m, n);
        }
        n
    }

    /// Whether `store_die_moves` may generate this roll's moves in place: the cases where `gen_die` keeps
    /// every move it generates or only filters the blockade openings of a six (no first roll, no Morocco
    /// priorities, and for a six not the twelve).
    #[inline(always)]
    fn plain_die(&self, die: u8) -> bool {
        !self.first_roll_pending(self.seat)
            && !self.options.morocco_priorities
            && (die != 6 || self.options.six != Six::TwelveWhenAllInPlay)
    }

    /// Whether a six must open a blockade when it can (`gen_die`'s filter): only a circuit blockade can be
    /// opened (`opens_own_blockade`), and every circuit cell is on the path of slot 0 or slot 1.
    #[inline(always)]
    fn six_opens_blockades(&self, die: u8) -> bool {
        die == 6
            && self.options.must_open_blockade_on_six
            && (self.path_blocked[0] | self.path_blocked[1]) != 0
    }

    /// `gen_die`'s blockade filter on the `n` stored moves of the colours in `mask`: when some move opens a
    /// blockade of the seat's, only those are kept (in order); returns the new count.
    #[inline(never)]
    fn keep_blockade_openings(&mut self, mask: u8, n: usize) -> usize {
        let seat_mask = self.layout.seat_colours[self.seat as usize] | mask;
        let mut opening = 0u32;
        for (i, m) in self.legal.m[..n].iter().enumerate() {
            opening |= u32::from(self.opens_own_blockade(m, seat_mask)) << i;
        }
        self.keep_marked(opening, n)
    }

    /// Keeps, in order, the stored moves whose bit is set in `marked` (all `n` when none is); returns the count.
    #[inline(always)]
    fn keep_marked(&mut self, marked: u32, n: usize) -> usize {
        if marked == 0 {
            return n;
        }
        let mut kept = 0;
        for i in 0..n {
            if marked >> i & 1 != 0 {
                self.legal.m[kept] = self.legal.m[i];
                kept += 1;
            }
        }
        kept
    }

    /// [`Game::keep_blockade_openings`] for a `quick` game's colour `c`. No two seats share a side there, so
    /// every blockade is of one colour: a move opens one of its own exactly when it leaves a circuit square
    /// whose bit is set on its path (an exit move, from 0, never does).
    #[inline(never)]
    fn keep_own_blockade_openings(&mut self, c: u8, n: usize) -> usize {
        let circuit = (1u128 << (self.board().last_circuit() + 2)) - 2;
        let blocked = self.path_blocked[self.layout.path_slot[c as usize] as usize] & circuit;
        let mut opening = 0u32;
        for (i, m) in self.legal.m[..n].iter().enumerate() {
            opening |= ((blocked >> m.from) as u32 & 1) << i;
        }
        self.keep_marked(opening, n)
    }

    /// `gen_die` for a `plain_die`, written in place into the stored list; returns the count.
    #[inline(always)]
    fn push_die(&mut self, mask: u8, die: u8) -> usize {
        let mut n = 0;
        if die == 5 {
            let mut bits = mask;
            while bits != 0 {
                let c = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                if let Some(p) = self.first_home(c)
                    && let Some(m) = self.exit_move(p)
                {
                    self.legal.m[n] = m;
                    n += 1;
                }
            }
            if n != 0 && self.options.exit_mandatory {
                return n;
            }
        }
        if die == 6 {
            let mut bits = mask;
            while bits != 0 {
                let c = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                let (d, _) = self.six_distances(c);
                n = self.push_steps(1 << c, d, n);
            }
            n
        } else {
            self.push_steps(mask, die, n)
        }
    }

    /// `store_die_moves` through the general generator (kept out of the hot path).
    #[inline(never)]
    fn store_die_moves_general(&mut self, die: u8) -> bool {
        let mut moves = Gen::new();
        self.die_moves(die, &mut moves);
        self.set_legal(&moves);
        !moves.is_empty()
    }

    /// `store_count_moves` through the general generator (kept out of the hot path).
    #[inline(never)]
    fn store_count_moves_general(&mut self, amount: u8) -> bool {
        let mut moves = Gen::new();
        self.count_moves(amount, &mut moves);
        self.set_legal(&moves);
        !moves.is_empty()
    }

    /// Whether rolls may take the short path `store_quick_die_moves`: seat `s` plays colour `s` alone, with
    /// four pieces and no partners, and no first roll, Morocco priorities or twelve asks for more; no mixed
    /// pair is barred either, so that its steps skip that test.
    fn quick(layout: &Layout, options: &Options) -> bool {
        options.pieces_per_colour == 4
            && !options.first_roll
            && !options.mixed_pairs_only_on_safe
            && !options.morocco_priorities
            && options.six != Six::TwelveWhenAllInPlay
            && layout.n_seats == layout.n_colours
            && (0..layout.n_seats as usize)
                .all(|s| layout.seat_colours[s] == 1 << s && layout.partner_colours[s] == 0)
    }

    /// `Game::lone_landing`: the rules of `Steps::land` (and `Game::step_on`) for each colour and entry.
    fn lone_landing(layout: &Layout, options: &Options) -> [u64; MAX_COLOURS] {
        let mut masks = [0; MAX_COLOURS];
        for (mover, mask) in masks.iter_mut().enumerate().take(layout.n_colours as usize) {
            let mover = mover as u8;
            for piece in 0..layout.n_pieces() {
                let other = layout.colour_of_piece(piece);
                let entry = piece + 1;
                if other == mover {
                    continue;
                }
                if capturable(layout, options, mover, other) {
                    *mask |= 1 << entry;
                } else if options.mixed_pairs_only_on_safe {
                    *mask |= 1 << (32 + entry);
                }
            }
        }
        masks
    }

    /// `store_die_moves` for a `quick` game: the seat's one colour (its own index) and nobody to help.
    #[inline(always)]
    fn store_quick_die_moves(&mut self, die: u8) -> bool {
        let c = self.seat;
        let mut n = 0;
        if die == 5
            && let Some(p) = self.first_home(c)
            && let Some(m) = self.exit_move(p)
        {
            self.legal.m[0] = m;
            n = 1;
            if self.options.exit_mandatory {
                self.legal.n = 1;
                return true;
            }
        }
        // A quick game's seat is its colour, so both scopes of the seven ask the same (no twelve here).
        let distance = match self.options.six {
            Six::SevenWhenNoneHome(_) if die == 6 => 6 + u8::from(!self.any_home(c)),
            _ => die,
        };
        let steps = Steps {
            layout: &self.layout,
            pos: &self.pos,
            cells: &self.cells,
            path_blocked: &self.path_blocked,
            lone_landing: &self.lone_landing,
        };
        n = steps.push_four(c, distance, &mut self.legal.m, n);
        if self.six_opens_blockades(die) && n > 1 {
            n = self.keep_own_blockade_openings(c, n);
        }
        self.legal.n = n as u8;
        n != 0
    }

    /// Generates and stores the moves of a roll (the same list as `die_moves`); returns whether there is any.
    #[inline(always)]
    fn store_die_moves(&mut self, die: u8) -> bool {
        if self.quick {
            return self.store_quick_die_moves(die);
        }
        if !self.plain_die(die) {
            return self.store_die_moves_general(die);
        }
        let mut mask = self.controlled(self.seat);
        let mut n = self.push_die(mask, die);
        if self.options.partner_moves == PartnerMoves::WhenStuck && n == 0 {
            mask = self.partner_colours(self.seat);
            n = self.push_die(mask, die);
        }
        if self.six_opens_blockades(die) && n > 1 {
            n = self.keep_blockade_openings(mask, n);
        }
        self.legal.n = n as u8;
        n != 0
    }

    /// Generates and stores the moves of a count (the same list as `count_moves`); returns whether there is
    /// any.
    #[inline(always)]
    fn store_count_moves(&mut self, amount: u8) -> bool {
        if self.quick {
            let steps = Steps {
                layout: &self.layout,
                pos: &self.pos,
                cells: &self.cells,
                path_blocked: &self.path_blocked,
                lone_landing: &self.lone_landing,
            };
            let n = steps.push_four(self.seat, amount, &mut self.legal.m, 0);
            self.legal.n = n as u8;
            return n != 0;
        }
        if self.options.morocco_priorities {
            return self.store_count_moves_general(amount);
        }
        let mut n = self.push_steps(self.controlled(self.seat), amount, 0);
        if self.options.partner_moves == PartnerMoves::WhenStuck && n == 0 {
            n = self.push_steps(self.partner_colours(self.seat), amount, 0);
        }
        self.legal.n = n as u8;
        n != 0
    }

    #[inline]
    fn die_moves(&self, die: u8, out: &mut Gen) {
        if self.first_roll_pending(self.seat) {
            return self.first_roll_moves(die, out);
        }
        self.gen_die(self.controlled(self.seat), die, out);
        if out.is_empty() && self.options.partner_moves == PartnerMoves::WhenStuck {
            self.gen_die(self.partner_colours(self.seat), die, out);
        }
    }

    fn count_moves(&self, amount: u8, out: &mut Gen) {
        self.gen_count(self.controlled(self.seat), amount, out);
        if out.is_empty() && self.options.partner_moves == PartnerMoves::WhenStuck {
            self.gen_count(self.partner_colours(self.seat), amount, out);
        }
    }

    fn gen_count(&self, mask: u8, amount: u8, out: &mut Gen) {
        let mut bits = mask;
        while bits != 0 {
            let c = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            self.gen_steps(c, amount, out);
        }
        if self.options.morocco_priorities && out.iter().any(|m| m.captures()) {
            out.retain(|m| m.captures());
        }
    }

    /// Blockades along `slot`'s path as a mask indexed by stored position (circuit then lane).
    #[inline(always)]
    fn path_blockades(&self, slot: u8) -> u128 {
        self.path_blocked[slot as usize]
    }

    #[inline(always)]
    fn gen_steps(&self, c: u8, distance: u8, out: &mut Gen) {
        let goal = self.board().goal_pos();
        let slot = self.layout.path_slot[c as usize];
        let path = self.board().path_cells(slot);
        let blocked = self.path_blockades(slot);
        for p in self.colour_pieces(c) {
            let from = self.pos[p as usize];
            if from != 0
                && from != goal
                && let Some(m) = self.step_on(p, c, path, blocked, from, distance)
            {
                out.push(m);
            }
        }
    }

    /// Whether a piece of colour index `c` is in its base (four pieces: one zero-byte test on their positions).
    #[inline(always)]
    fn any_home(&self, c: u8) -> bool {
        let per = self.layout.pieces_per_colour as usize;
        let first = c as usize * per;
        if per == 4 {
            let four = &self.pos[first..first + 4];
            let x = u32::from_le_bytes([four[0], four[1], four[2], four[3]]);
            x.wrapping_sub(0x0101_0101) & !x & 0x8080_8080 != 0
        } else {
            self.pos[first..first + per].contains(&0)
        }
    }

    /// The first piece of colour index `c` in its base, if any (four pieces: one zero-byte search).
    #[inline(always)]
    fn first_home(&self, c: u8) -> Option<u8> {
        let per = self.layout.pieces_per_colour;
        if per == 4 {
            let first = c as usize * 4;
            let four = &self.pos[first..first + 4];
            let x = u32::from_le_bytes([four[0], four[1], four[2], four[3]]);
            // Stored positions are below 128: adding 0x7F sets a byte's high bit exactly when it is not 0.
            let home = !x.wrapping_add(0x7F7F_7F7F) & 0x8080_8080;
            (home != 0).then(|| c * 4 + (home.trailing_zeros() / 8) as u8)
        } else {
            self.colour_pieces(c).find(|&p| self.pos[p as usize] == 0)
        }
    }

    /// What a rolled six moves for a colour, with the second distance Morocco allows.
    #[inline(always)]
    fn six_distances(&self, c: u8) -> (u8, Option<u8>) {
        match self.options.six {
            Six::Six => (6, None),
            Six::SevenWhenNoneHome(scope) => {
                let mask = match scope {
                    Scope::Player => {
                        self.layout.seat_colours[self.layout.seat_of_colour[c as usize] as usize]
                    }
                    Scope::Colour => 1 << c,
                };
                let mut any_home = false;
                let mut bits = mask;
                while bits != 0 {
                    let k = bits.trailing_zeros() as u8;
                    bits &= bits - 1;
                    any_home |= self.any_home(k);
                }
                (if any_home { 6 } else { 7 }, None)
            }
            Six::TwelveWhenAllInPlay => {
                let goal = self.board().goal_pos();
                let mut all_in_play = true;
                for p in self.colour_pieces(c) {
                    let x = self.pos[p as usize];
                    all_in_play &= (x != 0) & (x != goal);
                }
                if all_in_play {
                    (12, Some(6))
                } else {
                    (6, None)
                }
            }
        }
    }

    #[inline(always)]
    fn gen_die(&self, mask: u8, die: u8, out: &mut Gen) {
        if die == 5 {
            let mut bits = mask;
            while bits != 0 {
                let c = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                if let Some(p) = self.first_home(c)
                    && let Some(m) = self.exit_move(p)
                {
                    out.push(m);
                }
            }
            if !out.is_empty() && self.options.exit_mandatory {
                return;
            }
        }
        let mut bits = mask;
        while bits != 0 {
            let c = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            if die == 6 {
                let (d, alt) = self.six_distances(c);
                self.gen_steps(c, d, out);
                if let Some(d2) = alt {
                    self.gen_steps(c, d2, out);
                }
            } else {
                self.gen_steps(c, die, out);
            }
        }
        if die != 6 && !self.options.morocco_priorities {
            return;
        }
        // Only a circuit blockade can be opened (`opens_own_blockade`), and every circuit cell is on the
        // path of slot 0 or slot 1: no blockade there, none to open.
        if die == 6
            && self.options.must_open_blockade_on_six
            && (self.path_blocked[0] | self.path_blocked[1]) != 0
        {
            let seat_mask = self.layout.seat_colours[self.seat as usize] | mask;
            if out.iter().any(|m| self.opens_own_blockade(m, seat_mask)) {
                out.retain(|m| self.opens_own_blockade(m, seat_mask));
            }
        }
        if self.options.morocco_priorities && out.iter().any(|m| m.captures()) {
            if out.iter().any(|m| m.captures() && m.distance() == 12) {
                out.retain(|m| m.captures() && m.distance() == 12);
            } else {
                out.retain(|m| m.captures());
            }
        }
        if die == 6 && self.options.six == Six::TwelveWhenAllInPlay {
            // A six moves twelve for a colour with all pieces in play; six only when no twelve is legal.
            let mut twelve = 0u8;
            for m in out.iter().filter(|m| m.distance() == 12) {
                twelve |= 1 << self.layout.colour_of_piece(m.piece);
            }
            out.retain(|m| {
                m.distance() == 12 || twelve & (1 << self.layout.colour_of_piece(m.piece)) == 0
            });
        }
    }

    /// Whether a move takes a piece off a circuit blockade made only of the given colours.
    #[inline(always)]
    fn opens_own_blockade(&self, m: &Move, mask: u8) -> bool {
        let slot = self.layout.path_slot[self.layout.colour_of_piece(m.piece) as usize];
        // Circuit squares are stored positions 1 ..= last_circuit + 1; a blockade is marked on every path
        // through its cell, so on the piece's own path at its position.
        let on_circuit = m.from != 0 && m.from <= self.board().last_circuit() + 1;
        if !on_circuit || self.path_blocked[slot as usize] >> m.from & 1 == 0 {
            return false;
        }
        let cell = self.board().path_cells(slot)[m.from as usize];
        let [a, b] = self.cells[cell as usize];
        mask & (1 << self.colour_on(a)) != 0 && mask & (1 << self.colour_on(b)) != 0
    }

    /// A piece leaving its base onto its exit square, if allowed.
    #[inline(always)]
    fn exit_move(&self, piece: u8) -> Option<Move> {
        let cell = self.cell_at(piece, 1)? as usize;
        let c = self.layout.colour_of_piece(piece);
        let [a, b] = self.cells[cell];
        let mut flags = 0;
        match self.options.exit_capture {
            ExitCapture::Never => {
                if b != 0 {
                    return None;
                }
            }
            ExitCapture::LastArrivedWhenFull => {
                if b != 0 {
                    if !(self.capturable(c, self.colour_on(b))
                        || self.capturable(c, self.colour_on(a)))
                    {
                        return None;
                    }
                    flags = Move::CAPTURE;
                }
            }
            ExitCapture::AllOpponents => {
                let victims = [a, b]
                    .iter()
                    .filter(|&&x| x != 0 && self.capturable(c, self.colour_on(x)))
                    .count();
                let stay = [a, b].iter().filter(|&&x| x != 0).count() - victims;
                if stay >= 2 {
                    return None;
                }
                if victims > 0 {
                    flags = Move::CAPTURE;
                }
                if stay == 1 && victims == 0 && self.options.mixed_pairs_only_on_safe {
                    // exit squares are safe: allied pairs allowed there
                }
            }
        }
        Some(Move {
            piece,
            from: 0,
            to: 1,
            companion: NO_PIECE,
            flags: flags | Move::ENTER,
        })
    }

    /// A piece at `from` advancing exactly `distance`, if no blockade is in the way and it can land.
    fn step(&self, piece: u8, from: u8, distance: u8) -> Option<Move> {
        let c = self.layout.colour_of_piece(piece);
        let slot = self.layout.path_slot[c as usize];
        let path = self.board().path_cells(slot);
        self.step_on(piece, c, path, self.path_blockades(slot), from, distance)
    }

    /// [`Game::step`] with the colour, its path and its path's blockades (`path_blockades`) at hand.
    #[inline(always)]
    fn step_on(
        &self,
        piece: u8,
        c: u8,
        path: &[u8; crate::board::PATH_POSITIONS],
        blocked: u128,
        from: u8,
        distance: u8,
    ) -> Option<Move> {
        let board = self.board();
        let goal = board.goal_pos();
        let to = from + distance;
        if to > goal {
            return None;
        }
        // A blockade on any stored position from + 1 ..= to − 1 (circuit or lane) bars the way.
        if (blocked >> (from + 1)) & way_mask(distance) != 0 {
            return None;
        }
        let mut flags = 0;
        if to != goal {
            let cell = path[to as usize];
            let [a, b] = self.cells[cell as usize];
            if b != 0 {
                return None;
            }
            if a != 0 {
                let o = self.colour_on(a);
                if o != c {
                    let safe = board.is_safe_cell(cell);
                    if !safe && self.capturable(c, o) {
                        flags |= Move::CAPTURE;
                    } else if !safe && self.options.mixed_pairs_only_on_safe {
                        return None;
                    }
                }
            }
        }
        Some(Move {
            piece,
            from,
            to,
            companion: NO_PIECE,
            flags,
        })
    }

    /// Morocco's first roll: the principal colour's first piece comes out and advances the die; a 5 brings
    /// two out, one on the exit and one five squares further.
    fn first_roll_moves(&self, die: u8, out: &mut Gen) {
        let mask = self.layout.seat_colours[self.seat as usize];
        let principal = mask.trailing_zeros() as u8;
        let mut home = self
            .colour_pieces(principal)
            .filter(|&p| self.pos[p as usize] == 0);
        let Some(first) = home.next() else { return };
        if die == 5 {
            if let (Some(m), Some(second)) = (self.exit_move(first), home.next())
                && let Some(s) = self.step(second, 1, 5)
            {
                out.push(Move {
                    companion: second,
                    flags: m.flags | s.flags,
                    ..m
                });
            }
        } else if let Some(m) = self.step(first, 0, die + 1) {
            // From the base, the exit square included (stored position 1): the piece comes out on its exit and
            // advances, so a blockade on the exit stops it (« Un pion ne peut jamais traverser un barrage »).
            out.push(Move {
                from: 0,
                flags: m.flags | Move::ENTER,
                ..m
            });
        }
    }

    // ----- acting ----------------------------------------------------------------------------------

    /// Rolls the die for the seat to act. Resolves a roll with no legal move (and the three-sixes penalty)
    /// at once, so the game always waits at a decision: roll, move, count, or over.
    pub fn roll(&mut self, die: u8) -> Result<Events, PlayError> {
        let mut ev = Events::new();
        self.roll_with(die, &mut ev)?;
        Ok(ev)
    }

    /// [`Game::roll`] with the events pushed into a sink the caller owns ([`NoEvents`](crate::NoEvents) to
    /// skip them: the same rules, without building events).
    #[inline(always)]
    pub fn roll_with<S: EventSink>(&mut self, die: u8, ev: &mut S) -> Result<(), PlayError> {
        match self.phase {
            Phase::Roll => {}
            Phase::Over { .. } => return Err(PlayError::GameOver),
            _ => return Err(PlayError::MustMove),
        }
        if !(1..=6).contains(&die) {
            return Err(PlayError::BadDie(die));
        }
        if S::ENABLED {
            ev.push(Event::Rolled {
                seat: self.seat,
                die,
            });
        }
        // A quick game has no first roll.
        let first = !self.quick && self.first_roll_pending(self.seat);
        if die == 6 && !first {
            self.sixes += 1;
            if self.sixes >= 3 {
                if self.options.three_sixes != Penalty::Off {
                    self.three_sixes_penalty(ev);
                    self.extra_roll = false;
                    self.n_queued = 0;
                    self.pass_turn(ev);
                    return Ok(());
                }
                // Without the penalty (a house rule) a third six is an ordinary one: the count stays at two,
                // all that any rule asks of it (and all that the notation holds).
                self.sixes = 2;
            }
            self.extra_roll = true;
            self.last_six_moved = NONE;
            self.last_six_spared = false;
        } else {
            self.sixes = 0;
            self.extra_roll = false;
        }
        if !self.store_die_moves(die) {
            if S::ENABLED {
                ev.push(Event::NoLegalMove {
                    seat: self.seat,
                    die,
                });
            }
            self.first_roll &= !(1 << self.seat);
            self.advance(ev);
        } else {
            self.phase = Phase::Move { die };
        }
        Ok(())
    }

    #[cold]
    fn three_sixes_penalty<S: EventSink>(&mut self, ev: &mut S) {
        let piece = match self.options.three_sixes {
            Penalty::Off => NONE,
            Penalty::LastMoved => self.last_moved,
            Penalty::MovedWithSecondSix => self.last_six_moved,
        };
        let mut sent = None;
        if piece != NONE {
            let pos = self.pos[piece as usize];
            let on_circuit = pos != 0 && pos <= self.board().last_circuit() + 1;
            // Morocco: "s'il avait terminé son déplacement sur une case sûre ou dans un barrage" — judged where
            // its six move ended (LastMoved has no such record: judged where it stands).
            let spared = self.options.penalty_spares_safe_and_blockade
                && if self.options.three_sixes == Penalty::MovedWithSecondSix {
                    self.last_six_spared
                } else {
                    self.ends_safe(piece)
                };
            if on_circuit && !spared {
                let from = self.place(piece);
                self.lift(piece);
                self.pos[piece as usize] = 0;
                sent = Some((self.layout.piece_ref(piece), from));
            }
        }
        if S::ENABLED {
            ev.push(Event::ThreeSixes {
                seat: self.seat,
                sent_home: sent.map(|s| s.0),
                from: sent.map(|s| s.1),
            });
        }
    }

    /// The die (or count) of the move phase and whether it is a count; the refusal when no move is due.
    #[inline(always)]
    fn move_phase(&self) -> Result<(u8, bool), PlayError> {
        match self.phase {
            Phase::Move { die } => Ok((die, false)),
            Phase::Count { amount } => Ok((amount, true)),
            Phase::Roll => Err(PlayError::MustRoll),
            Phase::Over { .. } => Err(PlayError::GameOver),
        }
    }

    /// Plays a move of the seat to act. An illegal move returns an error and changes nothing.
    ///
    /// The error names the rule the move breaks. Here yellow has a 5 and pieces in base, so bringing one out
    /// is the only legal move (RULES.md, `exit_mandatory`):
    ///
    /// ```
    /// use parchis_rules::{Game, IllegalMove, PlayError};
    ///
    /// let line = "playgridia individual/4 y:12,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 move:5 \
    ///             sixes=0,last=-,six=-,extra=0,first=-";
    /// let mut game: Game = line.parse().unwrap();
    /// assert_eq!(game.legal_texts(), ["y2:h-5"]);
    ///
    /// let before = game;
    /// let mv = game.parse_move("y1:12-17").unwrap(); // readable, but not legal
    /// let err = game.play(mv).unwrap_err();
    /// assert_eq!(err, PlayError::Illegal(IllegalMove::MustBringPieceOut));
    /// assert_eq!(err.code(), "must_bring_piece_out");
    /// assert_eq!(game, before); // unchanged
    /// ```
    pub fn play(&mut self, mv: Move) -> Result<Events, PlayError> {
        let mut ev = Events::new();
        self.play_with(mv, &mut ev)?;
        Ok(ev)
    }

    /// [`Game::play`] with the events pushed into a sink the caller owns ([`NoEvents`](crate::NoEvents) to
    /// skip them: the same rules and checks, without building events).
    #[inline]
    pub fn play_with<S: EventSink>(&mut self, mv: Move, ev: &mut S) -> Result<(), PlayError> {
        let (die, count) = self.move_phase()?;
        let legal = self.legal();
        let Some(m) = legal.iter().copied().find(|m| m.same_as(&mv)) else {
            return Err(PlayError::Illegal(self.why_illegal(&mv, legal)));
        };
        self.apply_legal(m, die, count, ev);
        Ok(())
    }

    /// Plays a move taken from [`Game::legal_moves`] of this very position, without checking it again.
    ///
    /// For simulations and search, where the move list was just generated. Passing any other move breaks the
    /// rules (checked in debug builds only); use [`Game::play`] for anything that comes from a player.
    pub fn play_unchecked(&mut self, m: Move) -> Events {
        let mut ev = Events::new();
        self.play_unchecked_with(m, &mut ev);
        ev
    }

    /// [`Game::play_unchecked`] with the events pushed into a sink the caller owns
    /// ([`NoEvents`](crate::NoEvents) to skip them).
    #[inline]
    pub fn play_unchecked_with<S: EventSink>(&mut self, m: Move, ev: &mut S) {
        debug_assert!(
            self.legal().contains(&m),
            "play_unchecked: not a move of `legal()` (flags included: a capture is played by its flag)"
        );
        let Ok((die, count)) = self.move_phase() else {
            return;
        };
        self.apply_legal(m, die, count, ev);
    }

    /// Plays the move at `index` in [`Game::legal`]: the way for simulations and search to play the move they
    /// picked by number (its fields are read where the generator stored them, with no copy of the move on the
    /// way; `play_unchecked(legal()[i])` plays the same move). An index past the end is an error and changes
    /// nothing.
    pub fn play_legal(&mut self, index: usize) -> Result<Events, PlayError> {
        let mut ev = Events::new();
        self.play_legal_with(index, &mut ev)?;
        Ok(ev)
    }

    /// [`Game::play_legal`] with the events pushed into a sink the caller owns
    /// ([`NoEvents`](crate::NoEvents) to skip them).
    #[inline]
    pub fn play_legal_with<S: EventSink>(
        &mut self,
        index: usize,
        ev: &mut S,
    ) -> Result<(), PlayError> {
        let (die, count) = self.move_phase()?;
        if index >= self.legal.n as usize {
            return Err(PlayError::NoSuchMove);
        }
        // `index < n ≤ LEGAL_CAP`: the mask changes nothing and spares a second bounds check.
        let stored = &self.legal.m[index & (LEGAL_CAP - 1)];
        // Field by field: a copy of the whole move makes the compiler load it as one word and take the piece
        // out of it, a longer wait at the head of the move's chain of loads (~3 % of a random game).
        let m = Move {
            piece: stored.piece,
            from: stored.from,
            to: stored.to,
            companion: stored.companion,
            flags: stored.flags,
        };
        self.apply_legal(m, die, count, ev);
        Ok(())
    }

    #[inline]
    fn apply_legal<S: EventSink>(&mut self, m: Move, die: u8, count: bool, ev: &mut S) {
        // Only Morocco asks; its test of the die is kept out of line, so that no other game branches on
        // the die twice per move (the compiler hoisted a six test here ahead of the option).
        let loses_reroll = self.options.morocco_priorities && self.six_loses_reroll(m, die, count);
        let first = !count && !self.quick && self.first_roll_pending(self.seat);
        self.apply(m, count, ev);
        if let Some(second) = (m.companion != NO_PIECE).then_some(m.companion) {
            self.apply(
                Move {
                    piece: second,
                    from: 0,
                    to: 6,
                    companion: NO_PIECE,
                    flags: Move::ENTER,
                },
                false,
                ev,
            );
        }
        if first {
            self.first_roll &= !(1 << self.seat);
        }
        if !count && die == 6 {
            self.last_six_moved = m.piece;
            self.last_six_spared = self.ends_safe(m.piece);
        }
        if loses_reroll && self.extra_roll {
            self.extra_roll = false;
            if S::ENABLED {
                ev.push(Event::RerollLost { seat: self.seat });
            }
        }
        if !self.is_over() {
            self.advance(ev);
        }
    }

    /// Whether move `m` of colour `c`, landing on `to_cell` that holds `[a, b]`, captures a lone piece there.
    #[inline(always)]
    fn captures_lone(&self, m: Move, c: u8, [a, b]: [u8; 2], to_cell: u8) -> bool {
        if self.quick {
            // The generator's flag (a quick game's moves are all its own): one branch, taken when the move
            // captures, rather than a chain on the landing cell.
            m.flags & Move::CAPTURE != 0
        } else {
            a != 0
                && b == 0
                && !self.board().is_safe_cell(to_cell)
                && self.capturable(c, self.colour_on(a))
        }
    }

    /// [`Game::loses_reroll`] for a move of a six (not a count).
    #[inline(never)]
    fn six_loses_reroll(&self, m: Move, die: u8, count: bool) -> bool {
        !count && die == 6 && self.loses_reroll(m)
    }

    /// Morocco: a capture by 6 forfeits the re-roll when a 12 was legal (for the colour, or for the player
    /// when the capture opens a blockade).
    fn loses_reroll(&self, m: Move) -> bool {
        if !self.options.morocco_priorities || !m.captures() || m.distance() != 6 {
            return false;
        }
        let c = self.layout.colour_of_piece(m.piece);
        let seat_mask = self.layout.seat_colours[self.seat as usize];
        let colours = if self.opens_own_blockade(&m, seat_mask) {
            seat_mask
        } else {
            1 << c
        };
        (0..self.layout.n_colours)
            .filter(|k| colours & (1 << k) != 0)
            .any(|k| {
                let mut l = Gen::new();
                if self.six_distances(k).0 == 12 {
                    self.gen_steps(k, 12, &mut l);
                }
                !l.is_empty()
            })
    }

    #[inline(always)]
    fn apply<S: EventSink>(&mut self, m: Move, count: bool, ev: &mut S) {
        let piece = m.piece;
        let c = self.layout.colour_of_piece(piece);
        let slot = self.layout.path_slot[c as usize];
        let board = self.board();
        // The piece's landing row (`piece_row`): `NOWHERE` at home and goal, and stored positions (below 128)
        // index it unchecked.
        let row = self.piece_row[piece as usize] as usize & (LANDING_ROWS.len() - 1);
        let path = &LANDING_ROWS[row];
        let from_cell = path[(self.pos[piece as usize] & 0x7F) as usize];
        if S::ENABLED && from_cell != NOWHERE && self.is_blockade(from_cell) {
            ev.push(Event::BlockadeOpened {
                at: self.place(piece),
                colour: self.layout.colours[c as usize],
            });
        }
        if S::ENABLED {
            ev.push(Event::Moved {
                seat: self.seat,
                piece: self.layout.piece_ref(piece),
                from: self.place(piece),
                to: board.place(slot, m.to),
                distance: if m.from == 0 { 0 } else { m.to - m.from },
                count,
            });
        }
        if from_cell != NOWHERE {
            self.lift_at(piece, from_cell);
        }
        let to_cell = path[(m.to & 0x7F) as usize];
        if to_cell != NOWHERE {
            let [a, b] = self.cells[to_cell as usize];
            if m.from == 0 && m.to == 1 {
                // Coming out onto the exit square.
                let mut victims = [NONE; 2];
                match self.options.exit_capture {
                    ExitCapture::Never => {}
                    ExitCapture::LastArrivedWhenFull => {
                        if b != 0 {
                            if self.capturable(c, self.colour_on(b)) {
                                victims[0] = b - 1;
                            } else if self.capturable(c, self.colour_on(a)) {
                                victims[0] = a - 1;
                            }
                        }
                    }
                    ExitCapture::AllOpponents => {
                        for (i, x) in [a, b].into_iter().enumerate() {
                            if x != 0 && self.capturable(c, self.colour_on(x)) {
                                victims[i] = x - 1;
                            }
                        }
                    }
                }
                for v in victims {
                    if v != NONE {
                        self.capture(piece, v, m.to, to_cell, ev);
                    }
                }
            } else if self.captures_lone(m, c, [a, b], to_cell) {
                self.capture(piece, a - 1, m.to, to_cell, ev);
            }
            self.put_at(piece, m.to, to_cell);
            if S::ENABLED && self.is_blockade(to_cell) {
                ev.push(Event::BlockadeFormed {
                    at: board.place(slot, m.to),
                    colour: self.layout.colours[c as usize],
                });
            }
        } else {
            self.pos[piece as usize] = m.to;
            if S::ENABLED {
                ev.push(Event::ReachedGoal {
                    piece: self.layout.piece_ref(piece),
                });
            }
            let side = self.layout.side_of_colour(c);
            if self.has_won(side) {
                // The game ends at once: no count is played after the winning arrival.
                self.phase = Phase::Over { side };
                self.clear_legal();
                self.queued = [0; 4];
                self.n_queued = 0;
                if S::ENABLED {
                    ev.push(Event::GameWon { side });
                }
            } else {
                self.grant(self.options.goal_bonus, ev);
            }
        }
        self.last_moved = piece;
    }

    /// `by` (landing on `cell`) sends `victim` back to base and earns the capture bonus. Out of line: few
    /// moves capture, and the moves' common path stays short.
    #[inline(never)]
    fn capture<S: EventSink>(&mut self, by: u8, victim: u8, to: u8, cell: u8, ev: &mut S) {
        if S::ENABLED {
            let slot = self.layout.path_slot[self.layout.colour_of_piece(by) as usize];
            let at = self.board().place(slot, to);
            ev.push(Event::Captured {
                piece: self.layout.piece_ref(victim),
                by: self.layout.piece_ref(by),
                at,
            });
        }
        self.lift_at(victim, cell);
        self.pos[victim as usize] = 0;
        self.grant(self.options.capture_bonus, ev);
    }

    /// The piece stands on a safe square (or in its lane) or in a blockade.
    #[inline(always)]
    fn ends_safe(&self, piece: u8) -> bool {
        let slot = self.layout.path_slot[self.layout.colour_of_piece(piece) as usize];
        let pos = self.pos[piece as usize];
        let cell = self.board().path_cells(slot)[pos as usize];
        // A blockade is marked on every path through its cell, so on the piece's own path at its position.
        cell != NO_CELL
            && (self.board().is_safe_cell(cell) || self.path_blocked[slot as usize] >> pos & 1 != 0)
    }

    #[inline]
    fn grant<S: EventSink>(&mut self, amount: u8, ev: &mut S) {
        if amount == 0 {
            return;
        }
        if S::ENABLED {
            ev.push(Event::BonusGranted {
                seat: self.seat,
                amount,
            });
        }
        if (self.n_queued as usize) < self.queued.len() {
            self.queued[self.n_queued as usize] = amount;
            self.n_queued += 1;
        }
    }

    pub(crate) fn has_won(&self, side: u8) -> bool {
        let l = &self.layout;
        let need = self.options.pieces_to_win;
        let mut colours = (0..l.n_colours).filter(|&c| l.side_of_colour(c) == side);
        match self.options.win {
            Win::AllColours => colours.all(|c| self.finished(c) >= need),
            Win::AnyColour => colours.any(|c| self.finished(c) >= need),
        }
    }

    /// Moves on to the next decision: a pending count, the extra roll, or the next seat.
    #[inline(always)]
    fn advance<S: EventSink>(&mut self, ev: &mut S) {
        while self.n_queued > 0 {
            let amount = self.queued[0];
            self.queued = [self.queued[1], self.queued[2], self.queued[3], 0];
            self.n_queued -= 1;
            if !self.store_count_moves(amount) {
                if S::ENABLED {
                    ev.push(Event::BonusLost {
                        seat: self.seat,
                        amount,
                    });
                }
            } else {
                self.phase = Phase::Count { amount };
                return;
            }
        }
        self.clear_legal();
        if self.extra_roll {
            self.extra_roll = false;
            self.phase = Phase::Roll;
            if S::ENABLED {
                ev.push(Event::ExtraRoll { seat: self.seat });
            }
        } else {
            self.pass_turn(ev);
        }
    }

    #[inline]
    fn pass_turn<S: EventSink>(&mut self, ev: &mut S) {
        self.clear_legal();
        self.seat = if self.seat + 1 == self.layout.n_seats {
            0
        } else {
            self.seat + 1
        };
        self.sixes = 0;
        self.last_moved = NONE;
        self.last_six_moved = NONE;
        self.last_six_spared = false;
        self.extra_roll = false;
        self.phase = Phase::Roll;
        if S::ENABLED {
            ev.push(Event::TurnPassed { seat: self.seat });
        }
    }

    /// Explains why a move is not among the legal ones, naming the rule.
    fn why_illegal(&self, mv: &Move, legal: &[Move]) -> IllegalMove {
        let n = self.layout.n_pieces();
        if mv.piece >= n {
            return IllegalMove::NoSuchPiece;
        }
        let seat_mask = self.controlled(self.seat) | self.partner_colours(self.seat);
        if seat_mask & (1 << self.layout.colour_of_piece(mv.piece)) == 0 {
            return IllegalMove::NotYourPiece;
        }
        if legal.iter().any(|m| m.piece == mv.piece) {
            return IllegalMove::WrongDestination;
        }
        let pos = self.pos[mv.piece as usize];
        if pos == self.board().goal_pos() {
            return IllegalMove::PieceFinished;
        }
        if legal.iter().any(|m| m.flags & Move::ENTER != 0) {
            return IllegalMove::MustBringPieceOut;
        }
        if pos == 0 {
            return IllegalMove::PieceInBase;
        }
        if legal.iter().all(|m| self.opens_own_blockade(m, seat_mask))
            && matches!(self.phase, Phase::Move { die: 6 })
        {
            return IllegalMove::MustOpenBlockade;
        }
        if self.options.morocco_priorities && legal.iter().all(|m| m.captures()) {
            return IllegalMove::MustCapture;
        }
        IllegalMove::Blocked
    }
}

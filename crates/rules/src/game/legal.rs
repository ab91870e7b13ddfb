//! The legal moves of the current phase, stored in the game when the phase begins, and the fast generator
//! that writes them in place (the general generator, `movegen`, covers the rules it leaves out).

use super::steps::Steps;
use super::{Game, Layout, MAX_COLOURS, Phase, capturable};
use crate::moves::{Move, MoveList, NO_PIECE};
use crate::options::{Options, PartnerMoves, Six};

pub(super) const LEGAL_CAP: usize = 32;
const NO_MOVE: Move = Move {
    piece: NO_PIECE,
    from: 0,
    to: 0,
    companion: NO_PIECE,
    flags: 0,
};

/// The move list the generator fills (on the stack, nothing to initialise).
pub(super) type Gen = MoveList;

/// The stored legal moves of the current phase: only the first `n` entries mean anything, and only they are
/// compared, hashed and shown (so storing a list is one short copy and clearing it is free).
#[derive(Clone, Copy)]
pub(crate) struct Legal {
    pub(super) m: [Move; LEGAL_CAP],
    pub(super) n: u8,
}

impl Legal {
    pub(super) const EMPTY: Legal = Legal {
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

impl Game {
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
    pub(super) fn clear_legal(&mut self) {
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
    pub(super) fn quick(layout: &Layout, options: &Options) -> bool {
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
    pub(super) fn lone_landing(layout: &Layout, options: &Options) -> [u64; MAX_COLOURS] {
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
    pub(super) fn store_die_moves(&mut self, die: u8) -> bool {
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
    pub(super) fn store_count_moves(&mut self, amount: u8) -> bool {
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
}

//! The step generator: every piece of one colour advancing one distance, written into the stored legal list
//! without branching on where each piece stands (the hot path of a game).

use super::legal::LEGAL_CAP;
use super::{CELL_SLOTS, Layout, MAX_COLOURS, MAX_PIECES};
use crate::board::LANDING_ROW;
use crate::moves::{Move, NO_PIECE};

/// The squares a piece passes when it advances `distance` (ones in bits 0 ..= distance − 2), to test against a
/// path's blockade mask shifted to the square after the start.
#[inline(always)]
pub(super) fn way_mask(distance: u8) -> u128 {
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
pub(super) struct Steps<'a> {
    pub(super) layout: &'a Layout,
    pub(super) pos: &'a [u8; MAX_PIECES],
    pub(super) cells: &'a [[u8; 2]; CELL_SLOTS],
    pub(super) path_blocked: &'a [u128; MAX_COLOURS],
    pub(super) lone_landing: &'a [u64; MAX_COLOURS],
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
    pub(super) fn push(&self, c: u8, distance: u8, out: &mut [Move; LEGAL_CAP], n: usize) -> usize {
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
    pub(super) fn push_four(
        &self,
        c: u8,
        distance: u8,
        out: &mut [Move; LEGAL_CAP],
        n: usize,
    ) -> usize {
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

//! The general move generator: the legal moves of a die or a count under every rule (Morocco's first roll,
//! priorities and twelve, help for a stuck partner), into a list; the stored list's fast path defers to it.

use super::Game;
use super::legal::Gen;
use super::steps::way_mask;
use crate::moves::{Move, NO_PIECE};
use crate::options::{ExitCapture, PartnerMoves, Scope, Six};

impl Game {
    #[inline]
    pub(super) fn die_moves(&self, die: u8, out: &mut Gen) {
        if self.first_roll_pending(self.seat) {
            return self.first_roll_moves(die, out);
        }
        self.gen_die(self.controlled(self.seat), die, out);
        if out.is_empty() && self.options.partner_moves == PartnerMoves::WhenStuck {
            self.gen_die(self.partner_colours(self.seat), die, out);
        }
    }

    pub(super) fn count_moves(&self, amount: u8, out: &mut Gen) {
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
    pub(super) fn gen_steps(&self, c: u8, distance: u8, out: &mut Gen) {
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
    pub(super) fn any_home(&self, c: u8) -> bool {
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
    pub(super) fn first_home(&self, c: u8) -> Option<u8> {
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
    pub(super) fn six_distances(&self, c: u8) -> (u8, Option<u8>) {
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
    pub(super) fn opens_own_blockade(&self, m: &Move, mask: u8) -> bool {
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
    pub(super) fn exit_move(&self, piece: u8) -> Option<Move> {
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
}

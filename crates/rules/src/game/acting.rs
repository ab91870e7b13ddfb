//! Acting: a roll (its penalties, a roll with no move resolved at once), a move checked against the stored
//! list and applied (captures, blockades, arrivals, bonuses), and the turn moving on.

use super::legal::{Gen, LEGAL_CAP};
use super::{Game, NONE, Phase};
use crate::board::{LANDING_ROWS, NO_CELL, NOWHERE};
use crate::error::{IllegalMove, PlayError};
use crate::event::{Event, EventSink, Events};
use crate::moves::{Move, NO_PIECE};
use crate::options::{ExitCapture, Penalty, Win};

impl Game {
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

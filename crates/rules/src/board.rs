//! Board geometry: the circuit, the exits, the safe squares, the lanes and the goal.
//!
//! A piece's position is its *progress* along its path: 0 is its exit square, `last_circuit()` is the last
//! circuit square before its lane, the next seven are its private lane, and `goal()` is the goal. Internally a
//! position is stored as `progress + 1`, with 0 meaning "at home" (in base).

use serde::{Deserialize, Serialize};

/// Length of every private lane (seeds 000/001/003: 7 squares, then the goal).
pub const LANE_LEN: u8 = 7;
/// Squares between two consecutive exits on both boards.
pub const SIDE: u8 = 17;
/// Internal cell count: the largest circuit (102) plus six lanes of seven.
pub const CELLS: usize = 102 + 6 * LANE_LEN as usize;

/// No cell: the entry of the path tables for home and the goal (see [`BoardKind::cell`]).
pub const NO_CELL: u8 = 0xFF;
/// Stored positions per path: home, 106 path steps on the six-colour board, goal.
pub const PATH_POSITIONS: usize = 108;

const fn build_cells(len: u8, slots: u8) -> [[u8; PATH_POSITIONS]; 6] {
    let mut t = [[NO_CELL; PATH_POSITIONS]; 6];
    let last = len - 5;
    let mut slot = 0;
    while slot < slots {
        let mut progress = 0u16;
        while progress <= (last + LANE_LEN) as u16 {
            let cell = if progress <= last as u16 {
                ((SIDE as u16 * slot as u16 + 4 + progress) % len as u16) as u8
            } else {
                len + slot * LANE_LEN + (progress as u8 - last - 1)
            };
            t[slot as usize][progress as usize + 1] = cell;
            progress += 1;
        }
        slot += 1;
    }
    t
}

/// Cell of every stored position for every slot's path, computed at compile time (no division per step).
static FOUR_CELLS: [[u8; PATH_POSITIONS]; 6] = build_cells(68, 4);
static SIX_CELLS: [[u8; PATH_POSITIONS]; 6] = build_cells(102, 6);

/// An extra cell that no piece ever stands on: where [`BoardKind::landing_cells`] sends home and goal, so that
/// the move generator reads an empty cell there without a test.
pub const NOWHERE: u8 = CELLS as u8;

/// Entries of a landing row: more than any stored position or step target (all below 128), so that a row
/// indexed by `pos & 0x7F` needs no bounds check.
pub(crate) const LANDING_ROW: usize = 128;

const fn build_landing(len: u8, slots: u8) -> [[u8; LANDING_ROW]; 6] {
    let cells = build_cells(len, slots);
    let mut t = [[NOWHERE; LANDING_ROW]; 6];
    let mut slot = 0;
    while slot < 6 {
        let mut pos = 0;
        while pos < PATH_POSITIONS {
            if cells[slot][pos] != NO_CELL {
                t[slot][pos] = cells[slot][pos];
            }
            pos += 1;
        }
        slot += 1;
    }
    t
}

/// Every landing row, by [`BoardKind::landing_row_index`]: the four-colour board's six, the six-colour
/// board's six, then rows of `NOWHERE` only, so that an index masked with `LANDING_ROWS.len() - 1` needs no
/// bounds check.
pub(crate) static LANDING_ROWS: [[u8; LANDING_ROW]; 16] = {
    let four = build_landing(68, 4);
    let six = build_landing(102, 6);
    let mut t = [[NOWHERE; LANDING_ROW]; 16];
    let mut slot = 0;
    while slot < 6 {
        t[slot] = four[slot];
        t[6 + slot] = six[slot];
        slot += 1;
    }
    t
};

/// Stored position of every cell on every slot's path (0: the cell is not on that path), for keeping each
/// path's blockades as one mask indexed by stored position.
const fn build_cell_positions(len: u8, slots: u8) -> [[u8; 6]; CELLS] {
    let cells = build_cells(len, slots);
    let mut t = [[0u8; 6]; CELLS];
    let mut slot = 0;
    while slot < slots as usize {
        let mut pos = 1;
        while pos < PATH_POSITIONS {
            let c = cells[slot][pos];
            if c != NO_CELL {
                t[c as usize][slot] = pos as u8;
            }
            pos += 1;
        }
        slot += 1;
    }
    t
}

static FOUR_CELL_POSITIONS: [[u8; 6]; CELLS] = build_cell_positions(68, 4);
static SIX_CELL_POSITIONS: [[u8; 6]; CELLS] = build_cell_positions(102, 6);

/// Whether each cell (any `u8`, so that indexing needs no check) protects from capture, per board.
const fn build_safe(len: u8) -> [bool; 256] {
    let mut t = [false; 256];
    let mut cell = 0usize;
    while cell < CELLS {
        t[cell] = cell >= len as usize || BoardKind::is_safe_square(cell as u8 + 1);
        cell += 1;
    }
    t
}

static FOUR_SAFE: [bool; 256] = build_safe(68);
static SIX_SAFE: [bool; 256] = build_safe(102);

/// Which board a game is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BoardKind {
    /// 68-square circuit, four colours (seeds 000, 001, 002, 003).
    Four,
    /// 102-square circuit, six colours (seed 001, 3 against 3).
    Six,
}

impl BoardKind {
    /// Number of squares on the common circuit.
    pub const fn circuit_len(self) -> u8 {
        match self {
            BoardKind::Four => 68,
            BoardKind::Six => 102,
        }
    }

    /// Number of colour slots (exits) on the board.
    pub const fn slots(self) -> u8 {
        match self {
            BoardKind::Four => 4,
            BoardKind::Six => 6,
        }
    }

    /// Progress of the last circuit square before the lane (63 on the four-colour board).
    pub const fn last_circuit(self) -> u8 {
        self.circuit_len() - 5
    }

    /// Progress of the goal: 71 steps from the exit square on the four-colour board.
    pub const fn goal(self) -> u8 {
        self.last_circuit() + LANE_LEN + 1
    }

    /// Stored position (progress + 1) of the goal.
    pub const fn goal_pos(self) -> u8 {
        self.goal() + 1
    }

    /// The 1-based exit square of a slot: 5, 22, 39, 56 (, 73, 90).
    pub const fn exit_square(self, slot: u8) -> u8 {
        SIDE * slot + 5
    }

    /// Whether a 1-based circuit square is safe: every exit, exit + 7 and exit − 5.
    pub const fn is_safe_square(square: u8) -> bool {
        let r = (square + SIDE - 5) % SIDE;
        r == 0 || r == 7 || r == 12
    }

    /// The cells of a slot's path, indexed by stored position ([`NO_CELL`] at home and goal).
    #[inline]
    pub fn path_cells(self, slot: u8) -> &'static [u8; PATH_POSITIONS] {
        match self {
            BoardKind::Four => &FOUR_CELLS[slot as usize],
            BoardKind::Six => &SIX_CELLS[slot as usize],
        }
    }

    /// [`BoardKind::path_cells`] with [`NOWHERE`] in place of [`NO_CELL`].
    #[inline]
    pub fn landing_cells(self, slot: u8) -> &'static [u8; PATH_POSITIONS] {
        self.landing_row(slot)
            .first_chunk()
            .expect("a landing row is longer than a path")
    }

    /// [`BoardKind::landing_cells`] padded with [`NOWHERE`] to [`LANDING_ROW`] entries (past the goal too).
    #[inline]
    pub(crate) fn landing_row(self, slot: u8) -> &'static [u8; LANDING_ROW] {
        &LANDING_ROWS[self.landing_row_index(slot) as usize]
    }

    /// Where [`BoardKind::landing_row`] is in [`LANDING_ROWS`].
    pub(crate) const fn landing_row_index(self, slot: u8) -> u8 {
        match self {
            BoardKind::Four => slot,
            BoardKind::Six => 6 + slot,
        }
    }

    /// The stored position of a cell on each slot's path (0 where the path does not pass the cell).
    #[inline]
    pub fn cell_positions(self, cell: u8) -> &'static [u8; 6] {
        match self {
            BoardKind::Four => &FOUR_CELL_POSITIONS[cell as usize],
            BoardKind::Six => &SIX_CELL_POSITIONS[cell as usize],
        }
    }

    /// The internal cell of a stored position for a piece following `slot`'s path, or `None` at home or goal.
    /// Cells `0..circuit_len` are circuit squares (square = cell + 1); then seven cells per slot for lanes.
    #[inline]
    pub fn cell(self, slot: u8, pos: u8) -> Option<u8> {
        let c = *self.path_cells(slot).get(pos as usize)?;
        (c != NO_CELL).then_some(c)
    }

    /// Whether an internal cell lies on the circuit (and not in a lane).
    #[inline]
    pub fn is_circuit_cell(self, cell: u8) -> bool {
        cell < self.circuit_len()
    }

    /// Whether an internal cell protects from capture: safe circuit squares and every lane square.
    #[inline]
    pub fn is_safe_cell(self, cell: u8) -> bool {
        self.safe_cells()[cell as usize]
    }

    /// [`BoardKind::is_safe_cell`] of every `u8`.
    #[inline]
    pub(crate) fn safe_cells(self) -> &'static [bool; 256] {
        match self {
            BoardKind::Four => &FOUR_SAFE,
            BoardKind::Six => &SIX_SAFE,
        }
    }

    /// Whether an internal cell is the exit square of some slot (and which).
    #[inline]
    pub fn exit_slot_of_cell(self, cell: u8) -> Option<u8> {
        if self.is_circuit_cell(cell) && (cell + SIDE - 4).is_multiple_of(SIDE) {
            Some((cell - 4) / SIDE)
        } else {
            None
        }
    }

    /// Converts a 1-based circuit square to the progress of a piece following `slot`'s path, if that square
    /// is on its path (the four squares between its lane entry and its exit are not).
    pub fn progress_of_square(self, slot: u8, square: u8) -> Option<u8> {
        let len = self.circuit_len();
        if square == 0 || square > len {
            return None;
        }
        let exit = self.exit_square(slot);
        let p = (square as u16 + len as u16 - exit as u16) % len as u16;
        (p <= self.last_circuit() as u16).then_some(p as u8)
    }

    /// The position a stored `pos` designates, for display and events.
    #[inline]
    pub fn place(self, slot: u8, pos: u8) -> Place {
        if pos == 0 {
            return Place::Home;
        }
        match self.path_cells(slot).get(pos as usize) {
            Some(&cell) if cell != NO_CELL => {
                let len = self.circuit_len();
                if cell < len {
                    Place::Square(cell + 1)
                } else {
                    Place::Lane(cell - len - slot * LANE_LEN + 1)
                }
            }
            _ => Place::Goal,
        }
    }

    /// The stored position of a place for a piece following `slot`'s path.
    pub fn pos_of_place(self, slot: u8, place: Place) -> Option<u8> {
        match place {
            Place::Home => Some(0),
            Place::Goal => Some(self.goal_pos()),
            Place::Square(sq) => self.progress_of_square(slot, sq).map(|p| p + 1),
            Place::Lane(k) if (1..=LANE_LEN).contains(&k) => Some(self.last_circuit() + k + 1),
            Place::Lane(_) => None,
        }
    }
}

/// Where a piece is, in the terms players use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", content = "at", rename_all = "lowercase")]
pub enum Place {
    /// In its base (casa / maison / réserve).
    Home,
    /// On the common circuit, 1-based square number.
    Square(u8),
    /// In its private lane, 1..=7 (1 is the first lane square).
    Lane(u8),
    /// Arrived.
    Goal,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Home => f.write_str("h"),
            Place::Square(s) => write!(f, "{s}"),
            Place::Lane(k) => write!(f, "l{k}"),
            Place::Goal => f.write_str("goal"),
        }
    }
}

impl std::str::FromStr for Place {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "h" => Ok(Place::Home),
            "goal" => Ok(Place::Goal),
            _ => {
                if let Some(k) = s.strip_prefix('l') {
                    k.parse().map(Place::Lane).map_err(|_| ())
                } else {
                    s.parse().map(Place::Square).map_err(|_| ())
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_colour_board_has_twelve_safe_squares_at_the_seed_numbers() {
        let safe: Vec<u8> = (1..=68).filter(|&s| BoardKind::is_safe_square(s)).collect();
        assert_eq!(safe, vec![5, 12, 17, 22, 29, 34, 39, 46, 51, 56, 63, 68]);
    }

    #[test]
    fn exits_are_yellow_5_blue_22_red_39_green_56() {
        let b = BoardKind::Four;
        assert_eq!([0, 1, 2, 3].map(|s| b.exit_square(s)), [5, 22, 39, 56]);
    }

    #[test]
    fn goal_is_71_steps_from_the_exit_and_last_circuit_square_is_68_for_yellow() {
        let b = BoardKind::Four;
        assert_eq!(b.goal(), 71);
        assert_eq!(b.place(0, b.last_circuit() + 1), Place::Square(68));
        assert_eq!(b.place(1, b.last_circuit() + 1), Place::Square(17));
        assert_eq!(b.place(2, b.last_circuit() + 1), Place::Square(34));
        assert_eq!(b.place(3, b.last_circuit() + 1), Place::Square(51));
        assert_eq!(b.place(0, b.last_circuit() + 2), Place::Lane(1));
        assert_eq!(b.place(0, b.goal_pos()), Place::Goal);
    }

    #[test]
    fn six_colour_board_has_102_squares_and_safe_squares_around_each_exit() {
        let b = BoardKind::Six;
        assert_eq!(b.circuit_len(), 102);
        let exits: Vec<u8> = (0..6).map(|s| b.exit_square(s)).collect();
        assert_eq!(exits, vec![5, 22, 39, 56, 73, 90]);
        let safe: Vec<u8> = (1..=102)
            .filter(|&s| BoardKind::is_safe_square(s))
            .collect();
        assert_eq!(safe.len(), 18);
        for e in exits {
            assert!(safe.contains(&e) && safe.contains(&(e + 7)));
            assert!(safe.contains(&(if e > 5 { e - 5 } else { 102 })));
        }
        // Yellow enters its lane after square 102 (its exit − 5).
        assert_eq!(b.place(0, b.last_circuit() + 1), Place::Square(102));
        assert_eq!(b.goal(), 105);
    }

    #[test]
    fn the_safe_cell_tables_follow_the_safe_squares_and_lanes() {
        for b in [BoardKind::Four, BoardKind::Six] {
            for cell in 0..CELLS as u8 {
                let safe = !b.is_circuit_cell(cell) || BoardKind::is_safe_square(cell + 1);
                assert_eq!(b.is_safe_cell(cell), safe, "{b:?} cell {cell}");
            }
        }
    }

    #[test]
    fn cell_positions_invert_the_path_tables() {
        for b in [BoardKind::Four, BoardKind::Six] {
            for slot in 0..b.slots() {
                for pos in 1..b.goal_pos() {
                    let cell = b.cell(slot, pos).unwrap();
                    assert_eq!(b.cell_positions(cell)[slot as usize], pos);
                }
            }
            for cell in 0..CELLS as u8 {
                for (slot, &pos) in b.cell_positions(cell).iter().enumerate() {
                    if pos != 0 {
                        assert_eq!(b.cell(slot as u8, pos), Some(cell));
                    }
                }
            }
        }
    }

    #[test]
    fn squares_and_places_round_trip_for_every_slot() {
        for b in [BoardKind::Four, BoardKind::Six] {
            for slot in 0..b.slots() {
                for pos in 0..=b.goal_pos() {
                    assert_eq!(b.pos_of_place(slot, b.place(slot, pos)), Some(pos));
                }
            }
        }
    }
}

//! The position notation: one line holding everything needed to continue a game, in the spirit of FEN.
//!
//! ```text
//! playgridia individual/4 y:h,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-
//! ```
//! Fields, separated by one space: rule set with any options (house rules, set-up) in brackets
//! (`ludoteka[capture_allies=0]`); mode/players; the pieces of every colour (`h` base, a square number,
//! `l1`..`l7` lane, `goal`; a `'` marks the last arrived of two pieces sharing a square); the seat to act;
//! the phase (`roll`, `move:D`, `count:N` followed by `+N` for queued counts, `over:SIDE`); the turn flags.
//! See `RULES.md` for the full grammar.

use crate::board::Place;
use crate::colour::Colour;
use crate::error::{PositionError, clip};
use crate::event::PieceRef;
use crate::game::{Game, Phase};
use crate::mode::Mode;
use crate::moves::MoveList;
use crate::options::{Options, RuleSet};
use std::fmt;
use std::str::FromStr;

/// An unvalidated position: anything a notation line can say. [`Game::from_setup`] checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The preset (field RULES).
    pub rules: RuleSet,
    /// The mode (field MODE/PLAYERS).
    pub mode: Mode,
    /// The player count (field MODE/PLAYERS).
    pub players: u8,
    /// Every option, the preset's for the mode with those in brackets applied.
    pub options: Options,
    /// Each colour in turn order with its pieces' places; `true` marks the last arrived of a shared square.
    pub pieces: Vec<(Colour, Vec<(Place, bool)>)>,
    /// The 0-based seat to act.
    pub seat: u8,
    /// What the seat must do.
    pub phase: Phase,
    /// Counts waiting after the current one.
    pub queued: Vec<u8>,
    /// Sixes in a row this turn, 0 to 2 (`sixes=`).
    pub sixes: u8,
    /// The last piece moved this turn (`last=`).
    pub last_moved: Option<PieceRef>,
    /// The piece moved with the latest six (`six=`).
    pub last_six_moved: Option<PieceRef>,
    /// The six move ended on a safe square or in a blockade (written `!` after the piece).
    pub last_six_spared: bool,
    /// A six's re-roll is pending after the move and its counts (`extra=1`).
    pub extra_roll: bool,
    /// Seats that have not yet made Morocco's first roll.
    pub first_roll: Vec<u8>,
}

fn bad(msg: impl Into<String>) -> PositionError {
    PositionError(msg.into())
}

impl Game {
    /// Everything about this game as an unvalidated setup (the inverse of [`Game::from_setup`]).
    pub fn to_setup(&self) -> Setup {
        let l = &self.layout;
        let pieces = (0..l.n_colours)
            .map(|c| {
                let list = (0..l.pieces_per_colour)
                    .map(|k| {
                        let p = c * l.pieces_per_colour + k;
                        let last = self
                            .cell_of(p)
                            .is_some_and(|cell| self.cells[cell as usize][1] == p + 1);
                        (self.place(p), last)
                    })
                    .collect();
                (l.colours[c as usize], list)
            })
            .collect();
        let opt = |p: u8| (p != 0xFF).then(|| l.piece_ref(p));
        Setup {
            rules: self.rules,
            mode: self.mode,
            players: self.players,
            options: self.options,
            pieces,
            seat: self.seat,
            phase: self.phase,
            queued: self.queued_counts().to_vec(),
            sixes: self.sixes,
            last_moved: opt(self.last_moved),
            last_six_moved: opt(self.last_six_moved),
            last_six_spared: self.last_six_spared,
            extra_roll: self.extra_roll,
            first_roll: (0..l.n_seats)
                .filter(|&s| self.first_roll_pending(s))
                .collect(),
        }
    }

    /// Validates a setup into a game, or says precisely what is wrong.
    pub fn from_setup(s: &Setup) -> Result<Game, PositionError> {
        let mut g = Game::with_options(s.rules, s.mode, s.players, s.options)
            .map_err(|e| bad(e.to_string()))?;
        g.pos = [0; crate::game::MAX_PIECES];
        g.cells = [[0; 2]; crate::game::CELL_SLOTS];
        g.path_blocked = [0; crate::game::MAX_COLOURS];
        let l = g.layout;
        if s.pieces.len() != l.n_colours as usize {
            return Err(bad(format!(
                "expected {} colours, found {}",
                l.n_colours,
                s.pieces.len()
            )));
        }
        let mut marked = Vec::new();
        for (ci, (colour, list)) in s.pieces.iter().enumerate() {
            if *colour != l.colours[ci] {
                return Err(bad(format!(
                    "colour {} expected in position {}, found {colour}",
                    l.colours[ci],
                    ci + 1
                )));
            }
            if list.len() != l.pieces_per_colour as usize {
                return Err(bad(format!(
                    "{colour} needs {} pieces, found {}",
                    l.pieces_per_colour,
                    list.len()
                )));
            }
            for (k, &(place, last)) in list.iter().enumerate() {
                let p = ci as u8 * l.pieces_per_colour + k as u8;
                let pos = l
                    .board
                    .pos_of_place(l.path_slot[ci], place)
                    .ok_or_else(|| bad(format!("{} cannot be on {place}", l.piece_ref(p))))?;
                if last {
                    marked.push((p, pos));
                } else {
                    g.place_checked(p, pos)?;
                }
            }
        }
        for (p, pos) in marked {
            g.place_checked(p, pos)?;
            let cell = g
                .cell_of(p)
                .ok_or_else(|| bad("only a piece on a square can be marked last arrived"))?;
            if g.cells[cell as usize][1] != p + 1 {
                return Err(bad(format!(
                    "{} is marked last arrived but is alone",
                    l.piece_ref(p)
                )));
            }
        }
        let marked_pieces: Vec<u8> = (0..l.n_pieces())
            .filter(|&p| {
                s.pieces[l.colour_of_piece(p) as usize].1[(p % l.pieces_per_colour) as usize].1
            })
            .collect();
        for cell in 0..crate::board::CELLS {
            let [a, b] = g.cells[cell];
            if b == 0 {
                continue;
            }
            if !marked_pieces.contains(&(b - 1)) || marked_pieces.contains(&(a - 1)) {
                return Err(bad(
                    "two pieces share a square: mark the last arrived (only) with '",
                ));
            }
            let (ca, cb) = (l.colour_of_piece(a - 1), l.colour_of_piece(b - 1));
            let c = cell as u8;
            if ca != cb
                && g.options.mixed_pairs_only_on_safe
                && l.board.is_circuit_cell(c)
                && !l.board.is_safe_cell(c)
            {
                return Err(bad(format!(
                    "square {} holds two colours but is not safe",
                    c + 1
                )));
            }
        }
        if s.seat >= l.n_seats {
            return Err(bad(format!("seat {} does not exist", s.seat)));
        }
        g.seat = s.seat;
        if s.sixes > 2 {
            return Err(bad("at most two sixes in a row can be pending"));
        }
        g.sixes = s.sixes;
        let piece = |r: Option<PieceRef>| -> Result<u8, PositionError> {
            match r {
                None => Ok(0xFF),
                Some(r) => l
                    .piece_of_ref(r)
                    .ok_or_else(|| bad(format!("no piece {r}"))),
            }
        };
        g.last_moved = piece(s.last_moved)?;
        g.last_six_moved = piece(s.last_six_moved)?;
        if s.last_six_spared && g.last_six_moved == 0xFF {
            return Err(bad(
                "`!` marks the piece moved with the last six: name that piece",
            ));
        }
        g.last_six_spared = s.last_six_spared;
        // The roll a six earns is the next roll itself: a game waiting for a roll never holds one pending
        // (rolling sets the flag afresh), so `extra=1` there would be a second text for the same position.
        if s.extra_roll && s.phase == Phase::Roll {
            return Err(bad(
                "extra=1 (a re-roll pending) is only for a move or count phase: waiting for a roll, it is extra=0",
            ));
        }
        g.extra_roll = s.extra_roll;
        if s.queued.len() > 4 || s.queued.iter().any(|&n| n == 0 || n > 40) {
            return Err(bad(
                "queued counts must be at most four numbers from 1 to 40",
            ));
        }
        g.n_queued = s.queued.len() as u8;
        g.queued[..s.queued.len()].copy_from_slice(&s.queued);
        g.first_roll = 0;
        for &seat in &s.first_roll {
            if seat >= l.n_seats || !g.options.first_roll {
                return Err(bad("first roll pending for a seat that cannot have one"));
            }
            g.first_roll |= 1 << seat;
        }
        let won: Vec<u8> = (0..l.n_sides()).filter(|&side| g.has_won(side)).collect();
        match s.phase {
            Phase::Over { side } if !won.contains(&side) => {
                return Err(bad(format!("side {side} is said to have won but has not")));
            }
            Phase::Over { .. } => {}
            _ if !won.is_empty() => return Err(bad("a side has won: the phase must be over")),
            Phase::Move { die } if !(1..=6).contains(&die) => {
                return Err(bad("die must be 1 to 6"));
            }
            Phase::Count { amount } if amount == 0 || amount > 40 => {
                return Err(bad("count must be 1 to 40"));
            }
            _ => {}
        }
        if !matches!(s.phase, Phase::Count { .. }) && !s.queued.is_empty() {
            return Err(bad(
                "queued counts only exist while a count is being played",
            ));
        }
        g.phase = s.phase;
        g.refresh_legal();
        if matches!(s.phase, Phase::Move { .. } | Phase::Count { .. }) && g.legal_moves().is_empty()
        {
            return Err(bad("the phase asks for a move but none is legal"));
        }
        Ok(g)
    }

    fn place_checked(&mut self, p: u8, pos: u8) -> Result<(), PositionError> {
        if let Some(cell) = self.cell_at(p, pos)
            && self.cells[cell as usize][1] != 0
        {
            let slot = self.layout.path_slot[self.layout.colour_of_piece(p) as usize];
            return Err(bad(format!(
                "more than two pieces on {}",
                self.board().place(slot, pos)
            )));
        }
        self.put(p, pos);
        Ok(())
    }

    /// The position notation of this game (RULES.md, "Position notation"); `str::parse::<Game>` reads it
    /// back.
    ///
    /// ```
    /// use parchis_rules::{Game, Phase};
    ///
    /// // An example of RULES.md: blue to play a count of 20, another one queued.
    /// let line = "morocco individual/4 b:30,5,h,h/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h 0 count:20+20 \
    ///             sixes=0,last=b2,six=-,extra=0,first=-";
    /// let game: Game = line.parse().unwrap();
    /// assert_eq!(game.phase(), Phase::Count { amount: 20 });
    /// assert_eq!(game.queued_counts(), [20]);
    /// assert_eq!(game.notation(), line);
    ///
    /// // Flags left out take their start-of-turn values; the line is written back in its one spelling.
    /// let loose: Game = "morocco individual/4 b:30,5,h,h/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h 0 count:20+20 last=b2"
    ///     .parse()
    ///     .unwrap();
    /// assert_eq!(loose, game);
    ///
    /// // A refusal says what is wrong.
    /// let err = "morocco individual/4 b:30,5,h,h 0 roll sixes=0".parse::<Game>().unwrap_err();
    /// assert_eq!(err.code(), "bad_position");
    /// assert_eq!(err.to_string(), "invalid position: expected 4 colours, found 1");
    /// ```
    pub fn notation(&self) -> String {
        self.to_setup().to_string()
    }

    /// Legal moves as their text forms.
    pub fn legal_texts(&self) -> Vec<String> {
        let l: MoveList = self.legal_moves();
        l.iter().map(|m| self.move_text(m)).collect()
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rules.name())?;
        let diff = self.options.diff(&self.rules.options_for(self.mode));
        if !diff.is_empty() {
            let parts: Vec<String> = diff.iter().map(|(k, v)| format!("{k}={v}")).collect();
            write!(f, "[{}]", parts.join(","))?;
        }
        write!(f, " {}/{} ", self.mode, self.players)?;
        for (i, (colour, list)) in self.pieces.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            write!(f, "{}:", colour.letter())?;
            for (k, (place, last)) in list.iter().enumerate() {
                if k > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{place}{}", if *last { "'" } else { "" })?;
            }
        }
        write!(f, " {} ", self.seat)?;
        match self.phase {
            Phase::Roll => f.write_str("roll")?,
            Phase::Move { die } => write!(f, "move:{die}")?,
            Phase::Count { amount } => {
                write!(f, "count:{amount}")?;
                for q in &self.queued {
                    write!(f, "+{q}")?;
                }
            }
            Phase::Over { side } => write!(f, "over:{side}")?,
        }
        let piece = |p: Option<PieceRef>| p.map_or("-".to_string(), |p| p.to_string());
        let first: String = self.first_roll.iter().map(|s| s.to_string()).collect();
        write!(
            f,
            " sixes={},last={},six={}{},extra={},first={}",
            self.sixes,
            piece(self.last_moved),
            piece(self.last_six_moved),
            if self.last_six_spared { "!" } else { "" },
            u8::from(self.extra_roll),
            if first.is_empty() {
                "-".to_string()
            } else {
                first
            }
        )
    }
}

impl FromStr for Setup {
    type Err = PositionError;
    fn from_str(line: &str) -> Result<Setup, PositionError> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [rules, mode, pieces, seat, phase, flags] = fields[..] else {
            return Err(bad(format!(
                "expected 6 space-separated fields, found {}",
                fields.len()
            )));
        };
        let (rules_name, opts) = match rules.split_once('[') {
            Some((r, rest)) => (
                r,
                Some(
                    rest.strip_suffix(']')
                        .ok_or_else(|| bad("missing ] after options"))?,
                ),
            ),
            None => (rules, None),
        };
        let rules: RuleSet = rules_name
            .parse()
            .map_err(|e: crate::SetupError| bad(e.to_string()))?;
        let (mode, players) = mode
            .split_once('/')
            .ok_or_else(|| bad("mode must be written mode/players"))?;
        let mode: Mode = mode
            .parse()
            .map_err(|e: crate::SetupError| bad(e.to_string()))?;
        let players: u8 = players
            .parse()
            .map_err(|_| bad("players must be a number"))?;
        let mut options = rules.options_for(mode);
        let mut seen_options = std::collections::HashSet::new();
        if let Some(opts) = opts {
            for kv in opts.split(',').filter(|s| !s.is_empty()) {
                let (k, v) = kv
                    .split_once('=')
                    .ok_or_else(|| bad(format!("option `{}` needs name=value", clip(kv))))?;
                // A second value would silently win over the first: a typo, or two lines pasted together.
                if !seen_options.insert(k) {
                    return Err(bad(format!("option `{}` is given twice", clip(k))));
                }
                options.set(k, v).map_err(|e| bad(e.to_string()))?;
            }
        }
        let mut list = Vec::new();
        for part in pieces.split('/') {
            let (c, places) = part
                .split_once(':')
                .ok_or_else(|| bad(format!("pieces `{}` need colour:places", clip(part))))?;
            let mut chars = c.chars();
            let colour = match (chars.next().and_then(Colour::from_letter), chars.next()) {
                (Some(col), None) => col,
                _ => return Err(bad(format!("unknown colour `{}`", clip(c)))),
            };
            let mut v = Vec::new();
            for p in places.split(',') {
                let (p, last) = match p.strip_suffix('\'') {
                    Some(p) => (p, true),
                    None => (p, false),
                };
                let place: Place = p
                    .parse()
                    .map_err(|_| bad(format!("bad place `{}`", clip(p))))?;
                v.push((place, last));
            }
            list.push((colour, v));
        }
        let seat: u8 = seat.parse().map_err(|_| bad("seat must be a number"))?;
        let mut queued = Vec::new();
        let num = |s: &str| {
            s.parse::<u8>()
                .map_err(|_| bad(format!("bad number `{}` in phase", clip(s))))
        };
        let phase = match phase.split_once(':') {
            None if phase == "roll" => Phase::Roll,
            Some(("move", d)) => Phase::Move { die: num(d)? },
            Some(("over", s)) => Phase::Over { side: num(s)? },
            Some(("count", rest)) => {
                let mut it = rest.split('+');
                let amount = num(it.next().unwrap_or(""))?;
                for q in it {
                    queued.push(num(q)?);
                }
                Phase::Count { amount }
            }
            _ => return Err(bad(format!("bad phase `{}`", clip(phase)))),
        };
        let mut setup = Setup {
            rules,
            mode,
            players,
            options,
            pieces: list,
            seat,
            phase,
            queued,
            sixes: 0,
            last_moved: None,
            last_six_moved: None,
            last_six_spared: false,
            extra_roll: false,
            first_roll: Vec::new(),
        };
        let mut seen_flags = Vec::new();
        for kv in flags.split(',') {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| bad(format!("flag `{}` needs name=value", clip(kv))))?;
            // As for options: the second of two values would win without a word.
            if seen_flags.contains(&k) {
                return Err(bad(format!("flag `{}` is given twice", clip(k))));
            }
            seen_flags.push(k);
            let piece = |v: &str| -> Result<Option<PieceRef>, PositionError> {
                if v == "-" {
                    Ok(None)
                } else {
                    v.parse()
                        .map(Some)
                        .map_err(|_| bad(format!("bad piece `{}`", clip(v))))
                }
            };
            match k {
                "sixes" => setup.sixes = v.parse().map_err(|_| bad("sixes must be a number"))?,
                "last" => setup.last_moved = piece(v)?,
                "six" => {
                    let (v, spared) = match v.strip_suffix('!') {
                        Some(v) => (v, true),
                        None => (v, false),
                    };
                    setup.last_six_moved = piece(v)?;
                    setup.last_six_spared = spared;
                }
                "extra" => {
                    setup.extra_roll = match v {
                        "0" => false,
                        "1" => true,
                        _ => return Err(bad("extra must be 0 or 1")),
                    }
                }
                "first" if v == "-" => {}
                "first" => {
                    for ch in v.chars() {
                        setup.first_roll.push(
                            ch.to_digit(10)
                                .ok_or_else(|| bad("first= takes seat digits"))?
                                as u8,
                        );
                    }
                }
                _ => return Err(bad(format!("unknown flag `{}`", clip(k)))),
            }
        }
        Ok(setup)
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_setup().fmt(f)
    }
}

impl FromStr for Game {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Game, PositionError> {
        Game::from_setup(&s.parse()?)
    }
}

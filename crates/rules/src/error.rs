//! Every way a caller can be refused, each with a machine-readable code and a human sentence.

use crate::mode::Mode;

/// Text from the caller as a message quotes it: whole if short, else its start and `…`, so that a pasted
/// file or a runaway script gives a one-line message rather than echoing megabytes back.
pub(crate) fn clip(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        None => text.to_owned(),
        Some((end, _)) => format!("{}…", &text[..end]),
    }
}

/// A game could not be set up (bad rule set, mode, player count or options).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The text is not a rule set name (`playgridia`, `ludoteka`, `morocco`); holds the text.
    #[error("unknown rule set `{}` (expected playgridia, ludoteka or morocco)", clip(.0))]
    UnknownRuleSet(String),
    /// The text is not a mode name (see [`Mode::name`]); holds the text.
    #[error("unknown mode `{}` (expected individual, quick, pairs, 1v1, 6-piece or 3v3)", clip(.0))]
    UnknownMode(String),
    /// The mode is not played by this many players ([`Mode::players`]).
    #[error("{mode} is played by {} players, not {players}", count_range(allowed))]
    PlayerCount {
        /// The mode asked for.
        mode: Mode,
        /// The player count asked for.
        players: u8,
        /// The counts the mode accepts, e.g. `2..=4` for individual.
        allowed: std::ops::RangeInclusive<u8>,
    },
    /// The game would have more than [`MAX_PIECES`](crate::game::MAX_PIECES) pieces (colours ×
    /// `pieces_per_colour`), or its start would put a third piece on a square (two colours sharing a path,
    /// each starting two pieces on its exit).
    #[error("too many pieces for this board, or more than two on one square at the start")]
    TooManyPieces,
    /// Option `pieces_to_win` is 0 or more than `pieces_per_colour`.
    #[error("pieces_to_win must be between 1 and pieces_per_colour")]
    PiecesToWin,
    /// An option is unknown, out of its values, or a set-up option given as a house rule
    /// ([`Options::check`](crate::Options::check), [`Options::with_house_rules`](crate::Options::with_house_rules)).
    #[error(transparent)]
    Option(#[from] crate::options::OptionError),
}

/// `4` or `2 to 4`: a player count as people write it, not as Rust does (`2..=4`).
fn count_range(r: &std::ops::RangeInclusive<u8>) -> String {
    if r.start() == r.end() {
        r.start().to_string()
    } else {
        format!("{} to {}", r.start(), r.end())
    }
}

impl SetupError {
    /// A stable machine-readable code: `unknown_rule_set`, `unknown_mode`, `bad_player_count`,
    /// `too_many_pieces`, `bad_pieces_to_win` or `bad_option`. The message (`Display`) is for people.
    pub fn code(&self) -> &'static str {
        match self {
            SetupError::UnknownRuleSet(_) => "unknown_rule_set",
            SetupError::UnknownMode(_) => "unknown_mode",
            SetupError::PlayerCount { .. } => "bad_player_count",
            SetupError::TooManyPieces => "too_many_pieces",
            SetupError::PiecesToWin => "bad_pieces_to_win",
            SetupError::Option(_) => "bad_option",
        }
    }
}

/// Which rule makes a move illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The move's piece index is [`Game::n_pieces`](crate::Game::n_pieces) or more: no piece of this game.
    #[error("there is no such piece in this game")]
    NoSuchPiece,
    /// The piece is of a colour that neither the seat to act nor its partners play (or, once the seat moves
    /// its partner's pieces under `partner_moves=finished`, one of its own arrived pieces).
    #[error("that piece is not yours to move")]
    NotYourPiece,
    /// The piece has legal moves, but none to that destination (or with that companion).
    #[error("that piece cannot reach that square with this roll")]
    WrongDestination,
    /// The piece is already at the goal and never moves again.
    #[error("that piece has already arrived")]
    PieceFinished,
    /// The piece is in base and nothing legal brings it out: a piece comes out only with a 5 (RULES.md,
    /// `exit_mandatory`), and never with a count.
    #[error("a piece in base needs a 5 to come out")]
    PieceInBase,
    /// Bringing a piece out of base is legal and this piece has no legal move: with a 5 and a piece in base,
    /// coming out is the move to play (RULES.md, `exit_mandatory`).
    #[error("with a 5 and a piece in base, bringing it out is the only legal move")]
    MustBringPieceOut,
    /// On a rolled 6, every legal move opens one of the seat's blockades and this one does not (RULES.md,
    /// `must_open_blockade_on_six`).
    #[error("with a six, a piece of your blockade must move")]
    MustOpenBlockade,
    /// Capturing is mandatory and every legal move captures, this one does not (RULES.md,
    /// `morocco_priorities`).
    #[error("a capture is possible, and capturing is mandatory")]
    MustCapture,
    /// Any other reason the piece has no legal move: a blockade on the way or on the square, a full square,
    /// a square it may not share (`mixed_pairs_only_on_safe`), a move past the goal, or a partner's piece
    /// that the seat may not move yet (`partner_moves`).
    #[error("a blockade is in the way, the square is full, or the move would overshoot the goal")]
    Blocked,
}

impl IllegalMove {
    /// A stable machine-readable code naming the rule: `no_such_piece`, `not_your_piece`, `wrong_destination`,
    /// `piece_finished`, `piece_in_base`, `must_bring_piece_out`, `must_open_blockade`, `must_capture` or
    /// `blocked`.
    pub fn code(&self) -> &'static str {
        match self {
            IllegalMove::NoSuchPiece => "no_such_piece",
            IllegalMove::NotYourPiece => "not_your_piece",
            IllegalMove::WrongDestination => "wrong_destination",
            IllegalMove::PieceFinished => "piece_finished",
            IllegalMove::PieceInBase => "piece_in_base",
            IllegalMove::MustBringPieceOut => "must_bring_piece_out",
            IllegalMove::MustOpenBlockade => "must_open_blockade",
            IllegalMove::MustCapture => "must_capture",
            IllegalMove::Blocked => "blocked",
        }
    }
}

/// A roll or move was refused; the game is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// A roll or move after the game ended ([`Phase::Over`](crate::Phase::Over)).
    #[error("the game is over")]
    GameOver,
    /// A move while a roll is due ([`Phase::Roll`](crate::Phase::Roll)).
    #[error("roll the die first")]
    MustRoll,
    /// A roll while a move or a count is due ([`Phase::Move`](crate::Phase::Move),
    /// [`Phase::Count`](crate::Phase::Count)).
    #[error("the die is already rolled: play a move")]
    MustMove,
    /// A die value outside 1..=6; holds the value given.
    #[error("a die shows 1 to 6, not {0}")]
    BadDie(u8),
    /// The move is not among the legal moves; holds the rule it breaks.
    #[error("illegal move: {0}")]
    Illegal(IllegalMove),
    /// [`crate::Game::play_legal`] was given a number past the end of the legal moves.
    #[error("there is no legal move with that number")]
    NoSuchMove,
}

impl PlayError {
    /// A stable machine-readable code: `game_over`, `must_roll`, `must_move`, `bad_die`, `no_such_move`, or
    /// for an illegal move the rule's code ([`IllegalMove::code`]).
    pub fn code(&self) -> &'static str {
        match self {
            PlayError::GameOver => "game_over",
            PlayError::MustRoll => "must_roll",
            PlayError::MustMove => "must_move",
            PlayError::BadDie(_) => "bad_die",
            PlayError::Illegal(i) => i.code(),
            PlayError::NoSuchMove => "no_such_move",
        }
    }
}

/// A move text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveParseError {
    /// The text is not of the form `PIECE:FROM-TO`, `PIECE` or two of them joined by `+`, or its TO is not on
    /// the piece's path; holds the whole text.
    #[error("cannot read move `{}` (expected e.g. y1:5-12, y1:h-5, y1:l7-goal or y1)", clip(.0))]
    Syntax(String),
    /// The piece is well written but not in this game (a colour not playing, a number past its pieces); holds
    /// the piece (`o1`).
    #[error("no piece `{}` in this game", clip(.0))]
    NoSuchPiece(String),
    /// A bare piece (`y1`) that has no legal move now; holds the text before any `+`.
    #[error("piece `{}` has no legal move now", clip(.0))]
    NoLegalMoveForPiece(String),
    /// The move names a square the piece is not on (so it cannot be the move of that piece).
    #[error("piece `{piece}` is on {at}, not on {}", clip(said))]
    PieceNotThere {
        /// The piece, as written in moves (`y1`).
        piece: String,
        /// Where it stands, as a place of the notation (`h`, `12`, `l3`, `goal`).
        at: String,
        /// The FROM the text gave.
        said: String,
    },
    /// The text matches more than one legal move (a bare piece that has several); holds the whole text.
    #[error("`{}` matches several legal moves: give the squares, e.g. y1:5-12", clip(.0))]
    Ambiguous(String),
}

impl MoveParseError {
    /// A stable machine-readable code: `bad_move_syntax`, `no_such_piece`, `no_legal_move_for_piece`,
    /// `piece_not_there` or `ambiguous_move`.
    pub fn code(&self) -> &'static str {
        match self {
            MoveParseError::Syntax(_) => "bad_move_syntax",
            MoveParseError::NoSuchPiece(_) => "no_such_piece",
            MoveParseError::NoLegalMoveForPiece(_) => "no_legal_move_for_piece",
            MoveParseError::PieceNotThere { .. } => "piece_not_there",
            MoveParseError::Ambiguous(_) => "ambiguous_move",
        }
    }
}

/// A position (notation or setup) is not valid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid position: {0}")]
pub struct PositionError(
    /// What is wrong, in English (quoting at most 40 characters of the input).
    pub String,
);

impl PositionError {
    /// Always `bad_position`: what is wrong is in the message (RULES.md, "Position notation", lists every
    /// refusal).
    pub fn code(&self) -> &'static str {
        "bad_position"
    }
}

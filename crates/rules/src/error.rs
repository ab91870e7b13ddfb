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
    #[error("unknown rule set `{}` (expected playgridia, ludoteka or morocco)", clip(.0))]
    UnknownRuleSet(String),
    #[error("unknown mode `{}` (expected individual, quick, pairs, 1v1, 6-piece or 3v3)", clip(.0))]
    UnknownMode(String),
    #[error("{mode} is played by {} players, not {players}", count_range(allowed))]
    PlayerCount {
        mode: Mode,
        players: u8,
        allowed: std::ops::RangeInclusive<u8>,
    },
    #[error("too many pieces for this board, or more than two on one square at the start")]
    TooManyPieces,
    #[error("pieces_to_win must be between 1 and pieces_per_colour")]
    PiecesToWin,
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
    #[error("there is no such piece in this game")]
    NoSuchPiece,
    #[error("that piece is not yours to move")]
    NotYourPiece,
    #[error("that piece cannot reach that square with this roll")]
    WrongDestination,
    #[error("that piece has already arrived")]
    PieceFinished,
    #[error("a piece in base needs a 5 to come out")]
    PieceInBase,
    #[error("with a 5 and a piece in base, bringing it out is the only legal move")]
    MustBringPieceOut,
    #[error("with a six, a piece of your blockade must move")]
    MustOpenBlockade,
    #[error("a capture is possible, and capturing is mandatory")]
    MustCapture,
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
    #[error("the game is over")]
    GameOver,
    #[error("roll the die first")]
    MustRoll,
    #[error("the die is already rolled: play a move")]
    MustMove,
    #[error("a die shows 1 to 6, not {0}")]
    BadDie(u8),
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
    #[error("cannot read move `{}` (expected e.g. y1:5-12, y1:h-5, y1:l7-goal or y1)", clip(.0))]
    Syntax(String),
    #[error("no piece `{}` in this game", clip(.0))]
    NoSuchPiece(String),
    #[error("piece `{}` has no legal move now", clip(.0))]
    NoLegalMoveForPiece(String),
    /// The move names a square the piece is not on (so it cannot be the move of that piece).
    #[error("piece `{piece}` is on {at}, not on {}", clip(said))]
    PieceNotThere {
        piece: String,
        at: String,
        said: String,
    },
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
pub struct PositionError(pub String);

impl PositionError {
    /// Always `bad_position`: what is wrong is in the message (RULES.md, "Position notation", lists every
    /// refusal).
    pub fn code(&self) -> &'static str {
        "bad_position"
    }
}

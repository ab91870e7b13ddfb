//! `{"type":"move","move":"y1:5-12","version":N}`: the seat to act plays a move.

use std::time::Instant;

use parchis_rules::Phase;

use super::{After, act_error, decided_seat, settle_error};
use crate::model::Actor;
use crate::rooms::hub::ConnId;
use crate::rooms::protocol::{CommandError, ErrorCode};
use crate::rooms::room::Room;

/// Longest move text accepted (the longest real one is about 25 characters).
const MAX_MOVE_TEXT: usize = 64;

/// Plays the move if it is this seat's move, chosen at a current version, and legal.
pub(super) async fn handle(
    room: &mut Room,
    conn: ConnId,
    text: &str,
    version: u64,
    started: Instant,
) -> Result<After, CommandError> {
    // On the stored game: an earlier action reported as failed may be stored all the same.
    room.settle_log().await.map_err(settle_error)?;
    let seat = decided_seat(room, conn, Some(version))?;
    let Some(table) = &room.table else {
        return Err(CommandError::new(
            ErrorCode::NotStarted,
            "The game has not started yet.",
        ));
    };
    if table.game.phase() == Phase::Roll {
        return Err(CommandError::new(
            ErrorCode::MustRoll,
            "Roll the die first.",
        ));
    }
    if text.len() > MAX_MOVE_TEXT {
        return Err(CommandError::new(
            ErrorCode::Malformed,
            "That move text is too long.",
        ));
    }
    let mv = table
        .game
        .parse_move(text)
        .map_err(|e| CommandError::illegal(e.code(), e.to_string()))?;
    let events = room
        .act_move(seat, mv, Actor::Player)
        .await
        .map_err(act_error)?;
    room.after_action(&events, started);
    Ok(After::Stay)
}

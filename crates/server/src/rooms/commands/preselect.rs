//! `{"type":"preselect","move":"y1:5-12"|null}`: a move for the server to play
//! if it has to act for this seat (timer or away). Private: only acked.

use super::After;
use crate::rooms::hub::ConnId;
use crate::rooms::protocol::{CommandError, ErrorCode};
use crate::rooms::room::Room;

/// Longest pre-selection accepted.
const MAX_MOVE_TEXT: usize = 64;

/// Stores (or clears) the seat's pre-selected move.
pub(super) fn handle(
    room: &mut Room,
    conn: ConnId,
    text: Option<String>,
) -> Result<After, CommandError> {
    let seat = room.seat_of_conn(conn).ok_or_else(|| {
        CommandError::new(
            ErrorCode::NotSeated,
            "Only a seated player can pre-select a move.",
        )
    })?;
    if room.table.as_ref().is_some_and(|t| t.game.is_over()) {
        return Err(CommandError::new(ErrorCode::GameOver, "The game is over."));
    }
    if text.as_ref().is_some_and(|t| t.len() > MAX_MOVE_TEXT) {
        return Err(CommandError::new(
            ErrorCode::Malformed,
            "That move text is too long.",
        ));
    }
    room.preselected[seat] = text;
    Ok(After::Stay)
}

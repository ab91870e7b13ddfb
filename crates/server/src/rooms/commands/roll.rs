//! `{"type":"roll"}`: the seat to act rolls; the server derives the die.

use std::time::Instant;

use parchis_rules::Phase;

use super::{After, act_error};
use crate::rooms::hub::ConnId;
use crate::rooms::protocol::CommandError;
use crate::rooms::room::Room;

/// Rolls for the connection's seat if it is its turn to roll.
pub(super) async fn handle(
    room: &mut Room,
    conn: ConnId,
    started: Instant,
) -> Result<After, CommandError> {
    room.acting_seat(conn)?;
    if let Some(table) = &room.table
        && table.game.phase() != Phase::Roll
    {
        return Err(CommandError::new(
            "must_move",
            "The die is already rolled: play a move.",
        ));
    }
    let events = room.act_roll("player").await.map_err(act_error)?;
    room.after_action(&events, started);
    Ok(After::Stay)
}

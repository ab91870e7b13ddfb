//! `{"type":"roll","version":N}`: the seat to act rolls; the server derives the die. `version`, the room
//! version the client decided at, is optional (older clients send none and are not checked).

use std::time::Instant;

use parchis_rules::Phase;

use super::{After, act_error, decided_seat, settle_error};
use crate::model::Actor;
use crate::rooms::hub::ConnId;
use crate::rooms::protocol::{CommandError, ErrorCode};
use crate::rooms::room::Room;

/// Rolls for the connection's seat if it is its turn to roll (and, given a version, decided at a current one).
pub(super) async fn handle(
    room: &mut Room,
    conn: ConnId,
    version: Option<u64>,
    started: Instant,
) -> Result<After, CommandError> {
    // On the stored game: an earlier action reported as failed may be stored all the same.
    room.settle_log().await.map_err(settle_error)?;
    decided_seat(room, conn, version)?;
    if let Some(table) = &room.table
        && table.game.phase() != Phase::Roll
    {
        return Err(CommandError::new(
            ErrorCode::MustMove,
            "The die is already rolled: play a move.",
        ));
    }
    let events = room.act_roll(Actor::Player).await.map_err(act_error)?;
    room.after_action(&events, started);
    Ok(After::Stay)
}

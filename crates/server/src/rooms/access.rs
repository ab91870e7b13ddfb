//! Who may reach a room, for the REST API and the WebSocket alike: a path segment that is a room id or a
//! join code, and the private rooms shown by their bare id only to the people in them.

use super::lobby::RoomSnapshot;
use crate::auth;
use crate::db::{Db, SeatRow};
use crate::error::AppError;

/// Whether `player` is the owner of the room or seated in it (`seats`).
pub fn is_insider(player: Option<&str>, owner_id: &str, seats: &[SeatRow]) -> bool {
    player.is_some_and(|p| p == owner_id || seats.iter().any(|s| s.player_id.as_deref() == Some(p)))
}

/// A private room is shown, by its bare id, only to its owner and its seated players (anyone else
/// needs its join code): `403 wrong_join_code` otherwise, as its WebSocket answers.
pub fn check_private_access(
    snapshot: &RoomSnapshot,
    player: Option<&str>,
    by_code: bool,
) -> Result<(), AppError> {
    if snapshot.room.settings.0.public
        || by_code
        || is_insider(player, &snapshot.room.owner_id, &snapshot.seats)
    {
        Ok(())
    } else {
        Err(AppError::WrongJoinCode)
    }
}

/// Resolves a path segment that may be a room id or a join code.
/// Returns the room id and whether the segment was the join code.
pub async fn resolve(db: &Db, id_or_code: &str) -> Result<(String, bool), AppError> {
    if !auth::plausible_id(id_or_code) {
        return Err(AppError::RoomNotFound);
    }
    let upper = id_or_code.to_ascii_uppercase();
    if auth::looks_like_join_code(&upper)
        && let Some(room) = db.room_by_code(&upper).await?
    {
        return Ok((room.id, true));
    }
    Ok((id_or_code.to_owned(), false))
}

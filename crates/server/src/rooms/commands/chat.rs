//! `{"type":"chat","text":"¡Buena!"}`: a seated player writes to the room.
//! Stored before it is shown, then sent to every connection (spectators too).

use std::time::Instant;

use super::{After, MAYBE_STORED, storage_error};
use crate::db::{ChatRow, now_ms};
use crate::rooms::chat;
use crate::rooms::hub::ConnId;
use crate::rooms::protocol::{CommandError, ErrorCode};
use crate::rooms::room::Room;

/// Cleans, rate-limits, stores and broadcasts one message.
pub(super) async fn handle(
    room: &mut Room,
    conn: ConnId,
    text: &str,
) -> Result<After, CommandError> {
    let seat = room.seat_of_conn(conn).ok_or_else(|| {
        CommandError::new(
            ErrorCode::NotSeated,
            "Spectators can read the chat; only the room's players write in it.",
        )
    })?;
    let text = chat::clean(text)?;
    let now = Instant::now();
    room.chat.check_rate(seat, now)?;
    let writer = &room.lobby.seats[seat];
    let row = ChatRow {
        seq: room.chat.next_seq(),
        seat: writer.seat,
        player_id: writer.player_id.clone().unwrap_or_default(),
        display_name: writer.display_name.clone().unwrap_or_default(),
        text,
        at: now_ms(),
    };
    if let Err(e) = room.db.insert_chat(&room.lobby.room.id, &row).await {
        return Err(storage_error(
            &e,
            MAYBE_STORED,
            "The server could not store that message; nothing was sent.",
        ));
    }
    metrics::counter!("parchis_chat_messages_total").increment(1);
    room.broadcast_chat(row, now);
    Ok(After::Stay)
}

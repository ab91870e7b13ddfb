//! One file per realtime command (PROTOCOL.md §3). Each handler either
//! changes the room and returns `Ok`, or returns why not and changes nothing;
//! [`dispatch`] turns that into the `ack` or `error`.

mod chat;
mod leave;
mod play;
mod preselect;
mod resync;
mod roll;

use std::time::Instant;

use super::hub::ConnId;
use super::protocol::{self, ClientCommand, ClientMessage, CommandError, Outbound};
use super::room::Room;
use super::table::ActError;

/// What a handler wants done after the ack.
pub(super) enum After {
    /// Nothing: the connection stays.
    Stay,
    /// Close the connection normally (after `leave`).
    Close,
}

/// Runs one command of connection `conn` and answers it.
pub(super) async fn dispatch(room: &mut Room, conn: ConnId, message: ClientMessage) {
    if room.hub.conn(conn).is_none() {
        return; // already dropped (too slow); nobody to answer
    }
    let started = Instant::now();
    let result = match message.command {
        ClientCommand::Roll { version } => roll::handle(room, conn, version, started).await,
        ClientCommand::Move { text, version } => {
            play::handle(room, conn, &text, version, started).await
        }
        ClientCommand::Preselect { text } => preselect::handle(room, conn, text),
        ClientCommand::Resync => resync::handle(room, conn),
        ClientCommand::Leave => leave::handle(room, conn).await,
        ClientCommand::Chat { text } => chat::handle(room, conn, &text).await,
    };
    match result {
        Ok(after) => {
            room.reply(conn, protocol::ack(&message.id, room.hub.version()));
            if let After::Close = after {
                room.drop_conn(conn, Some(Outbound::Close(1000, "left")));
            }
        }
        Err(err) => {
            metrics::counter!("parchis_commands_refused_total", "code" => err.code).increment(1);
            room.reply(conn, protocol::error(&message.id, &err));
        }
    }
}

/// The seat a roll or move of connection `conn` acts for, when it was decided at room `version` (`None`:
/// an old client's roll, not checked). A decision taken before the latest roll or move (or at a version the
/// room has not reached) is `stale_version` whatever the turn and phase are now: the second of one
/// player's two devices sending the same automatic action is told that it came late, not that it is not
/// their turn or that the die is already rolled. Who is not seated, or a room not started, hears that first.
fn decided_seat(room: &Room, conn: ConnId, version: Option<u64>) -> Result<usize, CommandError> {
    let seat = room.acting_seat(conn);
    if let Err(e) = &seat
        && matches!(e.code, "not_seated" | "not_started")
    {
        return seat;
    }
    if let Some(version) = version
        && (version < room.game_version || version > room.hub.version())
    {
        return Err(CommandError::new(
            "stale_version",
            format!(
                "That was decided at version {version}, but the game changed at version {}.",
                room.game_version
            ),
        ));
    }
    seat
}

/// The error to show for an action the table refused.
fn act_error(err: ActError) -> CommandError {
    match err {
        ActError::Play(parchis_rules::PlayError::Illegal(i)) => {
            CommandError::illegal(i.code(), format!("illegal move: {i}"))
        }
        ActError::Play(e) => CommandError::new(e.code(), e.to_string()),
        // Storing the action, or reading the game back to check one, failed.
        err @ (ActError::Storage(_) | ActError::Rebuild(_)) => {
            tracing::error!(%err, "an action could not be stored");
            CommandError::new(
                "internal",
                "The server could not store that; nothing changed.",
            )
        }
    }
}

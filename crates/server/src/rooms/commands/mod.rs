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
use super::protocol::{self, ClientCommand, ClientMessage, CommandError, ErrorCode, Outbound};
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
                room.drop_conn(conn, Some(Outbound::Close(protocol::Close::Left)));
            }
        }
        Err(err) => {
            metrics::counter!("parchis_commands_refused_total", "code" => err.code.as_str())
                .increment(1);
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
        && matches!(e.code, ErrorCode::NotSeated | ErrorCode::NotStarted)
    {
        return seat;
    }
    if let Some(version) = version
        && (version < room.game_version || version > room.hub.version())
    {
        return Err(CommandError::new(
            ErrorCode::StaleVersion,
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
        ActError::Play(e) => CommandError::new(play_error_code(e), e.to_string()),
        // Storing the action, or reading the game back to check one, failed.
        err @ (ActError::Storage(_) | ActError::Rebuild(_)) => {
            tracing::error!(%err, "an action could not be stored");
            CommandError::new(
                ErrorCode::Internal,
                "The server could not store that; nothing changed.",
            )
        }
    }
}

/// The code of a refusal of the rules crate other than an illegal move. The room checks turn and phase
/// before it asks the game, so only the first three can happen; the others would be the server's mistake.
fn play_error_code(err: parchis_rules::PlayError) -> ErrorCode {
    use parchis_rules::PlayError;
    match err {
        PlayError::GameOver => ErrorCode::GameOver,
        PlayError::MustRoll => ErrorCode::MustRoll,
        PlayError::MustMove => ErrorCode::MustMove,
        PlayError::Illegal(_) => ErrorCode::IllegalMove,
        PlayError::BadDie(_) | PlayError::NoSuchMove => ErrorCode::Internal,
    }
}

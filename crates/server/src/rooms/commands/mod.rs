//! One file per realtime command (PROTOCOL.md §3). Each handler either
//! changes the room and returns `Ok`, or returns why not and changes nothing;
//! [`dispatch`] turns that into the `ack` or `error`. The REST API's lobby commands have a file each in
//! `room/lobby_commands/`.

mod chat;
mod leave;
mod play;
mod preselect;
pub(super) mod resync;
mod roll;

use std::time::Instant;

use super::hub::ConnId;
use super::messages;
use super::protocol::{self, ClientCommand, ClientMessage, CommandError, ErrorCode, Outbound};
use super::room::Room;
use super::table::ActError;
use crate::db::{DbError, Outage};

/// What a handler wants done after the ack.
pub(super) enum After {
    /// Nothing: the connection stays.
    Stay,
    /// Close the connection normally (after `leave`).
    Close,
    /// No `ack` yet: it is sent later, after the answer (a held `resync`).
    Held,
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
        ClientCommand::Resync => resync::handle(room, conn, &message.id),
        ClientCommand::Leave => leave::handle(room, conn).await,
        ClientCommand::Chat { text } => chat::handle(room, conn, &text).await,
    };
    match result {
        Ok(After::Held) => {}
        Ok(after) => {
            room.reply(conn, messages::ack(&message.id, room.hub.version()));
            if let After::Close = after {
                room.drop_conn(conn, Some(Outbound::Close(protocol::Close::Left)));
            }
        }
        Err(err) => {
            metrics::counter!("parchis_commands_refused_total", "code" => err.code.as_str())
                .increment(1);
            room.reply(conn, messages::error(&message.id, &err));
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
    if let Some(version) = version {
        let now = room.hub.version();
        if version > now {
            // A client that counts versions itself, or kept one from before a restart (another epoch).
            return Err(CommandError::new(
                ErrorCode::StaleVersion,
                format!(
                    "That was decided at version {version}, but the room is only at version {now}: \
                     send the version of the latest state you received."
                ),
            ));
        }
        if version < room.game_version {
            return Err(CommandError::new(
                ErrorCode::StaleVersion,
                format!(
                    "That was decided at version {version}, but the game changed at version {}.",
                    room.game_version
                ),
            ));
        }
    }
    seat
}

/// The sentence of a `storage_unavailable` refusal that changed nothing (the REST API's own).
pub(super) use crate::error::STORAGE_NOTHING_CHANGED as NOTHING_STORED;

/// The sentence of a `storage_unavailable` refusal of a leave or a chat message that may have been stored.
pub(super) const MAYBE_STORED: &str = "The server lost its database while storing that, so it may \
    have been stored or not. Try again in a moment.";

/// The refusal of a command whose storing failed with `err`: `storage_unavailable` when the database is
/// out of reach (`maybe` the sentence for one that may have been stored all the same), `internal` (with
/// `internal`, the sentence for a fault of the server) otherwise.
pub(super) fn storage_error(
    err: &DbError,
    maybe: &'static str,
    internal: &'static str,
) -> CommandError {
    match err.outage() {
        Some(Outage::NothingStored) => {
            tracing::warn!(%err, "storage unavailable: a command was refused");
            CommandError::storage_unavailable(false, NOTHING_STORED)
        }
        Some(Outage::MaybeStored) => {
            tracing::warn!(%err, "storage lost while storing a command: it may have been stored");
            CommandError::storage_unavailable(true, maybe)
        }
        None => {
            tracing::error!(%err, "a command could not be stored");
            CommandError::new(ErrorCode::Internal, internal)
        }
    }
}

/// The error to show for a roll or move the table refused. A failed append is followed by
/// [`Room::settle_log`] before the next action: an action that was stored though its append reported a
/// failure is then found in the log and shown, and sent again it is refused as made already.
fn act_error(err: ActError) -> CommandError {
    match err {
        ActError::Play(parchis_rules::PlayError::Illegal(i)) => {
            CommandError::illegal(i.code(), format!("illegal move: {i}"))
        }
        ActError::Play(e) => CommandError::new(play_error_code(e), e.to_string()),
        // Storing the action failed.
        ActError::Storage(err) => storage_error(
            &err,
            "The server lost its database while storing that, so it may have been stored or not. \
             Try again in a moment: if it was stored, the game shows it then, and it is not made twice.",
            "The server could not store that; nothing changed.",
        ),
        err @ ActError::Rebuild(_) => settle_error(err),
    }
}

/// The error to show when the stored game could not be read back before an action (to check an earlier
/// one whose append reported a failure): the action itself was not tried, so nothing changed.
fn settle_error(err: ActError) -> CommandError {
    match err {
        ActError::Storage(err) if err.outage().is_some() => {
            tracing::warn!(%err, "storage unavailable: the stored game could not be read back");
            CommandError::storage_unavailable(false, NOTHING_STORED)
        }
        err => {
            tracing::error!(%err, "the stored game could not be read back");
            CommandError::new(
                ErrorCode::Internal,
                "The server could not check the stored game; nothing changed.",
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

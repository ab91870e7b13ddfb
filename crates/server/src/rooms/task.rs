//! The task that owns one room's state. Commands arrive one at a time on a
//! bounded channel, so no lock guards the room: the task *is* the lock.

use std::time::Duration;

use tokio::sync::{broadcast, mpsc, oneshot};

use super::lobby::{Lobby, RoomCommand, RoomEvent, RoomSnapshot};
use crate::db::Db;
use crate::error::AppError;

/// A command plus the channel its answer goes back on.
pub(super) struct Envelope {
    /// What to do.
    pub command: RoomCommand,
    /// Where to send the room's state afterwards (or the refusal).
    pub reply: oneshot::Sender<Result<RoomSnapshot, AppError>>,
}

/// How long a room task lives without commands or subscribers before it
/// stops (the registry reloads the room from storage on next use).
const IDLE_TIMEOUT: Duration = Duration::from_secs(600);

/// Runs a room until it has been idle for [`IDLE_TIMEOUT`] or every sender is gone.
pub(super) async fn run(
    mut lobby: Lobby,
    db: Db,
    mut commands: mpsc::Receiver<Envelope>,
    events: broadcast::Sender<RoomEvent>,
) {
    loop {
        let envelope = match tokio::time::timeout(IDLE_TIMEOUT, commands.recv()).await {
            Ok(Some(envelope)) => envelope,
            Ok(None) => break,
            Err(_elapsed) if events.receiver_count() == 0 => break,
            Err(_elapsed) => continue,
        };
        let result = handle(&mut lobby, &db, &events, envelope.command).await;
        // The requester may have gone away (client disconnected); that is fine.
        let _ = envelope.reply.send(result);
    }
    tracing::debug!(room = %lobby.room.id, "room task stopped");
}

/// Applies one command: decide, persist (awaited), update state, broadcast.
async fn handle(
    lobby: &mut Lobby,
    db: &Db,
    events: &broadcast::Sender<RoomEvent>,
    command: RoomCommand,
) -> Result<RoomSnapshot, AppError> {
    match command {
        RoomCommand::Snapshot => {}
        RoomCommand::Join {
            player_id,
            display_name,
            preferred_colour,
            code,
        } => {
            if let Some(seat) =
                lobby.join(&player_id, &display_name, preferred_colour, code.as_deref())?
            {
                db.update_seat(&lobby.room.id, &seat).await?;
                lobby.apply_seat(seat);
                let _ = events.send(lobby.lobby_event());
            }
        }
        RoomCommand::Leave { player_id } => {
            let seat = lobby.leave(&player_id)?;
            db.update_seat(&lobby.room.id, &seat).await?;
            lobby.apply_seat(seat);
            let _ = events.send(lobby.lobby_event());
        }
        RoomCommand::Start { player_id } => {
            let plan = lobby.start(&player_id)?;
            db.start_game(&plan.game, &plan.seats).await?;
            let game_id = plan.game.id.clone();
            lobby.apply_start(plan);
            let _ = events.send(lobby.lobby_event());
            let _ = events.send(RoomEvent::GameStarted { game_id });
            // TODO(parchis-rules): hand the game to a referee task from here.
        }
    }
    Ok(lobby.snapshot())
}

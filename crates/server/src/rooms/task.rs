//! The task that owns one room. Everything arrives on its inbox one at a
//! time, so no lock guards the room: the task *is* the lock. It also wakes up
//! on its own when the server has to act for a seat (bots, timers, away), and to show a spectator
//! count that waited (at most one such update a second).

use tokio::sync::{mpsc, oneshot, watch};

use super::commands;
use super::hub::ConnId;
use super::lobby::{RoomCommand, RoomSnapshot};
use super::protocol::{ClientMessage, Outbound};
use super::relayed::Sink;
use super::room::{ConnectRequest, Room};
use crate::error::AppError;

/// A lobby command plus the channel its answer goes back on.
pub(super) struct Envelope {
    /// What to do.
    pub command: RoomCommand,
    /// Where to send the room's state afterwards (or the refusal).
    pub reply: oneshot::Sender<Result<RoomSnapshot, AppError>>,
}

/// Everything a room task is asked to do.
pub(super) enum Inbox {
    /// A lobby command from the HTTP API.
    Command(Envelope),
    /// A realtime connection wants to join the fan-out.
    Connect {
        /// Where its messages go.
        sink: Sink,
        /// Who it is and where it left off.
        request: ConnectRequest,
        /// Its id in the room.
        reply: oneshot::Sender<ConnId>,
    },
    /// A command from a realtime connection.
    Client {
        /// Which connection.
        conn: ConnId,
        /// What it asked.
        message: ClientMessage,
    },
}

/// Shortest wait before a room that could not stop for being idle looks again.
const IDLE_RECHECK: std::time::Duration = std::time::Duration::from_secs(1);

/// Runs a room until it is idle, every sender is gone, or the server stops; `loading` (its place
/// among the rooms loading at once) is given back once its game is restored.
pub(super) async fn run(
    mut room: Room,
    loading: tokio::sync::OwnedSemaphorePermit,
    mut inbox: mpsc::Receiver<Inbox>,
    mut gone: mpsc::UnboundedReceiver<ConnId>,
    mut stop: watch::Receiver<bool>,
) {
    if let Err(err) = room.restore().await {
        tracing::error!(room = %room.lobby.room.id, %err, "cannot restore the room from storage");
    }
    // Loaded: the next room may load.
    drop(loading);
    // Stops after this long without messages, connections or pending server actions. A room that
    // could not stop then looks again no sooner than IDLE_RECHECK later: with an idle time of zero it
    // would otherwise look again at once, a thousand times a second, as long as anyone is in it.
    let idle = room.timing.idle_room;
    let mut idle_check = tokio::time::Instant::now() + idle;
    loop {
        let wake = room.next_wake().map(tokio::time::Instant::from_std);
        let spectators = room.spectators_due().map(tokio::time::Instant::from_std);
        let resyncs = room.resyncs.due().map(tokio::time::Instant::from_std);
        tokio::select! {
            message = inbox.recv() => {
                let Some(message) = message else { break };
                idle_check = tokio::time::Instant::now() + idle;
                handle(&mut room, message).await;
            }
            Some(conn) = gone.recv() => room.disconnect(conn),
            () = sleep_until(wake), if wake.is_some() => room.auto_act().await,
            () = sleep_until(spectators), if spectators.is_some() => room.show_spectators(),
            () = sleep_until(resyncs), if resyncs.is_some() => commands::resync::send_held(&mut room),
            _ = stop.changed() => break,
            () = tokio::time::sleep_until(idle_check) => {
                // Not while a message waits: this branch may be picked with one ready (the message that
                // started the task, say), and it would be dropped unanswered.
                if room.hub.is_empty()
                    && wake.is_none()
                    && room.events.receiver_count() == 0
                    && inbox.is_empty()
                {
                    break;
                }
                idle_check = tokio::time::Instant::now() + idle.max(IDLE_RECHECK);
            }
        }
    }
    // Senders see the task gone from now on (and the registry starts a new one), rather than queueing
    // messages nobody will read. One sent in the instant before is dropped unread, its reply with it:
    // the registry takes that for a task that stopped and delivers it again, to the next one.
    inbox.close();
    let conns: Vec<ConnId> = room.hub.conns().map(|(id, _)| *id).collect();
    for conn in conns {
        room.forget(
            conn,
            Some(Outbound::Close(super::protocol::Close::RoomClosed)),
        );
    }
    tracing::debug!(room = %room.lobby.room.id, "room task stopped");
}

/// Sleeps until `at` (never returns for `None`; the branch is disabled then).
async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Handles one inbox message.
async fn handle(room: &mut Room, message: Inbox) {
    match message {
        Inbox::Command(envelope) => {
            let result = room.lobby_command(envelope.command).await;
            // The requester may have gone away (client disconnected); that is fine.
            let _ = envelope.reply.send(result);
        }
        Inbox::Connect {
            sink,
            request,
            reply,
        } => {
            let id = room.connect(sink, request);
            if reply.send(id).is_err() {
                room.disconnect(id);
            }
        }
        Inbox::Client { conn, message } => commands::dispatch(room, conn, message).await,
    }
}

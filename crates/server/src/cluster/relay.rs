//! Relayed connections: a socket on one node (the gateway) whose room runs on another (the owner).
//!
//! The owner adds the connection to the room as it adds its own sockets (same queue, same slow-client
//! rule) and forwards whatever the room queues for it to the gateway, in order; the gateway passes the
//! client's commands back. When the owner dies, gives the room up or is stopped, the gateway attaches
//! the socket to the room's next owner: the client gets a fresh snapshot (a new epoch), with no
//! reconnect of its own. Each attachment has a new session id, so a late frame of an old owner is never
//! taken for the new one's.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use tokio::sync::mpsc;

use super::registry::{Inner, backoff};
use super::wire::{Frame, RoomReply, RoomRequest};
use crate::error::AppError;
use crate::rooms::hub::OUTBOUND_QUEUE;
use crate::rooms::protocol::{ClientMessage, Close, Outbound};
use crate::rooms::{ConnectRequest, RoomLink, RoomRegistry, RoomSender};

/// How many times a socket is attached again while its room changes hands (see `registry::ATTEMPTS`).
const ATTEMPTS: u32 = 40;

/// Where a socket is attached.
enum Attached {
    /// To a room whose task runs on this node.
    Here(RoomLink),
    /// To a room run by `owner`, whose frames come to `session`.
    There { owner: String, session: Session },
}

/// A session's registration on this node: its frames arrive on `frames`; dropping it unregisters.
struct Session {
    inner: Arc<Inner>,
    id: String,
    frames: mpsc::UnboundedReceiver<(String, Frame)>,
}

impl Session {
    fn open(inner: &Arc<Inner>) -> Session {
        let id = crate::auth::new_id();
        let (tx, frames) = mpsc::unbounded_channel();
        inner
            .sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.clone(), tx);
        Session {
            inner: Arc::clone(inner),
            id,
            frames,
        }
    }

    /// Sends `frame` to this session's other end on `node`.
    async fn send(&self, node: &str, frame: Frame) {
        let subject = self.inner.session_subject(node, &self.id);
        let payload = frame.encode(&self.inner.node);
        if self.inner.nats.publish(subject, payload).await.is_ok() {
            metrics::counter!("parchis_cluster_relayed_frames_total").increment(1);
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.inner
            .sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
    }
}

/// Attaches a socket to the room, wherever it runs; tries again while it changes hands.
async fn attach(
    inner: &Arc<Inner>,
    room: &str,
    request: &ConnectRequest,
) -> Result<Attached, AppError> {
    for attempt in 0..ATTEMPTS {
        let here = if inner.local.is_running(room) {
            Some(inner.local.connect(room, request.clone()).await)
        } else {
            let session = Session::open(inner);
            let ask = RoomRequest::Connect {
                gateway: inner.node.clone(),
                session: session.id.clone(),
                request: request.clone().into(),
            };
            match inner.ask(room, &ask).await? {
                // Nobody runs it: run it here.
                None => Some(inner.local.connect(room, request.clone()).await),
                Some(RoomReply::Connected { owner }) => {
                    return Ok(Attached::There { owner, session });
                }
                Some(RoomReply::Error(err)) => Some(Err(err.into())),
                Some(RoomReply::Snapshot(_)) => {
                    Some(Err(AppError::Internal("unexpected reply".into())))
                }
            }
        };
        match here {
            Some(Ok(link)) => return Ok(Attached::Here(link)),
            Some(Err(AppError::RoomBusy)) if !*inner.stop.borrow() => {}
            Some(Err(err)) => return Err(err),
            None => {}
        }
        tokio::time::sleep(backoff(attempt)).await;
    }
    Err(AppError::RoomBusy)
}

/// Opens a socket's connection to the room: a plain local one when the room runs here (or nobody runs
/// it and this node claims it), else one relayed to its owner.
pub async fn connect(
    inner: Arc<Inner>,
    room: &str,
    request: ConnectRequest,
) -> Result<RoomLink, AppError> {
    let (owner, session) = match attach(&inner, room, &request).await? {
        Attached::Here(link) => return Ok(link),
        Attached::There { owner, session } => (owner, session),
    };
    let (out, outbound) = mpsc::channel(OUTBOUND_QUEUE);
    let (client, commands) = mpsc::channel(1);
    let gateway = Gateway {
        _presence: Presence::new(&inner, request.player_id.clone(), room),
        inner,
        room: room.to_owned(),
        request,
        out,
        commands,
    };
    tokio::spawn(gateway.run(Attached::There { owner, session }));
    Ok(RoomLink {
        outbound,
        sender: RoomSender::relayed(client),
    })
}

/// Counts a relayed socket (and its player's presence in the room) while it lasts.
struct Presence {
    inner: Arc<Inner>,
    player: Option<String>,
    room: String,
}

impl Presence {
    fn new(inner: &Arc<Inner>, player: Option<String>, room: &str) -> Presence {
        inner.relayed.fetch_add(1, Ordering::Relaxed);
        if let Some(player) = &player {
            let mut presence = inner.presence.lock().unwrap_or_else(|e| e.into_inner());
            *presence
                .entry(player.clone())
                .or_default()
                .entry(room.to_owned())
                .or_default() += 1;
        }
        Presence {
            inner: Arc::clone(inner),
            player,
            room: room.to_owned(),
        }
    }
}

impl Drop for Presence {
    fn drop(&mut self) {
        self.inner.relayed.fetch_sub(1, Ordering::Relaxed);
        let Some(player) = &self.player else { return };
        let mut presence = self
            .inner
            .presence
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(rooms) = presence.get_mut(player) {
            if let Some(n) = rooms.get_mut(&self.room) {
                *n -= 1;
                if *n == 0 {
                    rooms.remove(&self.room);
                }
            }
            if rooms.is_empty() {
                presence.remove(player);
            }
        }
    }
}

/// The gateway end of a relayed socket.
struct Gateway {
    inner: Arc<Inner>,
    room: String,
    /// How the socket connected (attached again without `resume`: a new owner is a new epoch).
    request: ConnectRequest,
    /// To the socket's writer.
    out: mpsc::Sender<Outbound>,
    /// From the socket's reader.
    commands: mpsc::Receiver<ClientMessage>,
    _presence: Presence,
}

/// Why a relayed attachment ended.
enum Ended {
    /// The socket closed: nothing more to do.
    ClientGone,
    /// The room dropped it (too slow): the socket closes so.
    TooSlow,
    /// The room closed it so (left, revoked, node stopping).
    Closed(Close),
    /// The room moved (its owner died, gave it up or is stopping): attach again.
    Moved,
}

impl Gateway {
    async fn run(mut self, mut attached: Attached) {
        loop {
            let ended = match attached {
                Attached::Here(link) => self.pump_here(link).await,
                Attached::There { owner, session } => self.pump_there(&owner, session).await,
            };
            match ended {
                Ended::ClientGone | Ended::TooSlow => return,
                Ended::Closed(close) => {
                    let _ = self.out.try_send(Outbound::Close(close));
                    return;
                }
                Ended::Moved if *self.inner.stop.borrow() => {
                    let _ = self.out.try_send(Outbound::Close(Close::RoomClosed));
                    return;
                }
                Ended::Moved => {}
            }
            let mut request = self.request.clone();
            request.resume = None;
            attached = match attach(&self.inner, &self.room, &request).await {
                Ok(attached) => attached,
                Err(err) => {
                    tracing::warn!(node = %self.inner.name, room = %self.room, %err, "a relayed socket could not follow its room");
                    let _ = self.out.try_send(Outbound::Close(Close::RoomClosed));
                    return;
                }
            };
            tracing::debug!(node = %self.inner.name, room = %self.room, "a relayed socket followed its room");
        }
    }

    /// Queues a message for the socket; the end of the attachment if it cannot take it.
    fn forward(&self, message: Outbound) -> Option<Ended> {
        match self.out.try_send(message) {
            Ok(()) => None,
            Err(mpsc::error::TrySendError::Full(_)) => Some(Ended::TooSlow),
            Err(mpsc::error::TrySendError::Closed(_)) => Some(Ended::ClientGone),
        }
    }

    /// Relays to a room whose task runs on this node (it moved here).
    async fn pump_here(&mut self, link: RoomLink) -> Ended {
        let RoomLink {
            mut outbound,
            sender,
        } = link;
        loop {
            tokio::select! {
                command = self.commands.recv() => match command {
                    Some(command) => {
                        if !sender.send(command).await {
                            return Ended::Moved;
                        }
                    }
                    None => return Ended::ClientGone,
                },
                message = outbound.recv() => match message {
                    Some(Outbound::Close(Close::RoomClosed)) => return Ended::Moved,
                    Some(Outbound::Close(close)) => return Ended::Closed(close),
                    Some(message) => {
                        if let Some(ended) = self.forward(message) {
                            return ended;
                        }
                    }
                    None => return Ended::TooSlow,
                },
            }
        }
    }

    /// Relays to a room run by `owner`.
    async fn pump_there(&mut self, owner: &str, mut session: Session) -> Ended {
        let mut alive = self.inner.alive.subscribe();
        let mut stop = self.inner.stop.subscribe();
        let ended = loop {
            tokio::select! {
                command = self.commands.recv() => match command {
                    Some(command) => session.send(owner, Frame::Client(command)).await,
                    None => break Ended::ClientGone,
                },
                frame = session.frames.recv() => match frame {
                    // Only the owner this attachment was made with speaks for the room.
                    Some((from, frame)) if from == owner => match frame {
                        Frame::Text(text) => {
                            if let Some(ended) = self.forward(Outbound::Text(text)) {
                                break ended;
                            }
                        }
                        Frame::Close(Close::RoomClosed) => return Ended::Moved,
                        Frame::Close(close) => return Ended::Closed(close),
                        Frame::End => return Ended::TooSlow,
                        Frame::Client(_) | Frame::Gone => {}
                    },
                    Some(_) => {}
                    None => break Ended::Moved,
                },
                _ = alive.changed() => {
                    if !self.inner.is_alive(owner) {
                        tracing::info!(node = %self.inner.name, room = %self.room, "the room's node died: following the room");
                        return Ended::Moved;
                    }
                }
                _ = stop.changed() => break Ended::Closed(Close::RoomClosed),
            }
        };
        // The owner drops its end of the connection.
        session.send(owner, Frame::Gone).await;
        ended
    }
}

/// The owner end of a relayed socket: forwards what the room queues for it to `gateway`, and the
/// client's commands to the room, until either end goes (or the gateway node dies).
pub fn serve_owner(inner: Arc<Inner>, link: RoomLink, gateway: String, session: String) {
    let (tx, mut frames) = mpsc::unbounded_channel();
    inner
        .sessions
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(session.clone(), tx);
    tokio::spawn(async move {
        let RoomLink {
            mut outbound,
            sender,
        } = link;
        let subject = inner.session_subject(&gateway, &session);
        let mut alive = inner.alive.subscribe();
        loop {
            tokio::select! {
                message = outbound.recv() => {
                    let frame = match message {
                        Some(message) => Frame::outbound(message),
                        None => Frame::End,
                    };
                    let end = matches!(frame, Frame::End);
                    let _ = inner.nats.publish(subject.clone(), frame.encode(&inner.node)).await;
                    metrics::counter!("parchis_cluster_relayed_frames_total").increment(1);
                    if end {
                        break;
                    }
                }
                frame = frames.recv() => match frame {
                    Some((from, Frame::Client(command))) if from == gateway => {
                        if !sender.send(command).await {
                            break;
                        }
                    }
                    Some((from, Frame::Gone)) if from == gateway => break,
                    Some(_) => {}
                    None => break,
                },
                _ = alive.changed() => {
                    if !inner.is_alive(&gateway) {
                        break;
                    }
                }
            }
        }
        inner
            .sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&session);
        // Dropping `sender` takes the connection out of the room.
        drop(sender);
    });
}

//! Relayed connections: a socket on one node (the gateway) whose room runs on another (the owner).
//!
//! The owner adds the connection to the room like its own sockets, but what the room sends it goes
//! through the room's relay ([`crate::rooms::relayed`]): broadcasts once per room for every node,
//! the socket's own messages to its node alone. The gateway's [`feed`](super::feed) puts them back in
//! order into the socket's queue (the slow-client rule as for any socket); the gateway passes the
//! client's commands to the owner. When the owner dies, gives the room up or is stopped (or the feed
//! saw a gap), the gateway attaches the socket again: the client gets a fresh snapshot (a new epoch
//! after a move), with no reconnect of its own; a command of the client's that the old owner did not
//! answer is answered then by the gateway ([`Unanswered`]). Each attachment has a new session id, so a late
//! frame of an old one is never taken for the new one's. A try the owner did not answer in time is
//! abandoned: the owner is told to drop that session, even if it has not added it yet (`sessions`).

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};
use std::time::Instant;

use tokio::sync::{mpsc, oneshot};

use super::feed::{self, Member};
use super::registry::{Answer, Inner, backoff};
use super::unanswered::Unanswered;
use super::wire::{Asked, Frame, RoomFrame, RoomReply, RoomRequest};
use crate::error::AppError;
use crate::rooms::hub::OUTBOUND_QUEUE;
use crate::rooms::protocol::{ClientMessage, Close, Outbound};
use crate::rooms::relayed::{RelayOut, RelayPublisher, RelayQueue, RoomRelay};
use crate::rooms::{ConnectRequest, RoomLink, RoomRegistry, RoomSender};

/// How many times a socket is attached again while its room changes hands (see `registry::ATTEMPTS`).
const ATTEMPTS: u32 = 40;

/// Where a socket is attached.
enum Attached {
    /// To a room whose task runs on this node.
    Here(RoomLink),
    /// To a room run by `owner`, as `session`, whose messages come through the room's feed here.
    There {
        owner: String,
        session: String,
        member: Member,
        ended: oneshot::Receiver<Ended>,
        /// The client's commands passed on to the owner and not answered yet.
        unanswered: Unanswered,
    },
}

/// Sends a relayed connection's `frame` to its other end, `session` on `node`.
async fn send_frame(inner: &Inner, node: &str, session: &str, frame: Frame) {
    let subject = inner.session_subject(node, session);
    if inner
        .nats
        .publish(subject, frame.encode(&inner.node))
        .await
        .is_ok()
    {
        metrics::counter!("parchis_cluster_relayed_frames_total").increment(1);
    }
}

/// Attaches a socket to the room, wherever it runs; tries again while it changes hands.
async fn attach(
    inner: &Arc<Inner>,
    room: &str,
    request: &ConnectRequest,
    out: &mpsc::Sender<Outbound>,
) -> Result<Attached, AppError> {
    for attempt in 0..ATTEMPTS {
        let here = if inner.local.is_running(room) {
            Some(inner.local.connect(room, request.clone()).await)
        } else {
            // Listening to the room before its owner is asked, so that nothing it sends is missed.
            let session = crate::auth::new_id();
            let unanswered = Unanswered::default();
            let (member, ended) =
                feed::join(inner, room, &session, out.clone(), &unanswered).await?;
            // Each try is a session of its own, so a request of its own: reusing a session for the
            // next try could let a late owner's frames pass for the new owner's in the feed.
            let ask = Asked {
                id: crate::auth::new_id(),
                request: RoomRequest::Connect {
                    gateway: inner.node.clone(),
                    session: session.clone(),
                    request: request.clone().into(),
                },
            };
            // Unless the owner answers (or nobody serves the room), it is told to drop the session,
            // whatever ends this try (no answer in time, an error, the socket gone meanwhile): it may
            // add it late.
            let mut unless_answered = Abandon {
                inner,
                room,
                session: Some(session.clone()),
            };
            let answer = inner.ask_owner(room, &ask).await?;
            if !matches!(answer, Answer::Late) {
                unless_answered.session = None;
            }
            match answer {
                // Nobody runs it, or its owner may be dead: run it here if it is free.
                Answer::Nobody | Answer::Late => {
                    drop(unless_answered);
                    Some(inner.local.connect(room, request.clone()).await)
                }
                Answer::Reply(RoomReply::Connected { owner }) => {
                    return Ok(Attached::There {
                        owner,
                        session,
                        member,
                        ended,
                        unanswered,
                    });
                }
                Answer::Reply(RoomReply::Error(err)) => Some(Err(err.into())),
                Answer::Reply(RoomReply::Snapshot(_)) => {
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

/// A relayed session this gateway asked an owner for and did not take: the room's owner is told to
/// drop it when this is dropped (unless `session` was taken out).
struct Abandon<'a> {
    inner: &'a Arc<Inner>,
    room: &'a str,
    session: Option<String>,
}

impl Drop for Abandon<'_> {
    fn drop(&mut self) {
        let Some(session) = self.session.take() else {
            return;
        };
        let (inner, room) = (Arc::clone(self.inner), self.room.to_owned());
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move { inner.abandon(&room, &session).await });
        }
    }
}

/// Opens a socket's connection to the room: a plain local one when the room runs here (or nobody runs
/// it and this node claims it), else one relayed to its owner.
pub async fn connect(
    inner: Arc<Inner>,
    room: &str,
    request: ConnectRequest,
) -> Result<RoomLink, AppError> {
    let (out, outbound) = mpsc::channel(OUTBOUND_QUEUE);
    let attached = match attach(&inner, room, &request, &out).await? {
        Attached::Here(link) => return Ok(link),
        there => there,
    };
    let (client, commands) = mpsc::channel(1);
    let gateway = Gateway {
        _presence: Presence::new(&inner, request.player_id.clone(), room),
        inner,
        room: room.to_owned(),
        request,
        out,
        commands,
    };
    tokio::spawn(gateway.run(attached));
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
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Ended {
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
                Attached::There {
                    owner,
                    session,
                    member,
                    ended,
                    unanswered,
                } => {
                    self.pump_there(&owner, &session, member, ended, &unanswered)
                        .await
                }
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
            attached = match attach(&self.inner, &self.room, &request, &self.out).await {
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
        let unanswered = Unanswered::default();
        let why = loop {
            tokio::select! {
                command = self.commands.recv() => match command {
                    Some(command) => {
                        unanswered.sent(&command.id);
                        if !sender.send(command).await {
                            break Ended::Moved;
                        }
                    }
                    None => break Ended::ClientGone,
                },
                message = outbound.recv() => match message {
                    Some(Outbound::Close(Close::RoomClosed)) => break Ended::Moved,
                    Some(Outbound::Close(close)) => break Ended::Closed(close),
                    Some(message) => {
                        if let Outbound::Text(text) = &message {
                            unanswered.delivers(text);
                        }
                        if let Some(ended) = self.forward(message) {
                            break ended;
                        }
                    }
                    None => break Ended::TooSlow,
                },
            }
        };
        self.answer_unanswered(&unanswered, why)
    }

    /// The attachment ended: if the socket follows the room, the commands the room did not answer
    /// are answered here (else the client would wait for ever; see [`Unanswered`]).
    fn answer_unanswered(&self, unanswered: &Unanswered, why: Ended) -> Ended {
        let errors = unanswered.end();
        if why != Ended::Moved {
            return why;
        }
        if !errors.is_empty() {
            metrics::counter!("parchis_cluster_unanswered_commands_total")
                .increment(errors.len() as u64);
        }
        for error in errors {
            if let Some(ended) = self.forward(error) {
                return ended;
            }
        }
        why
    }

    /// Relays to a room run by `owner`: the client's commands go to it, its messages come through
    /// the room's feed until that ends the attachment.
    async fn pump_there(
        &mut self,
        owner: &str,
        session: &str,
        member: Member,
        mut ended: oneshot::Receiver<Ended>,
        unanswered: &Unanswered,
    ) -> Ended {
        let mut alive = self.inner.alive.subscribe();
        let mut stop = self.inner.stop.subscribe();
        let why = loop {
            tokio::select! {
                command = self.commands.recv() => match command {
                    Some(command) => {
                        unanswered.sent(&command.id);
                        send_frame(&self.inner, owner, session, Frame::Client(command)).await;
                    }
                    None => break Ended::ClientGone,
                },
                why = &mut ended => break why.unwrap_or(Ended::Moved),
                _ = alive.changed() => {
                    if !self.inner.is_alive(owner) {
                        tracing::info!(node = %self.inner.name, room = %self.room, "the room's node died: following the room");
                        // Told all the same: it may only be late, with the connection still in its room.
                        break Ended::Moved;
                    }
                }
                _ = stop.changed() => break Ended::Closed(Close::RoomClosed),
            }
        };
        // Out of the feed first, then the owner drops its end of the connection.
        drop(member);
        send_frame(&self.inner, owner, session, Frame::Gone).await;
        self.answer_unanswered(unanswered, why)
    }
}

/// The owner end of a relayed socket: passes the client's commands to the room until the gateway
/// says the socket closed, the gateway node dies or the room is gone. (What the room sends the
/// socket goes through the room's relay.) `false`, and the connection out of the room at once, if
/// the gateway gave the session up before it got here.
pub fn serve_owner(
    inner: Arc<Inner>,
    sender: RoomSender,
    gateway: String,
    session: String,
) -> bool {
    let (tx, mut frames) = mpsc::unbounded_channel();
    let opened = inner
        .sessions
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .open(&session, &gateway, tx, Instant::now());
    if !opened {
        metrics::counter!("parchis_cluster_abandoned_connections_total").increment(1);
        tracing::debug!(node = %inner.name, "a relayed connection came after its gateway gave up on it: dropped");
        // Dropping `sender` takes the connection out of the room.
        return false;
    }
    tokio::spawn(async move {
        let mut alive = inner.alive.subscribe();
        loop {
            tokio::select! {
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
            .close(&session);
        // Dropping `sender` takes the connection out of the room.
        drop(sender);
    });
    true
}

/// Starts the publisher of a room's relay on its owner.
pub(super) struct Publisher(pub Weak<Inner>);

impl RelayPublisher for Publisher {
    fn open(&self, room_id: &str) -> RoomRelay {
        let (relay, queue) = RoomRelay::new();
        if let Some(inner) = self.0.upgrade() {
            tokio::spawn(publish(inner, room_id.to_owned(), queue));
        }
        relay
    }
}

/// Publishes a room's messages for other nodes, in the room's order: a broadcast once on the room's
/// subject, a socket's own message to its node. Ends when the room does.
async fn publish(inner: Arc<Inner>, room: String, mut queue: RelayQueue) {
    let stream = crate::auth::new_id();
    let fan = inner.fan_subject(&room);
    while let Some(out) = queue.recv().await {
        let (subject, frame) = match out {
            RelayOut::Broadcast { seq, message } => (
                fan.clone(),
                RoomFrame {
                    stream: stream.clone(),
                    session: None,
                    seq,
                    frame: Frame::outbound(message),
                },
            ),
            RelayOut::To {
                gateway,
                session,
                after,
                message,
            } => (
                inner.gateway_subject(&gateway, &room),
                RoomFrame {
                    stream: stream.clone(),
                    session: Some(session.to_string()),
                    seq: after,
                    frame: message.map_or(Frame::End, Frame::outbound),
                },
            ),
        };
        if inner.nats.publish(subject, frame.encode()).await.is_ok() {
            metrics::counter!("parchis_cluster_relayed_frames_total").increment(1);
        }
    }
}

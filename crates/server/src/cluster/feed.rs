//! A gateway node's feed of one room run elsewhere: while it has sockets in the room, the node listens
//! to the room's broadcasts (`<prefix>.fan.<room>`, published once per update for every node) and to
//! its sockets' own messages (`<prefix>.gw.<node>.<room>`), and fans each out to its sockets' queues
//! (the slow-client rule as for any socket).
//!
//! Order: the owner publishes a room's messages in the order the room made them, each socket's own
//! ones saying which broadcast they follow ([`RoomFrame::seq`]). NATS keeps one publisher's order to
//! one subscriber, so everything published before a broadcast has reached this node before it; the
//! feed takes the sockets' messages that wait before each broadcast, and holds a message that is
//! ahead of the broadcasts seen until they come. A broadcast that never comes (a gap) or a message
//! out of order makes the socket attach again: its client gets a fresh snapshot, as after a move.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use futures_util::{FutureExt, StreamExt};
use tokio::sync::{mpsc, oneshot, watch};

use super::registry::Inner;
use super::relay::Ended;
use super::unanswered::Unanswered;
use super::wire::{Frame, RoomFrame};
use crate::error::AppError;
use crate::rooms::protocol::{Close, Outbound};

/// How long a socket's message may wait for the broadcasts before it (then one was lost).
const HOLD_LIMIT: Duration = Duration::from_secs(2);

/// A room's feed on this node, as the node's map holds it.
pub(super) struct FeedEntry {
    /// To the feed's task.
    control: mpsc::UnboundedSender<Control>,
    /// Sockets in it (the feed stops with the last).
    members: usize,
    /// `Some(true)` once the feed listens, `Some(false)` if it could not.
    ready: watch::Receiver<Option<bool>>,
}

/// What the feed's task is told.
enum Control {
    /// A socket's session joins (before its owner is asked to add it).
    Join {
        session: String,
        out: mpsc::Sender<Outbound>,
        ended: oneshot::Sender<Ended>,
        /// Its commands waiting for their answers.
        unanswered: Unanswered,
    },
    /// A socket's session leaves.
    Leave(String),
}

/// A socket's place in its room's feed; leaves it when dropped.
pub(super) struct Member {
    inner: Arc<Inner>,
    room: String,
    session: String,
    control: mpsc::UnboundedSender<Control>,
}

impl Drop for Member {
    fn drop(&mut self) {
        let _ = self
            .control
            .send(Control::Leave(std::mem::take(&mut self.session)));
        let mut feeds = self.inner.feeds.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entry) = feeds.get_mut(&self.room)
            && entry.control.same_channel(&self.control)
        {
            entry.members -= 1;
            if entry.members == 0 {
                feeds.remove(&self.room);
            }
        }
    }
}

/// Adds the socket's `session` to the room's feed on this node (started, and listening, first if
/// need be); its messages go to `out` (its answers ticked off `unanswered`), and how its attachment
/// ended to the answer's receiver.
pub(super) async fn join(
    inner: &Arc<Inner>,
    room: &str,
    session: &str,
    out: mpsc::Sender<Outbound>,
    unanswered: &Unanswered,
) -> Result<(Member, oneshot::Receiver<Ended>), AppError> {
    for _ in 0..2 {
        let (control, mut ready) = {
            let mut feeds = inner.feeds.lock().unwrap_or_else(|e| e.into_inner());
            let entry = feeds
                .entry(room.to_owned())
                .or_insert_with(|| start(inner, room));
            entry.members += 1;
            (entry.control.clone(), entry.ready.clone())
        };
        let member = Member {
            inner: Arc::clone(inner),
            room: room.to_owned(),
            session: session.to_owned(),
            control: control.clone(),
        };
        let listening = matches!(
            ready.wait_for(Option::is_some).await.as_deref(),
            Ok(Some(true))
        );
        let (tx, ended) = oneshot::channel();
        let join = Control::Join {
            session: session.to_owned(),
            out: out.clone(),
            ended: tx,
            unanswered: unanswered.clone(),
        };
        if listening && control.send(join).is_ok() {
            return Ok((member, ended));
        }
        // A feed that could not listen, or stopped: forget it and start another.
        drop(member);
        let mut feeds = inner.feeds.lock().unwrap_or_else(|e| e.into_inner());
        if feeds
            .get(room)
            .is_some_and(|e| e.control.same_channel(&control))
        {
            feeds.remove(room);
        }
    }
    Err(AppError::Internal(
        "cannot listen to the room's messages over NATS".into(),
    ))
}

/// Starts a room's feed task.
fn start(inner: &Arc<Inner>, room: &str) -> FeedEntry {
    let (control, rx) = mpsc::unbounded_channel();
    let (ready_tx, ready) = watch::channel(None);
    tokio::spawn(run(Arc::downgrade(inner), room.to_owned(), rx, ready_tx));
    FeedEntry {
        control,
        members: 0,
        ready,
    }
}

/// The feed's task: listens to the room's subjects until its last socket leaves.
async fn run(
    inner: Weak<Inner>,
    room: String,
    mut control: mpsc::UnboundedReceiver<Control>,
    ready: watch::Sender<Option<bool>>,
) {
    let subscribed = match inner.upgrade() {
        Some(inner) => subscribe(&inner, &room).await,
        None => return,
    };
    let (mut fan, mut own) = match subscribed {
        Ok(subscribers) => subscribers,
        Err(err) => {
            tracing::warn!(%room, %err, "cannot listen to a room's messages");
            ready.send_replace(Some(false));
            return;
        }
    };
    ready.send_replace(Some(true));
    let mut feed = Feed::default();
    // Armed only while a message is held: a node has a feed for every room with a socket of its
    // own run elsewhere (thousands), and a tick each for nothing was most of an idle node's CPU.
    let far = tokio::time::Instant::now() + Duration::from_secs(365 * 86400);
    let expiry = tokio::time::sleep_until(far);
    tokio::pin!(expiry);
    loop {
        let due = feed.next_expiry();
        if let Some(at) = due {
            let at = tokio::time::Instant::from_std(at);
            if expiry.deadline() != at {
                expiry.as_mut().reset(at);
            }
        }
        tokio::select! {
            biased;
            message = control.recv() => match message {
                Some(message) => feed.control(message),
                None => break,
            },
            message = own.next() => match message {
                Some(message) => feed.own(&message.payload),
                None => break,
            },
            message = fan.next() => match message {
                Some(message) => {
                    // What was published before this broadcast is here by now: it goes first.
                    while let Ok(message) = control.try_recv() {
                        feed.control(message);
                    }
                    while let Some(Some(message)) = own.next().now_or_never() {
                        feed.own(&message.payload);
                    }
                    feed.broadcast(&message.payload);
                }
                None => break,
            },
            () = &mut expiry, if due.is_some() => feed.expire(),
        }
    }
    // Not listening any more (NATS closed the subscriptions): the sockets attach again.
    let sessions: Vec<String> = feed.sockets.keys().cloned().collect();
    for session in sessions {
        feed.end(&session, Ended::Moved);
    }
}

/// Subscribes to the room's broadcasts and to this node's sockets' messages, and makes sure the
/// server has both before anyone is asked to send them.
async fn subscribe(
    inner: &Inner,
    room: &str,
) -> Result<(async_nats::Subscriber, async_nats::Subscriber), String> {
    let fan = inner
        .nats
        .subscribe(inner.fan_subject(room))
        .await
        .map_err(|e| e.to_string())?;
    let own = inner
        .nats
        .subscribe(inner.gateway_subject(&inner.node, room))
        .await
        .map_err(|e| e.to_string())?;
    inner.nats.flush().await.map_err(|e| e.to_string())?;
    Ok((fan, own))
}

/// One socket of the feed.
struct Socket {
    out: mpsc::Sender<Outbound>,
    ended: oneshot::Sender<Ended>,
    /// Its commands waiting for their answers (its own messages are the answers).
    unanswered: Unanswered,
    /// The stream its attachment is in and the broadcast its first message followed (broadcasts up
    /// to that one are already in its catch-up); `None` before its first message.
    start: Option<(String, u64)>,
    /// Its messages waiting for the broadcasts before them, with the broadcast each follows.
    pending: VecDeque<(u64, Frame)>,
    /// Since when the oldest of them waits.
    held_since: Option<Instant>,
}

/// The feed's sockets, and the last broadcast fanned out of each stream they are in.
#[derive(Default)]
struct Feed {
    sockets: HashMap<String, Socket>,
    streams: HashMap<String, u64>,
}

impl Feed {
    fn control(&mut self, message: Control) {
        match message {
            Control::Join {
                session,
                out,
                ended,
                unanswered,
            } => {
                let socket = Socket {
                    out,
                    ended,
                    unanswered,
                    start: None,
                    pending: VecDeque::new(),
                    held_since: None,
                };
                self.sockets.insert(session, socket);
            }
            Control::Leave(session) => {
                if let Some(socket) = self.sockets.remove(&session) {
                    self.forget_stream_of(&socket);
                }
            }
        }
    }

    /// One socket's own message.
    fn own(&mut self, payload: &bytes::Bytes) {
        let Some(RoomFrame {
            stream,
            session: Some(session),
            seq: after,
            frame,
        }) = RoomFrame::decode(payload)
        else {
            return;
        };
        let known = self.streams.get(&stream).copied();
        let Some(socket) = self.sockets.get_mut(&session) else {
            return;
        };
        match socket.start.as_ref().map(|(started, _)| *started == stream) {
            // Another life of the room: leftovers of an attachment that ended.
            Some(false) => return,
            Some(true) => {}
            None => socket.start = Some((stream.clone(), after)),
        }
        // Broadcasts after this message went by already: to its socket (out of order), or before
        // the socket's first message (missed).
        if known.is_some_and(|k| k > after) {
            self.end(&session, Ended::Moved);
            return;
        }
        if socket.pending.is_empty() {
            socket.held_since = Some(Instant::now());
        }
        socket.pending.push_back((after, frame));
        if known.is_none() {
            self.streams.insert(stream, after);
        }
        self.release(&session);
    }

    /// One broadcast.
    fn broadcast(&mut self, payload: &bytes::Bytes) {
        let Some(RoomFrame {
            stream,
            session: None,
            seq,
            frame,
        }) = RoomFrame::decode(payload)
        else {
            return;
        };
        let Some(&known) = self.streams.get(&stream) else {
            // No socket here is in this stream (yet).
            return;
        };
        if seq <= known {
            return;
        }
        let in_stream: Vec<String> = self
            .sockets
            .iter()
            .filter(|(_, s)| s.start.as_ref().is_some_and(|(st, _)| *st == stream))
            .map(|(session, _)| session.clone())
            .collect();
        if seq > known + 1 {
            tracing::info!(
                stream,
                missed = seq - known - 1,
                "a room's broadcasts were lost: its sockets here resync"
            );
            for session in in_stream {
                self.end(&session, Ended::Moved);
            }
            self.streams.remove(&stream);
            return;
        }
        self.streams.insert(stream, seq);
        let Frame::Text(text) = frame else { return };
        for session in in_stream {
            let Some(socket) = self.sockets.get(&session) else {
                continue;
            };
            // A socket whose catch-up came after this broadcast has it already.
            if socket.start.as_ref().is_some_and(|(_, first)| *first < seq)
                && let Some(ended) = deliver(&socket.out, Frame::Text(text.clone()))
            {
                self.end(&session, ended);
                continue;
            }
            self.release(&session);
        }
    }

    /// Sends the socket's messages whose broadcasts have been sent.
    fn release(&mut self, session: &str) {
        let Some(socket) = self.sockets.get_mut(session) else {
            return;
        };
        let Some(known) = socket
            .start
            .as_ref()
            .and_then(|(stream, _)| self.streams.get(stream).copied())
        else {
            return;
        };
        while socket
            .pending
            .front()
            .is_some_and(|(after, _)| *after <= known)
        {
            let Some((_, frame)) = socket.pending.pop_front() else {
                break;
            };
            // Its gateway answered its commands already: the attachment is over.
            if let Frame::Text(text) = &frame
                && !socket.unanswered.delivers(text)
            {
                continue;
            }
            if let Some(ended) = deliver(&socket.out, frame) {
                self.end(session, ended);
                return;
            }
        }
        socket.held_since = (!socket.pending.is_empty()).then(Instant::now);
    }

    /// When the oldest held message has waited [`HOLD_LIMIT`] (`None`: nothing is held).
    fn next_expiry(&self) -> Option<Instant> {
        self.sockets
            .values()
            .filter_map(|s| s.held_since)
            .min()
            .map(|at| at + HOLD_LIMIT)
    }

    /// Sockets whose messages waited too long for a broadcast (lost) attach again.
    fn expire(&mut self) {
        let late: Vec<String> = self
            .sockets
            .iter()
            .filter(|(_, s)| s.held_since.is_some_and(|at| at.elapsed() >= HOLD_LIMIT))
            .map(|(session, _)| session.clone())
            .collect();
        for session in late {
            tracing::info!("a room's broadcast was lost: a socket resyncs");
            self.end(&session, Ended::Moved);
        }
    }

    /// Takes the socket out of the feed and tells its gateway why.
    fn end(&mut self, session: &str, ended: Ended) {
        if let Some(socket) = self.sockets.remove(session) {
            self.forget_stream_of(&socket);
            let _ = socket.ended.send(ended);
        }
    }

    /// Forgets the socket's stream if no other socket is in it.
    fn forget_stream_of(&mut self, socket: &Socket) {
        let Some((stream, _)) = &socket.start else {
            return;
        };
        let used = self
            .sockets
            .values()
            .any(|s| s.start.as_ref().is_some_and(|(st, _)| st == stream));
        if !used {
            self.streams.remove(stream);
        }
    }
}

/// Queues one message for a socket; how its attachment ends if that ends it.
fn deliver(out: &mpsc::Sender<Outbound>, frame: Frame) -> Option<Ended> {
    let message = match frame {
        Frame::Text(text) => Outbound::Text(text),
        Frame::Close(Close::RoomClosed) => return Some(Ended::Moved),
        Frame::Close(close) => return Some(Ended::Closed(close)),
        Frame::End => return Some(Ended::TooSlow),
        Frame::Client(_) | Frame::Gone => return None,
    };
    match out.try_send(message) {
        Ok(()) => None,
        Err(mpsc::error::TrySendError::Full(_)) => Some(Ended::TooSlow),
        Err(mpsc::error::TrySendError::Closed(_)) => Some(Ended::ClientGone),
    }
}

#[cfg(test)]
mod tests {
    use axum::extract::ws::Utf8Bytes;

    use super::*;

    /// A feed's socket, seen from its gateway.
    struct Seen {
        out: mpsc::Receiver<Outbound>,
        ended: oneshot::Receiver<Ended>,
    }

    impl Seen {
        /// The texts queued so far.
        fn texts(&mut self) -> Vec<String> {
            let mut texts = Vec::new();
            while let Ok(Outbound::Text(text)) = self.out.try_recv() {
                texts.push(text.to_string());
            }
            texts
        }

        fn ended(&mut self) -> Option<Ended> {
            self.ended.try_recv().ok()
        }
    }

    fn join(feed: &mut Feed, session: &str) -> Seen {
        let (out, rx) = mpsc::channel(8);
        let (tx, ended) = oneshot::channel();
        feed.control(Control::Join {
            session: session.into(),
            out,
            ended: tx,
            unanswered: Unanswered::default(),
        });
        Seen { out: rx, ended }
    }

    fn frame(session: Option<&str>, seq: u64, text: &'static str) -> bytes::Bytes {
        RoomFrame {
            stream: "life-1".into(),
            session: session.map(str::to_owned),
            seq,
            frame: Frame::Text(Utf8Bytes::from_static(text)),
        }
        .encode()
    }

    #[test]
    fn a_sockets_message_ahead_of_the_broadcasts_waits_for_them() {
        let mut feed = Feed::default();
        let mut a = join(&mut feed, "a");
        feed.own(&frame(Some("a"), 0, "hello"));
        feed.broadcast(&frame(None, 1, "u1"));
        // The ack of update 2 came in before update 2 itself.
        feed.own(&frame(Some("a"), 2, "ack"));
        assert_eq!(a.texts(), ["hello", "u1"]);
        feed.broadcast(&frame(None, 2, "u2"));
        feed.broadcast(&frame(None, 2, "u2 again"));
        feed.broadcast(&frame(None, 3, "u3"));
        assert_eq!(a.texts(), ["u2", "ack", "u3"]);
        assert_eq!(a.ended(), None);
    }

    #[test]
    fn a_socket_gets_only_the_broadcasts_after_its_catch_up() {
        let mut feed = Feed::default();
        let mut a = join(&mut feed, "a");
        feed.own(&frame(Some("a"), 4, "hello a"));
        // B's catch-up is at broadcast 5: it comes before broadcast 5 reached this node.
        let mut b = join(&mut feed, "b");
        feed.own(&frame(Some("b"), 5, "snapshot b"));
        feed.broadcast(&frame(None, 5, "u5"));
        feed.broadcast(&frame(None, 6, "u6"));
        assert_eq!(a.texts(), ["hello a", "u5", "u6"]);
        assert_eq!(b.texts(), ["snapshot b", "u6"]);
    }

    #[test]
    fn a_feed_wakes_for_its_clock_only_while_a_message_waits() {
        let mut feed = Feed::default();
        let mut a = join(&mut feed, "a");
        feed.own(&frame(Some("a"), 0, "hello"));
        feed.broadcast(&frame(None, 1, "u1"));
        assert_eq!(a.texts(), ["hello", "u1"]);
        assert_eq!(feed.next_expiry(), None, "nothing held: no wake-up");
        let before = Instant::now();
        feed.own(&frame(Some("a"), 2, "ack"));
        let due = feed.next_expiry().expect("a held message wakes the feed");
        assert!(due >= before + HOLD_LIMIT && due <= Instant::now() + HOLD_LIMIT);
        feed.broadcast(&frame(None, 2, "u2"));
        assert_eq!(a.texts(), ["u2", "ack"]);
        assert_eq!(feed.next_expiry(), None, "released: no wake-up");
    }

    #[test]
    fn a_lost_broadcast_makes_the_sockets_resync() {
        let mut feed = Feed::default();
        let mut a = join(&mut feed, "a");
        let mut b = join(&mut feed, "b");
        feed.own(&frame(Some("a"), 1, "hello a"));
        feed.own(&frame(Some("b"), 1, "hello b"));
        feed.broadcast(&frame(None, 3, "u3"));
        assert_eq!(a.texts(), ["hello a"]);
        assert_eq!(
            (a.ended(), b.ended()),
            (Some(Ended::Moved), Some(Ended::Moved))
        );
        // A socket whose first message comes after broadcasts it should have had resyncs too.
        let mut c = join(&mut feed, "c");
        let mut d = join(&mut feed, "d");
        feed.own(&frame(Some("c"), 7, "hello c"));
        feed.broadcast(&frame(None, 8, "u8"));
        feed.own(&frame(Some("d"), 7, "hello d"));
        assert_eq!(c.texts(), ["hello c", "u8"]);
        assert_eq!((c.ended(), d.ended()), (None, Some(Ended::Moved)));
    }

    #[test]
    fn the_owner_closing_or_dropping_a_socket_ends_its_attachment() {
        let mut feed = Feed::default();
        let mut seen: Vec<Seen> = ["a", "b", "c"].iter().map(|s| join(&mut feed, s)).collect();
        let close = |session: &str, frame: Frame| {
            RoomFrame {
                stream: "life-1".into(),
                session: Some(session.into()),
                seq: 0,
                frame,
            }
            .encode()
        };
        feed.own(&close("a", Frame::Close(Close::RoomClosed)));
        feed.own(&close("b", Frame::Close(Close::TokenRevoked)));
        feed.own(&close("c", Frame::End));
        let ended: Vec<_> = seen.iter_mut().map(Seen::ended).collect();
        assert_eq!(
            ended,
            [
                Some(Ended::Moved),
                Some(Ended::Closed(Close::TokenRevoked)),
                Some(Ended::TooSlow)
            ]
        );
        assert!(feed.sockets.is_empty() && feed.streams.is_empty());
    }
}

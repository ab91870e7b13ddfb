//! The owner ends of the relayed connections on a node, by session id, and the sessions their
//! gateways gave up on before they were added here.
//!
//! A gateway gives up on a `Connect` it sent when no answer came within
//! [`REQUEST_TIMEOUT`](super::REQUEST_TIMEOUT) (or on an error, or when its socket went away
//! meanwhile), then tells the room's owner to drop that session (`RoomRequest::Abandon`). A slow
//! owner may read that before it has added the session to the room (both wait for the same busy
//! room, or the owner was paused with both in its socket): the session is remembered for
//! [`KEEP`], and refused when it comes. Otherwise the room would keep a connection nobody reads,
//! and the player's seat would show connected until the gateway died.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use super::wire::Frame;

/// How long a session given up on is remembered. Its `Connect` reached the owner before the
/// `Abandon` that followed it (NATS keeps one client's order), so it is already waiting for the room
/// when the `Abandon` is read: a room held up for longer than this has bigger problems.
pub(super) const KEEP: Duration = Duration::from_secs(120);

/// How many sessions given up on are remembered at most (the oldest go first): a gateway gives up
/// only on an owner slower than the request timeout, so this many within [`KEEP`] means an owner
/// that does not answer at all.
pub(super) const CAPACITY: usize = 16_384;

/// Where a session's frames go, with the node they came from.
pub(super) type FrameSender = mpsc::UnboundedSender<(String, Frame)>;

/// The owner ends of relayed connections, and sessions given up on.
#[derive(Default)]
pub(super) struct Sessions {
    /// Open sessions, with their gateway.
    open: HashMap<String, (String, FrameSender)>,
    /// Sessions given up on before they were added, with their gateway.
    abandoned: HashMap<String, String>,
    /// Their ids in the order they came, with when: the front is the oldest.
    order: VecDeque<(Instant, String)>,
}

impl Sessions {
    /// Where the frames of `session` go, if it is open here.
    pub fn get(&self, session: &str) -> Option<&FrameSender> {
        self.open.get(session).map(|(_, frames)| frames)
    }

    /// Opens `session` of `gateway`, whose frames go to `frames`; `false` if that gateway has given
    /// it up already (then it stays closed).
    pub fn open(
        &mut self,
        session: &str,
        gateway: &str,
        frames: FrameSender,
        now: Instant,
    ) -> bool {
        self.trim(now, CAPACITY);
        if self.abandoned.get(session).is_some_and(|g| g == gateway) {
            self.abandoned.remove(session);
            return false;
        }
        self.open
            .insert(session.to_owned(), (gateway.to_owned(), frames));
        true
    }

    /// Closes `session` (its connection left the room).
    pub fn close(&mut self, session: &str) {
        self.open.remove(session);
    }

    /// `gateway` gave up on `session`: closed as if its socket had gone if it is open (`true`),
    /// refused when it opens otherwise.
    pub fn abandon(&mut self, session: &str, gateway: &str, now: Instant) -> bool {
        if let Some((of, frames)) = self.open.get(session) {
            return of == gateway && frames.send((gateway.to_owned(), Frame::Gone)).is_ok();
        }
        self.trim(now, CAPACITY - 1);
        if self
            .abandoned
            .insert(session.to_owned(), gateway.to_owned())
            .is_none()
        {
            self.order.push_back((now, session.to_owned()));
        }
        false
    }

    /// Forgets the sessions given up on longer than [`KEEP`] ago, and the oldest while more than
    /// `room` are remembered.
    fn trim(&mut self, now: Instant, room: usize) {
        while let Some((at, session)) = self.order.front() {
            let expired = now.saturating_duration_since(*at) > KEEP;
            if !expired && self.order.len() <= room {
                break;
            }
            self.abandoned.remove(session);
            self.order.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_given_up_on_before_it_opens_is_refused_once() {
        let mut sessions = Sessions::default();
        let now = Instant::now();
        assert!(!sessions.abandon("s1", "g1", now));
        let (tx, _rx) = mpsc::unbounded_channel();
        // Only its own gateway can give a session up.
        assert!(sessions.open("s2", "g1", tx.clone(), now));
        sessions.abandon("s3", "g2", now);
        assert!(sessions.open("s3", "g1", tx.clone(), now));
        assert!(!sessions.open("s1", "g1", tx.clone(), now));
        assert!(sessions.get("s1").is_none());
        assert!(!sessions.abandoned.contains_key("s1"));
    }

    #[test]
    fn a_session_given_up_on_once_open_gets_its_gateways_gone() {
        let mut sessions = Sessions::default();
        let (tx, mut rx) = mpsc::unbounded_channel();
        let now = Instant::now();
        assert!(sessions.open("s1", "g1", tx, now));
        assert!(sessions.abandon("s1", "g1", now));
        let Ok((from, Frame::Gone)) = rx.try_recv() else {
            panic!("a gone frame")
        };
        assert_eq!(from, "g1");
        assert!(sessions.abandoned.is_empty());
    }

    #[test]
    fn sessions_given_up_on_are_forgotten_after_a_while_and_beyond_the_capacity() {
        let mut sessions = Sessions::default();
        let start = Instant::now();
        sessions.abandon("old", "g", start);
        let later = start + KEEP + Duration::from_secs(1);
        let (tx, _rx) = mpsc::unbounded_channel();
        assert!(sessions.open("old", "g", tx.clone(), later), "forgotten");
        for n in 0..CAPACITY + 10 {
            sessions.abandon(&n.to_string(), "g", later);
        }
        assert_eq!(sessions.abandoned.len(), CAPACITY);
        assert_eq!(sessions.order.len(), CAPACITY);
        // The oldest went first.
        assert!(sessions.open("0", "g", tx.clone(), later));
        assert!(!sessions.open(&(CAPACITY + 9).to_string(), "g", tx, later));
    }
}

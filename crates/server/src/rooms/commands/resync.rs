//! `{"type":"resync"}`: a fresh snapshot (then `hello` and any preview), at most once a second per
//! connection.
//!
//! A snapshot is some 1.2 KB for a 17-byte command: a client sending resyncs in a loop would make the
//! server write 70 times what it reads. Resyncs inside the second after a connection's last snapshot
//! are not refused (a client that missed updates must catch up): they are held, and answered together
//! by one snapshot when the second ends, each with its `ack` after it.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::After;
use crate::rooms::hub::ConnId;
use crate::rooms::messages;
use crate::rooms::protocol::CommandError;
use crate::rooms::room::Room;

/// A connection gets at most one snapshot on `resync` in this long.
pub const RESYNC_EVERY: Duration = Duration::from_secs(1);

/// Most held resyncs of one connection whose ids are kept for their `ack` (the flood limit keeps a
/// connection well under it; past it, the extra ones are acknowledged at once, the snapshot still to come).
const MOST_HELD: usize = 64;

/// Per connection: when its last resync snapshot went out, and the resyncs held since.
#[derive(Debug, Default)]
pub struct Resyncs {
    by_conn: HashMap<ConnId, Pace>,
}

#[derive(Debug)]
struct Pace {
    /// When the last snapshot for a resync went out.
    last: Instant,
    /// The ids of the resyncs held since, to acknowledge after the next snapshot.
    held: Vec<Value>,
}

/// What to do with one resync.
#[derive(Debug, PartialEq, Eq)]
enum Asked {
    /// Answer it now.
    Now,
    /// Held for the snapshot at the end of the second.
    Held,
    /// Held too, but too many are: acknowledged now.
    AckNow,
}

impl Resyncs {
    fn ask(&mut self, conn: ConnId, id: &Value, now: Instant) -> Asked {
        match self.by_conn.get_mut(&conn) {
            Some(pace) if now < pace.last + RESYNC_EVERY || !pace.held.is_empty() => {
                if pace.held.len() < MOST_HELD {
                    pace.held.push(id.clone());
                    Asked::Held
                } else {
                    Asked::AckNow
                }
            }
            Some(pace) => {
                pace.last = now;
                Asked::Now
            }
            None => {
                self.by_conn.insert(
                    conn,
                    Pace {
                        last: now,
                        held: Vec::new(),
                    },
                );
                Asked::Now
            }
        }
    }

    /// When the earliest held resync is due, if any is held.
    pub fn due(&self) -> Option<Instant> {
        self.by_conn
            .values()
            .filter(|p| !p.held.is_empty())
            .map(|p| p.last + RESYNC_EVERY)
            .min()
    }

    /// The connections whose held resyncs are due at `now`, with their ids; they count as answered now.
    fn take_due(&mut self, now: Instant) -> Vec<(ConnId, Vec<Value>)> {
        let mut due = Vec::new();
        for (conn, pace) in &mut self.by_conn {
            if !pace.held.is_empty() && pace.last + RESYNC_EVERY <= now {
                pace.last = now;
                due.push((*conn, std::mem::take(&mut pace.held)));
            }
        }
        // A connection quiet for a second needs no record (the next resync is answered at once anyway).
        self.by_conn
            .retain(|_, p| !p.held.is_empty() || now < p.last + RESYNC_EVERY);
        due
    }

    /// The connection is gone.
    pub fn forget(&mut self, conn: ConnId) {
        self.by_conn.remove(&conn);
    }
}

/// Sends the snapshot to this connection only, now or (inside a second of its last) when the second ends.
pub(super) fn handle(room: &mut Room, conn: ConnId, id: &Value) -> Result<After, CommandError> {
    match room.resyncs.ask(conn, id, Instant::now()) {
        Asked::Now => {
            send(room, conn);
            Ok(After::Stay)
        }
        Asked::Held => Ok(After::Held),
        Asked::AckNow => Ok(After::Stay),
    }
}

fn send(room: &mut Room, conn: ConnId) {
    room.send_snapshot(conn);
    room.send_previews(Some(conn));
}

/// Answers the resyncs held for a second: one snapshot per connection, then an `ack` for each.
pub fn send_held(room: &mut Room) {
    for (conn, ids) in room.resyncs.take_due(Instant::now()) {
        if room.hub.conn(conn).is_none() {
            continue;
        }
        send(room, conn);
        for id in ids {
            let version = room.hub.version();
            room.reply(conn, messages::ack(&id, version));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resyncs_inside_a_second_are_held_and_answered_together_when_it_ends() {
        let mut resyncs = Resyncs::default();
        let start = Instant::now();
        assert_eq!(resyncs.ask(1, &Value::from(1), start), Asked::Now);
        assert_eq!(resyncs.due(), None);
        for id in 2..5 {
            assert_eq!(resyncs.ask(1, &Value::from(id), start), Asked::Held);
        }
        // Another connection is not held back by the first.
        assert_eq!(resyncs.ask(2, &Value::from(1), start), Asked::Now);
        assert_eq!(resyncs.due(), Some(start + RESYNC_EVERY));
        assert!(resyncs.take_due(start).is_empty());
        let due = resyncs.take_due(start + RESYNC_EVERY);
        assert_eq!(
            due,
            vec![(1, vec![Value::from(2), Value::from(3), Value::from(4)])]
        );
        // The held snapshot counts as this second's: the next resync waits for the second after it.
        assert_eq!(
            resyncs.ask(1, &Value::from(5), start + RESYNC_EVERY),
            Asked::Held
        );
        assert_eq!(
            resyncs.ask(1, &Value::from(6), start + RESYNC_EVERY * 3),
            Asked::Held,
            "held ones go out in order, never overtaken"
        );
        assert_eq!(resyncs.take_due(start + RESYNC_EVERY * 3).len(), 1);
        assert_eq!(
            resyncs.ask(1, &Value::from(7), start + RESYNC_EVERY * 5),
            Asked::Now
        );
    }

    #[test]
    fn a_flood_of_resyncs_keeps_a_bounded_list_of_ids() {
        let mut resyncs = Resyncs::default();
        let now = Instant::now();
        resyncs.ask(1, &Value::Null, now);
        let held = (0..1000)
            .filter(|_| resyncs.ask(1, &Value::Null, now) == Asked::Held)
            .count();
        assert_eq!(held, MOST_HELD);
        resyncs.forget(1);
        assert_eq!(resyncs.due(), None);
    }
}

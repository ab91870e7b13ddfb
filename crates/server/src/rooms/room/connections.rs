//! Connections coming and going: catch-up on arrival, presence, closing revoked tokens.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::{ConnectRequest, Room};
use crate::rooms::hub::{Conn, ConnId};
use crate::rooms::lobby::Revoked;
use crate::rooms::protocol::{Close, Outbound};
use crate::rooms::relayed::Sink;

impl Room {
    /// Adds a connection: catch-up (missed updates or a snapshot), `hello`,
    /// then the presence update (a spectator's only when its count is next shown) and the private
    /// preview.
    pub fn connect(&mut self, sink: Sink, request: ConnectRequest) -> ConnId {
        let missed = request
            .resume
            .as_ref()
            .and_then(|(since, epoch)| self.hub.missed_since(*since, epoch));
        let catch_up = missed.unwrap_or_else(|| vec![self.hub.snapshot()]);
        let id = self.hub.add(Conn {
            sink,
            player_id: request.player_id,
            token_hash: request.token_hash,
        });
        for message in catch_up {
            // The queue is larger than the ring, so this cannot fill up.
            self.hub.send(id, message);
        }
        self.connections.fetch_add(1, Ordering::Relaxed);
        self.send_hello(id);
        let history = self.chat.history();
        self.reply(id, history);
        let player = self.hub.conn(id).and_then(|c| c.player_id.clone());
        let held: Vec<usize> = player
            .as_deref()
            .map(|p| self.seats_held_by(p).collect())
            .unwrap_or_default();
        for seat in held {
            self.away_since[seat] = None;
            self.bot_playing[seat] = false;
        }
        if self.hub.conn(id).and_then(|c| c.player_id.as_deref()) == Some(&self.lobby.room.owner_id)
        {
            self.owner_away_since = None;
        }
        if self.is_spectator(id) {
            self.spectators_changed();
        } else {
            self.publish(&[]);
        }
        self.send_previews(Some(id));
        id
    }

    /// Removes a connection (closed, too slow, or left), sending `close` first if given.
    pub fn forget(&mut self, conn: ConnId, close: Option<Outbound>) {
        if let Some(close) = close {
            let _ = self.hub.send(conn, close);
        }
        let held: Vec<usize> = match self.hub.conn(conn).and_then(|c| c.player_id.as_deref()) {
            Some(player) => self.seats_held_by(player).collect(),
            None => Vec::new(),
        };
        self.resyncs.forget(conn);
        let Some(gone) = self.hub.remove(conn) else {
            return;
        };
        self.connections.fetch_sub(1, Ordering::Relaxed);
        if gone.player_id.as_deref() == Some(&self.lobby.room.owner_id) && !self.owner_connected() {
            self.owner_away_since = Some(Instant::now());
        }
        for seat in held {
            if !self.connected(seat) {
                self.away_since[seat] = Some(Instant::now());
            }
        }
    }

    /// Closes the sockets `player_id` opened with a token that `tokens` revoked (close code 4001).
    pub(super) fn close_revoked(&mut self, player_id: &str, tokens: &Revoked) {
        let revoked: Vec<ConnId> = self
            .hub
            .conns()
            .filter(|(_, c)| {
                c.player_id.as_deref() == Some(player_id) && tokens.covers(c.token_hash.as_deref())
            })
            .map(|(id, _)| *id)
            .collect();
        if revoked.is_empty() {
            return;
        }
        for conn in revoked {
            self.forget(conn, Some(Outbound::Close(Close::TokenRevoked)));
        }
        // The seat shows away (and a bot covers it after the grace, as for any disconnection).
        self.publish(&[]);
    }

    /// A connection went away on its own.
    pub fn disconnect(&mut self, conn: ConnId) {
        self.drop_conn(conn, None);
    }

    /// Removes a connection (sending `close` first if given) and shows it gone: a seated player's at
    /// once, a spectator's when the spectator count is next shown.
    pub fn drop_conn(&mut self, conn: ConnId, close: Option<Outbound>) {
        if self.hub.conn(conn).is_none() {
            return;
        }
        let spectator = self.is_spectator(conn);
        self.forget(conn, close);
        if spectator {
            self.spectators_changed();
        } else {
            self.publish(&[]);
        }
    }
}

//! One realtime connection: a reader (parse, rate-limit, pass commands to the
//! room; close a connection that has gone silent) and a writer (drain the room's
//! queue and local replies to the socket; ping it now and then).

use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use governor::{Quota, RateLimiter};
use tokio::sync::oneshot;

use crate::rooms::RoomLink;
use crate::rooms::messages;
use crate::rooms::protocol::{self, Close, CommandError, ErrorCode, Outbound};

/// How long the writer may take to flush a close after the reader ends.
const CLOSE_GRACE: Duration = Duration::from_secs(2);
/// How long a connection closed for an oversized frame stays open after its close frame went out (less
/// than [`CLOSE_GRACE`]), so that the client reads the close before the socket is reset.
const TOO_BIG_LINGER: Duration = Duration::from_secs(1);
/// Most queued messages written with one flush (one `write` on the socket).
const WRITE_BATCH: usize = 32;
/// No more messages are added to a batch once it holds this many bytes.
const WRITE_BATCH_BYTES: usize = 2048;

/// A connection that sends nothing for this many ping intervals is taken for dead.
const SILENT_PINGS: u32 = 3;

/// What one connection is allowed, and how it is watched.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Commands per second (burst the same) before the connection is closed as a flood.
    pub messages_per_second: u32,
    /// How often the writer pings the client (`None`: never). The connection is closed when
    /// nothing, not even a pong, arrived during three of these (`SILENT_PINGS`): a peer that vanished without
    /// a close (a phone out of signal) would otherwise keep its seat "connected" until TCP gives up.
    pub ping_every: Option<Duration>,
}

/// Runs the connection until either side closes.
pub async fn serve(socket: WebSocket, link: RoomLink, limits: Limits) {
    let RoomLink {
        mut outbound,
        sender,
    } = link;
    let (mut sink, mut stream) = socket.split();
    // Replies the connection makes itself (malformed input, closes): no room involved. futures'
    // channel rather than tokio's: tokio allocates a block of 32 slots (~1.3 KiB) when the channel is
    // made, for a queue that most connections never use; futures' allocates per message, and an idle
    // player costs ~1 KiB less (BENCHMARKS.md, Load: RSS per idle player).
    let (mut local_tx, mut local_rx) = futures_channel::mpsc::channel::<Outbound>(16);

    // Frames received so far, counted by the reader and looked at by the writer at each ping (a counter
    // rather than a timer per frame: nothing to arm or cancel on the way of every message).
    let heard = Arc::new(AtomicU64::new(0));
    let heard_by_reader = Arc::clone(&heard);
    // The writer tells the reader that the peer went silent; the reader then closes the connection the
    // way it closes any other (the close frame sent, then the peer's answer awaited).
    let (went_silent, mut silent) = oneshot::channel::<()>();

    let mut writer = tokio::spawn(async move {
        let mut heard_at_ping = 0;
        let mut silent_pings = 0;
        let mut went_silent = Some(went_silent);
        let mut pings = limits.ping_every.map(|every| {
            // The first tick of an interval is at once: start one period from now.
            let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
            pings.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            pings
        });
        'run: loop {
            let mut next = Some(tokio::select! {
                biased;
                local = local_rx.next() => match local {
                    Some(m) => m,
                    None => break, // the reader is done
                },
                // A closed room queue means the room dropped us for reading too slowly.
                room = outbound.recv() => room.unwrap_or(Outbound::Close(Close::TooSlow)),
                _ = next_ping(&mut pings) => {
                    let now_heard = heard.load(Ordering::Relaxed);
                    silent_pings = if now_heard == heard_at_ping { silent_pings + 1 } else { 0 };
                    heard_at_ping = now_heard;
                    if silent_pings >= SILENT_PINGS {
                        if let Some(tell) = went_silent.take() {
                            let _ = tell.send(());
                        }
                    } else if sink.send(Message::Ping(Default::default())).await.is_err() {
                        break 'run;
                    }
                    continue 'run;
                }
            });
            // What is already queued goes out in one write (e.g. an update and its
            // ack), up to a few KiB: the socket's write buffer keeps the capacity
            // of its largest batch, so batching behind a snapshot would cost memory.
            let mut batched = 0;
            let mut bytes = 0;
            while let Some(message) = next.take() {
                match message {
                    Outbound::Text(text) => {
                        bytes += text.len();
                        if sink.feed(Message::Text(text)).await.is_err() {
                            break 'run;
                        }
                    }
                    Outbound::Close(close) => {
                        let frame = CloseFrame {
                            code: close.code(),
                            reason: close.reason().into(),
                        };
                        let _ = sink.send(Message::Close(Some(frame))).await;
                        break 'run;
                    }
                }
                batched += 1;
                if batched < WRITE_BATCH && bytes < WRITE_BATCH_BYTES {
                    next = local_rx
                        .try_recv()
                        .ok()
                        .or_else(|| outbound.try_recv().ok());
                }
            }
            if sink.flush().await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });

    let reader = async move {
        let mut too_big = false;
        let per_second = NonZeroU32::new(limits.messages_per_second).unwrap_or(NonZeroU32::MIN);
        let limiter = RateLimiter::direct(Quota::per_second(per_second));
        loop {
            let frame = tokio::select! {
                biased;
                frame = stream.next() => frame,
                // Only ever sent when pings are on (the writer, gone, also ends it).
                _ = &mut silent => {
                    let _ = local_tx.try_send(Outbound::Close(Close::NoPong));
                    break;
                }
            };
            let Some(frame) = frame else { break };
            heard_by_reader.fetch_add(1, Ordering::Relaxed);
            let message = match frame {
                Ok(message) => message,
                Err(err) => {
                    let text = err.to_string();
                    if text.contains("too long") || text.contains("Space limit") {
                        let _ = local_tx.send(Outbound::Close(Close::TooBig)).await;
                        too_big = true;
                    }
                    break;
                }
            };
            // Every frame counts against the flood limit, whatever its kind (a flood of binary frames or
            // pings costs the server as much as one of commands).
            if limiter.check().is_err() {
                let _ = local_tx.send(Outbound::Close(Close::RateLimited)).await;
                break;
            }
            let text = match message {
                Message::Text(text) => text,
                Message::Binary(_) => {
                    let err = CommandError::new(
                        ErrorCode::Malformed,
                        "send JSON text frames, not binary",
                    );
                    let _ = local_tx.try_send(messages::error(&serde_json::Value::Null, &err));
                    continue;
                }
                Message::Close(_) => break,
                Message::Ping(_) | Message::Pong(_) => continue,
            };
            match protocol::parse(&text) {
                Ok(command) => {
                    if !sender.send(command).await {
                        break;
                    }
                }
                Err((id, err)) => {
                    let _ = local_tx.try_send(messages::error(&id, &err));
                }
            }
        }
        // Dropping `sender` tells the room; dropping `local_tx` ends the writer.
        (stream, too_big)
    };

    tokio::select! {
        (mut stream, too_big) = reader => {
            let closing = async {
                let _ = (&mut writer).await;
                if too_big {
                    // The rest of the oversized frame cannot be read past (the stream only
                    // repeats its error), so the socket is closed with unread input, which
                    // the kernel answers with a reset that can destroy the close frame in
                    // flight: hold it open a moment for the client to read the close first.
                    tokio::time::sleep(TOO_BIG_LINGER).await;
                    return;
                }
                // Then read and drop whatever the client still sends until it answers
                // the close (or goes): a socket closed with unread input is reset by
                // the kernel, and the reset can destroy the close frame in flight
                // (e.g. `rate_limited` after a flood the reader did not read in full).
                while let Some(Ok(_)) = stream.next().await {}
            };
            if tokio::time::timeout(CLOSE_GRACE, closing).await.is_err() {
                writer.abort();
            }
        }
        _ = &mut writer => {}
    }
}

/// The next tick of the ping interval; never, when there are no pings.
async fn next_ping(pings: &mut Option<tokio::time::Interval>) {
    match pings {
        Some(pings) => {
            pings.tick().await;
        }
        None => std::future::pending().await,
    }
}

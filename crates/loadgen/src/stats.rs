//! Counters and latency histograms shared by every simulated room.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

/// Highest latency recorded, µs (larger samples are clamped).
const MAX_MICROS: u64 = 120_000_000;
/// How many error messages are kept as examples.
const ERROR_SAMPLES: usize = 20;

/// Latency histograms (µs).
pub struct Hists {
    /// Command sent → one client received its update (one sample per client).
    pub client: Histogram<u64>,
    /// `client`, for sockets on the node that runs the room.
    pub client_owner: Histogram<u64>,
    /// `client`, for sockets relayed to the room's node by another (cluster mode).
    pub client_relayed: Histogram<u64>,
    /// Command sent → the last of the room's clients received it (one per command).
    pub room: Histogram<u64>,
    /// Time between two completed actions of one room (a room that stopped shows a long one).
    pub gap: Histogram<u64>,
    /// `client` since the last progress line.
    pub interval: Histogram<u64>,
    /// `client` in the current wall-clock second (`second`), folded into `timeline` when it ends.
    current: Histogram<u64>,
    /// The Unix second `current` holds.
    second: u64,
    /// `client` per wall-clock second, so that several processes' reports can be merged in time.
    pub timeline: Vec<(u64, Compact)>,
}

/// A histogram as (value, count) pairs: small, serialisable, and merged by adding counts.
pub type Compact = Vec<(u64, u64)>;

/// A histogram's recorded values as [`Compact`].
pub fn compact(h: &Histogram<u64>) -> Compact {
    h.iter_recorded()
        .map(|v| (v.value_iterated_to(), v.count_at_value()))
        .collect()
}

/// Adds a [`Compact`] histogram's counts to `h`.
pub fn add_compact(h: &mut Histogram<u64>, c: &Compact) {
    for &(value, count) in c {
        h.saturating_record_n(value.clamp(1, MAX_MICROS), count);
    }
}

/// An empty latency histogram (µs, 3 significant figures).
pub fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, MAX_MICROS, 3).expect("valid histogram bounds")
}

/// An empty histogram for one second of the timeline (2 significant figures: 300 of them stay small).
fn coarse_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, MAX_MICROS, 2).expect("valid histogram bounds")
}

/// Seconds since the Unix epoch now.
pub fn unix_now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// Everything the rooms count.
#[derive(Default)]
pub struct Stats {
    /// Open player connections.
    pub connected: AtomicU64,
    /// Connections that could not be opened.
    pub connect_errors: AtomicU64,
    /// Connections closed or failed while playing (not by us).
    pub disconnects: AtomicU64,
    /// `error` messages, version gaps, bad patches, timeouts.
    pub errors: AtomicU64,
    /// Commands (roll or move) sent.
    pub commands: AtomicU64,
    /// Commands acknowledged and seen by every client of the room.
    pub actions: AtomicU64,
    /// Of those, moves (the rest are rolls).
    pub moves: AtomicU64,
    /// `update` messages received (all clients).
    pub updates: AtomicU64,
    /// Bytes of text received (all clients).
    pub bytes: AtomicU64,
    /// Bytes of `update` messages received (all clients).
    pub update_bytes: AtomicU64,
    /// Games that reached their end.
    pub games_finished: AtomicU64,
    /// Games started in a new room after one ended.
    pub games_restarted: AtomicU64,
    /// Paced slots skipped because the previous command was still in flight.
    pub skipped_slots: AtomicU64,
    /// Commands the server acknowledged (`ack`), warm-up included: each must be in the stored game.
    pub acked: AtomicU64,
    /// Sockets opened again after theirs dropped (through another node when theirs died).
    pub reconnects: AtomicU64,
    /// Sockets that could not be opened again (their room stops).
    pub reconnect_failures: AtomicU64,
    /// Commands given up without an answer: their socket dropped, or the room moved to another node
    /// (a snapshot of a new epoch); the room decides again from the state it now has.
    pub abandoned: AtomicU64,
    /// Histograms, behind one lock (recording is a few ns).
    pub hists: Mutex<Option<Hists>>,
    /// First few error texts, as examples.
    pub error_samples: Mutex<Vec<String>>,
}

/// Latency figures in milliseconds.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub struct Latency {
    /// Samples.
    pub count: u64,
    /// Median.
    pub p50_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// 99.9th percentile.
    pub p999_ms: f64,
    /// Largest.
    pub max_ms: f64,
}

impl Latency {
    /// Figures of a µs histogram.
    pub fn of(h: &Histogram<u64>) -> Self {
        let ms = |v: u64| v as f64 / 1000.0;
        Latency {
            count: h.len(),
            p50_ms: ms(h.value_at_quantile(0.5)),
            p99_ms: ms(h.value_at_quantile(0.99)),
            p999_ms: ms(h.value_at_quantile(0.999)),
            max_ms: ms(h.max()),
        }
    }
}

impl Stats {
    /// Fresh counters and empty histograms.
    pub fn new() -> Self {
        let s = Stats::default();
        *s.hists.lock().unwrap_or_else(|e| e.into_inner()) = Some(Hists {
            client: histogram(),
            client_owner: histogram(),
            client_relayed: histogram(),
            room: histogram(),
            gap: histogram(),
            interval: histogram(),
            current: coarse_histogram(),
            second: 0,
            timeline: Vec::new(),
        });
        s
    }

    fn with_hists<T>(&self, f: impl FnOnce(&mut Hists) -> T) -> Option<T> {
        let mut guard = self.hists.lock().unwrap_or_else(|e| e.into_inner());
        guard.as_mut().map(f)
    }

    /// One client received the update of a command after `d`; `relayed`: its socket is on a node
    /// that does not run the room.
    pub fn record_client(&self, d: Duration, relayed: bool) {
        let us = micros(d);
        let second = unix_now() as u64;
        self.with_hists(|h| {
            h.client.saturating_record(us);
            if relayed {
                h.client_relayed.saturating_record(us);
            } else {
                h.client_owner.saturating_record(us);
            }
            h.interval.saturating_record(us);
            if second != h.second {
                h.fold_second();
                h.second = second;
            }
            h.current.saturating_record(us);
        });
    }

    /// Every client of the room had the update after `d`.
    pub fn record_room(&self, d: Duration) {
        self.with_hists(|h| h.room.saturating_record(micros(d)));
    }

    /// A room completed an action `d` after its previous one.
    pub fn record_gap(&self, d: Duration) {
        self.with_hists(|h| h.gap.saturating_record(micros(d)));
    }

    /// Client latency since the last call, and resets it.
    pub fn take_interval(&self) -> Latency {
        self.with_hists(|h| {
            let l = Latency::of(&h.interval);
            h.interval.reset();
            l
        })
        .unwrap_or_default()
    }

    /// Forgets every latency sample so far (after warm-up).
    pub fn reset_latency(&self) {
        self.with_hists(|h| {
            h.client.reset();
            h.client_owner.reset();
            h.client_relayed.reset();
            h.room.reset();
            h.gap.reset();
            h.interval.reset();
            h.current.reset();
            h.timeline.clear();
        });
    }

    /// (per client, per room) latency so far.
    pub fn latency(&self) -> (Latency, Latency) {
        self.with_hists(|h| (Latency::of(&h.client), Latency::of(&h.room)))
            .unwrap_or_default()
    }

    /// Runs `f` on the histograms with the current second folded into the timeline.
    pub fn finish<T>(&self, f: impl FnOnce(&Hists) -> T) -> Option<T> {
        self.with_hists(|h| {
            h.fold_second();
            f(h)
        })
    }

    /// Counts an error and keeps its text if there are few so far.
    pub fn error(&self, text: impl FnOnce() -> String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        self.note(text);
    }

    /// Keeps the text of something that happened (not an error) if there are few samples so far.
    pub fn note(&self, text: impl FnOnce() -> String) {
        let mut samples = self.error_samples.lock().unwrap_or_else(|e| e.into_inner());
        if samples.len() < ERROR_SAMPLES {
            samples.push(text());
        }
    }

    /// Reads a counter.
    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }
}

impl Hists {
    /// Moves the current second's samples into the timeline.
    fn fold_second(&mut self) {
        if !self.current.is_empty() {
            self.timeline.push((self.second, compact(&self.current)));
            self.current.reset();
        }
    }
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros())
        .unwrap_or(u64::MAX)
        .clamp(1, MAX_MICROS)
}

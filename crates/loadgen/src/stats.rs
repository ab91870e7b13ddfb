//! Counters and latency histograms shared by every simulated room.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use hdrhistogram::Histogram;
use serde::Serialize;

/// Highest latency recorded, µs (larger samples are clamped).
const MAX_MICROS: u64 = 120_000_000;
/// How many error messages are kept as examples.
const ERROR_SAMPLES: usize = 20;

/// Latency histograms (µs).
pub struct Hists {
    /// Command sent → one client received its update (one sample per client).
    pub client: Histogram<u64>,
    /// Command sent → the last of the room's clients received it (one per command).
    pub room: Histogram<u64>,
    /// `client` since the last progress line.
    pub interval: Histogram<u64>,
}

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, MAX_MICROS, 3).expect("valid histogram bounds")
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
    /// Histograms, behind one lock (recording is a few ns).
    pub hists: Mutex<Option<Hists>>,
    /// First few error texts, as examples.
    pub error_samples: Mutex<Vec<String>>,
}

/// Latency figures in milliseconds.
#[derive(Debug, Clone, Copy, Default, Serialize)]
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
            room: histogram(),
            interval: histogram(),
        });
        s
    }

    fn with_hists<T>(&self, f: impl FnOnce(&mut Hists) -> T) -> Option<T> {
        let mut guard = self.hists.lock().unwrap_or_else(|e| e.into_inner());
        guard.as_mut().map(f)
    }

    /// One client received the update of a command after `d`.
    pub fn record_client(&self, d: Duration) {
        let us = micros(d);
        self.with_hists(|h| {
            h.client.saturating_record(us);
            h.interval.saturating_record(us);
        });
    }

    /// Every client of the room had the update after `d`.
    pub fn record_room(&self, d: Duration) {
        self.with_hists(|h| h.room.saturating_record(micros(d)));
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
            h.room.reset();
            h.interval.reset();
        });
    }

    /// (per client, per room) latency so far.
    pub fn latency(&self) -> (Latency, Latency) {
        self.with_hists(|h| (Latency::of(&h.client), Latency::of(&h.room)))
            .unwrap_or_default()
    }

    /// Counts an error and keeps its text if there are few so far.
    pub fn error(&self, text: impl FnOnce() -> String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
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

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros())
        .unwrap_or(u64::MAX)
        .clamp(1, MAX_MICROS)
}

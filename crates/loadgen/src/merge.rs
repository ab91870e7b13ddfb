//! `parchis-loadgen merge`: the reports of several processes that shared one run (`--shard I/N`) as one:
//! counts and rates added up, latency figures from the sum of their histograms, and the latency of each
//! second of the run across all of them.

use std::collections::BTreeMap;

use hdrhistogram::Histogram;

use crate::session::{Raw, Report};
use crate::stats::{Compact, Latency, add_compact, compact, histogram};

fn sum(parts: &[&Compact]) -> Histogram<u64> {
    let mut h = histogram();
    for part in parts {
        add_compact(&mut h, part);
    }
    h
}

/// The p99 (ms) and sample count of every second of the run, across the reports.
pub fn timeline(reports: &[Report]) -> Vec<(u64, u64, f64)> {
    seconds(reports)
        .into_iter()
        .map(|(s, h)| (s, h.len(), Latency::of(&h).p99_ms))
        .collect()
}

/// Every second's histogram, across the reports.
fn seconds(reports: &[Report]) -> BTreeMap<u64, Histogram<u64>> {
    let mut seconds: BTreeMap<u64, Histogram<u64>> = BTreeMap::new();
    for r in reports {
        for (second, part) in &r.raw.timeline {
            add_compact(seconds.entry(*second).or_insert_with(histogram), part);
        }
    }
    seconds
}

/// Seconds from `at` (Unix time) until the p99 of a `window`-second stretch is at or under `limit_ms`
/// (a window, not one second: on a shared machine single seconds spike whatever the run does). `None`:
/// not within the run.
pub fn recovered(reports: &[Report], at: f64, limit_ms: f64, window: u64) -> Option<f64> {
    let seconds = seconds(reports);
    let last = *seconds.keys().next_back()?;
    let first = at.floor() as u64;
    (first..=last.saturating_sub(window - 1)).find_map(|start| {
        let mut h = histogram();
        for (_, part) in seconds.range(start..start + window) {
            h.add(part).ok()?;
        }
        (Latency::of(&h).p99_ms <= limit_ms).then(|| (start as f64 - at).max(0.0))
    })
}

/// The p99 of the `window` seconds before `at` (ms).
pub fn p99_before(reports: &[Report], at: f64, window: u64) -> f64 {
    let end = at.floor() as u64;
    let mut h = histogram();
    for (_, part) in seconds(reports).range(end.saturating_sub(window)..end) {
        let _ = h.add(part);
    }
    Latency::of(&h).p99_ms
}

/// Seconds from `at` (Unix time) until the p99 of every later second stays at or under `limit_ms`:
/// `None` when the last second of the run is still over it.
pub fn back_under(timeline: &[(u64, u64, f64)], at: f64, limit_ms: f64) -> Option<f64> {
    let last_over = timeline
        .iter()
        .filter(|(s, _, p99)| *s as f64 + 1.0 > at && *p99 > limit_ms)
        .map(|(s, _, _)| *s)
        .max();
    match last_over {
        None => Some(0.0),
        Some(s) if timeline.last().is_some_and(|(end, _, _)| *end == s) => None,
        Some(s) => Some((s as f64 + 1.0 - at).max(0.0)),
    }
}

/// One report for the whole run.
pub fn merge(reports: &[Report]) -> Option<Report> {
    let first = reports.first()?;
    let raws: Vec<&Raw> = reports.iter().map(|r| &r.raw).collect();
    let pick = |f: fn(&Raw) -> &Compact| sum(&raws.iter().map(|r| f(r)).collect::<Vec<_>>());
    let client = pick(|r| &r.client);
    let owner = pick(|r| &r.client_owner);
    let relayed = pick(|r| &r.client_relayed);
    let room = pick(|r| &r.room);
    let gap = pick(|r| &r.gap);
    let total = |f: fn(&Report) -> u64| reports.iter().map(f).sum::<u64>();
    let fsum = |f: fn(&Report) -> f64| reports.iter().map(f).sum::<f64>();
    let fmax = |f: fn(&Report) -> f64| reports.iter().map(f).fold(0.0, f64::max);
    let mut samples = Vec::new();
    for r in reports {
        samples.extend(r.error_samples.iter().take(5).cloned());
    }
    let mut timeline: Vec<(u64, Compact)> = Vec::new();
    for r in reports {
        timeline.extend(r.raw.timeline.iter().cloned());
    }
    timeline.sort_by_key(|(s, _)| *s);
    let checked: Vec<u64> = reports.iter().filter_map(|r| r.acked_checked).collect();
    Some(Report {
        target: first.target,
        shard: Some(format!("{} processes", reports.len())),
        measure_start_unix: reports
            .iter()
            .map(|r| r.measure_start_unix)
            .fold(f64::MAX, f64::min),
        rooms_requested: first.rooms_requested,
        rooms_playing: reports.iter().map(|r| r.rooms_playing).sum(),
        players_connected: total(|r| r.players_connected),
        setup_errors: total(|r| r.setup_errors),
        connect_errors: total(|r| r.connect_errors),
        setup_secs: fmax(|r| r.setup_secs),
        connect_secs: fmax(|r| r.connect_secs),
        pace_ms: first.pace_ms,
        duration_secs: fmax(|r| r.duration_secs),
        actions: total(|r| r.actions),
        moves: total(|r| r.moves),
        actions_per_sec: fsum(|r| r.actions_per_sec),
        moves_per_sec: fsum(|r| r.moves_per_sec),
        updates_per_sec: fsum(|r| r.updates_per_sec),
        mean_update_bytes: {
            let updates = fsum(|r| r.updates_per_sec);
            let bytes = reports
                .iter()
                .map(|r| r.updates_per_sec * r.mean_update_bytes)
                .sum::<f64>();
            if updates > 0.0 { bytes / updates } else { 0.0 }
        },
        received_bytes_per_sec: fsum(|r| r.received_bytes_per_sec),
        latency_client: Latency::of(&client),
        latency_client_owner: Latency::of(&owner),
        latency_client_relayed: Latency::of(&relayed),
        latency_room: Latency::of(&room),
        action_gap: Latency::of(&gap),
        errors: total(|r| r.errors),
        disconnects: total(|r| r.disconnects),
        games_finished: total(|r| r.games_finished),
        games_restarted: total(|r| r.games_restarted),
        skipped_slots: total(|r| r.skipped_slots),
        reconnects: total(|r| r.reconnects),
        reconnect_failures: total(|r| r.reconnect_failures),
        abandoned_commands: total(|r| r.abandoned_commands),
        acked_actions: total(|r| r.acked_actions),
        acked_checked: (!checked.is_empty()).then(|| checked.iter().sum()),
        lost_acks: total(|r| r.lost_acks),
        unreadable_records: total(|r| r.unreadable_records),
        error_samples: samples,
        loadgen_cpu_percent: fsum(|r| r.loadgen_cpu_percent),
        server: if reports.len() == 1 {
            first.server.clone()
        } else {
            None
        },
        raw: Raw {
            client: compact(&client),
            client_owner: compact(&owner),
            client_relayed: compact(&relayed),
            room: compact(&room),
            gap: compact(&gap),
            timeline,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p99_is_back_under_the_limit_after_the_last_second_over_it() {
        let t = [
            (100, 10, 5.0),
            (101, 10, 900.0),
            (102, 10, 30.0),
            (103, 10, 8.0),
            (104, 10, 26.0), // a later spike counts too
            (105, 10, 7.0),
        ];
        assert_eq!(back_under(&t, 100.5, 25.0), Some(4.5));
        assert_eq!(back_under(&t, 105.0, 25.0), Some(0.0));
        assert_eq!(
            back_under(&t[..5], 100.5, 25.0),
            None,
            "still over at the end"
        );
    }

    #[test]
    fn histograms_of_two_processes_add_up() {
        let mut a = histogram();
        let mut b = histogram();
        for v in 1..=99 {
            a.record(v * 10).unwrap();
        }
        b.record(50_000).unwrap();
        let merged = sum(&[&compact(&a), &compact(&b)]);
        assert_eq!(merged.len(), 100);
        assert!(merged.max() >= 50_000);
        let p50 = merged.value_at_quantile(0.5);
        assert!((400..=600).contains(&p50), "{p50}");
    }
}

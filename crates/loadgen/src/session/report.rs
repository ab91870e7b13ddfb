//! What a session measured ([`Report`]), the server's figures from `/proc`, and the summary printed at the end.

use serde::{Deserialize, Serialize};

use super::Target;
use crate::stats::{Compact, Latency};

/// Server figures from `/proc`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ServerFigures {
    /// Its pid.
    pub pid: u32,
    /// RSS when the session began, KiB.
    pub rss_start_kib: u64,
    /// RSS after the rooms were set up (REST), KiB.
    pub rss_after_setup_kib: u64,
    /// RSS with every player connected and idle, KiB.
    pub rss_idle_kib: u64,
    /// (idle − after setup) / players: what one idle connection costs, KiB.
    pub rss_per_idle_player_kib: f64,
    /// (idle − start) / players: connection plus its share of rooms and setup, KiB.
    pub rss_per_player_all_in_kib: f64,
    /// RSS when measuring began (after warm-up), KiB.
    pub rss_measure_start_kib: u64,
    /// RSS at the end, KiB.
    pub rss_end_kib: u64,
    /// Highest RSS seen while measuring, KiB.
    pub rss_max_kib: u64,
    /// (end − measure start) / measure start, percent.
    pub rss_growth_percent: f64,
    /// CPU while measuring, percent of one core.
    pub cpu_percent: f64,
    /// (seconds since measuring began, RSS KiB) at each progress line.
    pub rss_series: Vec<(u64, u64)>,
}

/// The histograms behind a report's figures (µs), so that the reports of several processes can be merged.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Raw {
    /// Command → one client, every socket.
    pub client: Compact,
    /// … sockets on the room's node.
    pub client_owner: Compact,
    /// … sockets relayed by another node.
    pub client_relayed: Compact,
    /// Command → all four.
    pub room: Compact,
    /// Between two completed actions of one room.
    pub gap: Compact,
    /// Command → one client, per Unix second.
    pub timeline: Vec<(u64, Compact)>,
}

/// What a session measured.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Report {
    /// Server kind.
    pub target: Target,
    /// `I/N` when this process ran one shard of the rooms (`merge` adds the shards up).
    pub shard: Option<String>,
    /// Unix time when measuring began.
    pub measure_start_unix: f64,
    /// Rooms asked for.
    pub rooms_requested: usize,
    /// Rooms with all four players connected.
    pub rooms_playing: usize,
    /// Players connected when play began.
    pub players_connected: u64,
    /// Rooms whose REST setup failed.
    pub setup_errors: u64,
    /// Players that could not connect.
    pub connect_errors: u64,
    /// Seconds the REST setup took.
    pub setup_secs: f64,
    /// Seconds connecting took.
    pub connect_secs: f64,
    /// Pace per room, ms (0: closed loop).
    pub pace_ms: u64,
    /// Measured seconds.
    pub duration_secs: f64,
    /// Commands completed while measuring (acked and seen by all four).
    pub actions: u64,
    /// Of which moves (the rest are rolls).
    pub moves: u64,
    /// Actions per second.
    pub actions_per_sec: f64,
    /// Moves per second.
    pub moves_per_sec: f64,
    /// `update` messages delivered to clients per second (the broadcast rate).
    pub updates_per_sec: f64,
    /// Mean size of an `update` message, bytes.
    pub mean_update_bytes: f64,
    /// Text received by all clients per second, bytes.
    pub received_bytes_per_sec: f64,
    /// Command → one client has its update.
    pub latency_client: Latency,
    /// Command → one client, for sockets on the node that runs the room.
    pub latency_client_owner: Latency,
    /// Command → one client, for sockets relayed to the room's node by another node.
    pub latency_client_relayed: Latency,
    /// Command → all four clients have it.
    pub latency_room: Latency,
    /// Time between two completed actions of a room (about the pace; a room that stopped shows here).
    pub action_gap: Latency,
    /// Errors over the whole session (error messages, gaps, bad patches, timeouts).
    pub errors: u64,
    /// Connections lost while playing.
    pub disconnects: u64,
    /// Games that ended.
    pub games_finished: u64,
    /// Games started in new rooms after one ended (`new_games`).
    pub games_restarted: u64,
    /// Paced slots that found the previous command still in flight.
    pub skipped_slots: u64,
    /// Sockets opened again after theirs dropped.
    pub reconnects: u64,
    /// Sockets that could not be opened again.
    pub reconnect_failures: u64,
    /// Commands given up: their socket dropped or their room moved before the answer.
    pub abandoned_commands: u64,
    /// Commands acknowledged by the server over the whole session (warm-up included).
    pub acked_actions: u64,
    /// Of those, looked for in the stored games (`None`: not checked).
    pub acked_checked: Option<u64>,
    /// Acknowledged actions missing from the stored game (must be 0).
    pub lost_acks: u64,
    /// Games whose record could not be read.
    pub unreadable_records: u64,
    /// Example texts of errors and disconnects.
    pub error_samples: Vec<String>,
    /// CPU of the load generator itself while measuring, percent of one core.
    pub loadgen_cpu_percent: f64,
    /// The server's figures, when its pid is known.
    pub server: Option<ServerFigures>,
    /// The histograms, for `merge`.
    pub raw: Raw,
}

impl Report {
    /// A short human-readable summary.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "target={:?} rooms={}/{} players={} setup={:.1}s connect={:.1}s pace={}ms measured={:.0}s\n\
             actions/s={:.1} moves/s={:.1} updates delivered/s={:.1} (mean {:.0} B) received {:.2} MB/s\n\
             latency per client: p50={:.2}ms p99={:.2}ms p99.9={:.2}ms max={:.2}ms (n={})\n\
             latency all 4:      p50={:.2}ms p99={:.2}ms p99.9={:.2}ms max={:.2}ms (n={})\n\
             errors={} disconnects={} setup_errors={} connect_errors={} games_finished={} games_restarted={} skipped_slots={} loadgen cpu={:.0}%\n",
            self.target,
            self.rooms_playing,
            self.rooms_requested,
            self.players_connected,
            self.setup_secs,
            self.connect_secs,
            self.pace_ms,
            self.duration_secs,
            self.actions_per_sec,
            self.moves_per_sec,
            self.updates_per_sec,
            self.mean_update_bytes,
            self.received_bytes_per_sec / 1e6,
            self.latency_client.p50_ms,
            self.latency_client.p99_ms,
            self.latency_client.p999_ms,
            self.latency_client.max_ms,
            self.latency_client.count,
            self.latency_room.p50_ms,
            self.latency_room.p99_ms,
            self.latency_room.p999_ms,
            self.latency_room.max_ms,
            self.latency_room.count,
            self.errors,
            self.disconnects,
            self.setup_errors,
            self.connect_errors,
            self.games_finished,
            self.games_restarted,
            self.skipped_slots,
            self.loadgen_cpu_percent,
        );
        out.push_str(&format!(
            "  sockets on the room's node: p50={:.2}ms p99={:.2}ms p99.9={:.2}ms max={:.2}ms (n={})\n\
             \x20 relayed sockets:           p50={:.2}ms p99={:.2}ms p99.9={:.2}ms max={:.2}ms (n={})\n\
             between a room's actions: p50={:.0}ms p99={:.0}ms max={:.0}ms\n\
             reconnects={} reconnect_failures={} abandoned_commands={} acked={} checked={} lost_acks={} unreadable_records={}\n",
            self.latency_client_owner.p50_ms,
            self.latency_client_owner.p99_ms,
            self.latency_client_owner.p999_ms,
            self.latency_client_owner.max_ms,
            self.latency_client_owner.count,
            self.latency_client_relayed.p50_ms,
            self.latency_client_relayed.p99_ms,
            self.latency_client_relayed.p999_ms,
            self.latency_client_relayed.max_ms,
            self.latency_client_relayed.count,
            self.action_gap.p50_ms,
            self.action_gap.p99_ms,
            self.action_gap.max_ms,
            self.reconnects,
            self.reconnect_failures,
            self.abandoned_commands,
            self.acked_actions,
            self.acked_checked
                .map(|n| n.to_string())
                .unwrap_or_else(|| "-".into()),
            self.lost_acks,
            self.unreadable_records,
        ));
        if let Some(s) = &self.server {
            out.push_str(&format!(
                "server pid={} cpu={:.0}% rss: start={}KiB after-setup={}KiB idle={}KiB ({:.1} KiB/idle player, {:.1} KiB/player all-in) measure-start={}KiB end={}KiB max={}KiB growth={:+.1}%\n",
                s.pid,
                s.cpu_percent,
                s.rss_start_kib,
                s.rss_after_setup_kib,
                s.rss_idle_kib,
                s.rss_per_idle_player_kib,
                s.rss_per_player_all_in_kib,
                s.rss_measure_start_kib,
                s.rss_end_kib,
                s.rss_max_kib,
                s.rss_growth_percent,
            ));
        }
        for e in &self.error_samples {
            out.push_str(&format!("  seen: {e}\n"));
        }
        out
    }
}

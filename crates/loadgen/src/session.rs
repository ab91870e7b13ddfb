//! One bounded load session: set up rooms, connect four players per room,
//! play at a pace for a duration, report.
//!
//! Each room is one task owning its four WebSocket connections. Seat 0's
//! connection (the *keeper*) keeps the full public state by applying every
//! update's JSON Patch to its snapshot; the other three track their version
//! (a gap is an error). When the room's slot comes (every `pace`), the
//! connection of the seat to act sends `roll`, or `move` with the first legal
//! move and the version it saw. Latency runs from sending the command to each
//! client receiving the resulting `update`.
//!
//! This file holds the configuration and the run itself; getting rooms ready is in `setup`, a room's task
//! in `room`, the figures in `report`.

mod reconnect;
mod report;
mod room;
mod setup;
mod verify;

pub use reconnect::next_node;
pub use report::{Raw, Report, ServerFigures};
pub use room::{Action, Ledger};
pub use setup::{Opened, Plan, baseline_plan, connect, setup_parchis_room};
pub use verify::{AckCheck, missing};

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::StreamExt;
use futures_util::stream;
use serde::{Deserialize, Serialize};
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio::time::Instant;
use tokio_tungstenite::WebSocketStream;

use crate::procstat::{self, Sample};
use crate::stats::{Latency, Stats, compact, unix_now};
use room::{Renewal, Shared, Start, drive_room};
use setup::{connect_plan, source_for};

/// A client WebSocket over plain TCP.
pub type Ws = WebSocketStream<TcpStream>;

/// Players per room.
pub const SEATS: usize = 4;

/// Which server the session drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// `parchis-server`: rooms and players are created through its REST API.
    Parchis,
    /// The bare broadcaster of [`crate::baseline`].
    Baseline,
}

/// What to do.
#[derive(Debug, Clone)]
pub struct SessionConfig {
    /// Server kind.
    pub target: Target,
    /// Server address (must be on 127.0.0.0/8).
    pub addr: SocketAddr,
    /// More nodes of the same cluster (loopback too). Room `i` is set up through node `i mod n` of
    /// `addr` and these (which then runs it), and its seat `s` connects to node `(i + s) mod n`: with
    /// `n` nodes, `n - 1` of a room's four sockets in `n` are relayed.
    pub nodes: Vec<SocketAddr>,
    /// `(I, N)`: play only the rooms `i` with `i mod N = I` (one of N processes sharing a run).
    pub shard: Option<(usize, usize)>,
    /// Begin playing at this Unix time (so that several processes play together), or at once.
    pub go_at: Option<f64>,
    /// A socket that drops is opened again, through the next node, resuming by version, for at most
    /// this long (`None`: a drop ends its room).
    pub reconnect: Option<Duration>,
    /// After the run, read every game's record and count the acknowledged actions it lacks.
    pub check_acks: bool,
    /// Rooms of four players.
    pub rooms: usize,
    /// Each room acts once per `pace`; zero = as fast as it can (closed loop).
    pub pace: Duration,
    /// Measured play time (after warm-up).
    pub duration: Duration,
    /// Play before measuring starts (latency samples of it are discarded).
    pub warmup: Duration,
    /// Pause after every player is connected, before the idle RSS reading.
    pub settle: Duration,
    /// House rules of the rooms (`ludoteka`, `playgridia`, `morocco`).
    pub rules: String,
    /// Rooms set up through REST at once.
    pub setup_concurrency: usize,
    /// Rooms connecting at once.
    pub connect_concurrency: usize,
    /// Connections per source address (ephemeral ports are ~28k per address).
    pub conns_per_ip: usize,
    /// Last octet of the first source address 127.0.0.x.
    pub first_source: u8,
    /// Process to read CPU and RSS of (the server).
    pub server_pid: Option<u32>,
    /// Print a progress line this often (stderr).
    pub progress: Option<Duration>,
    /// A command not completed within this counts as an error.
    pub command_timeout: Duration,
    /// When a room's game ends, its four players leave and start a new game in a new room (set up
    /// through REST like the first), so the load stays the same however long the session runs.
    pub new_games: bool,
}

impl SessionConfig {
    /// Defaults for a small session against `addr`.
    pub fn new(target: Target, addr: SocketAddr) -> Self {
        SessionConfig {
            target,
            addr,
            nodes: Vec::new(),
            shard: None,
            go_at: None,
            reconnect: None,
            check_acks: false,
            rooms: 2,
            pace: Duration::from_millis(500),
            duration: Duration::from_secs(2),
            warmup: Duration::ZERO,
            settle: Duration::from_millis(200),
            rules: "ludoteka".into(),
            setup_concurrency: 32,
            connect_concurrency: 128,
            conns_per_ip: 20_000,
            first_source: 1,
            server_pid: None,
            progress: None,
            command_timeout: Duration::from_secs(10),
            new_games: false,
        }
    }
}

fn sample(pid: Option<u32>) -> Option<Sample> {
    pid.and_then(procstat::sample)
}

fn rate(n: u64, secs: f64) -> f64 {
    if secs > 0.0 { n as f64 / secs } else { 0.0 }
}

/// Runs a whole session and reports. Never sends to anything but `config.addr`.
pub async fn run(config: SessionConfig) -> Result<Report, String> {
    if !config.addr.ip().is_loopback() {
        return Err(format!(
            "{} is not a loopback address: load is only sent to 127.0.0.0/8",
            config.addr
        ));
    }
    let stats = Arc::new(Stats::new());
    let log = |line: String| {
        if config.progress.is_some() {
            eprintln!("{line}");
        }
    };
    if let Some(node) = config.nodes.iter().find(|a| !a.ip().is_loopback()) {
        return Err(format!(
            "{node} is not a loopback address: load is only sent to 127.0.0.0/8"
        ));
    }
    let targets: Vec<SocketAddr> = std::iter::once(config.addr)
        .chain(config.nodes.iter().copied())
        .collect();
    let s_start = sample(config.server_pid);

    // 1. Rooms.
    let t = Instant::now();
    let client = reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(config.setup_concurrency)
        .build()
        .map_err(|e| e.to_string())?;
    let setup_errors = Arc::new(AtomicUsize::new(0));
    let (shard, shards) = config.shard.unwrap_or((0, 1));
    let mine = (0..config.rooms).filter(|i| i % shards.max(1) == shard);
    let plans: Vec<Plan> = match config.target {
        Target::Baseline => mine.map(baseline_plan).collect(),
        Target::Parchis => {
            let results: Vec<Result<Plan, String>> = stream::iter(mine)
                .map(|i| {
                    let client = client.clone();
                    let rules = config.rules.clone();
                    // The node a room is set up through runs it.
                    let addr = targets[i % targets.len()];
                    async move { setup_parchis_room(&client, addr, i, &rules).await }
                })
                .buffer_unordered(config.setup_concurrency.max(1))
                .collect()
                .await;
            let mut plans = Vec::with_capacity(results.len());
            for r in results {
                match r {
                    Ok(p) => plans.push(p),
                    Err(e) => {
                        setup_errors.fetch_add(1, Ordering::Relaxed);
                        stats.error(|| format!("setup: {e}"));
                    }
                }
            }
            plans
        }
    };
    drop(client);
    let setup_secs = t.elapsed().as_secs_f64();
    log(format!("setup: {} rooms in {setup_secs:.1}s", plans.len()));
    let s_setup = sample(config.server_pid);

    // 2. Players.
    let t = Instant::now();
    let shared = Arc::new(Shared {
        stats: stats.clone(),
        pace: config.pace,
        command_timeout: config.command_timeout,
        stopping: AtomicBool::new(false),
        renewal: if config.new_games && config.target == Target::Parchis {
            Some(Renewal {
                // Few idle connections: new games trickle in, one room at a time.
                client: reqwest::Client::builder()
                    .no_proxy()
                    .pool_max_idle_per_host(4)
                    .build()
                    .map_err(|e| e.to_string())?,
                addr: config.addr,
                rules: config.rules.clone(),
                next_index: AtomicUsize::new(config.rooms + shard * 1_000_000),
            })
        } else {
            None
        },
        targets: targets.clone(),
        reconnect: config.reconnect,
    });
    let (go_tx, go_rx) = watch::channel::<Option<Instant>>(None);
    let (stop_tx, stop_rx) = watch::channel(false);
    let next_conn = Arc::new(AtomicUsize::new(0));
    let pace_ms = u64::try_from(config.pace.as_millis()).unwrap_or(u64::MAX);
    let room_count = config.rooms.max(1);
    let handles: Vec<Option<tokio::task::JoinHandle<Vec<Ledger>>>> = stream::iter(plans)
        .map(|plan| {
            let index = plan.index;
            let config = &config;
            let stats = stats.clone();
            let shared = shared.clone();
            let go = go_rx.clone();
            let stop = stop_rx.clone();
            let next_conn = next_conn.clone();
            let targets = &targets;
            async move {
                let nodes: Vec<usize> = (0..plan.paths.len())
                    .map(|seat| (index + seat) % targets.len())
                    .collect();
                let addrs: Vec<SocketAddr> = nodes.iter().map(|&n| targets[n]).collect();
                let sources: Vec<IpAddr> = (0..plan.paths.len())
                    .map(|_| source_for(config, next_conn.fetch_add(1, Ordering::Relaxed)))
                    .collect();
                let conns = match connect_plan(&addrs, &plan, &sources).await {
                    Ok(conns) => conns,
                    Err(e) => {
                        stats.connect_errors.fetch_add(1, Ordering::Relaxed);
                        stats.error(|| format!("connect: {e}"));
                        return None;
                    }
                };
                // Spread the rooms' slots evenly over one pace period.
                let offset = if pace_ms == 0 {
                    Duration::ZERO
                } else {
                    Duration::from_millis(pace_ms * (index as u64) / room_count as u64)
                };
                let start = Start {
                    conns,
                    plan,
                    nodes,
                    sources,
                    offset,
                };
                Some(tokio::spawn(drive_room(start, shared, go, stop)))
            }
        })
        .buffer_unordered(config.connect_concurrency.max(1))
        .collect()
        .await;
    let handles: Vec<_> = handles.into_iter().flatten().collect();
    let connect_secs = t.elapsed().as_secs_f64();
    tokio::time::sleep(config.settle).await;
    let players_connected = Stats::get(&stats.connected);
    let s_idle = sample(config.server_pid);
    log(format!(
        "connected: {players_connected} players in {} rooms in {connect_secs:.1}s{}",
        handles.len(),
        s_idle
            .map(|s| format!(", server RSS {} MiB", s.rss_kib / 1024))
            .unwrap_or_default()
    ));

    // 3. Play: warm up, then measure.
    let me = std::process::id();
    if let Some(at) = config.go_at {
        let wait = at - unix_now();
        if wait > 0.0 {
            log(format!(
                "waiting {wait:.0}s to play with the other processes"
            ));
            tokio::time::sleep(Duration::from_secs_f64(wait)).await;
        } else {
            log(format!("ready {:.0}s after the time set to play", -wait));
        }
    }
    go_tx.send_replace(Some(Instant::now()));
    tokio::time::sleep(config.warmup).await;
    stats.reset_latency();
    let base_actions = Stats::get(&stats.actions);
    let base_moves = Stats::get(&stats.moves);
    let base_updates = Stats::get(&stats.updates);
    let base_update_bytes = Stats::get(&stats.update_bytes);
    let base_bytes = Stats::get(&stats.bytes);
    let s_measure = sample(config.server_pid);
    let me_measure = procstat::sample(me);
    let measure_start = Instant::now();
    let measure_start_unix = unix_now();
    let end = measure_start + config.duration;
    let mut rss_series = Vec::new();
    let mut rss_max = s_measure.map(|s| s.rss_kib).unwrap_or(0);
    let mut last_sample = s_measure;
    let mut last_me = me_measure;
    let mut last_actions = base_actions;
    let mut last_updates = base_updates;
    loop {
        let now = Instant::now();
        if now >= end {
            break;
        }
        let step = config.progress.unwrap_or(Duration::from_secs(5));
        tokio::time::sleep(step.min(end - now)).await;
        let server = sample(config.server_pid);
        let mine = procstat::sample(me);
        let elapsed = measure_start.elapsed();
        let secs = elapsed.as_secs_f64();
        if let Some(s) = server {
            rss_max = rss_max.max(s.rss_kib);
            rss_series.push((elapsed.as_secs(), s.rss_kib));
        }
        let actions = Stats::get(&stats.actions);
        let updates = Stats::get(&stats.updates);
        let lat = stats.take_interval();
        let dt = step.as_secs_f64();
        let cpu = |a: Option<Sample>, b: Option<Sample>| match (a, b) {
            (Some(a), Some(b)) => format!("{:.0}%", procstat::cpu_percent(&a, &b)),
            _ => "-".into(),
        };
        log(format!(
            "t={secs:5.0}s conns={} reconnects={} actions/s={:.0} updates/s={:.0} p50={:.1}ms p99={:.1}ms max={:.1}ms errors={} disconnects={} server cpu={} rss={} MiB loadgen cpu={}",
            Stats::get(&stats.connected),
            Stats::get(&stats.reconnects),
            rate(actions - last_actions, dt),
            rate(updates - last_updates, dt),
            lat.p50_ms,
            lat.p99_ms,
            lat.max_ms,
            Stats::get(&stats.errors),
            Stats::get(&stats.disconnects),
            cpu(last_sample, server),
            server
                .map(|s| (s.rss_kib / 1024).to_string())
                .unwrap_or("-".into()),
            cpu(last_me, mine),
        ));
        last_actions = actions;
        last_updates = updates;
        last_sample = server.or(last_sample);
        last_me = mine.or(last_me);
    }
    let duration_secs = measure_start.elapsed().as_secs_f64();
    let actions = Stats::get(&stats.actions) - base_actions;
    let moves = Stats::get(&stats.moves) - base_moves;
    let updates = Stats::get(&stats.updates) - base_updates;
    let update_bytes = Stats::get(&stats.update_bytes) - base_update_bytes;
    let bytes = Stats::get(&stats.bytes) - base_bytes;
    let s_end = sample(config.server_pid);
    let me_end = procstat::sample(me);
    let (latency_client, latency_room) = stats.latency();
    let latencies = stats
        .finish(|h| {
            (
                Latency::of(&h.client_owner),
                Latency::of(&h.client_relayed),
                Latency::of(&h.gap),
                Raw {
                    client: compact(&h.client),
                    client_owner: compact(&h.client_owner),
                    client_relayed: compact(&h.client_relayed),
                    room: compact(&h.room),
                    gap: compact(&h.gap),
                    timeline: h.timeline.clone(),
                },
            )
        })
        .unwrap_or_default();
    let (latency_client_owner, latency_client_relayed, action_gap, raw) = latencies;

    // 4. Stop.
    shared.stopping.store(true, Ordering::Relaxed);
    stop_tx.send_replace(true);
    let mut ledgers = Vec::new();
    for h in handles {
        if let Ok(Ok(done)) = tokio::time::timeout(Duration::from_secs(10), h).await {
            ledgers.extend(done);
        }
    }
    let acked_actions = Stats::get(&stats.acked);
    let acks = if config.check_acks && config.target == Target::Parchis {
        let check = verify::check(&targets, ledgers).await;
        log(format!(
            "acknowledged actions: {acked_actions}, looked for in the stored games: {}, missing: {}, unreadable records: {}",
            check.checked, check.lost, check.unreadable
        ));
        for sample in &check.samples {
            stats.note(|| format!("records: {sample}"));
        }
        Some(check)
    } else {
        None
    };

    let server = config.server_pid.map(|pid| {
        let kib = |s: Option<Sample>| s.map(|s| s.rss_kib).unwrap_or(0);
        let players = players_connected.max(1) as f64;
        let (start, setup, idle) = (kib(s_start), kib(s_setup), kib(s_idle));
        let (m0, m1) = (kib(s_measure), kib(s_end));
        ServerFigures {
            pid,
            rss_start_kib: start,
            rss_after_setup_kib: setup,
            rss_idle_kib: idle,
            rss_per_idle_player_kib: idle.saturating_sub(setup) as f64 / players,
            rss_per_player_all_in_kib: idle.saturating_sub(start) as f64 / players,
            rss_measure_start_kib: m0,
            rss_end_kib: m1,
            rss_max_kib: rss_max.max(m1),
            rss_growth_percent: if m0 > 0 {
                (m1 as f64 - m0 as f64) / m0 as f64 * 100.0
            } else {
                0.0
            },
            cpu_percent: match (s_measure, s_end) {
                (Some(a), Some(b)) => procstat::cpu_percent(&a, &b),
                _ => 0.0,
            },
            rss_series,
        }
    });
    let error_samples = stats
        .error_samples
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    Ok(Report {
        target: config.target,
        shard: config.shard.map(|(i, n)| format!("{i}/{n}")),
        measure_start_unix,
        rooms_requested: config.rooms,
        rooms_playing: players_connected as usize / SEATS,
        players_connected,
        setup_errors: setup_errors.load(Ordering::Relaxed) as u64,
        connect_errors: Stats::get(&stats.connect_errors),
        setup_secs,
        connect_secs,
        pace_ms,
        duration_secs,
        actions,
        moves,
        actions_per_sec: rate(actions, duration_secs),
        moves_per_sec: rate(moves, duration_secs),
        updates_per_sec: rate(updates, duration_secs),
        mean_update_bytes: rate(update_bytes, updates as f64),
        received_bytes_per_sec: rate(bytes, duration_secs),
        latency_client,
        latency_client_owner,
        latency_client_relayed,
        latency_room,
        action_gap,
        errors: Stats::get(&stats.errors),
        disconnects: Stats::get(&stats.disconnects),
        games_finished: Stats::get(&stats.games_finished),
        games_restarted: Stats::get(&stats.games_restarted),
        skipped_slots: Stats::get(&stats.skipped_slots),
        reconnects: Stats::get(&stats.reconnects),
        reconnect_failures: Stats::get(&stats.reconnect_failures),
        abandoned_commands: Stats::get(&stats.abandoned),
        acked_actions,
        acked_checked: acks.as_ref().map(|c| c.checked),
        lost_acks: acks.as_ref().map_or(0, |c| c.lost),
        unreadable_records: acks.as_ref().map_or(0, |c| c.unreadable),
        error_samples,
        loadgen_cpu_percent: match (me_measure, me_end) {
            (Some(a), Some(b)) => procstat::cpu_percent(&a, &b),
            _ => 0.0,
        },
        server,
        raw,
    })
}

//! `parchis-loadgen`: load tests for parchis-server, and a bare broadcaster baseline.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};
use parchis_loadgen::baseline::{self, BaselineConfig};
use parchis_loadgen::session::Report;
use parchis_loadgen::session::{self, SessionConfig, Target};
use parchis_loadgen::{limits, merge, spawn};

/// mimalloc, as the server has: glibc's malloc and free were a fifth of the load generator's CPU (every
/// message read allocates its frame and parsed fields; see BENCHMARKS.md, Cluster). The baseline
/// broadcaster, which this binary also is, gets it too, so both sides of that comparison have it.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Open files wanted: two sockets per player (ours and the server's, when it is our child).
const NOFILE: u64 = 262_144;

#[derive(Parser)]
#[command(
    name = "parchis-loadgen",
    version,
    about = "Load generator for parchis-server"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Clone, Copy, ValueEnum)]
enum TargetArg {
    /// parchis-server (REST setup, real games).
    Parchis,
    /// The bare broadcaster (`baseline` subcommand).
    Baseline,
}

#[derive(Subcommand)]
enum Cmd {
    /// Play games against a server and report latency, throughput, CPU and RSS.
    Run(Box<RunArgs>),
    /// Add up the JSON reports (`--json`) of processes that shared one run (`--shard`).
    Merge {
        /// The reports.
        #[arg(required = true)]
        reports: Vec<PathBuf>,
        /// Unix time of an event (a node killed): say how long until p99 stayed under --limit-ms after it.
        #[arg(long)]
        event_at: Option<f64>,
        /// The p99 limit for --event-at, ms.
        #[arg(long, default_value_t = 25.0)]
        limit_ms: f64,
        /// Print the p99 of every second.
        #[arg(long)]
        timeline: bool,
        /// Write the merged report as JSON here.
        #[arg(long)]
        json: Option<PathBuf>,
    },
    /// Serve as a bare tokio-tungstenite broadcaster (groups of 4) for comparison.
    Baseline {
        /// Port on 127.0.0.1.
        #[arg(long, default_value_t = 9100)]
        port: u16,
        /// Size of each broadcast update, bytes.
        #[arg(long, default_value_t = 1500)]
        message_bytes: usize,
    },
}

#[derive(clap::Args)]
struct RunArgs {
    /// Which server protocol to drive.
    #[arg(long, value_enum, default_value = "parchis")]
    target: TargetArg,
    /// Address of an already running server (loopback only). Not needed with --server-bin / --spawn-baseline.
    #[arg(long)]
    addr: Option<SocketAddr>,
    /// Another node of the same parchis cluster (repeat for each). Room i is set up through node
    /// i mod n of --addr and these (so that node runs it), and its seat s connects to node (i + s) mod n.
    #[arg(long = "node")]
    nodes: Vec<SocketAddr>,
    /// Play only the rooms i with i mod N = I (one of N processes; add their --json reports up with
    /// `merge`). Each process takes its own source addresses (see --first-source).
    #[arg(long, value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
    /// Start playing at this Unix time (e.g. `$(( $(date +%s) + 120 ))`), so that shards play together.
    #[arg(long)]
    go_at: Option<f64>,
    /// Open a socket that drops again, through the next node, resuming by version, for at most this
    /// many seconds (0: a dropped socket ends its room and counts as an error).
    #[arg(long, default_value_t = 0)]
    reconnect_secs: u64,
    /// After the run, read every game's record and count the acknowledged actions it lacks (lost acks).
    #[arg(long)]
    check_acks: bool,
    /// Last octet of the first source address 127.0.0.x (default: 1, or after the previous shards').
    #[arg(long)]
    first_source: Option<u8>,
    /// Start parchis-server from this binary (temp SQLite database, 127.0.0.1, free port).
    #[arg(long)]
    server_bin: Option<PathBuf>,
    /// Directory for the spawned server's temporary database (e.g. /dev/shm for tmpfs).
    #[arg(long)]
    db_dir: Option<PathBuf>,
    /// Extra KEY=VALUE environment for the spawned server.
    #[arg(long = "server-env")]
    server_env: Vec<String>,
    /// Start this binary's baseline broadcaster (implies --target baseline).
    #[arg(long)]
    spawn_baseline: bool,
    /// Update size of the spawned baseline, bytes.
    #[arg(long, default_value_t = 1500)]
    message_bytes: usize,
    /// Pid of the server to read CPU and RSS of (when not spawned here).
    #[arg(long)]
    server_pid: Option<u32>,
    /// Rooms of four players.
    #[arg(long, default_value_t = 100)]
    rooms: usize,
    /// Hard cap on players (rooms are reduced to fit).
    #[arg(long, default_value_t = 60_000)]
    max_players: usize,
    /// Each room acts every this many ms (0: as fast as possible, closed loop).
    #[arg(long, default_value_t = 2000)]
    pace_ms: u64,
    /// Measured seconds of play (capped at 3600).
    #[arg(long, default_value_t = 30)]
    duration: u64,
    /// Seconds of play before measuring.
    #[arg(long, default_value_t = 5)]
    warmup: u64,
    /// Seconds to wait after connecting, before the idle RSS reading.
    #[arg(long, default_value_t = 3)]
    settle: u64,
    /// House rules of the rooms.
    #[arg(long, default_value = "ludoteka")]
    rules: String,
    /// Rooms set up through REST at once.
    #[arg(long, default_value_t = 32)]
    setup_concurrency: usize,
    /// Rooms connecting at once.
    #[arg(long, default_value_t = 128)]
    connect_concurrency: usize,
    /// Connections per source address 127.0.0.x.
    #[arg(long, default_value_t = 20_000)]
    conns_per_ip: usize,
    /// Progress line every this many seconds.
    #[arg(long, default_value_t = 10)]
    progress: u64,
    /// When a room's game ends, its players start a new game in a new room (constant load for long runs).
    #[arg(long)]
    new_games: bool,
    /// Write the report as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let nofile = limits::raise_nofile(NOFILE);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("tokio: {e}");
            return ExitCode::FAILURE;
        }
    };
    match cli.command {
        Cmd::Baseline {
            port,
            message_bytes,
        } => {
            eprintln!("baseline broadcaster on 127.0.0.1:{port} (open files {nofile})");
            let addr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port);
            match runtime.block_on(baseline::bind_and_serve(
                addr,
                BaselineConfig { message_bytes },
            )) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("baseline: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Cmd::Merge {
            reports,
            event_at,
            limit_ms,
            timeline,
            json,
        } => exit_code(
            "parchis-loadgen merge",
            merge_reports(&reports, event_at, limit_ms, timeline, json),
        ),
        Cmd::Run(args) => exit_code("parchis-loadgen", run(*args, nofile, &runtime)),
    }
}

/// 0 when the limits held, 2 when the run was done but missed one, 1 (with `what: error`) when it
/// could not be done.
fn exit_code<E: std::fmt::Display>(what: &str, done: Result<bool, E>) -> ExitCode {
    match done {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(2),
        Err(e) => {
            eprintln!("{what}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `I/N` with `I < N`.
fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let (i, n) = text
        .split_once('/')
        .ok_or_else(|| format!("--shard wants I/N, e.g. 0/4, not {text}"))?;
    let i: usize = i
        .trim()
        .parse()
        .map_err(|e| format!("--shard {text}: {e}"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|e| format!("--shard {text}: {e}"))?;
    if n == 0 || i >= n {
        return Err(format!("--shard {text}: I must be below N"));
    }
    Ok((i, n))
}

/// Whether a report says the run went cleanly.
fn clean(report: &Report) -> bool {
    report.errors == 0
        && report.disconnects == report.reconnects
        && report.connect_errors == 0
        && report.reconnect_failures == 0
        && report.lost_acks == 0
}

/// Reads, adds up and prints reports; `Ok(false)` when the run saw errors.
fn merge_reports(
    paths: &[PathBuf],
    event_at: Option<f64>,
    limit_ms: f64,
    timeline: bool,
    json: Option<PathBuf>,
) -> Result<bool, String> {
    let mut reports = Vec::with_capacity(paths.len());
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let report: Report =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        reports.push(report);
    }
    let seconds = merge::timeline(&reports);
    let merged = merge::merge(&reports).ok_or("no reports")?;
    print!("{}", merged.summary());
    if timeline {
        for (second, count, p99) in &seconds {
            println!("{second} n={count} p99={p99:.1}ms");
        }
    }
    if let Some(at) = event_at {
        let over = seconds
            .iter()
            .filter(|(s, _, _)| *s as f64 + 1.0 > at)
            .map(|(_, _, p99)| *p99)
            .fold(0.0, f64::max);
        let before = merge::p99_before(&reports, at, 30);
        let say = |secs: Option<f64>| {
            secs.map(|s| format!("{s:.0} s"))
                .unwrap_or_else(|| "not within the run".into())
        };
        println!(
            "after the event: worst second's p99 {over:.0} ms; p99 of 10 s back at most {limit_ms} ms after {}, \
             back at most the 30 s before's {before:.1} ms after {}; every later second at most {limit_ms} ms after {}",
            say(merge::recovered(&reports, at, limit_ms, 10)),
            say(merge::recovered(&reports, at, before, 10)),
            say(merge::back_under(&seconds, at, limit_ms)),
        );
    }
    if let Some(path) = json {
        let text = serde_json::to_string_pretty(&merged).map_err(|e| e.to_string())?;
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(clean(&merged))
}

/// Runs a session; `Ok(false)` when it saw errors or disconnects.
fn run(args: RunArgs, nofile: u64, runtime: &tokio::runtime::Runtime) -> Result<bool, String> {
    let rooms = args.rooms.min(args.max_players / session::SEATS);
    let players = rooms * session::SEATS;
    if (nofile as usize) < players + 64 {
        eprintln!("warning: open-file limit {nofile} is below {players} players");
    }
    let mut target = match args.target {
        TargetArg::Parchis => Target::Parchis,
        TargetArg::Baseline => Target::Baseline,
    };
    let env: Vec<(String, String)> = args
        .server_env
        .iter()
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) => Ok((k.to_owned(), v.to_owned())),
            None => Err(format!("--server-env wants KEY=VALUE, not {kv}")),
        })
        .collect::<Result<_, _>>()?;
    let spawned = if args.spawn_baseline {
        target = Target::Baseline;
        Some(spawn::baseline(args.message_bytes)?)
    } else if let Some(bin) = &args.server_bin {
        Some(spawn::parchis(bin, args.db_dir.as_deref(), &env)?)
    } else {
        None
    };
    let addr = match (&spawned, args.addr) {
        (Some(s), _) => s.addr,
        (None, Some(a)) => a,
        (None, None) => return Err("give --addr, --server-bin or --spawn-baseline".into()),
    };
    let mut config = SessionConfig::new(target, addr);
    config.nodes = args.nodes.clone();
    config.shard = args.shard;
    config.go_at = args.go_at;
    config.reconnect = (args.reconnect_secs > 0).then(|| Duration::from_secs(args.reconnect_secs));
    config.check_acks = args.check_acks;
    // Each shard's sockets from addresses of its own: ~28,000 ephemeral ports per source address.
    let (shard, shards) = args.shard.unwrap_or((0, 1));
    let per_shard = players.div_ceil(shards.max(1));
    let blocks = per_shard.div_ceil(args.conns_per_ip.max(1));
    config.first_source = match args.first_source {
        Some(first) => first,
        None => u8::try_from(1 + shard * blocks).map_err(|_| "too many source addresses")?,
    };
    config.rooms = rooms;
    config.pace = Duration::from_millis(args.pace_ms);
    config.duration = Duration::from_secs(args.duration.min(3600));
    config.warmup = Duration::from_secs(args.warmup.min(600));
    config.settle = Duration::from_secs(args.settle.min(600));
    config.rules = args.rules;
    config.setup_concurrency = args.setup_concurrency;
    config.connect_concurrency = args.connect_concurrency;
    config.conns_per_ip = args.conns_per_ip;
    config.new_games = args.new_games;
    config.server_pid = args
        .server_pid
        .or(spawned.as_ref().map(spawn::Spawned::pid));
    config.progress = Some(Duration::from_secs(args.progress.max(1)));
    eprintln!(
        "{target:?} at {addr}: {rooms} rooms, {players} players, pace {} ms, {} s (+{} s warm-up); open files {nofile}",
        args.pace_ms,
        config.duration.as_secs(),
        config.warmup.as_secs()
    );
    let report = runtime.block_on(session::run(config))?;
    print!("{}", report.summary());
    if let Some(path) = args.json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    drop(spawned);
    Ok(clean(&report))
}

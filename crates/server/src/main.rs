//! `parchis-server` binary: parse configuration, bind, serve until Ctrl-C / SIGTERM; or, with a command,
//! do that one thing and exit (`backup`, `healthcheck`).

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};
use parchis_server::logs::NodeNamed;
use parchis_server::{Config, run};
use tokio::net::TcpListener;

/// Authoritative online Parchís server: serves the game until stopped, or runs one command.
#[derive(Debug, Parser)]
#[command(name = "parchis-server", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// How log lines are written to standard output: `text` for people, `json` (one object a line) for a log
    /// collector. Which lines: `RUST_LOG` (default `info,sqlx=warn`).
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Text, global = true)]
    log_format: LogFormat,
    #[command(flatten)]
    config: Config,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Copies the SQLite database (`--database-url`) to a new FILE, also while the server runs (one
    /// consistent snapshot), checks the copy and exits. To restore: stop the server and put the copy in
    /// place of the database file. PostgreSQL is backed up with pg_dump instead.
    Backup {
        /// The new file (it must not exist yet).
        file: PathBuf,
    },
    /// Asks the server on this machine (`--bind`, loopback for 0.0.0.0, and `--port`) for `/readyz`:
    /// exit status 0 when it answers 200, 1 otherwise. The container image's HEALTHCHECK (the image
    /// has no shell and no curl).
    Healthcheck,
}

/// mimalloc instead of glibc malloc: the publish and socket paths allocate and
/// free many small buffers across the runtime's threads (see BENCHMARKS.md, Load).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let Cli {
        command,
        log_format,
        config,
    } = Cli::parse();
    let logs = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        // Colours for a terminal only: in a file or the journal their escapes make lines unreadable.
        .with_ansi(
            std::io::IsTerminal::is_terminal(&std::io::stdout())
                && std::env::var_os("NO_COLOR").is_none(),
        );
    // In cluster mode every line names the node (parchis_server::logs).
    let node = config.cluster().then(|| config.node_name_or_default());
    match (log_format, node) {
        (LogFormat::Text, None) => logs.init(),
        (LogFormat::Json, None) => logs.json().init(),
        (LogFormat::Text, Some(name)) => logs
            .map_event_format(|format| NodeNamed::new(format, name, false))
            .init(),
        (LogFormat::Json, Some(name)) => logs
            .json()
            .map_event_format(|format| NodeNamed::new(format, name, true))
            .init(),
    }
    if let Some(Command::Healthcheck) = command {
        let addr = parchis_server::healthcheck::local_address(config.bind, config.port);
        return match parchis_server::healthcheck::readyz(addr, std::time::Duration::from_secs(3)) {
            Ok(status) => {
                println!("{status}");
                std::process::ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("not ready: {err}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    if let Some(Command::Backup { file }) = command {
        return match parchis_server::backup::backup(&config.database_url, &file).await {
            Ok(done) => {
                println!(
                    "backed up to {} ({} bytes: {} players, {} rooms, {} games); integrity check ok",
                    done.path.display(),
                    done.bytes,
                    done.players,
                    done.rooms,
                    done.games
                );
                std::process::ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("backup failed: {err}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    // One file descriptor per connected player: raise the soft limit as far as the hard one allows.
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => tracing::info!(limit, "open-file limit (RLIMIT_NOFILE)"),
        Err(err) => tracing::warn!(%err, "cannot raise the open-file limit"),
    }
    let addr = std::net::SocketAddr::new(config.bind, config.port);
    let listener = match TcpListener::bind(addr).await {
        Ok(listener) => listener,
        Err(err) => {
            tracing::error!(%addr, %err, "cannot bind");
            return std::process::ExitCode::FAILURE;
        }
    };
    // One parseable line, so scripts (and the crash tests) started with PORT=0 learn the port.
    if let Ok(bound) = listener.local_addr() {
        tracing::info!("listening on {bound}");
    }
    match run(listener, config, shutdown_signal()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            tracing::error!(%err, "server failed");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Resolves on Ctrl-C or (on Unix) SIGTERM, as sent by `docker stop`. A second one while the server
/// is stopping stops it at once (exit status 1): the way out of a shutdown that waits on requests in
/// flight, without `kill -9`. Nothing acknowledged is lost (every write is committed before its ack).
async fn shutdown_signal() {
    stop_signal().await;
    tracing::info!("shutdown requested");
    tokio::spawn(async {
        stop_signal().await;
        tracing::warn!("second stop signal: stopping now");
        std::process::exit(1);
    });
}

/// The next Ctrl-C or (on Unix) SIGTERM.
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}

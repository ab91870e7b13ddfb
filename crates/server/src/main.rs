//! `parchis-server` binary: parse configuration, bind, serve until Ctrl-C / SIGTERM.

use clap::Parser;
use parchis_server::{Config, run};
use tokio::net::TcpListener;

/// mimalloc instead of glibc malloc: the publish and socket paths allocate and
/// free many small buffers across the runtime's threads (see BENCHMARKS.md, Load).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        .init();
    // One file descriptor per connected player: raise the soft limit as far as the hard one allows.
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => tracing::info!(limit, "open-file limit (RLIMIT_NOFILE)"),
        Err(err) => tracing::warn!(%err, "cannot raise the open-file limit"),
    }
    let config = Config::parse();
    let addr = (config.bind, config.port);
    let listener = match TcpListener::bind(addr).await {
        Ok(listener) => listener,
        Err(err) => {
            tracing::error!(?addr, %err, "cannot bind");
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

/// Resolves on Ctrl-C or (on Unix) SIGTERM, as sent by `docker stop`.
async fn shutdown_signal() {
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
    tracing::info!("shutdown requested");
}

//! Starting the server under test (parchis-server from a binary path, or this
//! binary's own `baseline` subcommand) as a child process on loopback.

use std::net::{SocketAddr, TcpListener as StdListener};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A server process we started; killed when dropped.
pub struct Spawned {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
    /// Temporary directory of its database (removed when dropped).
    _dir: Option<tempfile::TempDir>,
}

impl Spawned {
    /// Its pid.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A port free on 127.0.0.1 right now.
pub fn free_port() -> std::io::Result<u16> {
    Ok(StdListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

fn wait_listening(addr: SocketAddr, child: &mut Child, within: Duration) -> Result<(), String> {
    let until = Instant::now() + within;
    while Instant::now() < until {
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("server exited early: {status}"));
        }
        if std::net::TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Err(format!("server not listening on {addr} after {within:?}"))
}

/// Starts `parchis-server` from `bin` on 127.0.0.1 with a fresh SQLite
/// database in a temporary directory under `db_dir` (or the system temp dir),
/// `AWAY_GRACE_SECS=86400`, and `extra_env` on top.
pub fn parchis(
    bin: &Path,
    db_dir: Option<&Path>,
    extra_env: &[(String, String)],
) -> Result<Spawned, String> {
    let dir = match db_dir {
        Some(d) => tempfile::tempdir_in(d),
        None => tempfile::tempdir(),
    }
    .map_err(|e| format!("temp dir: {e}"))?;
    let port = free_port().map_err(|e| e.to_string())?;
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let db = dir.path().join("load.db");
    let mut cmd = Command::new(bin);
    cmd.env("PORT", port.to_string())
        .env("BIND", "127.0.0.1")
        .env(
            "DATABASE_URL",
            format!("sqlite://{}?mode=rwc", db.display()),
        )
        .env("RUST_LOG", "warn")
        // Players are seated long before they connect (setting up thousands of
        // rooms takes a while): without this the server starts playing their
        // seats as "away" after 15 s, which is not the load being measured.
        .env("AWAY_GRACE_SECS", "86400")
        // Thousands of players register and seat themselves from a few addresses: the per-address
        // limit on API writes is for the public, not for the load being measured.
        .env("HTTP_WRITES_PER_MINUTE", "0")
        // And thousands of connections come from each source address.
        .env("CONNECTIONS_PER_ADDRESS", "0")
        .stdin(Stdio::null());
    for (k, v) in extra_env {
        cmd.env(k, v);
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("starting {}: {e}", bin.display()))?;
    if let Err(e) = wait_listening(addr, &mut child, Duration::from_secs(30)) {
        let _ = child.kill();
        let _ = child.wait();
        return Err(e);
    }
    Ok(Spawned {
        child,
        addr,
        _dir: Some(dir),
    })
}

/// Starts this binary's `baseline` subcommand on 127.0.0.1.
pub fn baseline(message_bytes: usize) -> Result<Spawned, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let port = free_port().map_err(|e| e.to_string())?;
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let mut child = Command::new(exe)
        .args([
            "baseline",
            "--port",
            &port.to_string(),
            "--message-bytes",
            &message_bytes.to_string(),
        ])
        .stdin(Stdio::null())
        .spawn()
        .map_err(|e| format!("starting the baseline: {e}"))?;
    if let Err(e) = wait_listening(addr, &mut child, Duration::from_secs(10)) {
        let _ = child.kill();
        let _ = child.wait();
        return Err(e);
    }
    Ok(Spawned {
        child,
        addr,
        _dir: None,
    })
}

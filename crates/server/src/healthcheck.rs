//! `parchis-server healthcheck`: asks this machine's server for `/readyz` and says whether it answered
//! 200. For a container's `HEALTHCHECK` in an image that holds the binary and nothing else (no shell, no
//! curl); blocking std I/O, since it runs once and exits.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::time::Duration;

/// Where a server bound to `bind:port` answers on this machine: loopback when it listens on every
/// interface (`0.0.0.0` or `::`), its own address otherwise.
pub fn local_address(bind: IpAddr, port: u16) -> SocketAddr {
    let ip = match bind {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, port)
}

/// `GET /readyz` at `addr`, each step within `timeout`: the status line when it is 200, otherwise a
/// sentence saying what happened (no answer, or the status line it got).
pub fn readyz(addr: SocketAddr, timeout: Duration) -> Result<String, String> {
    let failed = |what: &str, err: std::io::Error| format!("{what} {addr}: {err}");
    let mut stream = TcpStream::connect_timeout(&addr, timeout)
        .map_err(|err| failed("cannot connect to", err))?;
    stream
        .set_read_timeout(Some(timeout))
        .and_then(|()| stream.set_write_timeout(Some(timeout)))
        .and_then(|()| stream.write_all(b"GET /readyz HTTP/1.0\r\nHost: localhost\r\n\r\n"))
        .map_err(|err| failed("cannot ask", err))?;
    let mut status = String::new();
    BufReader::new(stream)
        .take(256)
        .read_line(&mut status)
        .map_err(|err| failed("no answer from", err))?;
    let status = status.trim_end().to_owned();
    if status.split(' ').nth(1) == Some("200") {
        Ok(status)
    } else {
        Err(format!("http://{addr}/readyz answered {status:?}"))
    }
}

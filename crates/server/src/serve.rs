//! The HTTP accept loop: the application's router on hyper, with the deadlines `axum::serve` cannot set.
//!
//! `axum::serve` gives a connection no deadline for its request headers and waits for every connection
//! on shutdown: a client that sends half a request and then nothing held its connection for ever, and a
//! `systemctl stop` with it. Here the headers have a deadline (hyper's `header_read_timeout`, which also
//! closes idle keep-alive connections), [`request_deadline`] bounds the body and the answer, a
//! shutdown waits a bounded grace for requests in flight, and one client address may hold only so many
//! connections open at once.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

use crate::AppError;

/// The deadlines and limits of [`serve`], from the configuration.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// For a request's headers from its first byte (and for an idle keep-alive connection).
    pub request: Duration,
    /// For connections still busy after the shutdown signal, before they are dropped.
    pub shutdown_grace: Duration,
    /// Connections one client address may hold open at once (0: no limit).
    pub connections_per_address: usize,
}

/// Serves `router` on `listener` until `shutdown` resolves, then stops accepting, lets requests in
/// flight finish for at most `limits.shutdown_grace` and returns. Peer addresses reach handlers as
/// `ConnectInfo<SocketAddr>`, as with `into_make_service_with_connect_info`.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let open_by_address = Arc::new(OpenByAddress::default());
    // `stop` tells the connections to finish their request and close; each holds an `open` receiver,
    // so `open_tx.closed()` resolves when the last one has ended.
    let (stop_tx, stop_rx) = watch::channel(false);
    let (open_tx, open_rx) = watch::channel(());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    wait_after_accept_error(err).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let held = match limits.connections_per_address {
            0 => None,
            most => match open_by_address.hold(peer.ip(), most) {
                Some(held) => Some(held),
                None => {
                    open_by_address.warn_refused(peer.ip(), most);
                    tokio::spawn(refuse(stream));
                    continue;
                }
            },
        };
        tokio::spawn(connection(
            Counted {
                stream,
                _held: held,
            },
            peer,
            router.clone(),
            limits.request,
            stop_rx.clone(),
            open_rx.clone(),
        ));
    }
    // New connections are refused from here on.
    drop(listener);
    stop_tx.send_replace(true);
    drop(open_rx);
    if tokio::time::timeout(limits.shutdown_grace, open_tx.closed())
        .await
        .is_err()
    {
        tracing::warn!(
            connections = open_tx.receiver_count(),
            grace_secs = limits.shutdown_grace.as_secs(),
            "stopping without waiting longer for requests in flight"
        );
    }
    Ok(())
}

/// One HTTP/1.1 connection, upgrades (WebSockets) included, until it ends or a shutdown has let its
/// request in flight finish.
async fn connection(
    stream: Counted,
    peer: SocketAddr,
    router: Router,
    header_deadline: Duration,
    mut stop: watch::Receiver<bool>,
    _open: watch::Receiver<()>,
) {
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let mut request = request.map(Body::new);
        request.extensions_mut().insert(ConnectInfo(peer));
        router.clone().oneshot(request)
    });
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_deadline);
    let mut conn = std::pin::pin!(
        builder
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades()
    );
    let mut stopping = false;
    loop {
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(err) = result {
                    tracing::trace!(%err, %peer, "connection ended with an error");
                }
                return;
            }
            // An error means the server is gone: stop as well.
            _ = stop.changed(), if !stopping => {
                stopping = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    }
}

/// Open connections per client address (an IPv6 client by its /64, as the write limit counts them).
#[derive(Default)]
struct OpenByAddress {
    open: Mutex<HashMap<IpAddr, usize>>,
    /// When a refusal was last logged: at most one line a minute, however many are refused.
    last_warned: Mutex<Option<std::time::Instant>>,
}

/// One open connection of an address, counted until it is dropped.
struct Held {
    counts: Arc<OpenByAddress>,
    key: IpAddr,
}

impl OpenByAddress {
    /// Counts one more connection from `peer`, unless it already holds `most`.
    fn hold(self: &Arc<Self>, peer: IpAddr, most: usize) -> Option<Held> {
        let key = crate::rate_limit::client_key(peer);
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(key).or_default();
        if *count >= most {
            return None;
        }
        *count += 1;
        Some(Held {
            counts: Arc::clone(self),
            key,
        })
    }

    /// Says in the log that `peer` was refused, at most once a minute. A host that sees one address for
    /// everybody (a proxy, or a NAT in front of the server) learns here what to change.
    fn warn_refused(&self, peer: IpAddr, most: usize) {
        let mut last = self
            .last_warned
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if last.is_some_and(|at| at.elapsed() < Duration::from_secs(60)) {
            return;
        }
        *last = Some(std::time::Instant::now());
        tracing::warn!(
            %peer,
            open = most,
            "refusing connections from an address that holds CONNECTIONS_PER_ADDRESS open \
             (if every client reaches the server through one proxy or NAT address, set \
             TRUST_FORWARDED_FOR=true behind a proxy that sets X-Forwarded-For, or \
             CONNECTIONS_PER_ADDRESS=0); logged at most once a minute"
        );
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut open = self
            .counts
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Entry::Occupied(mut count) = open.entry(self.key) {
            *count.get_mut() -= 1;
            if *count.get() == 0 {
                count.remove();
            }
        }
    }
}

/// A connection's socket with its place in [`OpenByAddress`]: the place goes with the socket into a
/// WebSocket upgrade, so an open game socket stays counted until it closes.
struct Counted {
    stream: TcpStream,
    _held: Option<Held>,
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// Answers a connection over its address's limit `429 too_many_connections` and closes it. Its
/// request is read and dropped first (for at most a second): closing a socket with unread data resets
/// it, and the client would see a reset instead of the answer.
async fn refuse(mut stream: TcpStream) {
    metrics::counter!("parchis_connections_refused_total").increment(1);
    let body = format!(
        r#"{{"code":"{}","message":"{}"}}"#,
        crate::error::TOO_MANY_CONNECTIONS,
        "Too many connections from this address are open; close some and try again."
    );
    let answer = format!(
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         retry-after: 5\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await?;
        let mut sink = [0; 1024];
        while stream.read(&mut sink).await? > 0 {}
        io::Result::Ok(())
    })
    .await;
}

/// Errors of one incoming connection (reset before it was accepted) are that client's; anything else
/// (out of file descriptors, say) would repeat at once, so wait a second before accepting again.
async fn wait_after_accept_error(err: io::Error) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        err.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    tracing::error!(%err, "cannot accept a connection; trying again in 1 s");
    tokio::time::sleep(Duration::from_secs(1)).await;
}

/// Middleware: a request whose body and answer take longer than the deadline is answered `408
/// request_timeout` (a stalled upload, say), so it cannot hold its connection for ever.
pub async fn request_deadline(
    State(deadline): State<Duration>,
    request: Request,
    next: Next,
) -> Response {
    match tokio::time::timeout(deadline, next.run(request)).await {
        Ok(response) => response,
        Err(_) => AppError::RequestTimeout(deadline.as_secs()).into_response(),
    }
}

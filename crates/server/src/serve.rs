//! The HTTP accept loop: the application's router on hyper, with the deadlines `axum::serve` cannot set.
//!
//! `axum::serve` gives a connection no deadline for its request headers and waits for every connection
//! on shutdown: a client that sends half a request and then nothing held its connection for ever, and a
//! `systemctl stop` with it. Here the headers have a deadline (hyper's `header_read_timeout`, which also
//! closes idle keep-alive connections), [`request_deadline`] bounds the body and the answer, a
//! shutdown waits a bounded grace for requests in flight, one client address may hold only so many
//! connections open at once, and the whole server only as many as its open-file limit allows
//! ([`ConnectionCap`]): past it a connection is answered `503 server_full` at once, while a small
//! reserve keeps the health checks answered.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

use crate::AppError;

mod parser_errors;

/// The deadlines and limits of [`serve`], from the configuration.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// For a request's headers from its first byte (and for an idle keep-alive connection).
    pub request: Duration,
    /// For connections still busy after the shutdown signal, before they are dropped.
    pub shutdown_grace: Duration,
    /// Connections one client address may hold open at once (0: no limit).
    pub connections_per_address: usize,
    /// Connections the whole server may hold open at once (see [`ConnectionCap`]).
    pub max_connections: usize,
}

/// Files the server keeps open besides its connections: standard streams, the listener, the runtime's
/// own descriptors, the database pool (up to 10 PostgreSQL connections, or 4 SQLite ones of three files
/// each), a NATS connection, log files, a backup being written; with room to spare.
pub const FILES_KEPT_BESIDES_CONNECTIONS: u64 = 64;

/// Connections past the cap that are still read, one request each, so that `/healthz`, `/readyz` and
/// `/metrics` stay answered under a flood (every other request on them is answered `503 server_full`).
pub const HEALTH_RESERVE: usize = 8;

/// Paths answered on a connection of the [`HEALTH_RESERVE`].
const HEALTH_PATHS: &[&str] = &["/healthz", "/readyz", "/metrics"];

/// The server-wide cap on open connections (WebSockets included), so that a flood of sockets makes the
/// server refuse new ones with a clear answer instead of running out of file descriptors (which stops
/// `accept` for everyone, health checks included). One per server process (a cluster node has its own).
#[derive(Debug)]
pub struct ConnectionCap {
    most: usize,
    open: AtomicUsize,
}

/// What [`ConnectionCap::admit`] lets a new connection do.
enum Admission {
    /// Under the cap: served as usual.
    Serve(Slot),
    /// Past the cap, within the [`HEALTH_RESERVE`]: one request, health checks only.
    HealthOnly(Slot),
    /// Past the reserve too: answered `503 server_full` and closed at once.
    Refuse,
}

/// One open connection, counted against the cap until it is dropped.
struct Slot(Arc<ConnectionCap>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::Relaxed);
    }
}

impl ConnectionCap {
    /// A cap of `most` connections (at least one).
    pub fn new(most: usize) -> Arc<Self> {
        Arc::new(Self {
            most: most.max(1),
            open: AtomicUsize::new(0),
        })
    }

    /// The cap for `configured` (`MAX_CONNECTIONS`; 0: none asked) under an open-file limit of
    /// `open_files`: the files left once the server's own and the [`HEALTH_RESERVE`] are set aside, or
    /// `configured` if that is lower.
    pub fn for_open_file_limit(configured: usize, open_files: u64) -> usize {
        let fits = open_files
            .saturating_sub(FILES_KEPT_BESIDES_CONNECTIONS + HEALTH_RESERVE as u64)
            .max(1);
        let fits = usize::try_from(fits).unwrap_or(usize::MAX);
        match configured {
            0 => fits,
            asked => asked.min(fits),
        }
    }

    /// The cap for `configured` under this process's open-file limit (`RLIMIT_NOFILE`, soft).
    pub fn for_this_process(configured: usize) -> usize {
        let open_files = match rlimit::getrlimit(rlimit::Resource::NOFILE) {
            Ok((soft, _hard)) => soft,
            Err(err) => {
                tracing::warn!(%err, "cannot read the open-file limit; assuming 1024");
                1024
            }
        };
        let most = Self::for_open_file_limit(configured, open_files);
        if configured > most {
            tracing::warn!(
                asked = configured,
                most,
                open_files,
                "MAX_CONNECTIONS is more than the open-file limit allows: raise the limit \
                 (LimitNOFILE=, ulimit -n) or lower MAX_CONNECTIONS"
            );
        }
        most
    }

    /// The most connections served at once.
    pub fn most(&self) -> usize {
        self.most
    }

    /// Counts a new connection and says what it may do.
    fn admit(self: &Arc<Self>) -> Admission {
        let open = self.open.fetch_add(1, Ordering::Relaxed);
        let slot = Slot(Arc::clone(self));
        if open < self.most {
            Admission::Serve(slot)
        } else if open < self.most + HEALTH_RESERVE {
            Admission::HealthOnly(slot)
        } else {
            drop(slot);
            Admission::Refuse
        }
    }
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
    let cap = ConnectionCap::new(limits.max_connections);
    let health_only = router.clone().layer(axum::middleware::from_fn(health_only));
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
        let (slot, router, request_deadline) = match cap.admit() {
            Admission::Serve(slot) => (slot, router.clone(), limits.request),
            Admission::HealthOnly(slot) => (slot, health_only.clone(), HEALTH_ONLY_DEADLINE),
            Admission::Refuse => {
                warn_full(&cap);
                refuse(stream, Refusal::ServerFull);
                continue;
            }
        };
        let held = match limits.connections_per_address {
            0 => None,
            most => match open_by_address.hold(peer.ip(), most) {
                Some(held) => Some(held),
                None => {
                    open_by_address.warn_refused(peer.ip(), most);
                    refuse(stream, Refusal::TooManyFromAddress);
                    continue;
                }
            },
        };
        let keep_alive = request_deadline == limits.request;
        tokio::spawn(connection(
            Counted {
                stream,
                _held: held,
                _slot: slot,
                rewriting: Default::default(),
            },
            peer,
            router,
            Deadlines {
                headers: request_deadline,
                keep_alive,
            },
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

/// How long a connection may take to send its request's headers, and whether it may send another.
struct Deadlines {
    headers: Duration,
    keep_alive: bool,
}

/// The header deadline of a connection of the [`HEALTH_RESERVE`]: a probe sends its request at once.
const HEALTH_ONLY_DEADLINE: Duration = Duration::from_secs(1);

/// One HTTP/1.1 connection, upgrades (WebSockets) included, until it ends or a shutdown has let its
/// request in flight finish.
async fn connection(
    stream: Counted,
    peer: SocketAddr,
    router: Router,
    deadlines: Deadlines,
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
        .header_read_timeout(deadlines.headers)
        .keep_alive(deadlines.keep_alive);
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
    _slot: Slot,
    /// hyper's bare answer to a request it cannot parse becomes the JSON error ([`parser_errors`]).
    rewriting: parser_errors::Rewriting,
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
        let this = &mut *self;
        this.rewriting.poll_write(&mut this.stream, cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        if self.rewriting.takes(bufs) {
            let buf = bufs
                .iter()
                .find(|b| !b.is_empty())
                .map_or(&[][..], |b| &b[..]);
            return self.poll_write(cx, buf);
        }
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

/// Why a connection is refused before any request is read.
#[derive(Debug, Clone, Copy)]
enum Refusal {
    /// Its address holds `CONNECTIONS_PER_ADDRESS` open (`429 too_many_connections`).
    TooManyFromAddress,
    /// The server holds as many as its cap and reserve (`503 server_full`).
    ServerFull,
}

impl Refusal {
    fn error(self) -> AppError {
        match self {
            Refusal::TooManyFromAddress => AppError::TooManyConnections,
            Refusal::ServerFull => AppError::ServerFull,
        }
    }

    /// The label of `parchis_connections_refused_total`.
    fn metric_reason(self) -> &'static str {
        match self {
            Refusal::TooManyFromAddress => "per_address",
            Refusal::ServerFull => "server_full",
        }
    }
}

/// Answers a refused connection with its JSON error and closes it at once, holding nothing: what of its
/// request has arrived is read first without waiting (closing a socket with unread data resets it, and
/// the client could miss the answer), the answer is written without waiting (a new socket's send
/// buffer takes it whole) and the socket is closed.
fn refuse(stream: TcpStream, why: Refusal) {
    metrics::counter!("parchis_connections_refused_total", "reason" => why.metric_reason())
        .increment(1);
    let answer = parser_errors::json_answer(&why.error(), "retry-after: 5\r\n");
    let mut sink = [0; 4096];
    // A bounded number of reads: a client cannot keep this loop going.
    for _ in 0..16 {
        match stream.try_read(&mut sink) {
            Ok(n) if n > 0 => {}
            _ => break,
        }
    }
    let _ = stream.try_write(answer.as_bytes());
}

/// Says in the log that the server is full, at most once a minute.
fn warn_full(cap: &ConnectionCap) {
    static LAST: Mutex<Option<std::time::Instant>> = Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(PoisonError::into_inner);
    if last.is_some_and(|at| at.elapsed() < Duration::from_secs(60)) {
        return;
    }
    *last = Some(std::time::Instant::now());
    tracing::warn!(
        most = cap.most(),
        "refusing connections: the server holds MAX_CONNECTIONS open (derived from the open-file \
         limit unless set); logged at most once a minute"
    );
}

/// Middleware of the connections of the [`HEALTH_RESERVE`]: health checks and metrics are answered,
/// anything else `503 server_full` (a WebSocket upgrade is taken and closed with 1013 `server_full`, so
/// that a browser's socket learns why).
async fn health_only(request: Request, next: Next) -> Response {
    if HEALTH_PATHS.contains(&request.uri().path()) {
        return next.run(request).await;
    }
    let (mut parts, _body) = request.into_parts();
    if let Ok(upgrade) =
        axum::extract::ws::WebSocketUpgrade::from_request_parts(&mut parts, &()).await
    {
        return upgrade.on_upgrade(|mut socket| async move {
            let close = crate::rooms::protocol::Close::ServerFull;
            metrics::counter!("parchis_connections_refused_total", "reason" => "server_full")
                .increment(1);
            let _ = socket
                .send(axum::extract::ws::Message::Close(Some(
                    axum::extract::ws::CloseFrame {
                        code: close.code(),
                        reason: close.reason().into(),
                    },
                )))
                .await;
        });
    }
    metrics::counter!("parchis_connections_refused_total", "reason" => "server_full").increment(1);
    AppError::ServerFull.into_response()
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

/// Largest request body read (axum's own limit for its extractors): no request of the API comes near it.
pub const BODY_LIMIT: u64 = 2 * 1024 * 1024;

/// Middleware: a request that announces a body over [`BODY_LIMIT`] (`Content-Length`) is answered `413
/// payload_too_large` at once, without waiting for a body that may never come.
pub async fn refuse_oversized_bodies(request: Request, next: Next) -> Response {
    let announced = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if announced.is_some_and(|length| length > BODY_LIMIT) {
        let mut response = AppError::PayloadTooLarge.into_response();
        // The body is left unread: the connection cannot carry another request.
        response.headers_mut().insert(
            axum::http::header::CONNECTION,
            axum::http::HeaderValue::from_static("close"),
        );
        return response;
    }
    next.run(request).await
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

//! The HTTP accept loop: the application's router on hyper, with the deadlines `axum::serve` cannot set.
//!
//! `axum::serve` gives a connection no deadline for its request headers and waits for every connection
//! on shutdown: a client that sends half a request and then nothing held its connection for ever, and a
//! `systemctl stop` with it. Here the headers have a deadline (hyper's `header_read_timeout`, which also
//! closes idle keep-alive connections), [`request_deadline`] bounds the body and the answer, and a
//! shutdown waits a bounded grace for requests in flight.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

use crate::AppError;

/// The deadlines of [`serve`], from the configuration.
#[derive(Debug, Clone, Copy)]
pub struct Deadlines {
    /// For a request's headers from its first byte (and for an idle keep-alive connection).
    pub request: Duration,
    /// For connections still busy after the shutdown signal, before they are dropped.
    pub shutdown_grace: Duration,
}

/// Serves `router` on `listener` until `shutdown` resolves, then stops accepting, lets requests in
/// flight finish for at most `deadlines.shutdown_grace` and returns. Peer addresses reach handlers as
/// `ConnectInfo<SocketAddr>`, as with `into_make_service_with_connect_info`.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    deadlines: Deadlines,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
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
        tokio::spawn(connection(
            stream,
            peer,
            router.clone(),
            deadlines.request,
            stop_rx.clone(),
            open_rx.clone(),
        ));
    }
    // New connections are refused from here on.
    drop(listener);
    stop_tx.send_replace(true);
    drop(open_rx);
    if tokio::time::timeout(deadlines.shutdown_grace, open_tx.closed())
        .await
        .is_err()
    {
        tracing::warn!(
            connections = open_tx.receiver_count(),
            grace_secs = deadlines.shutdown_grace.as_secs(),
            "stopping without waiting longer for requests in flight"
        );
    }
    Ok(())
}

/// One HTTP/1.1 connection, upgrades (WebSockets) included, until it ends or a shutdown has let its
/// request in flight finish.
async fn connection(
    stream: TcpStream,
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

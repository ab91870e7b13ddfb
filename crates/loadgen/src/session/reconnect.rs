//! A player whose socket drops opens it again, through the next node of the cluster when its own is gone,
//! resuming by `since`/`epoch` (PROTOCOL.md §1): the node answers with the updates it missed, or a
//! snapshot when the room moved (a new epoch).

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use futures_util::future::BoxFuture;
use futures_util::stream::{self, BoxStream, FuturesUnordered, SelectAll, SplitStream};
use futures_util::{FutureExt, StreamExt};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use super::Ws;
use super::setup::{Opened, connect};

/// Longest wait for one attempt (a node takes a dead owner's room only once the owner counts as dead).
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(15);
/// Pause after every node refused.
const ROUND_PAUSE: Duration = Duration::from_millis(250);

/// Every socket's messages, tagged with its player and the socket's generation; `None` when it ends.
pub(super) type Inbound =
    SelectAll<BoxStream<'static, (usize, u32, Option<Result<Message, WsError>>)>>;

/// A socket opened again: (player, generation, the socket and its node's index, or why not).
pub(super) type Reopened = (usize, u32, Result<(Opened, usize), String>);

/// Sockets being opened again.
pub(super) type Reopening = FuturesUnordered<BoxFuture<'static, Reopened>>;

/// Adds player `i`'s socket (of `generation`) to `streams`.
pub(super) fn listen(streams: &mut Inbound, i: usize, generation: u32, socket: SplitStream<Ws>) {
    let tagged = socket
        .map(move |m| (i, generation, Some(m)))
        .chain(stream::once(async move { (i, generation, None) }));
    streams.push(tagged.boxed());
}

/// The node to try after node `last` of `count`, `k` steps on (its own node comes last).
pub fn next_node(last: usize, k: usize, count: usize) -> usize {
    (last + 1 + k) % count.max(1)
}

/// Opens player `i`'s socket again from `source` at `path`, trying the nodes after `node` in turn, for
/// at most `within`.
pub(super) fn reopen(
    i: usize,
    generation: u32,
    targets: Vec<SocketAddr>,
    node: usize,
    source: IpAddr,
    path: String,
    within: Duration,
) -> BoxFuture<'static, Reopened> {
    async move {
        let until = Instant::now() + within;
        let mut last = String::from("no node to try");
        while Instant::now() < until {
            for k in 0..targets.len() {
                let n = next_node(node, k, targets.len());
                let attempt = connect(targets[n], Some(source), &path);
                match tokio::time::timeout(ATTEMPT_TIMEOUT, attempt).await {
                    Ok(Ok(opened)) => return (i, generation, Ok((opened, n))),
                    Ok(Err(e)) => last = e,
                    Err(_) => last = format!("{}: no answer in {ATTEMPT_TIMEOUT:?}", targets[n]),
                }
            }
            tokio::time::sleep(ROUND_PAUSE).await;
        }
        (i, generation, Err(last))
    }
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_socket_tries_the_other_nodes_before_its_own() {
        let order: Vec<usize> = (0..4).map(|k| next_node(1, k, 4)).collect();
        assert_eq!(order, [2, 3, 0, 1]);
        assert_eq!(next_node(0, 0, 1), 0, "a single server is tried again");
    }
}

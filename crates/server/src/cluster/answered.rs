//! The owner's memory of its recent answers, by request id, so that a request asked again is answered
//! as the first time and never applied twice.
//!
//! A node that asks a room's owner gives up after [`REQUEST_TIMEOUT`](super::REQUEST_TIMEOUT) and
//! asks again with the same request id (see `ClusterRegistry::send_inner`). An owner that was only
//! slow may have applied the first one by then (a join, a start, a bot added): the repeat waits for
//! that answer, or finds it here, instead of applying the command once more.
//!
//! What is not covered: an owner that dies between applying a command and answering it. The room's
//! new owner (restored from the log) has never seen the id and applies the repeat: a repeated join,
//! rename or bot change finds the seats as the command left them and changes nothing more; a repeated
//! leave or start is refused (`not_seated`, `room_not_waiting`) although the first one was done; a
//! repeated "seat someone at my device" without a seat number seats them a second time (the owner
//! frees it). Keeping the ids in PostgreSQL with the seats would close this, at a write per command.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use tokio::sync::OnceCell;

use super::wire::{Asked, RoomReply, RoomRequest};
use crate::error::AppError;

/// How long an answer is kept. An asking node tries a request again for at most `ATTEMPTS` times
/// [`REQUEST_TIMEOUT`](super::REQUEST_TIMEOUT) plus its back-off, about two minutes; a repeat after
/// that never comes, so keeping answers longer would only cost memory.
pub(super) const KEEP: Duration = Duration::from_secs(150);

/// How many answers are kept at most (the oldest go first). An answer is a room's snapshot, a few
/// KiB: a thousand of them bound the memory. Only lobby commands are kept (a move goes through the
/// room's socket, not here), and only a repeat after an owner was slow for seconds needs one: a
/// node with more lobby commands than this in [`KEEP`] forgets the oldest, which are the least
/// likely to be asked again.
pub(super) const CAPACITY: usize = 1024;

/// One request's answer: being made, or made.
type Cell = Arc<OnceCell<Bytes>>;

/// Recent answers by request id.
#[derive(Default)]
pub(super) struct Answered {
    inner: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    by_id: HashMap<String, Cell>,
    /// The ids in the order they came, with when: the front is the oldest.
    order: VecDeque<(Instant, String)>,
}

impl Kept {
    /// Forgets the answers older than [`KEEP`], and the oldest while more than `room` are kept.
    fn trim(&mut self, now: Instant, room: usize) {
        while let Some((at, id)) = self.order.front() {
            let expired = now.saturating_duration_since(*at) > KEEP;
            if !expired && self.order.len() <= room {
                break;
            }
            self.by_id.remove(id);
            self.order.pop_front();
        }
    }
}

impl Answered {
    /// The answer to request `id`: made by `apply` the first time, the same bytes for a repeat
    /// (which waits while the first is still being made). `now` is the time of asking.
    pub async fn once<F>(&self, id: &str, now: Instant, apply: F) -> Bytes
    where
        F: Future<Output = Bytes>,
    {
        let cell = {
            let mut kept = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            kept.trim(now, CAPACITY);
            match kept.by_id.get(id) {
                Some(cell) => Arc::clone(cell),
                None => {
                    kept.trim(now, CAPACITY - 1);
                    let cell = Cell::default();
                    kept.by_id.insert(id.to_owned(), Arc::clone(&cell));
                    kept.order.push_back((now, id.to_owned()));
                    cell
                }
            }
        };
        cell.get_or_init(|| apply).await.clone()
    }

    /// How many answers are kept.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .by_id
            .len()
    }
}

/// The owner's encoded answer to a request as it came over NATS: `answer` applies it; a repeat of a
/// request that changes something gets the first answer again.
pub(super) async fn reply_to<F, Fut>(
    answered: &Answered,
    payload: &[u8],
    now: Instant,
    answer: F,
) -> Bytes
where
    F: FnOnce(RoomRequest) -> Fut,
    Fut: Future<Output = RoomReply>,
{
    // A reply always encodes (plain data); an empty one would read as nonsense to the asker.
    let encode =
        |reply: &RoomReply| serde_json::to_vec(reply).map_or_else(|_| Bytes::new(), Bytes::from);
    let asked = match serde_json::from_slice::<Asked>(payload) {
        Ok(asked) => asked,
        Err(err) => {
            let err = AppError::Internal(format!("bad request: {err}"));
            return encode(&RoomReply::Error((&err).into()));
        }
    };
    if !asked.request.changes_something() {
        return encode(&answer(asked.request).await);
    }
    let request = asked.request;
    answered
        .once(
            &asked.id,
            now,
            async move { encode(&answer(request).await) },
        )
        .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rooms::RoomCommand;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A request to add a person at the asker's device: applied twice, the room would have two.
    fn add_local(id: &str) -> Vec<u8> {
        serde_json::to_vec(&Asked {
            id: id.to_owned(),
            request: RoomRequest::Command(RoomCommand::AddLocal {
                player_id: "p1".into(),
                name: "Abuela".into(),
                seat: None,
            }),
        })
        .unwrap()
    }

    /// An owner that answers how many times it applied a request (so that a second apply would give
    /// another answer), after `go` lets it.
    struct Owner {
        applied: AtomicUsize,
        go: tokio::sync::Semaphore,
    }

    impl Owner {
        async fn apply(&self, _request: RoomRequest) -> RoomReply {
            let _permit = self.go.acquire().await.unwrap();
            let n = self.applied.fetch_add(1, Ordering::SeqCst) + 1;
            RoomReply::Error((&AppError::Internal(format!("applied {n} times"))).into())
        }
    }

    #[tokio::test]
    async fn a_command_asked_again_is_applied_once_and_answered_as_the_first_time() {
        let answered = Answered::default();
        let owner = Owner {
            applied: AtomicUsize::new(0),
            go: tokio::sync::Semaphore::new(1),
        };
        let now = Instant::now();
        let first = reply_to(&answered, &add_local("r1"), now, |r| owner.apply(r)).await;
        let again = reply_to(&answered, &add_local("r1"), now, |r| owner.apply(r)).await;
        assert_eq!(owner.applied.load(Ordering::SeqCst), 1);
        assert_eq!(again, first);
        // Another request (a new id) is applied.
        let other = reply_to(&answered, &add_local("r2"), now, |r| owner.apply(r)).await;
        assert_eq!(owner.applied.load(Ordering::SeqCst), 2);
        assert_ne!(other, first);
    }

    #[tokio::test]
    async fn a_repeat_that_comes_while_the_first_is_applied_waits_for_its_answer() {
        let answered = Answered::default();
        // The owner is slow: nothing is applied until a permit is added.
        let owner = Owner {
            applied: AtomicUsize::new(0),
            go: tokio::sync::Semaphore::new(0),
        };
        let (now, payload) = (Instant::now(), add_local("r1"));
        let first = reply_to(&answered, &payload, now, |r| owner.apply(r));
        let again = reply_to(&answered, &payload, now, |r| owner.apply(r));
        let release = async {
            tokio::task::yield_now().await;
            owner.go.add_permits(2);
        };
        let (first, again, ()) = tokio::join!(first, again, release);
        assert_eq!(owner.applied.load(Ordering::SeqCst), 1);
        assert_eq!(again, first);
    }

    #[tokio::test]
    async fn a_read_is_answered_afresh() {
        let answered = Answered::default();
        let owner = Owner {
            applied: AtomicUsize::new(0),
            go: tokio::sync::Semaphore::new(2),
        };
        let lookup = serde_json::to_vec(&Asked {
            id: "r1".into(),
            request: RoomRequest::LookupLive,
        })
        .unwrap();
        let now = Instant::now();
        reply_to(&answered, &lookup, now, |r| owner.apply(r)).await;
        reply_to(&answered, &lookup, now, |r| owner.apply(r)).await;
        assert_eq!(owner.applied.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn answers_are_forgotten_after_a_while_and_beyond_the_capacity() {
        let answered = Answered::default();
        let start = Instant::now();
        let answer = |text: &'static str| async move { Bytes::from_static(text.as_bytes()) };
        assert_eq!(answered.once("a", start, answer("first")).await, "first");
        let later = start + KEEP + Duration::from_secs(1);
        // Too late to be a repeat: applied again.
        assert_eq!(answered.once("a", later, answer("again")).await, "again");
        for n in 0..CAPACITY + 10 {
            answered.once(&n.to_string(), later, answer("x")).await;
        }
        assert!(answered.len() <= CAPACITY);
        // The oldest went first.
        assert_eq!(answered.once("a", later, answer("third")).await, "third");
    }
}

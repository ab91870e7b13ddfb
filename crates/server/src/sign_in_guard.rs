//! Wrong passwords per username and client address: after [`MAX_FAILURES`] within [`WINDOW`], signing in
//! as that username from that address is refused until the oldest of them leaves the window; other
//! addresses are not locked out (usernames are public: anyone could otherwise lock anyone's account), but
//! past [`MAX_FAILURES`] for the username from all addresses together, each attempt at it waits a little
//! longer before its password is checked ([`slowdown`], up to [`MAX_SLOWDOWN`]), so that many addresses
//! guessing one account go slowly. Unknown usernames are counted alike, so a refusal tells nothing about
//! whether an account exists.
//!
//! A single node keeps the counts in memory ([`SignInGuard`]). In cluster mode they are kept in
//! PostgreSQL, on every node together ([`crate::shared_counts`]): an address spreading its guesses over
//! the nodes behind a load balancer gets five, not five per node. The routes use [`SignInLimits`], which
//! is either. If PostgreSQL cannot be reached, the attempt is counted in this node's memory instead:
//! failing open would let a guesser try freely whenever the database blinks, failing closed would lock
//! every player out of signing in over a blip that may not even stop the sign-in itself (a pool waiting
//! for a connection); counted per node, an outage gives a guesser at most N times the budget while it
//! lasts, and signing in needs the database to read the account anyway.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::shared_counts::{Kind, SharedCounts, counted_locally};

/// Wrong passwords allowed for one username within [`WINDOW`].
pub const MAX_FAILURES: usize = 5;
/// How long a wrong password counts.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);
/// The wait added to an attempt for each failure of its username (all addresses) past [`MAX_FAILURES`].
pub const SLOWDOWN_STEP: Duration = Duration::from_millis(250);
/// The longest wait added to an attempt.
pub const MAX_SLOWDOWN: Duration = Duration::from_secs(3);

/// The wait before checking a password of a username with `failures` recent failures from all addresses.
pub fn slowdown(failures: usize) -> Duration {
    let past = u32::try_from(failures.saturating_sub(MAX_FAILURES)).unwrap_or(u32::MAX);
    SLOWDOWN_STEP.saturating_mul(past).min(MAX_SLOWDOWN)
}

/// The key of a username tried from one address.
fn from_address(username: &str, address: IpAddr) -> String {
    format!("{}{address}", from_any_address(username))
}

/// What the keys of a username tried from each address start with.
fn from_any_address(username: &str) -> String {
    format!("{username} from ")
}

/// Usernames remembered before those without a recent failure are dropped (bounds the memory).
const TRACKED: usize = 10_000;

/// Recent wrong passwords, by username key (lower case).
#[derive(Debug, Default)]
pub struct SignInGuard(Mutex<HashMap<String, VecDeque<Instant>>>);

impl SignInGuard {
    /// Counts an attempt at `key`'s password before it is checked, as a failure until
    /// [`SignInGuard::succeeded`] says otherwise; `Err(seconds to wait)`, counting nothing, while `key`
    /// already has [`MAX_FAILURES`] within the window. Counting first means that a burst of concurrent
    /// guesses cannot all pass the check before the first of them is found wrong.
    pub fn attempt(&self, key: &str, now: Instant) -> Result<(), u64> {
        let mut failures = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(times) = failures.get_mut(key) {
            forget_old(times, now);
            if let Some(oldest) = times.front()
                && times.len() >= MAX_FAILURES
            {
                let free_at = *oldest + WINDOW;
                return Err(free_at.duration_since(now).as_secs().max(1));
            }
        }
        count_in(&mut failures, key, now);
        Ok(())
    }

    /// Counts an attempt at signing in as `username` from `address`, as [`SignInGuard::attempt`] does for
    /// the pair; `Ok(wait)`: how long to wait before checking the password ([`slowdown`] of the username's
    /// failures from every address).
    pub fn attempt_sign_in(
        &self,
        username: &str,
        address: IpAddr,
        now: Instant,
    ) -> Result<Duration, u64> {
        self.attempt(&from_address(username, address), now)?;
        Ok(slowdown(self.count_username(username, now)))
    }

    /// Counts an attempt at `username` from any address: how many it had within the window before.
    fn count_username(&self, username: &str, now: Instant) -> usize {
        let mut failures = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let earlier = failures.get_mut(username).map_or(0, |times| {
            forget_old(times, now);
            times.len()
        });
        count_in(&mut failures, username, now);
        earlier
    }

    /// The right password for `username` from `address`: both counts start again.
    pub fn signed_in(&self, username: &str, address: IpAddr) {
        let mut failures = self.0.lock().unwrap_or_else(|e| e.into_inner());
        failures.remove(&from_address(username, address));
        failures.remove(username);
    }

    /// The owner proved the password from a signed-in device: every count of `username` (from every
    /// address) starts again.
    pub fn proved(&self, username: &str) {
        let prefix = from_any_address(username);
        let mut failures = self.0.lock().unwrap_or_else(|e| e.into_inner());
        failures.retain(|key, _| key != username && !key.starts_with(&prefix));
    }

    /// Counts an attempt at `key`'s password made elsewhere (changing it from a signed-in device, limited
    /// by that device's own key), refusing nothing: it is a failure for signing in as `key` until
    /// [`SignInGuard::succeeded`] says otherwise.
    pub fn count(&self, key: &str, now: Instant) {
        let mut failures = self.0.lock().unwrap_or_else(|e| e.into_inner());
        count_in(&mut failures, key, now);
    }

    /// The right password: the count for `key` starts again.
    pub fn succeeded(&self, key: &str) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).remove(key);
    }
}

/// The sign-in guard the routes use: [`SignInGuard`] in this node's memory, or (cluster mode) the same
/// rules counted in PostgreSQL for every node, falling back to this node's memory when it cannot be
/// reached (module documentation).
#[derive(Debug, Default)]
pub struct SignInLimits {
    local: SignInGuard,
    shared: Option<SharedCounts>,
}

impl SignInLimits {
    /// Counted in `shared`, on every node of the cluster.
    pub fn shared(shared: SharedCounts) -> Self {
        Self {
            local: SignInGuard::default(),
            shared: Some(shared),
        }
    }

    /// Where the counts are shared, in cluster mode.
    pub fn shared_counts(&self) -> Option<&SharedCounts> {
        self.shared.as_ref()
    }

    /// Counts an event of `key` in the shared counts, refused past `max`: `None` on a single node or
    /// when they cannot be reached (the caller counts in memory).
    async fn count_shared(&self, key: &str, max: usize) -> Option<Result<usize, Duration>> {
        let shared = self.shared.as_ref()?;
        let counted = shared.attempt(Kind::Password, key, max, WINDOW).await;
        counted.inspect_err(counted_locally).ok()
    }

    /// Forgets `key` (and, with a `prefix`, the keys that start with it) everywhere it may be counted.
    async fn forget(&self, key: &str, prefix: Option<&str>) {
        let Some(shared) = &self.shared else { return };
        let forgotten = match prefix {
            None => shared.forget(Kind::Password, key).await,
            Some(prefix) => shared.forget_with_prefix(Kind::Password, key, prefix).await,
        };
        if let Err(err) = forgotten {
            counted_locally(&err);
        }
    }

    /// [`SignInGuard::attempt`], now.
    pub async fn attempt(&self, key: &str) -> Result<(), u64> {
        match self.count_shared(key, MAX_FAILURES).await {
            Some(counted) => counted.map(drop).map_err(|wait| wait.as_secs().max(1)),
            None => self.local.attempt(key, Instant::now()),
        }
    }

    /// [`SignInGuard::attempt_sign_in`], now.
    pub async fn attempt_sign_in(&self, username: &str, address: IpAddr) -> Result<Duration, u64> {
        self.attempt(&from_address(username, address)).await?;
        let earlier = match self.count_shared(username, usize::MAX).await {
            Some(counted) => counted.unwrap_or(0),
            None => self.local.count_username(username, Instant::now()),
        };
        Ok(slowdown(earlier))
    }

    /// [`SignInGuard::signed_in`].
    pub async fn signed_in(&self, username: &str, address: IpAddr) {
        self.local.signed_in(username, address);
        self.forget(&from_address(username, address), None).await;
        self.forget(username, None).await;
    }

    /// [`SignInGuard::proved`].
    pub async fn proved(&self, username: &str) {
        self.local.proved(username);
        self.forget(username, Some(&from_any_address(username)))
            .await;
    }

    /// [`SignInGuard::count`], now.
    pub async fn count(&self, key: &str) {
        if self.count_shared(key, usize::MAX).await.is_none() {
            self.local.count(key, Instant::now());
        }
    }

    /// [`SignInGuard::succeeded`].
    pub async fn succeeded(&self, key: &str) {
        self.local.succeeded(key);
        self.forget(key, None).await;
    }
}

/// Adds an attempt at `key` at `now`, first dropping the usernames without a recent failure when
/// [`TRACKED`] are remembered.
fn count_in(failures: &mut HashMap<String, VecDeque<Instant>>, key: &str, now: Instant) {
    if failures.len() >= TRACKED {
        failures.retain(|_, times| {
            forget_old(times, now);
            !times.is_empty()
        });
    }
    failures.entry(key.to_owned()).or_default().push_back(now);
}

fn forget_old(times: &mut VecDeque<Instant>, now: Instant) {
    while times
        .front()
        .is_some_and(|t| now.duration_since(*t) >= WINDOW)
    {
        times.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_wrong_passwords_lock_the_username_until_the_first_leaves_the_window() {
        let guard = SignInGuard::default();
        let start = Instant::now();
        for i in 0..MAX_FAILURES as u64 {
            assert_eq!(guard.attempt("ana", start + Duration::from_secs(i)), Ok(()));
        }
        let wait = guard
            .attempt("ana", start + Duration::from_secs(10))
            .unwrap_err();
        assert_eq!(wait, WINDOW.as_secs() - 10);
        assert_eq!(
            guard.attempt("bea", start),
            Ok(()),
            "other usernames are not touched"
        );
        assert_eq!(
            guard.attempt("ana", start + WINDOW),
            Ok(()),
            "the first failure left the window"
        );
    }

    #[test]
    fn the_right_password_starts_the_count_again() {
        let guard = SignInGuard::default();
        let now = Instant::now();
        for _ in 0..MAX_FAILURES - 1 {
            guard.attempt("ana", now).unwrap();
        }
        guard.attempt("ana", now).unwrap();
        guard.succeeded("ana");
        for _ in 0..MAX_FAILURES {
            assert_eq!(guard.attempt("ana", now), Ok(()));
        }
        assert!(guard.attempt("ana", now).is_err());
    }

    #[test]
    fn an_address_locked_out_of_a_username_leaves_other_addresses_in_but_slowed() {
        let guard = SignInGuard::default();
        let now = Instant::now();
        let (stranger, owner) = ([203, 0, 113, 9].into(), [198, 51, 100, 7].into());
        for _ in 0..MAX_FAILURES {
            assert_eq!(
                guard.attempt_sign_in("ana", stranger, now),
                Ok(Duration::ZERO)
            );
        }
        assert!(guard.attempt_sign_in("ana", stranger, now).is_err());
        assert_eq!(
            guard.attempt_sign_in("ana", owner, now),
            Ok(Duration::ZERO),
            "five failures in all: no wait yet"
        );
        assert_eq!(guard.attempt_sign_in("ana", owner, now), Ok(SLOWDOWN_STEP));
        guard.signed_in("ana", owner);
        assert_eq!(guard.attempt_sign_in("ana", owner, now), Ok(Duration::ZERO));
        assert_eq!(slowdown(1000), MAX_SLOWDOWN);
    }

    #[test]
    fn attempts_still_being_checked_count_so_a_burst_gets_only_five_guesses() {
        let guard = SignInGuard::default();
        let now = Instant::now();
        // Fifty guesses arrive together, none of them checked yet: five go through to the password check.
        let through = (0..50)
            .filter(|_| guard.attempt("ana", now).is_ok())
            .count();
        assert_eq!(through, MAX_FAILURES);
    }

    #[tokio::test]
    async fn with_postgres_out_of_reach_wrong_passwords_are_limited_on_this_node() {
        let limits = SignInLimits::shared(crate::shared_counts::unreachable());
        let (stranger, owner) = ([203, 0, 113, 9].into(), [198, 51, 100, 7].into());
        // Not closed: the attempts are let through to the password check.
        for attempt in 1..=MAX_FAILURES {
            assert_eq!(
                limits.attempt_sign_in("ana", stranger).await,
                Ok(Duration::ZERO),
                "attempt {attempt}"
            );
        }
        // Not open: the sixth is refused (`too_many_attempts`) until the first leaves the window.
        let wait = limits.attempt_sign_in("ana", stranger).await.unwrap_err();
        assert!((1..=WINDOW.as_secs()).contains(&wait), "wait {wait} s");
        // The owner, elsewhere, is slowed, not locked out; the right password starts the count again.
        assert_eq!(
            limits.attempt_sign_in("ana", owner).await,
            Ok(Duration::ZERO),
            "five failures in all: no wait yet"
        );
        assert_eq!(
            limits.attempt_sign_in("ana", owner).await,
            Ok(SLOWDOWN_STEP)
        );
        limits.signed_in("ana", owner).await;
        assert_eq!(
            limits.attempt_sign_in("ana", owner).await,
            Ok(Duration::ZERO)
        );
    }
}

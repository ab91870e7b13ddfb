//! When an account's devices are signed out for going unused (`SESSION_IDLE_DAYS`): the limit the host
//! set, and the moment idle time counts from (the upgrade that brought the limit, migration 0016: a
//! last use recorded before it is not known to be the last).

use crate::config::Config;

/// The idle limit as the server applies it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionExpiry {
    /// Days a device may go unused (`SESSION_IDLE_DAYS`; 0: never signed out).
    pub days: u32,
    /// Unix ms idle time counts from at the earliest (when the database got its first limit).
    counted_from: i64,
}

/// A day, in ms.
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

impl SessionExpiry {
    /// The limit of `config`, counted from `counted_from` (Unix ms) at the earliest.
    pub fn new(config: &Config, counted_from: i64) -> Self {
        Self {
            days: config.session_idle_days,
            counted_from,
        }
    }

    /// After how many days unused a device is signed out, `None` for never (what "Your devices" says).
    pub fn signed_out_after_days(&self) -> Option<u32> {
        (self.days > 0).then_some(self.days)
    }

    /// The earliest last use (Unix ms) at which an account's device is still signed in at `now`:
    /// `i64::MIN` while no device can have been idle for long enough (no limit, or the limit counted
    /// from too recently).
    pub fn used_since(&self, now: i64) -> i64 {
        match self.signed_out_after_days() {
            Some(days) => {
                let cutoff = now.saturating_sub(i64::from(days) * DAY_MS);
                if cutoff > self.counted_from {
                    cutoff
                } else {
                    i64::MIN
                }
            }
            None => i64::MIN,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = 24 * 60 * 60 * 1000;

    fn expiry(days: u32, counted_from: i64) -> SessionExpiry {
        let mut config = Config::for_database("sqlite::memory:");
        config.session_idle_days = days;
        SessionExpiry::new(&config, counted_from)
    }

    #[test]
    fn devices_are_signed_out_once_idle_for_the_limit_after_it_began_to_count() {
        let now = 1000 * DAY;
        // Counted from long ago: anything unused for a year.
        assert_eq!(expiry(365, 0).used_since(now), now - 365 * DAY);
        // Counted from a month ago (the upgrade): nothing yet, whatever the recorded last uses.
        assert_eq!(expiry(365, now - 30 * DAY).used_since(now), i64::MIN);
        assert_eq!(expiry(30, now - 31 * DAY).used_since(now), now - 30 * DAY);
        // 0: never.
        assert_eq!(expiry(0, 0).used_since(now), i64::MIN);
    }
}

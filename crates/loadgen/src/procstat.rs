//! CPU time and resident memory of a process, from `/proc/<pid>/stat` and `/proc/<pid>/status`.

use std::time::Instant;

/// Kernel clock ticks per second as exposed to user space (`USER_HZ`, 100 on Linux).
pub const USER_HZ: f64 = 100.0;

/// One reading of a process.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// When it was read.
    pub at: Instant,
    /// utime + stime, in clock ticks.
    pub cpu_ticks: u64,
    /// Resident set size (`VmRSS`), KiB.
    pub rss_kib: u64,
    /// Peak resident set size (`VmHWM`), KiB.
    pub hwm_kib: u64,
}

/// Reads `/proc/<pid>` now; `None` if the process is gone or the files are unreadable.
pub fn sample(pid: u32) -> Option<Sample> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    Some(Sample {
        at: Instant::now(),
        cpu_ticks: cpu_ticks(&stat)?,
        rss_kib: status_kib(&status, "VmRSS:")?,
        hwm_kib: status_kib(&status, "VmHWM:").unwrap_or(0),
    })
}

/// utime + stime (fields 14 and 15) of a `/proc/<pid>/stat` line; the command
/// name (field 2) may contain spaces, so fields are counted after its `)`.
pub fn cpu_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // rest starts at field 3 (state): utime is field 14 → index 11.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// A `kB` line of `/proc/<pid>/status`, e.g. `VmRSS:   1234 kB`.
pub fn status_kib(status: &str, key: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

/// CPU use between two samples, in percent of one core.
pub fn cpu_percent(from: &Sample, to: &Sample) -> f64 {
    let secs = to.at.duration_since(from.at).as_secs_f64();
    if secs <= 0.0 {
        return 0.0;
    }
    to.cpu_ticks.saturating_sub(from.cpu_ticks) as f64 / USER_HZ / secs * 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_stat_and_status() {
        let stat = "42 (a b) S 1 42 42 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 1 0 5 1000 50";
        assert_eq!(cpu_ticks(stat), Some(10));
        let status = "Name:\tx\nVmHWM:\t  2048 kB\nVmRSS:\t  1024 kB\n";
        assert_eq!(status_kib(status, "VmRSS:"), Some(1024));
        assert_eq!(status_kib(status, "VmHWM:"), Some(2048));
        let me = sample(std::process::id()).unwrap();
        assert!(me.rss_kib > 0);
    }
}

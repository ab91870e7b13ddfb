//! Open-file limit: 50,000 sockets need far more than the usual 1,024 or 20,000.

use rlimit::Resource;

/// Raises `RLIMIT_NOFILE` to at least `want` (soft and hard) when allowed
/// (root may raise the hard limit up to `fs.nr_open`), otherwise the soft limit
/// up to the hard one. Returns the soft limit in force afterwards.
pub fn raise_nofile(want: u64) -> u64 {
    let (soft, hard) = Resource::NOFILE.get().unwrap_or((0, 0));
    if soft >= want {
        return soft;
    }
    let target = want.max(hard);
    if Resource::NOFILE.set(target, target).is_err() {
        let _ = rlimit::increase_nofile_limit(want);
    }
    Resource::NOFILE.get().map(|(s, _)| s).unwrap_or(soft)
}

//! Account passwords: Argon2id with the crate's default cost (19 MiB, two passes), stored as PHC
//! strings. Hashing takes tens of milliseconds on purpose, so it runs on the blocking pool, never on a
//! task that serves requests, and at most [`AT_ONCE`] at a time: a crowd of sign-ins waits its turn
//! rather than taking 19 MiB each.

use std::sync::LazyLock;

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use tokio::sync::Semaphore;

use crate::error::AppError;

/// Shortest password accepted, in characters.
pub const MIN_CHARS: usize = 8;
/// Longest password accepted, in characters (hashing cost does not depend on it much, memory does).
pub const MAX_CHARS: usize = 128;

/// Hashes computed at once, at most.
pub const AT_ONCE: usize = 4;
static SLOTS: Semaphore = Semaphore::const_new(AT_ONCE);

/// A password's PHC string.
pub async fn hash(password: String) -> Result<String, AppError> {
    blocking(move || {
        Argon2::default()
            .hash_password(password.as_bytes())
            .map(|h| h.to_string())
            .map_err(|err| AppError::Internal(format!("hashing a password: {err}")))
    })
    .await
}

/// Whether `password` matches `phc`; `None` (no such account) is checked against a stand-in hash, so
/// an unknown username takes as long to refuse as a wrong password.
pub async fn verify(password: String, phc: Option<String>) -> Result<bool, AppError> {
    blocking(move || {
        let known = phc.is_some();
        let phc = phc.unwrap_or_else(|| STAND_IN.clone());
        let parsed = PasswordHash::new(&phc)
            .map_err(|err| AppError::Internal(format!("a stored password hash: {err}")))?;
        let matches = Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok();
        Ok(known && matches)
    })
    .await
}

/// Why a new password cannot be used, if it cannot.
pub fn check_new(password: &str) -> Result<(), AppError> {
    let chars = password.chars().count();
    if !(MIN_CHARS..=MAX_CHARS).contains(&chars) {
        return Err(AppError::WeakPassword(format!(
            "The password must have {MIN_CHARS} to {MAX_CHARS} characters."
        )));
    }
    Ok(())
}

/// The hash an unknown username is checked against (of a password nobody can type: it has a NUL).
static STAND_IN: LazyLock<String> = LazyLock::new(|| {
    Argon2::default()
        .hash_password(b"\0no account has this password")
        .map(|h| h.to_string())
        .unwrap_or_default()
});

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    let _slot = SLOTS
        .acquire()
        .await
        .map_err(|err| AppError::Internal(format!("password slots: {err}")))?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|err| AppError::Internal(format!("password worker: {err}")))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_password_matches_its_own_hash_only() {
        let phc = hash("correct horse".into()).await.unwrap();
        assert!(phc.starts_with("$argon2id$"), "{phc}");
        assert!(!phc.contains("correct horse"));
        assert!(
            verify("correct horse".into(), Some(phc.clone()))
                .await
                .unwrap()
        );
        assert!(!verify("correct horsE".into(), Some(phc)).await.unwrap());
    }

    #[tokio::test]
    async fn no_password_opens_a_missing_account() {
        assert!(
            !verify("\0no account has this password".into(), None)
                .await
                .unwrap()
        );
    }

    #[test]
    fn passwords_need_eight_to_128_characters() {
        assert!(check_new("seven!!").is_err());
        assert!(check_new("eight!!!").is_ok());
        assert!(check_new(&"ñ".repeat(128)).is_ok());
        assert!(check_new(&"x".repeat(129)).is_err());
    }
}

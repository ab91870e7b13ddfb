//! Secrets: bearer tokens, their hashes, game seeds and join codes.

use rand::TryRng;
use rand::rngs::SysRng;
use sha2::{Digest, Sha256};

/// Unambiguous join-code alphabet: no 0/O, 1/I/L.
const JOIN_CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/// Length of a room join code.
pub const JOIN_CODE_LEN: usize = 6;

/// `N` bytes from the operating system's random generator.
pub(crate) fn os_random<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    // The OS generator failing is unrecoverable for a server handing out secrets.
    SysRng
        .try_fill_bytes(&mut bytes)
        .expect("the operating system's random generator failed");
    bytes
}

/// A fresh bearer token: 32 random bytes from the OS RNG, hex encoded.
pub fn new_token() -> String {
    hex::encode(os_random::<32>())
}

/// A fresh secret game seed: 32 random bytes, hex encoded.
pub fn new_seed() -> String {
    hex::encode(os_random::<32>())
}

/// SHA-256 of `secret`, lowercase hex. Used for token hashes and seed commitments.
pub fn sha256_hex(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Hash under which a bearer token is stored.
pub fn hash_token(token: &str) -> String {
    sha256_hex(token)
}

/// How a revoked first token's stored hash begins: it stands in `players.token_hash` (which must be
/// unique and filled) but matches no token, since a token's hash is only hex digits.
pub const REVOKED_PREFIX: &str = "revoked:";

/// What replaces a revoked first token's hash in `players.token_hash`: unique, never a token's hash, and
/// told apart from a live one (signing the other devices out does not count it again).
pub fn unusable_token_hash() -> String {
    format!("{REVOKED_PREFIX}{}", new_token())
}

/// A random 6-character join code from `JOIN_CODE_ALPHABET`.
pub fn new_join_code() -> String {
    // 256 is not a multiple of 31, so reject the top bytes to stay unbiased.
    let limit = 256 - 256 % JOIN_CODE_ALPHABET.len();
    let mut code = String::with_capacity(JOIN_CODE_LEN);
    while code.len() < JOIN_CODE_LEN {
        for byte in os_random::<16>() {
            if (byte as usize) < limit && code.len() < JOIN_CODE_LEN {
                code.push(JOIN_CODE_ALPHABET[byte as usize % JOIN_CODE_ALPHABET.len()] as char);
            }
        }
    }
    code
}

/// Whether `s` looks like a join code (so lookups can try codes before ids).
pub fn looks_like_join_code(s: &str) -> bool {
    s.len() == JOIN_CODE_LEN && s.bytes().all(|b| JOIN_CODE_ALPHABET.contains(&b))
}

/// Whether a client-supplied id could name a row at all (short, printable
/// ASCII). Anything else is "not found" without asking the database, which
/// also keeps NUL bytes (refused by PostgreSQL as text) away from queries.
pub fn plausible_id(s: &str) -> bool {
    !s.is_empty() && s.len() <= 64 && s.bytes().all(|b| b.is_ascii_graphic())
}

/// A new random identifier (UUID v4 text).
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_64_hex_chars_and_differ() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn an_unusable_token_hash_is_no_token_hash_and_differs_each_time() {
        let (a, b) = (unusable_token_hash(), unusable_token_hash());
        assert!(a.starts_with(REVOKED_PREFIX));
        assert!(!hash_token(&new_token()).starts_with(REVOKED_PREFIX));
        assert_ne!(a, b);
    }

    #[test]
    fn join_codes_use_the_unambiguous_alphabet() {
        for _ in 0..100 {
            let code = new_join_code();
            assert!(looks_like_join_code(&code), "{code}");
        }
    }

    #[test]
    fn hash_is_sha256_hex() {
        assert_eq!(
            sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}

//! Secrets: bearer tokens, their hashes, game seeds and join codes.

use rand::TryRng;
use rand::rngs::SysRng;
use sha2::{Digest, Sha256};

/// Unambiguous join-code alphabet: no 0/O, 1/I/L.
const JOIN_CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/// Length of a room join code.
pub const JOIN_CODE_LEN: usize = 6;

/// `N` bytes from the operating system's random generator.
fn os_random<const N: usize>() -> [u8; N] {
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

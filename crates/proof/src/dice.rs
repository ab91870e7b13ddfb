//! Provably fair dice: the seed commitment and the derivation of every roll
//! (exactly as PROTOCOL.md §5 documents it, so anyone can re-derive them).
//!
//! ```
//! use parchis_proof::dice::{decode_seed, roll, seed_hash};
//!
//! let seed = decode_seed(&"00".repeat(32)).unwrap();
//! assert_eq!(seed_hash(&seed).len(), 64);
//! assert!((1..=6).contains(&roll(&seed, 0)));
//! ```

use sha2::{Digest, Sha256};

/// Length of a game seed in bytes.
pub const SEED_LEN: usize = 32;

/// Bytes at or above this are rejected: 252 = 42 × 6 keeps the die unbiased.
const REJECT_FROM: u8 = 252;

/// Decodes a seed from its 64-character hex form.
pub fn decode_seed(hex_seed: &str) -> Option<[u8; SEED_LEN]> {
    let bytes = hex::decode(hex_seed.trim()).ok()?;
    bytes.try_into().ok()
}

/// The public commitment: lowercase hex of SHA-256 over the 32 raw seed bytes.
pub fn seed_hash(seed: &[u8; SEED_LEN]) -> String {
    hex::encode(Sha256::digest(seed))
}

/// Die value (1..=6) of roll number `index` (0-based) of the game with `seed`.
pub fn roll(seed: &[u8; SEED_LEN], index: u64) -> u8 {
    let mut hasher = Sha256::new();
    hasher.update(seed);
    hasher.update(index.to_be_bytes());
    let mut block: [u8; 32] = hasher.finalize().into();
    loop {
        if let Some(b) = block.iter().find(|&&b| b < REJECT_FROM) {
            return b % 6 + 1;
        }
        block = Sha256::digest(block).into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolls_are_dice_and_spread_evenly() {
        let seed = [7u8; SEED_LEN];
        let mut counts = [0u32; 7];
        for i in 0..6000 {
            let d = roll(&seed, i);
            assert!((1..=6).contains(&d));
            counts[d as usize] += 1;
        }
        for c in &counts[1..] {
            assert!((850..1150).contains(c), "{counts:?}");
        }
    }

    #[test]
    fn the_derivation_is_the_documented_one() {
        let seed = [0u8; SEED_LEN];
        let mut input = seed.to_vec();
        input.extend_from_slice(&3u64.to_be_bytes());
        let first = Sha256::digest(&input)
            .iter()
            .copied()
            .find(|&b| b < 252)
            .unwrap();
        assert_eq!(roll(&seed, 3), first % 6 + 1);
        assert_eq!(decode_seed(&hex::encode(seed)), Some(seed));
        assert_eq!(seed_hash(&seed).len(), 64);
    }
}

//! PROTOCOL.md §5 publishes a fixed seed, its commitment and its first rolls, so that anyone writing a
//! checker can test it against known values. This computes them and compares them with the document (the
//! browser's own code is held to the same lines by `e2e/tests/dice_proof.test.js`).

use parchis_proof::dice::{decode_seed, roll, seed_hash};

/// The published example: the `seed`, `seed_hash` and `rolls` lines of §5's example block.
struct Example {
    seed: String,
    seed_hash: String,
    rolls: Vec<u8>,
}

fn published_example() -> Example {
    let doc = include_str!("../../../PROTOCOL.md");
    let start = doc.find("## 5. ").expect("PROTOCOL.md has §5");
    let section = &doc[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let value = |label: &str| -> Vec<&str> {
        section
            .lines()
            .map(str::split_whitespace)
            .find_map(|mut words| (words.next() == Some(label)).then(|| words.collect::<Vec<_>>()))
            .unwrap_or_else(|| panic!("§5's example has no `{label}` line"))
    };
    Example {
        seed: value("seed").concat(),
        seed_hash: value("seed_hash").concat(),
        rolls: value("rolls")
            .iter()
            .map(|d| d.parse().expect("a die"))
            .collect(),
    }
}

#[test]
fn the_published_seed_gives_the_published_commitment_and_rolls() {
    let example = published_example();
    let seed = decode_seed(&example.seed).expect("64 hex characters");
    assert_eq!(
        seed,
        std::array::from_fn(|i| i as u8),
        "the seed is the bytes 0, 1, …, 31"
    );
    assert_eq!(seed_hash(&seed), example.seed_hash);
    assert_eq!(example.rolls.len(), 12, "rolls 0 to 11 are published");
    let derived: Vec<u8> = (0..12).map(|i| roll(&seed, i)).collect();
    assert_eq!(derived, example.rolls);
}

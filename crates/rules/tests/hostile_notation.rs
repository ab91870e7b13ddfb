//! Notation from outside (a client, a file, a person typing) is refused with a reason or becomes a game
//! that plays on like any other: never a panic, never a position the referee cannot finish.
//!
//! Texts are arbitrary strings, and reachable positions of every preset × mode with one edit (a character
//! replaced, deleted or inserted), so that most of them are nearly valid and reach deep into the parser.

mod common;

use common::every_preset_and_mode;
use parchis_rules::{Colour, Game, MoveList, OptionValues, Options, Phase, PieceRef, Place, Setup};
use proptest::prelude::*;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// More actions than any random game takes (they take ~1,000 at most).
const MAX_ACTIONS: usize = 20_000;

/// What a notation line is made of (the last-arrived `'`, the spared six's `!`, queued counts' `+` and
/// option names' `_` included), so that an edit is likely to be read further than its first field.
const ALPHABET: &[u8] = b"0123456789 ,:/=-[]'!+_hgoalybrgtxmovecuntdsi";

/// The position after `steps` random actions of a seeded game (or its end).
fn reachable(combo: usize, seed: u64, steps: usize) -> Game {
    let all = every_preset_and_mode();
    let (r, m, p) = all[combo % all.len()];
    let mut g = Game::new(r, m, p).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..steps {
        if !act(&mut g, &mut rng) {
            break;
        }
    }
    g
}

/// One random action (a roll or a legal move); false once the game is over.
fn act(g: &mut Game, rng: &mut Xoshiro256PlusPlus) -> bool {
    match g.phase() {
        Phase::Over { .. } => false,
        Phase::Roll => {
            g.roll(rng.random_range(1..=6)).unwrap();
            true
        }
        _ => {
            let legal = g.legal_moves();
            assert!(!legal.is_empty(), "a move phase without legal moves: {g}");
            let m = legal[rng.random_range(0..legal.len())];
            g.play(m)
                .unwrap_or_else(|e| panic!("legal move refused: {e} in {g}"));
            true
        }
    }
}

/// A game read from outside plays on to its end like any other: its notation round-trips, its stored
/// legal moves are a fresh generation's, every legal move is accepted and it ends.
fn plays_to_the_end(mut g: Game, seed: u64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut fresh = MoveList::new();
    for _ in 0..MAX_ACTIONS {
        let line = g.notation();
        let back: Game = line
            .parse()
            .unwrap_or_else(|e| panic!("its own notation refused ({e}): {line}"));
        assert!(back == g, "notation did not round-trip: {line}");
        g.generate_legal_moves(&mut fresh);
        assert_eq!(g.legal(), &fresh[..], "stored legal moves differ: {line}");
        if !act(&mut g, &mut rng) {
            return;
        }
    }
    panic!("did not end in {MAX_ACTIONS} actions: {g}");
}

/// `line` with one edit at `at` (modulo its length): replaced by, or inserted before, a character of the
/// alphabet, or deleted.
fn edited(line: &str, at: usize, kind: u8, pick: usize) -> String {
    let mut bytes = line.as_bytes().to_vec();
    let at = at % (bytes.len() + 1);
    let c = ALPHABET[pick % ALPHABET.len()];
    match kind % 3 {
        0 if at < bytes.len() => bytes[at] = c,
        1 if at < bytes.len() => {
            bytes.remove(at);
        }
        _ => bytes.insert(at, c),
    }
    String::from_utf8(bytes).expect("ASCII edits of an ASCII line")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_text_is_a_game_or_a_reason_never_a_panic(text in "\\PC{0,160}") {
        if let Err(e) = text.parse::<Game>() {
            prop_assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn a_position_with_one_edit_is_refused_with_a_reason_or_plays_on_to_the_end(
        combo in 0usize..1000,
        seed in any::<u64>(),
        steps in 0usize..400,
        at in any::<usize>(),
        kind in any::<u8>(),
        pick in any::<usize>(),
    ) {
        let line = edited(&reachable(combo, seed, steps).notation(), at, kind, pick);
        match line.parse::<Game>() {
            Ok(g) => plays_to_the_end(g, seed ^ 0x5EED),
            Err(e) => prop_assert!(!e.to_string().is_empty(), "an empty reason for {line}"),
        }
    }

    #[test]
    fn any_move_text_is_a_legal_move_or_a_reason_never_a_panic(
        combo in 0usize..1000,
        seed in any::<u64>(),
        steps in 0usize..400,
        random_text in "[a-z0-9:+>-]{0,12}",
        edit_a_legal_one in any::<bool>(),
        at in any::<usize>(),
        kind in any::<u8>(),
        pick in any::<usize>(),
    ) {
        let g = reachable(combo, seed, steps);
        let legal = g.legal_moves();
        // Half of the texts are a legal move's with one edit, which the parser reads to the end.
        let text = match legal.first() {
            Some(first) if edit_a_legal_one => {
                let m = legal.get(pick % legal.len()).unwrap_or(first);
                edited(&g.move_text(m), at, kind, pick)
            }
            _ => random_text,
        };
        match g.parse_move(&text) {
            Ok(m) => {
                let mut after = g;
                match after.play(m) {
                    Ok(_) => prop_assert!(legal.contains(&m), "`{text}` played a move that is not legal in {g}"),
                    Err(e) => prop_assert!(after == g, "the refused move `{text}` changed the game: {e}"),
                }
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    /// Options are spelled out by name, which one-character edits never reach: any mix of them, values from
    /// their range or not, on a reachable position.
    #[test]
    fn a_position_with_any_options_in_brackets_is_refused_with_a_reason_or_plays_on_to_the_end(
        combo in 0usize..1000,
        seed in any::<u64>(),
        steps in 0usize..400,
        picks in prop::collection::vec((any::<usize>(), any::<usize>(), any::<bool>()), 1..4),
    ) {
        let line = reachable(combo, seed, steps).notation();
        let (head, rest) = line.split_once(' ').unwrap();
        let rules = head.split_once('[').map_or(head, |(r, _)| r);
        let opts: Vec<String> = picks
            .iter()
            .map(|&(n, v, in_range)| {
                let name = Options::NAMES[n % Options::NAMES.len()];
                let values: Vec<String> = match Options::values(name).unwrap() {
                    OptionValues::Flag => vec!["0".into(), "1".into()],
                    OptionValues::OneOf(v) => v.iter().map(|s| s.to_string()).collect(),
                    OptionValues::Number { min, max } => (min..=max).map(|x| x.to_string()).collect(),
                };
                let value = if in_range { values[v % values.len()].clone() } else { (v % 300).to_string() };
                format!("{name}={value}")
            })
            .collect();
        let text = format!("{rules}[{}] {rest}", opts.join(","));
        match text.parse::<Game>() {
            Ok(g) => plays_to_the_end(g, seed ^ 0x0B7),
            Err(e) => prop_assert!(!e.to_string().is_empty(), "an empty reason for {text}"),
        }
    }

    /// `Game::from_setup` takes a `Setup` built by program, with values no text gives (a piece in lane 200, a
    /// seat of 250, a count of 0, a colour twice): one field of a reachable position's setup set to anything.
    #[test]
    fn a_setup_with_any_field_out_of_range_is_refused_with_a_reason_or_plays_on_to_the_end(
        combo in 0usize..1000,
        seed in any::<u64>(),
        steps in 0usize..400,
        field in 0u8..9,
        x in any::<u8>(),
        y in any::<usize>(),
    ) {
        let mut s: Setup = reachable(combo, seed, steps).to_setup();
        let colour = Colour::ALL[y % 6];
        match field {
            0 => s.players = x,
            1 => s.seat = x,
            2 => s.sixes = x,
            3 => s.phase = [Phase::Roll, Phase::Move { die: x }, Phase::Count { amount: x }, Phase::Over { side: x }][y % 4],
            4 => s.queued.push(x),
            5 => s.last_moved = Some(PieceRef { colour, number: x }),
            6 => s.first_roll.push(x),
            7 => {
                let n = s.pieces.len();
                let (c, list) = &mut s.pieces[y % n];
                *c = colour;
                let k = list.len();
                list[y % k].0 = [Place::Home, Place::Goal, Place::Square(x), Place::Lane(x)][(y / 7) % 4];
                list[y % k].1 = y % 3 == 0;
            }
            _ => {
                s.last_six_moved = Some(PieceRef { colour, number: x });
                s.last_six_spared = y % 2 == 0;
            }
        }
        match Game::from_setup(&s) {
            Ok(g) => plays_to_the_end(g, seed ^ 0x5E7),
            Err(e) => prop_assert!(!e.to_string().is_empty(), "an empty reason for {s:?}"),
        }
    }
}

//! Random games of every preset × mode: they end, every move played was legal, pieces are conserved, no square
//! holds more than two, no piece passes or lands on a blockade, and the notation round-trips.

mod common;

use common::every_preset_and_mode;
use parchis_rules::{Game, Mode, OptionValues, Options, Phase, Place, RuleSet};
use proptest::prelude::*;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

const MAX_ACTIONS: usize = 20_000;

/// Checks the invariants of a position that every rule set shares.
fn check_invariants(g: &Game) {
    let n = g.n_pieces();
    let mut squares = std::collections::HashMap::new();
    for p in 0..n {
        match g.place(p) {
            Place::Square(s) => *squares.entry(s).or_insert(0) += 1,
            Place::Lane(_) | Place::Home | Place::Goal => {}
        }
    }
    assert!(
        squares.values().all(|&c| c <= 2),
        "more than two pieces on a square: {g}"
    );
    let line = g.notation();
    let back: Game = line.parse().unwrap_or_else(|e| panic!("{e}: {line}"));
    assert_eq!(back.notation(), line);
    assert!(&back == g, "notation did not round-trip: {line}");
}

/// Where a piece stands, told apart per lane (lanes of different paths are different squares).
fn spot(g: &Game, p: u8) -> Option<(Place, u8)> {
    let l = g.layout();
    let slot = l.path_slot[l.colour_of_piece(p) as usize];
    match g.place(p) {
        Place::Home | Place::Goal => None,
        Place::Square(s) => Some((Place::Square(s), 0)),
        lane => Some((lane, slot)),
    }
}

/// Independent of the engine: no square from the move's first step to its landing square holds two pieces
/// of one colour (a blockade; lanes only where the rule set has lane blockades; Morocco's allied blockades on
/// safe squares included).
fn assert_no_blockade_on_the_way(g: &Game, m: &parchis_rules::Move) {
    let l = g.layout();
    let o = g.options();
    let slot = l.path_slot[l.colour_of_piece(m.piece) as usize];
    let start = m.from.max(1);
    for pos in start + 1..=m.to {
        let place = g.board().place(slot, pos);
        let here = match place {
            Place::Home | Place::Goal => continue,
            Place::Square(s) => (Place::Square(s), 0),
            lane => (lane, slot),
        };
        let pieces: Vec<u8> = (0..g.n_pieces())
            .filter(|&p| p != m.piece && spot(g, p) == Some(here))
            .collect();
        if let [a, b] = pieces[..] {
            let (ca, cb) = (l.colour_of_piece(a), l.colour_of_piece(b));
            let in_lane = matches!(place, Place::Lane(_));
            let safe = in_lane
                || matches!(place, Place::Square(s) if parchis_rules::BoardKind::is_safe_square(s));
            let blockade = (ca == cb && (!in_lane || o.lane_blockades))
                || (o.allied_blockade_on_safe
                    && safe
                    && l.side_of_colour(ca) == l.side_of_colour(cb)
                    && (!in_lane || o.lane_blockades));
            assert!(
                !blockade,
                "{} passes or lands on a blockade at {place}: {g}",
                g.move_text(m)
            );
            assert!(
                pos != m.to || m.enters(),
                "{} lands on a full square: {g}",
                g.move_text(m)
            );
        }
    }
}

/// Plays a seeded random game; returns the number of actions.
fn play_random(rules: RuleSet, mode: Mode, players: u8, seed: u64, check: bool) -> usize {
    play_random_from(Game::new(rules, mode, players).unwrap(), seed, check)
}

/// Plays a seeded random game from `g` to its end, checking the invariants and that the stored legal moves
/// are those a fresh generation gives; returns the number of actions.
fn play_random_from(mut g: Game, seed: u64, check: bool) -> usize {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (rules, mode, players) = (g.rules(), g.mode(), g.players());
    let start = g.n_pieces();
    let mut fresh = parchis_rules::MoveList::new();
    for actions in 0..MAX_ACTIONS {
        if check {
            check_invariants(&g);
            g.generate_legal_moves(&mut fresh);
            assert_eq!(g.legal(), &fresh[..], "stored legal moves of {g}");
        }
        match g.phase() {
            Phase::Over { .. } => return actions,
            Phase::Roll => {
                g.roll(rng.random_range(1..=6)).unwrap();
            }
            _ => {
                let legal = g.legal_moves();
                assert!(!legal.is_empty(), "a move phase without legal moves: {g}");
                let m = legal[rng.random_range(0..legal.len())];
                assert_no_blockade_on_the_way(&g, &m);
                let before = g;
                g.play(m).unwrap_or_else(|e| {
                    panic!(
                        "legal move {} refused: {e} in {before}",
                        before.move_text(&m)
                    )
                });
            }
        }
        assert_eq!(g.n_pieces(), start);
    }
    panic!(
        "{rules} {mode}/{players} ({:?}) seed {seed} did not end in {MAX_ACTIONS} actions: {g}",
        g.options()
    );
}

#[test]
fn every_preset_and_mode_plays_random_games_to_the_end() {
    for (r, m, p) in every_preset_and_mode() {
        for seed in 0..20 {
            play_random(r, m, p, seed, true);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn random_games_keep_the_invariants(idx in 0usize..1000, seed in any::<u64>()) {
        let all = every_preset_and_mode();
        let (r, m, p) = all[idx % all.len()];
        play_random(r, m, p, seed, true);
    }
}

/// Any house rules: a random value for each of a random subset of [`Options::house_rules`].
fn house_rules() -> impl Strategy<Value = Vec<(&'static str, String)>> {
    let names: Vec<&'static str> = Options::house_rules().collect();
    let one = (0..names.len(), any::<u16>()).prop_map(move |(k, pick)| {
        let name = names[k];
        let value = match Options::values(name).unwrap() {
            OptionValues::Flag => (pick % 2).to_string(),
            OptionValues::OneOf(texts) => texts[pick as usize % texts.len()].to_string(),
            OptionValues::Number { min, max } => {
                (u16::from(min) + pick % (u16::from(max - min) + 1)).to_string()
            }
        };
        (name, value)
    });
    prop::collection::vec(one, 0..8)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// Tables may combine any house rules a room offers: every combination, on every preset × mode, plays
    /// random games to their end with the invariants kept (and never panics).
    #[test]
    fn house_rule_games_keep_the_invariants(
        idx in 0usize..1000,
        rules in house_rules(),
        seed in any::<u64>(),
    ) {
        let all = every_preset_and_mode();
        let (r, m, p) = all[idx % all.len()];
        let options = r
            .options_for(m)
            .with_house_rules(rules.iter().map(|(k, v)| (*k, v.as_str())))
            .unwrap();
        let g = Game::with_options(r, m, p, options).unwrap();
        play_random_from(g, seed, true);
    }
}

#[test]
fn the_stored_legal_moves_always_equal_a_fresh_generation() {
    for (r, m, p) in every_preset_and_mode() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut g = Game::new(r, m, p).unwrap();
        let mut fresh = parchis_rules::MoveList::new();
        while !g.is_over() {
            g.generate_legal_moves(&mut fresh);
            assert_eq!(g.legal(), &fresh[..], "{g}");
            if g.phase() == Phase::Roll {
                g.roll(rng.random_range(1..=6)).unwrap();
            } else {
                let legal = g.legal();
                g.play(legal[rng.random_range(0..legal.len())]).unwrap();
            }
        }
    }
}

//! The event-free entry points (`roll_with`, `play_with`, `play_unchecked_with`, `play_legal_with` with
//! `NoEvents`) that simulations and the benchmarks use apply exactly the same rules as `roll` / `play`: seeded
//! random games of every preset × mode are played every way in lockstep and compared after every action (whole
//! game state, notation, legal moves, move texts), and the events pushed into a caller's `Events` equal those
//! returned. Playing a move by its number in `legal()` plays that very move.

use parchis_rules::{Events, Game, Mode, NoEvents, Phase, PlayError, RuleSet};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

#[test]
fn event_free_play_follows_the_same_rules_move_for_move() {
    let mut actions = 0u64;
    for r in RuleSet::ALL {
        for m in Mode::ALL {
            for p in m.players() {
                let start = Game::new(r, m, p).unwrap();
                for seed in 0..10 {
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                    let mut loud = start;
                    let mut quiet = start;
                    let mut checked = start;
                    let mut sink = start;
                    let mut numbered = start;
                    let mut numbered_loud = start;
                    while !loud.is_over() {
                        if loud.phase() == Phase::Roll {
                            let die = rng.random_range(1..=6);
                            let events = loud.roll(die).unwrap();
                            quiet.roll_with(die, &mut NoEvents).unwrap();
                            checked.roll_with(die, &mut NoEvents).unwrap();
                            let mut pushed = Events::new();
                            sink.roll_with(die, &mut pushed).unwrap();
                            assert_eq!(pushed, events);
                            numbered.roll_with(die, &mut NoEvents).unwrap();
                            numbered_loud.roll(die).unwrap();
                        } else {
                            let legal = loud.legal();
                            assert_eq!(quiet.legal(), legal);
                            let number = rng.random_range(0..legal.len());
                            let mv = legal[number];
                            assert_eq!(quiet.move_text(&mv), loud.move_text(&mv));
                            let events = loud.play(mv).unwrap();
                            quiet.play_unchecked_with(mv, &mut NoEvents);
                            checked.play_with(mv, &mut NoEvents).unwrap();
                            let mut pushed = Events::new();
                            sink.play_with(mv, &mut pushed).unwrap();
                            assert_eq!(pushed, events);
                            numbered.play_legal_with(number, &mut NoEvents).unwrap();
                            assert_eq!(numbered_loud.play_legal(number).unwrap(), events);
                        }
                        actions += 1;
                        assert!(
                            quiet == loud
                                && checked == loud
                                && sink == loud
                                && numbered == loud
                                && numbered_loud == loud,
                            "{r} {m}/{p} seed {seed}: {loud}"
                        );
                        assert_eq!(quiet.notation(), loud.notation());
                        assert_eq!(quiet.legal(), loud.legal());
                    }
                    assert_eq!(quiet.winner(), loud.winner());
                }
            }
        }
    }
    assert!(actions > 100_000, "{actions}");
}

#[test]
fn event_free_calls_refuse_what_the_others_refuse() {
    let mut g = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
    let mut quiet = g;
    assert_eq!(quiet.roll_with(7, &mut NoEvents), g.roll(7).map(|_| ()));
    assert_eq!(quiet.roll_with(0, &mut NoEvents), g.roll(0).map(|_| ()));
    g.roll(5).unwrap();
    quiet.roll_with(5, &mut NoEvents).unwrap();
    assert_eq!(quiet.roll_with(3, &mut NoEvents), g.roll(3).map(|_| ()));
    let mut wrong = g.legal()[0];
    wrong.to += 1;
    assert_eq!(
        quiet.play_with(wrong, &mut NoEvents),
        g.play(wrong).map(|_| ())
    );
    assert!(quiet == g);
}

#[test]
fn playing_by_number_refuses_a_number_past_the_list_and_a_move_before_the_roll() {
    let mut g = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
    let start = g;
    assert_eq!(g.play_legal(0), Err(PlayError::MustRoll));
    assert_eq!(
        g.play_legal_with(0, &mut NoEvents),
        Err(PlayError::MustRoll)
    );
    assert!(g == start);
    g.roll(5).unwrap();
    let rolled = g;
    let n = g.legal().len();
    assert_eq!(n, 1, "a 5 with every piece at home: bringing one out only");
    assert_eq!(g.play_legal(n), Err(PlayError::NoSuchMove));
    assert_eq!(
        g.play_legal_with(usize::MAX, &mut NoEvents),
        Err(PlayError::NoSuchMove)
    );
    assert!(g == rolled, "a refused number changes nothing");
    assert_eq!(PlayError::NoSuchMove.code(), "no_such_move");
    let expected = g.play(g.legal()[0]).unwrap();
    let mut by_number = rolled;
    assert_eq!(by_number.play_legal(0).unwrap(), expected);
    assert!(by_number == g);
}

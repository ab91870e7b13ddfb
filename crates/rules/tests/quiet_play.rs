//! The event-free entry points (`roll_with`, `play_with`, `play_unchecked_with` with `NoEvents`) that
//! simulations and the benchmarks use apply exactly the same rules as `roll` / `play`: seeded random games of
//! every preset × mode are played both ways in lockstep and compared after every action (whole game state,
//! notation, legal moves, move texts), and the events pushed into a caller's `Events` equal those returned.

use parchis_rules::{Events, Game, Mode, NoEvents, Phase, RuleSet};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

#[test]
fn event_free_play_follows_the_same_rules_move_for_move() {
    let mut actions = 0u64;
    for r in RuleSet::ALL {
        for m in Mode::ALL {
            for p in m.players() {
                let start = Game::new(r, m, p).unwrap();
                for seed in 0..10 {
                    let mut rng = SmallRng::seed_from_u64(seed);
                    let mut loud = start;
                    let mut quiet = start;
                    let mut checked = start;
                    let mut sink = start;
                    while !loud.is_over() {
                        if loud.phase() == Phase::Roll {
                            let die = rng.random_range(1..=6);
                            let events = loud.roll(die).unwrap();
                            quiet.roll_with(die, &mut NoEvents).unwrap();
                            checked.roll_with(die, &mut NoEvents).unwrap();
                            let mut pushed = Events::new();
                            sink.roll_with(die, &mut pushed).unwrap();
                            assert_eq!(pushed, events);
                        } else {
                            let legal = loud.legal();
                            assert_eq!(quiet.legal(), legal);
                            let mv = legal[rng.random_range(0..legal.len())];
                            assert_eq!(quiet.move_text(&mv), loud.move_text(&mv));
                            let events = loud.play(mv).unwrap();
                            quiet.play_unchecked_with(mv, &mut NoEvents);
                            checked.play_with(mv, &mut NoEvents).unwrap();
                            let mut pushed = Events::new();
                            sink.play_with(mv, &mut pushed).unwrap();
                            assert_eq!(pushed, events);
                        }
                        actions += 1;
                        assert!(
                            quiet == loud && checked == loud && sink == loud,
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

//! Seed 002: the northern-Morocco variant, 4 players (one colour each) and 2 players (8 pieces: blue-yellow
//! against green-red), every rule from a precise position.
//!
//! On the Morocco board blue comes out on 5 (lane after 68), yellow on 22, green on 39, red on 56. With two
//! players yellow follows blue's path and red follows green's.

use parchis_rules::{Event, Game, IllegalMove, Mode, Phase, Place, PlayError, RuleSet};

mod common;
use common::*;

const FOUR: &str = "morocco individual/4";
const TWO: &str = "morocco 1v1/2";

fn count(ev: &[Event], f: impl Fn(&Event) -> bool) -> usize {
    ev.iter().filter(|e| f(e)).count()
}

// ----- the very first roll -------------------------------------------------------------------------------

#[test]
fn first_roll_brings_the_first_piece_out_and_advances_it_by_the_die() {
    for (die, to) in [(1, 6), (2, 7), (3, 8), (4, 9)] {
        let mut g = Game::new(RuleSet::Morocco, Mode::Individual, 4).unwrap();
        assert!(g.first_roll_pending(0));
        roll(&mut g, die);
        assert_legal(&g, &[&format!("b1:h-{to}")]);
        let ev = play(&mut g, "b1");
        assert!(ev.contains(&Event::TurnPassed { seat: 1 }));
        assert_eq!(place(&g, "b1"), Place::Square(to));
    }
}

#[test]
fn first_roll_of_a_five_brings_two_pieces_out_one_on_the_exit_and_one_five_squares_on() {
    let mut g = Game::new(RuleSet::Morocco, Mode::Individual, 4).unwrap();
    roll(&mut g, 5);
    assert_legal(&g, &["b1:h-5+b2:h-10"]);
    play(&mut g, "b1:h-5+b2:h-10");
    assert_eq!(place(&g, "b1"), Place::Square(5));
    assert_eq!(place(&g, "b2"), Place::Square(10));
    assert_eq!(place(&g, "b3"), Place::Home);
}

#[test]
fn first_roll_of_a_six_advances_six_without_a_reroll() {
    let mut g = Game::new(RuleSet::Morocco, Mode::Individual, 4).unwrap();
    roll(&mut g, 6);
    assert_legal(&g, &["b1:h-11"]);
    let ev = play(&mut g, "b1");
    assert!(!ev.iter().any(|e| matches!(e, Event::ExtraRoll { .. })));
    assert!(ev.contains(&Event::TurnPassed { seat: 1 }));
    assert_eq!(g.sixes_in_a_row(), 0);
}

#[test]
fn every_seat_makes_its_own_first_roll_once() {
    let mut g = Game::new(RuleSet::Morocco, Mode::Individual, 4).unwrap();
    roll(&mut g, 3);
    play(&mut g, "b1");
    assert!(!g.first_roll_pending(0));
    assert!(g.first_roll_pending(1));
    roll(&mut g, 2);
    assert_legal(&g, &["y1:h-24"]);
    play(&mut g, "y1");
    roll(&mut g, 4);
    play(&mut g, "g1:h-43");
    roll(&mut g, 1);
    play(&mut g, "r1:h-57");
    // Blue's second turn: a 3 no longer brings a piece out.
    roll(&mut g, 3);
    assert_legal(&g, &["b1:8-11"]);
}

#[test]
fn after_the_first_roll_a_piece_leaves_the_reserve_only_with_a_five_and_must() {
    let others = "y:h,h,h,h/g:h,h,h,h/r:h,h,h,h";
    let mut g = at(FOUR, &format!("b:11,h,h,h/{others}"), 0);
    roll(&mut g, 3);
    assert_legal(&g, &["b1:11-14"]);
    let mut g = at(FOUR, &format!("b:11,h,h,h/{others}"), 0);
    roll(&mut g, 5);
    assert_legal(&g, &["b2:h-5"]);
}

/// « Un déplacement légal est obligatoire : on ne peut pas passer volontairement son tour. »
#[test]
fn a_legal_move_is_mandatory_and_the_turn_cannot_be_passed() {
    let mut g = at(FOUR, "b:11,h,h,h/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 3);
    assert_legal(&g, &["b1:11-14"]);
    assert_eq!(g.roll(2), Err(PlayError::MustMove));
    assert_eq!(g.seat(), 0);
}

// ----- six or twelve ------------------------------------------------------------------------------------

#[test]
fn six_moves_twelve_when_all_four_pieces_of_the_colour_are_in_play() {
    let mut g = at(FOUR, "b:10,20,30,40/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(&g, &["b1:10-22", "b2:20-32", "b3:30-42", "b4:40-52"]);
    let ev = play(&mut g, "b1");
    assert!(ev.contains(&Event::ExtraRoll { seat: 0 }));
}

#[test]
fn six_moves_six_once_a_piece_of_the_colour_is_back_in_the_reserve() {
    let mut g = at(FOUR, "b:10,20,30,h/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(&g, &["b1:10-16", "b2:20-26", "b3:30-36"]);
}

#[test]
fn six_moves_six_once_a_piece_of_the_colour_has_arrived() {
    let mut g = at(FOUR, "b:10,20,30,goal/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(&g, &["b1:10-16", "b2:20-26", "b3:30-36"]);
}

#[test]
fn with_all_four_in_play_but_no_legal_twelve_a_six_moves_six_and_rerolls() {
    let mut g = at(FOUR, "b:l1,l2,l3,l4/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(&g, &["b1:l1-l7", "b2:l2-goal"]);
    let ev = play(&mut g, "b1");
    assert!(ev.contains(&Event::ExtraRoll { seat: 0 }));
}

#[test]
fn capture_by_twelve_is_mandatory_over_capture_by_six() {
    let mut g = at(FOUR, "b:10,20,30,40/y:16,32,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(&g, &["b2:20-32"]);
    let ev = play(&mut g, "b2");
    assert!(captured(&ev, "y2"));
    assert!(!ev.iter().any(|e| matches!(e, Event::RerollLost { .. })));
}

#[test]
fn capture_by_six_when_a_twelve_was_possible_loses_the_reroll() {
    let mut g = at(FOUR, "b:10,20,30,40/y:16,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(&g, &["b1:10-16"]);
    let ev = play(&mut g, "b1");
    assert!(captured(&ev, "y1"));
    assert!(ev.contains(&Event::RerollLost { seat: 0 }));
    assert_eq!(g.phase(), Phase::Count { amount: 20 });
    let first = g.legal_texts()[0].clone();
    let ev = play(&mut g, &first);
    assert!(!ev.iter().any(|e| matches!(e, Event::ExtraRoll { .. })));
    assert!(ev.contains(&Event::TurnPassed { seat: 1 }));
}

#[test]
fn capture_by_six_keeps_the_reroll_when_the_colour_had_no_twelve() {
    let mut g = at(FOUR, "b:10,20,30,h/y:16,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(&g, &["b1:10-16"]);
    let ev = play(&mut g, "b1");
    assert!(!ev.iter().any(|e| matches!(e, Event::RerollLost { .. })));
    play(&mut g, "b1:16-36");
    assert_eq!((g.seat(), g.phase()), (0, Phase::Roll));
}

#[test]
fn capture_by_six_keeps_the_reroll_when_all_four_are_in_play_but_no_twelve_is_legal() {
    // All four blue pieces are in play, but yellow's blockade on 27 bars b1's and b2's 12 and the lane pieces
    // would overshoot: the 6 is played, and its capture keeps the re-roll.
    let mut g = at(FOUR, "b:18,19,l1,l2/y:24,27,27',h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(&g, &["b1:18-24"]);
    let ev = play(&mut g, "b1");
    assert!(captured(&ev, "y1"));
    assert!(!ev.iter().any(|e| matches!(e, Event::RerollLost { .. })));
    // The count of 20 cannot pass yellow's blockade either: lost, and seat 0 rolls again.
    assert!(ev.contains(&Event::BonusLost {
        seat: 0,
        amount: 20
    }));
    assert!(ev.contains(&Event::ExtraRoll { seat: 0 }));
    assert_eq!((g.seat(), g.phase()), (0, Phase::Roll));
}

// ----- capturing ----------------------------------------------------------------------------------------

#[test]
fn a_capture_with_the_die_is_mandatory() {
    let mut g = at(FOUR, "b:10,30,h,h/y:13,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 3);
    assert_legal(&g, &["b1:10-13"]);
    let wrong = g.parse_move("b2:30-33").unwrap();
    assert_eq!(
        g.play(wrong),
        Err(PlayError::Illegal(IllegalMove::MustCapture))
    );
}

#[test]
fn each_capture_earns_a_mandatory_count_of_twenty_which_must_capture_too() {
    let mut g = at(FOUR, "b:10,30,h,h/y:13,50,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 3);
    let ev = play(&mut g, "b1:10-13");
    assert!(ev.contains(&Event::BonusGranted {
        seat: 0,
        amount: 20
    }));
    assert_eq!(g.phase(), Phase::Count { amount: 20 });
    assert_legal(&g, &["b2:30-50"]);
    let ev = play(&mut g, "b2");
    assert!(captured(&ev, "y2"));
    assert_eq!(g.phase(), Phase::Count { amount: 20 });
}

#[test]
fn safe_squares_protect_from_capture() {
    let mut g = at(FOUR, "b:10,h,h,h/y:12,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 2);
    let ev = play(&mut g, "b1:10-12");
    assert!(!any_capture(&ev));
    assert_eq!(place(&g, "y1"), Place::Square(12));
}

#[test]
fn visitor_on_an_exit_square_is_captured_only_by_its_owner_coming_out_with_a_five() {
    // Yellow sits on blue's exit (5). Green lands there: no capture, they share it.
    let mut g = at(FOUR, "b:30,h,h,h/y:5,h,h,h/g:1,h,h,h/r:h,h,h,h", 2);
    roll(&mut g, 4);
    assert_legal(&g, &["g1:1-5"]);
    let ev = play(&mut g, "g1");
    assert!(!any_capture(&ev));
    assert_eq!(place(&g, "y1"), Place::Square(5));
    // Blue comes out with a 5: the lone visitor goes home, worth 20.
    let mut g = at(FOUR, "b:30,h,h,h/y:5,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 5);
    assert_legal(&g, &["b2:h-5"]);
    let ev = play(&mut g, "b2");
    assert!(ev.contains(&Event::Captured {
        piece: pr("y1"),
        by: pr("b2"),
        at: Place::Square(5)
    }));
    assert!(ev.contains(&Event::BonusGranted {
        seat: 0,
        amount: 20
    }));
}

#[test]
fn coming_out_captures_both_opponents_on_your_exit_each_worth_twenty() {
    let mut g = at(FOUR, "b:30,h,h,h/y:5,h,h,h/g:5',h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 5);
    let ev = play(&mut g, "b2:h-5");
    assert!(captured(&ev, "y1") && captured(&ev, "g1"));
    assert_eq!(
        count(&ev, |e| *e
            == Event::BonusGranted {
                seat: 0,
                amount: 20
            }),
        2
    );
    assert_eq!(g.phase(), Phase::Count { amount: 20 });
    assert_eq!(g.queued_counts(), &[20]);
}

#[test]
fn two_own_pieces_on_the_exit_keep_a_third_from_coming_out() {
    let mut g = at(FOUR, "b:5,5',30,h/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 5);
    assert_legal(&g, &["b1:5-10", "b2:5-10", "b3:30-35"]);
}

#[test]
fn the_final_lane_is_safe_and_private() {
    // Blue in its lane cannot be reached by anyone: a yellow piece passing square 68 goes on to square 1.
    let mut g = at(FOUR, "b:l1,h,h,h/y:66,h,h,h/g:h,h,h,h/r:h,h,h,h", 1);
    roll(&mut g, 3);
    assert_legal(&g, &["y1:66-1"]);
}

// ----- blockades ----------------------------------------------------------------------------------------

#[test]
fn a_blockade_blocks_everyone_including_its_own_pieces() {
    let mut g = at(FOUR, "b:20,20',17,h/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 4);
    assert_legal(&g, &["b1:20-24", "b2:20-24"]);
    let mut g = at(FOUR, "b:20,20',h,h/y:h,h,h,h/g:15,h,h,h/r:h,h,h,h", 2);
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::NoLegalMove { seat: 2, die: 6 }));
}

#[test]
fn a_blockade_on_a_safe_square_blocks_too() {
    let mut g = at(FOUR, "b:10,h,h,h/y:12,12',h,h/g:h,h,h,h/r:h,h,h,h", 0);
    let ev = roll(&mut g, 4);
    assert!(ev.contains(&Event::NoLegalMove { seat: 0, die: 4 }));
}

#[test]
fn opening_an_outer_blockade_on_a_six_comes_before_any_capture() {
    let mut g = at(FOUR, "b:20,20',30,h/y:36,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(&g, &["b1:20-26", "b2:20-26"]);
    let wrong = g.parse_move("b3:30-36").unwrap();
    assert_eq!(
        g.play(wrong),
        Err(PlayError::Illegal(IllegalMove::MustOpenBlockade))
    );
}

#[test]
fn a_blockade_opened_on_a_six_keeps_the_reroll() {
    let mut g = at(FOUR, "b:20,20',30,h/y:36,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    let ev = play(&mut g, "b1:20-26");
    assert!(ev.contains(&Event::BlockadeOpened {
        at: Place::Square(20),
        colour: parchis_rules::Colour::Blue
    }));
    assert!(ev.contains(&Event::ExtraRoll { seat: 0 }));
    assert!(!any_capture(&ev));
}

#[test]
fn a_six_opens_a_blockade_whose_twelve_is_barred_by_six_even_when_other_pieces_have_a_twelve() {
    // Ambiguity 18: all four blue pieces are in play; the blockade's 12 (20 → 32) is barred by yellow's
    // blockade on 27 while b3 and b4 have legal 12s. Opening the blockade comes first (« doit d'abord
    // ouvrir »), so it opens by 6 and keeps the re-roll.
    let mut g = at(FOUR, "b:20,20',30,40/y:27,27',h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(&g, &["b1:20-26", "b2:20-26"]);
    let wrong = g.parse_move("b3:30-42").unwrap();
    assert_eq!(
        g.play(wrong),
        Err(PlayError::Illegal(IllegalMove::MustOpenBlockade))
    );
    let ev = play(&mut g, "b1:20-26");
    assert!(ev.contains(&Event::BlockadeOpened {
        at: Place::Square(20),
        colour: parchis_rules::Colour::Blue
    }));
    assert!(ev.contains(&Event::ExtraRoll { seat: 0 }));
}

#[test]
fn among_blockade_openings_a_capture_by_twelve_comes_first() {
    let mut g = at(FOUR, "b:20,20',30,40/y:26,32,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(&g, &["b1:20-32", "b2:20-32"]);
}

#[test]
fn among_blockade_openings_a_capture_by_six_comes_before_an_ordinary_twelve_and_loses_the_reroll() {
    let mut g = at(FOUR, "b:20,20',30,40/y:26,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(&g, &["b1:20-26", "b2:20-26"]);
    let ev = play(&mut g, "b1");
    assert!(captured(&ev, "y1"));
    assert!(ev.contains(&Event::RerollLost { seat: 0 }));
}

#[test]
fn a_blockade_in_the_final_lane_is_never_forced_open() {
    let mut g = at(FOUR, "b:l1,l1',30,h/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(&g, &["b1:l1-l7", "b2:l1-l7", "b3:30-36"]);
}

#[test]
fn the_blockade_rule_applies_to_a_rolled_six_not_to_a_count() {
    let mut g = at(FOUR, "b:20,20',25,h/y:28,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 3);
    play(&mut g, "b3:25-28");
    assert_legal(&g, &["b1:20-40", "b2:20-40", "b3:28-48"]);
}

// ----- three sixes --------------------------------------------------------------------------------------

#[test]
fn three_sixes_send_the_piece_moved_with_the_second_six_home() {
    let mut g = at(FOUR, "b:20,41,h,h/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    play(&mut g, "b1:20-26");
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::Rolled { seat: 0, die: 6 }));
    play(&mut g, "b2:41-47");
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::ThreeSixes {
        seat: 0,
        sent_home: Some(pr("b2")),
        from: Some(Place::Square(47))
    }));
    assert!(ev.contains(&Event::TurnPassed { seat: 1 }));
    assert_eq!(place(&g, "b2"), Place::Home);
    assert_eq!(place(&g, "b1"), Place::Square(26));
}

#[test]
fn three_sixes_spare_a_piece_that_ended_on_a_safe_square() {
    let mut g = at(FOUR, "b:20,40,h,h/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    play(&mut g, "b1:20-26");
    roll(&mut g, 6);
    play(&mut g, "b2:40-46");
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::ThreeSixes {
        seat: 0,
        sent_home: None,
        from: None
    }));
    assert_eq!(place(&g, "b2"), Place::Square(46));
    assert_eq!(g.seat(), 1);
}

#[test]
fn three_sixes_spare_a_piece_that_ended_in_a_blockade() {
    let mut g = at(FOUR, "b:24,41,47,h/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    play(&mut g, "b1:24-30");
    roll(&mut g, 6);
    let ev = play(&mut g, "b2:41-47");
    assert!(ev.contains(&Event::BlockadeFormed {
        at: Place::Square(47),
        colour: parchis_rules::Colour::Blue
    }));
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::ThreeSixes {
        seat: 0,
        sent_home: None,
        from: None
    }));
    assert_eq!(place(&g, "b2"), Place::Square(47));
}

/// « Il n'est pas pénalisé s'il avait terminé son déplacement sur une case sûre » and « toutes les cases du
/// couloir final coloré protègent les pions »: a second six that ends in the lane spares its piece.
#[test]
fn three_sixes_spare_a_piece_whose_six_move_ended_in_the_safe_final_lane() {
    let mut g = at(FOUR, "b:64,30,h,h/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    play(&mut g, "b2:30-36");
    roll(&mut g, 6);
    play(&mut g, "b1:64-l2");
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::ThreeSixes {
        seat: 0,
        sent_home: None,
        from: None
    }));
    assert_eq!(place(&g, "b1"), Place::Lane(2));
    assert_eq!(g.seat(), 1);
}

/// RULES.md, ambiguity 15: the spare is judged where the six move ended, but « retourne dans la réserve » only
/// takes a piece off the circuit. The second six captures on ordinary square 50 (not spared there); the count
/// of 20 then takes that same piece into its lane, entirely safe: it stays there.
#[test]
fn three_sixes_leave_in_its_lane_a_piece_a_count_took_off_the_circuit() {
    let mut g = at(FOUR, "b:38,h,h,h/y:50,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    play(&mut g, "b1:38-44");
    roll(&mut g, 6);
    let ev = play(&mut g, "b1:44-50");
    assert!(captured(&ev, "y1"));
    play(&mut g, "b1:50-l2"); // the count of 20
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::ThreeSixes {
        seat: 0,
        sent_home: None,
        from: None
    }));
    assert_eq!(place(&g, "b1"), Place::Lane(2));
    assert_eq!(g.seat(), 1);
}

#[test]
fn three_sixes_with_no_piece_moved_on_the_second_six_have_no_penalty() {
    let line = format!(
        "{FOUR} b:30,h,h,h/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h 0 roll sixes=2,last=b1,six=-,extra=0,first=-"
    );
    let mut g = game(&line);
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::ThreeSixes {
        seat: 0,
        sent_home: None,
        from: None
    }));
    assert_eq!(place(&g, "b1"), Place::Square(30));
}

// ----- goal and victory ---------------------------------------------------------------------------------

#[test]
fn reaching_the_goal_needs_the_exact_number() {
    let mut g = at(FOUR, "b:l5,h,h,h/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    let ev = roll(&mut g, 4);
    assert!(ev.contains(&Event::NoLegalMove { seat: 0, die: 4 }));
}

#[test]
fn each_arrived_piece_earns_a_mandatory_count_of_ten_that_must_capture_when_it_can() {
    let mut g = at(FOUR, "b:l5,30,35,h/y:45,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 3);
    let ev = play(&mut g, "b1:l5-goal");
    assert!(ev.contains(&Event::BonusGranted {
        seat: 0,
        amount: 10
    }));
    assert_legal(&g, &["b3:35-45"]);
}

#[test]
fn the_first_player_to_bring_all_pieces_home_wins_at_once() {
    let mut g = at(
        FOUR,
        "b:goal,goal,goal,l7/y:30,h,h,h/g:h,h,h,h/r:h,h,h,h",
        0,
    );
    roll(&mut g, 1);
    let ev = play(&mut g, "b4");
    assert!(ev.contains(&Event::GameWon { side: 0 }));
    assert!(!ev.iter().any(|e| matches!(e, Event::BonusGranted { .. })));
    assert_eq!(g.phase(), Phase::Over { side: 0 });
}

// ----- two players --------------------------------------------------------------------------------------

#[test]
fn with_two_players_own_colours_cannot_share_an_ordinary_square() {
    let mut g = at(TWO, "b:10,h,h,h/y:13,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 3);
    assert_legal(&g, &["y1:13-16"]);
}

#[test]
fn with_two_players_allied_colours_form_a_blockade_on_a_safe_square() {
    let mut g = at(TWO, "b:10,h,h,h/y:12,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 2);
    let ev = play(&mut g, "b1:10-12");
    assert!(ev.contains(&Event::BlockadeFormed {
        at: Place::Square(12),
        colour: parchis_rules::Colour::Blue
    }));
    // Green cannot pass it.
    let mut g = at(TWO, "b:12,h,h,h/y:12',h,h,h/g:8,h,h,h/r:h,h,h,h", 1);
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::NoLegalMove { seat: 1, die: 6 }));
}

/// « Lorsqu'un joueur fait 6, il doit d'abord ouvrir un barrage »: with two players, the blockade blue and yellow
/// make together on a safe square is the player's own, and a rolled 6 must open it before b2 moves.
#[test]
fn with_two_players_a_six_must_open_the_blockade_of_your_two_colours() {
    let mut g = at(TWO, "b:12,30,h,h/y:12',h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(&g, &["b1:12-18", "y1:12-18"]);
    let wrong = g.parse_move("b2:30-36").unwrap();
    assert_eq!(
        g.play(wrong),
        Err(PlayError::Illegal(IllegalMove::MustOpenBlockade))
    );
}

#[test]
fn opponents_sharing_a_safe_square_do_not_block() {
    let mut g = at(FOUR, "b:12,h,h,h/y:12',h,h,h/g:8,h,h,h/r:h,h,h,h", 2);
    roll(&mut g, 6);
    assert_legal(&g, &["g1:8-14"]);
}

#[test]
fn with_two_players_a_capture_by_six_keeps_the_reroll_when_only_the_other_colour_had_a_twelve() {
    // Yellow (all in play) has a legal 12; blue (one in base) captures by 6: same-colour rule, re-roll kept.
    let mut g = at(TWO, "b:20,30,h,h/y:40,45,50,55/g:26,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(&g, &["b1:20-26"]);
    let ev = play(&mut g, "b1");
    assert!(captured(&ev, "g1"));
    assert!(!ev.iter().any(|e| matches!(e, Event::RerollLost { .. })));
}

#[test]
fn with_two_players_a_blockade_opening_capture_by_six_loses_the_reroll_when_any_colour_had_a_twelve()
 {
    let mut g = at(TWO, "b:20,20',h,h/y:40,45,50,55/g:26,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(&g, &["b1:20-26", "b2:20-26"]);
    let ev = play(&mut g, "b1");
    assert!(captured(&ev, "g1"));
    assert!(ev.contains(&Event::RerollLost { seat: 0 }));
}

#[test]
fn with_two_players_each_colour_counts_six_or_twelve_on_its_own() {
    let mut g = at(TWO, "b:20,30,h,h/y:40,45,50,55/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(
        &g,
        &[
            "b1:20-26", "b2:30-36", "y1:40-52", "y2:45-57", "y3:50-62", "y4:55-67",
        ],
    );
}

#[test]
fn with_two_players_coming_out_does_not_capture_your_own_other_colour() {
    let mut g = at(TWO, "b:30,h,h,h/y:5,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 5);
    let ev = play(&mut g, "b2:h-5");
    assert!(!any_capture(&ev));
    assert!(ev.contains(&Event::BlockadeFormed {
        at: Place::Square(5),
        colour: parchis_rules::Colour::Blue
    }));
}

#[test]
fn with_two_players_yellow_coming_out_on_the_team_exit_captures_every_opponent_there_twenty_each() {
    // Yellow comes out on blue's exit (5), where green and red stand: both go home, 20 each.
    let mut g = at(TWO, "b:30,40,50,l1/y:h,h,h,h/g:5,h,h,h/r:5',h,h,h", 0);
    roll(&mut g, 5);
    assert_legal(&g, &["y1:h-5"]);
    let ev = play(&mut g, "y1");
    assert!(captured(&ev, "g1") && captured(&ev, "r1"));
    assert_eq!(
        count(&ev, |e| *e
            == Event::BonusGranted {
                seat: 0,
                amount: 20
            }),
        2
    );
    assert_eq!(place(&g, "y1"), Place::Square(5));
    assert_eq!(g.phase(), Phase::Count { amount: 20 });
    assert_eq!(g.queued_counts(), &[20]);
}

#[test]
fn with_two_players_the_winner_needs_all_eight_pieces() {
    let mut g = at(
        TWO,
        "b:goal,goal,goal,l7/y:goal,goal,goal,30/g:h,h,h,h/r:h,h,h,h",
        0,
    );
    roll(&mut g, 1);
    play(&mut g, "b4");
    assert!(!g.is_over());
    let mut g = at(
        TWO,
        "b:goal,goal,goal,goal/y:goal,goal,goal,l7/g:h,h,h,h/r:h,h,h,h",
        0,
    );
    roll(&mut g, 1);
    let ev = play(&mut g, "y4");
    assert!(ev.contains(&Event::GameWon { side: 0 }));
}

#[test]
fn with_a_five_bringing_a_piece_out_comes_before_a_capture() {
    let mut g = at(FOUR, "b:10,h,h,h/y:15,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 5);
    assert_legal(&g, &["b2:h-5"]);
}

#[test]
fn coming_out_breaks_an_opponent_blockade_on_your_exit_capturing_both() {
    let mut g = at(FOUR, "b:30,h,h,h/y:5,5',h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 5);
    let ev = play(&mut g, "b2:h-5");
    assert!(captured(&ev, "y1") && captured(&ev, "y2"));
    assert_eq!(g.queued_counts(), &[20]);
}

#[test]
fn three_sixes_spare_is_judged_where_the_second_six_move_ended() {
    // The second six captures on 47 (an ordinary square, alone); the count of 20 then brings b3 onto 47,
    // making a blockade. Literally, b2 "had ended its move" alone on an ordinary square: it goes home.
    let mut g = at(FOUR, "b:20,35,27,h/y:47,h,h,h/g:h,h,h,h/r:h,h,h,h", 0);
    roll(&mut g, 6);
    play(&mut g, "b2:35-41");
    roll(&mut g, 6);
    let ev = play(&mut g, "b2:41-47");
    assert!(captured(&ev, "y1"));
    let ev = play(&mut g, "b3:27-47");
    assert!(ev.iter().any(|e| matches!(e, Event::BlockadeFormed { .. })));
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::ThreeSixes {
        seat: 0,
        sent_home: Some(pr("b2")),
        from: Some(Place::Square(47))
    }));
}

#[test]
fn the_notation_records_whether_the_second_six_move_ended_safe() {
    let line = |six: &str| {
        format!(
            "{FOUR} b:30,h,h,h/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h 0 roll sixes=2,last=b1,six={six},extra=0,first=-"
        )
    };
    let mut g = game(&line("b1!"));
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::ThreeSixes {
        seat: 0,
        sent_home: None,
        from: None
    }));
    let mut g = game(&line("b1"));
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::ThreeSixes {
        seat: 0,
        sent_home: Some(pr("b1")),
        from: Some(Place::Square(30))
    }));
}

/// « Un pion ne peut jamais traverser un barrage » and « Jamais plus de deux pions ne peuvent occuper une case »:
/// the first roll's piece comes out on its exit and advances from there (« sort et avance de la valeur du dé »),
/// so a blockade standing on its exit stops it as one on any square it passes. (In a real Morocco game no
/// blockade can stand on an exit before its seat's first roll; Ludoteka with the `first_roll` house rule starts
/// with one on every exit.) A 5 still comes out onto the exit and captures the opponents there.
#[test]
fn the_first_roll_cannot_pass_a_blockade_on_the_exit() {
    let line = "morocco individual/4 b:22,22',h,h/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h 1 roll sixes=0,last=-,six=-,extra=0,first=1";
    let mut g = game(line);
    let ev = roll(&mut g, 3);
    assert!(
        ev.contains(&Event::NoLegalMove { seat: 1, die: 3 }),
        "y1 cannot pass blue's blockade on 22: {}",
        g
    );
    assert_eq!(place(&g, "y1"), Place::Home);
    let mut g = game(line);
    roll(&mut g, 5);
    assert_legal(&g, &["y1:h-22+y2:h-27"]);
    // Ludoteka with the first roll as a house rule: yellow's own blockade on its exit stops the first piece.
    let options = RuleSet::Ludoteka
        .options_for(Mode::Individual)
        .with_house_rules([("first_roll", "1")])
        .unwrap();
    let mut g = Game::with_options(RuleSet::Ludoteka, Mode::Individual, 4, options).unwrap();
    let ev = roll(&mut g, 3);
    assert!(ev.contains(&Event::NoLegalMove { seat: 0, die: 3 }), "{g}");
    assert_eq!(place(&g, "y3"), Place::Home);
}

/// Morocco `quick` (a house combination) starts one piece on each exit. A first roll of 5 still brings two out
/// (« Avec un 5, deux pions sortent : un sur la case de départ et l'autre cinq cases plus loin »): one joins the
/// starting piece on the exit and the other lands five further, one move of both (RULES.md, ambiguity 9).
#[test]
fn in_quick_mode_a_first_roll_of_five_brings_two_out_beside_the_starting_piece() {
    let mut g = Game::new(RuleSet::Morocco, Mode::Quick, 4).unwrap();
    roll(&mut g, 5);
    assert_legal(&g, &["b2:h-5+b3:h-10"]);
    play(&mut g, "b2:h-5+b3:h-10");
    assert_eq!(place(&g, "b1"), Place::Square(5));
    assert_eq!(place(&g, "b2"), Place::Square(5));
    assert_eq!(place(&g, "b3"), Place::Square(10));
}

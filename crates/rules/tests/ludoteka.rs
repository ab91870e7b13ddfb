//! Seed 001: Ludoteka's Parcheesi, every rule of the text and its five modes (individual, pairs, 1 against 1,
//! 6 pieces, 3 against 3), each from a precise position.

use parchis_rules::{Event, Game, Mode, Phase, Place, RuleSet};

mod common;
use common::*;

const IND: &str = "ludoteka individual/4";
/// Blue, red and green all in base.
const OTHERS_HOME: &str = "b:h,h,h,h/r:h,h,h,h/g:h,h,h,h";

// ----- board, start, coming out -------------------------------------------------------------------------

#[test]
fn game_starts_with_two_pieces_of_each_colour_on_its_exit_and_the_rest_at_home() {
    let g = Game::new(RuleSet::Ludoteka, Mode::Individual, 4).unwrap();
    for (c, exit) in [("y", 5), ("b", 22), ("r", 39), ("g", 56)] {
        assert_eq!(place(&g, &format!("{c}1")), Place::Square(exit));
        assert_eq!(place(&g, &format!("{c}2")), Place::Square(exit));
        assert_eq!(place(&g, &format!("{c}3")), Place::Home);
        assert_eq!(place(&g, &format!("{c}4")), Place::Home);
    }
}

#[test]
fn a_five_must_bring_a_piece_out_when_one_is_at_home() {
    let mut g = at(IND, &format!("y:10,30,h,h/{OTHERS_HOME}"), 0);
    roll(&mut g, 5);
    assert_legal(&g, &["y3:h-5"]);
    play(&mut g, "y3:h-5");
    assert_eq!(place(&g, "y3"), Place::Square(5));
}

#[test]
fn a_five_with_two_own_pieces_on_the_exit_is_played_as_an_ordinary_move() {
    // The start position: yellow's exit already holds two yellow pieces, so no third can come out.
    let mut g = Game::new(RuleSet::Ludoteka, Mode::Individual, 4).unwrap();
    roll(&mut g, 5);
    assert_legal(&g, &["y1:5-10", "y2:5-10"]);
}

#[test]
fn a_piece_needs_a_five_to_leave_home() {
    let mut g = at(IND, &format!("y:h,h,h,h/{OTHERS_HOME}"), 0);
    for die in [1, 2, 3, 4] {
        let mut h = g;
        let ev = roll(&mut h, die);
        assert!(ev.contains(&Event::NoLegalMove { seat: 0, die }));
        assert!(ev.contains(&Event::TurnPassed { seat: 1 }));
    }
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::NoLegalMove { seat: 0, die: 6 }));
}

#[test]
fn pieces_go_counter_clockwise_round_the_68_squares_and_climb_their_own_lane() {
    // Red passes from square 68 to square 1; yellow turns into its lane after square 68.
    let mut g = at(IND, "y:66,h,h,h/b:h,h,h,h/r:67,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 4);
    assert_legal(&g, &["y1:66-l2"]);
    play(&mut g, "y1");
    assert_eq!(place(&g, "y1"), Place::Lane(2));
    // Blue has no move (1 is not a 5): the turn goes to red.
    roll(&mut g, 1);
    assert_eq!(g.seat(), 2);
    roll(&mut g, 4);
    assert_legal(&g, &["r1:67-3"]);
}

#[test]
fn blue_turns_into_its_lane_after_square_17() {
    let mut g = at(IND, "y:h,h,h,h/b:15,h,h,h/r:h,h,h,h/g:h,h,h,h", 1);
    roll(&mut g, 3);
    assert_legal(&g, &["b1:15-l1"]);
}

/// « Les participants à leur tour doivent lancer le dé et avancer avec une de leurs pièces le nombre de cases
/// indiqué »: with a legal move the player must play it; rolling again instead is refused.
#[test]
fn a_player_must_move_a_piece_by_the_number_rolled_and_cannot_pass() {
    let mut g = at(IND, &format!("y:10,h,h,h/{OTHERS_HOME}"), 0);
    roll(&mut g, 3);
    assert_legal(&g, &["y1:10-13"]);
    assert_eq!(g.roll(4), Err(parchis_rules::PlayError::MustMove));
    play(&mut g, "y1");
    assert_eq!(place(&g, "y1"), Place::Square(13));
}

// ----- sixes --------------------------------------------------------------------------------------------

#[test]
fn six_moves_seven_when_no_piece_of_the_colour_is_at_home() {
    let mut g = at(IND, &format!("y:10,20,30,40/{OTHERS_HOME}"), 0);
    roll(&mut g, 6);
    assert_legal(&g, &["y1:10-17", "y2:20-27", "y3:30-37", "y4:40-47"]);
}

#[test]
fn six_moves_six_while_a_piece_of_the_colour_is_at_home() {
    let mut g = at(IND, &format!("y:10,20,30,h/{OTHERS_HOME}"), 0);
    roll(&mut g, 6);
    assert_legal(&g, &["y1:10-16", "y2:20-26", "y3:30-36"]);
}

#[test]
fn a_piece_that_has_arrived_is_not_at_home_for_the_seven() {
    let mut g = at(IND, &format!("y:goal,20,30,40/{OTHERS_HOME}"), 0);
    roll(&mut g, 6);
    assert_legal(&g, &["y2:20-27", "y3:30-37", "y4:40-47"]);
}

#[test]
fn a_six_gives_another_roll() {
    let mut g = at(IND, &format!("y:10,h,h,h/{OTHERS_HOME}"), 0);
    roll(&mut g, 6);
    let ev = play(&mut g, "y1:10-16");
    assert!(ev.contains(&Event::ExtraRoll { seat: 0 }));
    assert_eq!((g.seat(), g.phase()), (0, Phase::Roll));
}

#[test]
fn a_six_with_no_legal_move_still_gives_another_roll() {
    let mut g = at(IND, &format!("y:h,h,h,h/{OTHERS_HOME}"), 0);
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::NoLegalMove { seat: 0, die: 6 }));
    assert!(ev.contains(&Event::ExtraRoll { seat: 0 }));
    assert_eq!((g.seat(), g.phase()), (0, Phase::Roll));
}

#[test]
fn a_six_does_not_force_a_barrier_open() {
    let mut g = at(IND, &format!("y:30,30',10,h/{OTHERS_HOME}"), 0);
    roll(&mut g, 6);
    assert_legal(&g, &["y1:30-36", "y2:30-36", "y3:10-16"]);
}

#[test]
fn three_sixes_send_home_the_piece_moved_with_the_second_six() {
    let mut g = at(IND, &format!("y:20,41,h,h/{OTHERS_HOME}"), 0);
    roll(&mut g, 6);
    play(&mut g, "y1:20-26");
    roll(&mut g, 6);
    play(&mut g, "y2:41-47");
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::ThreeSixes {
        seat: 0,
        sent_home: Some(pr("y2")),
        from: Some(Place::Square(47))
    }));
    assert!(ev.contains(&Event::TurnPassed { seat: 1 }));
    assert_eq!(place(&g, "y2"), Place::Home);
    assert_eq!(place(&g, "y1"), Place::Square(26));
}

#[test]
fn three_sixes_send_home_the_piece_of_the_second_six_not_the_one_moved_by_its_count() {
    let mut g = at(IND, "y:20,41,h,h/b:47,h,h,h/r:h,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 6);
    play(&mut g, "y1:20-26");
    roll(&mut g, 6);
    let ev = play(&mut g, "y2:41-47");
    assert!(captured(&ev, "b1"));
    play(&mut g, "y1:26-46"); // the count of 20, with the other piece
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::ThreeSixes {
        seat: 0,
        sent_home: Some(pr("y2")),
        from: Some(Place::Square(47))
    }));
    assert_eq!(place(&g, "y1"), Place::Square(46));
}

#[test]
fn three_sixes_spare_a_piece_already_in_its_lane() {
    let mut g = game(&format!(
        "{IND} y:l3,30,h,h/{OTHERS_HOME} 0 roll sixes=2,last=y1,six=y1,extra=0,first=-"
    ));
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::ThreeSixes {
        seat: 0,
        sent_home: None,
        from: None
    }));
    assert_eq!(place(&g, "y1"), Place::Lane(3));
    assert_eq!(g.seat(), 1);
}

/// « à moins qu'elle n'ait déjà atteint le dernier couloir de son parcours »: a piece the second six carried
/// past the corridor into the final square has reached it too, and stays; its count of 10 moved another piece,
/// which is not the one punished.
#[test]
fn three_sixes_spare_a_piece_the_second_six_brought_to_the_goal() {
    let mut g = at(IND, &format!("y:l2,30,h,h/{OTHERS_HOME}"), 0);
    roll(&mut g, 6);
    play(&mut g, "y2:30-36");
    roll(&mut g, 6);
    let ev = play(&mut g, "y1:l2-goal");
    assert!(ev.contains(&Event::ReachedGoal { piece: pr("y1") }));
    play(&mut g, "y2:36-46"); // the count of 10
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::ThreeSixes {
        seat: 0,
        sent_home: None,
        from: None
    }));
    assert!(ev.contains(&Event::TurnPassed { seat: 1 }));
    assert_eq!(place(&g, "y1"), Place::Goal);
    assert_eq!(place(&g, "y2"), Place::Square(46));
}

#[test]
fn three_sixes_penalty_applies_even_on_a_safe_square() {
    let mut g = game(&format!(
        "{IND} y:12,30,h,h/{OTHERS_HOME} 0 roll sixes=2,last=y1,six=y1,extra=0,first=-"
    ));
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::ThreeSixes {
        seat: 0,
        sent_home: Some(pr("y1")),
        from: Some(Place::Square(12))
    }));
    assert_eq!(place(&g, "y1"), Place::Home);
}

// ----- squares and barriers ----------------------------------------------------------------------------

#[test]
fn a_square_holds_at_most_two_pieces() {
    // Blue and red share the safe square 12: yellow cannot land there as a third piece.
    let mut g = at(IND, "y:10,h,h,h/b:12,h,h,h/r:12',h,h,h/g:h,h,h,h", 0);
    let ev = roll(&mut g, 2);
    assert!(ev.contains(&Event::NoLegalMove { seat: 0, die: 2 }));
    assert_eq!(place(&g, "y1"), Place::Square(10));
}

#[test]
fn two_pieces_of_different_colours_do_not_form_a_barrier() {
    let mut g = at(IND, "y:10,h,h,h/b:12,h,h,h/r:12',h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 4);
    assert_legal(&g, &["y1:10-14"]);
}

#[test]
fn a_piece_cannot_pass_a_barrier_of_another_colour() {
    let mut g = at(IND, "y:11,h,h,h/b:15,15',h,h/r:h,h,h,h/g:h,h,h,h", 0);
    let ev = roll(&mut g, 6);
    assert!(ev.contains(&Event::NoLegalMove { seat: 0, die: 6 }));
    let mut g = at(IND, "y:11,h,h,h/b:15,15',h,h/r:h,h,h,h/g:h,h,h,h", 0);
    let ev = roll(&mut g, 4);
    assert!(
        ev.contains(&Event::NoLegalMove { seat: 0, die: 4 }),
        "cannot land on it either"
    );
    let mut g = at(IND, "y:11,h,h,h/b:15,15',h,h/r:h,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 3);
    assert_legal(&g, &["y1:11-14"]);
}

#[test]
fn a_barrier_also_stops_its_own_colour() {
    let mut g = at(IND, &format!("y:15,15',10,h/{OTHERS_HOME}"), 0);
    roll(&mut g, 6);
    assert_legal(&g, &["y1:15-21", "y2:15-21"]);
}

#[test]
fn a_barrier_in_the_lane_also_blocks() {
    let mut g = at(IND, &format!("y:l2,l2',66,h/{OTHERS_HOME}"), 0);
    roll(&mut g, 6);
    assert_legal(&g, &["y1:l2-goal", "y2:l2-goal"]);
}

#[test]
fn reaching_the_goal_needs_the_exact_count() {
    let mut g = at(IND, &format!("y:l5,h,h,h/{OTHERS_HOME}"), 0);
    let ev = roll(&mut g, 4);
    assert!(
        ev.contains(&Event::NoLegalMove { seat: 0, die: 4 }),
        "a 4 would overshoot"
    );
    let mut g = at(IND, &format!("y:l5,h,h,h/{OTHERS_HOME}"), 0);
    roll(&mut g, 3);
    assert_legal(&g, &["y1:l5-goal"]);
}

#[test]
fn a_piece_reaching_the_goal_earns_a_count_of_ten_with_another_piece() {
    let mut g = at(IND, &format!("y:l5,30,h,h/{OTHERS_HOME}"), 0);
    roll(&mut g, 3);
    let ev = play(&mut g, "y1:l5-goal");
    assert!(ev.contains(&Event::ReachedGoal { piece: pr("y1") }));
    assert!(ev.contains(&Event::BonusGranted {
        seat: 0,
        amount: 10
    }));
    assert_eq!(g.phase(), Phase::Count { amount: 10 });
    assert_legal(&g, &["y2:30-40"]);
    play(&mut g, "y2");
    assert_eq!(place(&g, "y2"), Place::Square(40));
}

#[test]
fn a_count_that_no_piece_can_play_exactly_is_lost() {
    let mut g = at(IND, &format!("y:l5,l6,h,h/{OTHERS_HOME}"), 0);
    roll(&mut g, 3);
    let ev = play(&mut g, "y1:l5-goal");
    assert!(ev.contains(&Event::BonusLost {
        seat: 0,
        amount: 10
    }));
    assert!(ev.contains(&Event::TurnPassed { seat: 1 }));
}

#[test]
fn with_every_piece_blocked_no_move_is_made_and_the_turn_passes() {
    // At home, behind a barrier, or at the end of the lane.
    let mut g = at(IND, "y:h,11,l6,h/b:15,15',h,h/r:h,h,h,h/g:h,h,h,h", 0);
    let before = g;
    let ev = roll(&mut g, 4);
    assert!(ev.contains(&Event::NoLegalMove { seat: 0, die: 4 }));
    assert!(ev.contains(&Event::TurnPassed { seat: 1 }));
    for p in ["y1", "y2", "y3", "y4"] {
        assert_eq!(place(&g, p), place(&before, p));
    }
}

// ----- captures -----------------------------------------------------------------------------------------

#[test]
fn landing_on_a_lone_piece_of_another_colour_captures_it() {
    let mut g = at(IND, "y:10,h,h,h/b:14,h,h,h/r:h,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 4);
    let ev = play(&mut g, "y1:10-14");
    assert!(ev.contains(&Event::Captured {
        piece: pr("b1"),
        by: pr("y1"),
        at: Place::Square(14)
    }));
    assert_eq!(place(&g, "b1"), Place::Home);
}

#[test]
fn a_capture_earns_a_count_of_twenty_with_any_piece() {
    let mut g = at(IND, "y:10,40,h,h/b:14,h,h,h/r:h,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 4);
    let ev = play(&mut g, "y1:10-14");
    assert!(ev.contains(&Event::BonusGranted {
        seat: 0,
        amount: 20
    }));
    assert_eq!(g.phase(), Phase::Count { amount: 20 });
    assert_legal(&g, &["y1:14-34", "y2:40-60"]);
    let ev = play(&mut g, "y2:40-60");
    assert!(ev.contains(&Event::TurnPassed { seat: 1 }));
}

#[test]
fn a_count_of_twenty_can_itself_capture_and_earn_another() {
    let mut g = at(IND, "y:10,40,h,h/b:14,60,h,h/r:h,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 4);
    play(&mut g, "y1:10-14");
    let ev = play(&mut g, "y2:40-60");
    assert!(captured(&ev, "b2"));
    assert_eq!(g.phase(), Phase::Count { amount: 20 });
}

#[test]
fn no_capture_on_a_safe_square_two_colours_share_it() {
    let mut g = at(IND, "y:10,h,h,h/b:12,h,h,h/r:h,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 2);
    let ev = play(&mut g, "y1:10-12");
    assert!(!any_capture(&ev));
    assert_eq!(place(&g, "b1"), Place::Square(12));
    assert_eq!(place(&g, "y1"), Place::Square(12));
}

#[test]
fn no_capture_on_an_exit_square() {
    // Square 39 is red's exit: blue sits there, yellow shares it.
    let mut g = at(IND, "y:35,h,h,h/b:39,h,h,h/r:h,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 4);
    let ev = play(&mut g, "y1:35-39");
    assert!(!any_capture(&ev));
    assert_eq!(place(&g, "b1"), Place::Square(39));
}

#[test]
fn a_lone_opponent_on_your_exit_is_not_captured_when_you_come_out() {
    let mut g = at(IND, "y:30,h,h,h/b:5,h,h,h/r:h,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 5);
    let ev = play(&mut g, "y2:h-5");
    assert!(!any_capture(&ev));
    assert_eq!(place(&g, "b1"), Place::Square(5));
}

#[test]
fn coming_out_onto_your_piece_and_an_opponent_captures_the_opponent() {
    // The opponent arrived first, the yellow piece last: still the other colour is taken.
    let mut g = at(IND, "y:5',h,h,h/b:5,h,h,h/r:h,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 5);
    let ev = play(&mut g, "y2:h-5");
    assert!(captured(&ev, "b1"));
    assert!(ev.contains(&Event::BonusGranted {
        seat: 0,
        amount: 20
    }));
    assert_eq!(place(&g, "y1"), Place::Square(5));
    // And the other way round.
    let mut g = at(IND, "y:5,h,h,h/b:5',h,h,h/r:h,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 5);
    let ev = play(&mut g, "y2:h-5");
    assert!(captured(&ev, "b1"));
}

#[test]
fn coming_out_onto_two_opponents_captures_the_last_arrived() {
    let mut g = at(IND, "y:30,h,h,h/b:5,h,h,h/r:5',h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 5);
    let ev = play(&mut g, "y2:h-5");
    assert!(captured(&ev, "r1"));
    assert!(!captured(&ev, "b1"));
    assert_eq!(place(&g, "b1"), Place::Square(5));
    assert_eq!(g.phase(), Phase::Count { amount: 20 });
}

#[test]
fn a_captured_piece_goes_home_and_comes_back_out_with_a_five() {
    let mut g = at(IND, "y:10,h,h,h/b:14,30,h,h/r:h,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 4);
    play(&mut g, "y1:10-14");
    assert_eq!(place(&g, "b1"), Place::Home);
    play(&mut g, "y1:14-34"); // the count of 20
    assert_eq!(g.seat(), 1);
    roll(&mut g, 5);
    assert_legal(&g, &["b1:h-22"]);
}

// ----- pairs ----------------------------------------------------------------------------------------------

const PAIRS: &str = "ludoteka pairs/4";

#[test]
fn in_pairs_each_player_moves_only_his_own_colour_while_he_can() {
    let mut g = at(PAIRS, "y:10,h,h,h/b:h,h,h,h/r:30,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 3);
    assert_legal(&g, &["y1:10-13"]);
}

#[test]
fn stuck_player_moves_a_partner_piece() {
    // Yellow has only pieces at home and rolls a 3: he must move red's piece.
    let mut g = at(PAIRS, "y:h,h,h,h/b:h,h,h,h/r:30,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 3);
    assert_legal(&g, &["r1:30-33"]);
    let ev = play(&mut g, "r1");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Moved { seat: 0, piece, .. } if *piece == pr("r1")))
    );
}

#[test]
fn in_pairs_a_count_your_own_pieces_cannot_play_is_played_with_a_partner_piece() {
    // Yellow captures on 64; 20 more would overshoot its goal and its other pieces are at home: red's piece
    // plays the count.
    let mut g = at(PAIRS, "y:60,h,h,h/b:64,h,h,h/r:40,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 4);
    let ev = play(&mut g, "y1:60-64");
    assert!(captured(&ev, "b1"));
    assert_eq!(g.phase(), Phase::Count { amount: 20 });
    assert_legal(&g, &["r1:40-60"]);
    play(&mut g, "r1");
    assert_eq!(place(&g, "r1"), Place::Square(60));
}

#[test]
fn a_player_who_has_finished_moves_a_partner_piece() {
    let mut g = at(
        PAIRS,
        "y:goal,goal,goal,goal/b:h,h,h,h/r:30,h,h,h/g:h,h,h,h",
        0,
    );
    roll(&mut g, 3);
    assert_legal(&g, &["r1:30-33"]);
}

#[test]
fn a_stuck_player_never_moves_an_opponent_piece() {
    let mut g = at(PAIRS, "y:h,h,h,h/b:30,h,h,h/r:h,h,h,h/g:40,h,h,h", 0);
    let ev = roll(&mut g, 3);
    assert!(ev.contains(&Event::NoLegalMove { seat: 0, die: 3 }));
}

#[test]
fn teammates_can_capture_each_other_in_pairs() {
    let mut g = at(PAIRS, "y:10,h,h,h/b:h,h,h,h/r:14,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 4);
    let ev = play(&mut g, "y1:10-14");
    assert!(ev.contains(&Event::Captured {
        piece: pr("r1"),
        by: pr("y1"),
        at: Place::Square(14)
    }));
    assert!(ev.contains(&Event::BonusGranted {
        seat: 0,
        amount: 20
    }));
}

#[test]
fn a_pairs_team_wins_only_with_all_eight_pieces_of_both_colours() {
    let mut g = at(
        PAIRS,
        "y:goal,goal,goal,l7/b:h,h,h,h/r:goal,goal,goal,30/g:h,h,h,h",
        0,
    );
    roll(&mut g, 1);
    let ev = play(&mut g, "y4:l7-goal");
    assert!(!ev.iter().any(|e| matches!(e, Event::GameWon { .. })));
    assert!(!g.is_over());
    // Yellow is done: with the count of 10 he moves red.
    assert_legal(&g, &["r4:30-l6"]);

    let mut g = at(
        PAIRS,
        "y:goal,goal,goal,goal/b:h,h,h,h/r:goal,goal,goal,l7/g:h,h,h,h",
        0,
    );
    roll(&mut g, 1);
    let ev = play(&mut g, "r4:l7-goal");
    assert!(ev.contains(&Event::GameWon { side: 0 }));
    assert_eq!(g.phase(), Phase::Over { side: 0 });
}

// ----- 1 against 1 ------------------------------------------------------------------------------------

const ONE: &str = "ludoteka 1v1/2";

#[test]
fn in_1v1_a_player_moves_either_of_his_two_colours() {
    let mut g = at(ONE, "y:10,h,h,h/b:h,h,h,h/r:30,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 3);
    assert_legal(&g, &["r1:30-33", "y1:10-13"]);
}

#[test]
fn in_1v1_a_five_brings_out_a_piece_of_either_colour() {
    let mut g = at(ONE, "y:10,h,h,h/b:h,h,h,h/r:30,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 5);
    assert_legal(&g, &["r2:h-39", "y2:h-5"]);
}

#[test]
fn in_1v1_a_player_can_capture_his_own_other_colour() {
    let mut g = at(ONE, "y:10,h,h,h/b:h,h,h,h/r:14,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 4);
    let ev = play(&mut g, "y1:10-14");
    assert!(captured(&ev, "r1"));
    assert_eq!(g.phase(), Phase::Count { amount: 20 });
}

#[test]
fn in_1v1_each_colour_counts_its_own_seven() {
    let mut g = at(ONE, "y:10,20,30,40/b:h,h,h,h/r:50,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 6);
    assert_legal(
        &g,
        &["r1:50-56", "y1:10-17", "y2:20-27", "y3:30-37", "y4:40-47"],
    );
}

#[test]
fn in_1v1_the_count_of_twenty_may_be_played_with_the_other_colour() {
    let mut g = at(ONE, "y:10,h,h,h/b:14,h,h,h/r:40,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 4);
    play(&mut g, "y1:10-14");
    assert_legal(&g, &["r1:40-60", "y1:14-34"]);
}

#[test]
fn a_1v1_player_wins_only_with_all_eight_pieces_of_both_colours() {
    let mut g = at(
        ONE,
        "y:goal,goal,goal,l7/b:h,h,h,h/r:goal,goal,goal,30/g:h,h,h,h",
        0,
    );
    roll(&mut g, 1);
    let ev = play(&mut g, "y4:l7-goal");
    assert!(!g.is_over());
    assert!(ev.contains(&Event::BonusGranted {
        seat: 0,
        amount: 10
    }));

    let mut g = at(
        ONE,
        "y:goal,goal,goal,goal/b:h,h,h,h/r:goal,goal,goal,l7/g:h,h,h,h",
        0,
    );
    roll(&mut g, 1);
    let ev = play(&mut g, "r4:l7-goal");
    assert!(ev.contains(&Event::GameWon { side: 0 }));
}

// ----- 6 pieces ------------------------------------------------------------------------------------------

const SIX: &str = "ludoteka 6-piece/2";

#[test]
fn six_piece_game_starts_with_three_pieces_on_the_first_three_safe_squares() {
    let g = Game::new(RuleSet::Ludoteka, Mode::SixPiece, 2).unwrap();
    for (c, squares) in [
        ("y", [5, 12, 17]),
        ("b", [22, 29, 34]),
        ("r", [39, 46, 51]),
        ("g", [56, 63, 68]),
    ] {
        for (k, sq) in squares.into_iter().enumerate() {
            assert_eq!(place(&g, &format!("{c}{}", k + 1)), Place::Square(sq));
        }
        for k in 4..=6 {
            assert_eq!(place(&g, &format!("{c}{k}")), Place::Home);
        }
    }
}

#[test]
fn six_piece_player_moves_either_colour_and_can_capture_his_other_colour() {
    let mut g = at(
        SIX,
        "y:10,h,h,h,h,h/b:h,h,h,h,h,h/r:14,h,h,h,h,h/g:h,h,h,h,h,h",
        0,
    );
    roll(&mut g, 4);
    assert_legal(&g, &["r1:14-18", "y1:10-14"]);
    let ev = play(&mut g, "y1:10-14");
    assert!(captured(&ev, "r1"));
}

#[test]
fn six_piece_six_counts_seven_only_when_all_six_pieces_of_the_colour_are_out() {
    let mut g = at(
        SIX,
        "y:10,20,30,40,50,60/b:h,h,h,h,h,h/r:h,h,h,h,h,h/g:h,h,h,h,h,h",
        0,
    );
    roll(&mut g, 6);
    assert!(legal(&g).contains(&"y1:10-17".to_string()));
    let mut g = at(
        SIX,
        "y:10,20,30,40,50,h/b:h,h,h,h,h,h/r:h,h,h,h,h,h/g:h,h,h,h,h,h",
        0,
    );
    roll(&mut g, 6);
    assert!(legal(&g).contains(&"y1:10-16".to_string()));
}

#[test]
fn six_piece_player_wins_with_the_six_pieces_of_one_of_his_colours() {
    let mut g = at(
        SIX,
        "y:goal,goal,goal,goal,goal,l7/b:h,h,h,h,h,h/r:h,h,h,h,h,h/g:h,h,h,h,h,h",
        0,
    );
    roll(&mut g, 1);
    let ev = play(&mut g, "y6:l7-goal");
    assert!(ev.contains(&Event::GameWon { side: 0 }));
}

// ----- 3 against 3 ---------------------------------------------------------------------------------------

const THREE: &str = "ludoteka 3v3/6";
const T_HOME: &str = "b:h,h,h,h/r:h,h,h,h/g:h,h,h,h/o:h,h,h,h/t:h,h,h,h";

#[test]
fn stuck_3v3_player_moves_a_piece_of_his_team() {
    let mut g = at(
        THREE,
        "y:h,h,h,h/b:30,h,h,h/r:40,h,h,h/g:h,h,h,h/o:80,h,h,h/t:h,h,h,h",
        0,
    );
    roll(&mut g, 3);
    assert_legal(&g, &["o1:80-83", "r1:40-43"]);
}

#[test]
fn teammates_can_capture_each_other_in_3v3() {
    let mut g = at(
        THREE,
        "y:10,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h/o:14,h,h,h/t:h,h,h,h",
        0,
    );
    roll(&mut g, 4);
    let ev = play(&mut g, "y1:10-14");
    assert!(captured(&ev, "o1"));
}

#[test]
fn pieces_go_round_102_squares_in_3v3() {
    // Yellow's lane starts after square 102; orange comes out on 73 and passes from 102 to 1.
    let mut g = at(THREE, &format!("y:100,h,h,h/{T_HOME}"), 0);
    roll(&mut g, 4);
    assert_legal(&g, &["y1:100-l2"]);
    let mut g = at(
        THREE,
        "y:h,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h/o:101,h,h,h/t:h,h,h,h",
        4,
    );
    roll(&mut g, 3);
    assert_legal(&g, &["o1:101-2"]);
}

#[test]
fn in_3v3_turquoise_enters_its_lane_after_square_85_five_before_its_exit() {
    // Turquoise comes out on 90; its last circuit square is 85.
    let line = "y:h,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h/o:h,h,h,h/t:83,h,h,h";
    let mut g = at(THREE, line, 5);
    roll(&mut g, 2);
    assert_legal(&g, &["t1:83-85"]);
    let mut g = at(THREE, line, 5);
    roll(&mut g, 4);
    assert_legal(&g, &["t1:83-l2"]);
}

#[test]
fn a_3v3_team_wins_with_the_twelve_pieces_of_its_three_colours() {
    let line = "y:goal,goal,goal,l7/b:h,h,h,h/r:goal,goal,goal,goal/g:h,h,h,h/o:goal,goal,goal,30/t:h,h,h,h";
    let mut g = at(THREE, line, 0);
    roll(&mut g, 1);
    play(&mut g, "y4:l7-goal");
    assert!(!g.is_over());
    let line = "y:goal,goal,goal,l7/b:h,h,h,h/r:goal,goal,goal,goal/g:h,h,h,h/o:goal,goal,goal,goal/t:h,h,h,h";
    let mut g = at(THREE, line, 0);
    roll(&mut g, 1);
    let ev = play(&mut g, "y4:l7-goal");
    assert!(ev.contains(&Event::GameWon { side: 0 }));
}

#[test]
fn an_individual_player_wins_with_his_four_pieces_and_the_game_stops() {
    let mut g = at(IND, &format!("y:goal,goal,goal,l7/{OTHERS_HOME}"), 0);
    roll(&mut g, 1);
    let ev = play(&mut g, "y4:l7-goal");
    assert!(ev.contains(&Event::GameWon { side: 0 }));
    assert!(!ev.iter().any(|e| matches!(e, Event::BonusGranted { .. })));
    assert!(g.roll(3).is_err());
}

#[test]
fn coming_out_breaks_an_opponent_barrier_on_your_exit_capturing_the_last_arrived() {
    let mut g = at(IND, "y:30,h,h,h/b:5,5',h,h/r:h,h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 5);
    let ev = play(&mut g, "y2:h-5");
    assert!(ev.contains(&Event::Captured {
        piece: pr("b2"),
        by: pr("y2"),
        at: Place::Square(5)
    }));
    assert_eq!(place(&g, "b1"), Place::Square(5));
}

#[test]
fn coming_out_onto_your_piece_and_your_partner_captures_the_partner_in_pairs() {
    let mut g = at(PAIRS, "y:5,h,h,h/b:h,h,h,h/r:5',h,h,h/g:h,h,h,h", 0);
    roll(&mut g, 5);
    let ev = play(&mut g, "y2:h-5");
    assert!(captured(&ev, "r1"));
}

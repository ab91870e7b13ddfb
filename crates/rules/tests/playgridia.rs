//! Playgridia's Parchís (seeds 000 in French, 003 in Spanish): one test per rule of the text.

mod common;
use common::*;
use parchis_rules::{Event, IllegalMove, Phase, Place, PlayError};

const HOME: &str = "h,h,h,h";

fn four(y: &str, b: &str, r: &str, g: &str) -> parchis_rules::Game {
    playgridia(&format!("y:{y}/b:{b}/r:{r}/g:{g}"))
}

/// « Chaque joueur a quatre pions … de 2 à 4 personnes peuvent jouer (deux joueurs prennent des coins opposés) »
/// and « Un pion ne quitte la base qu'avec un 5 »: every game (individual with 2, 3 or 4, and 2 against 2)
/// starts with all four pieces of every colour in base (`start=home`); only Rapide starts one out.
#[test]
fn every_piece_starts_in_base_with_two_to_four_players() {
    use parchis_rules::{Game, Mode, RuleSet};
    for (mode, players) in [
        (Mode::Individual, 2),
        (Mode::Individual, 3),
        (Mode::Individual, 4),
        (Mode::Pairs, 4),
    ] {
        let g = Game::new(RuleSet::Playgridia, mode, players).unwrap();
        assert_eq!(g.n_pieces(), 4 * players, "{mode}/{players}");
        for p in 0..g.n_pieces() {
            assert_eq!(g.place(p), Place::Home, "{mode}/{players}: piece {p}");
        }
    }
}

#[test]
fn a_piece_leaves_base_only_with_a_five_and_a_six_never_brings_one_out() {
    let mut g = four(HOME, HOME, HOME, HOME);
    let ev = roll(&mut g, 6);
    assert!(has(&ev, |e| matches!(e, Event::NoLegalMove { die: 6, .. })));
    let ev = roll(&mut g, 4);
    assert!(has(&ev, |e| matches!(e, Event::NoLegalMove { die: 4, .. })));
    assert_eq!(g.seat(), 1, "the turn passed to blue");
}

#[test]
fn a_five_with_a_piece_in_base_must_bring_it_out() {
    let mut g = four("h,h,h,30", HOME, HOME, HOME);
    roll(&mut g, 5);
    assert_eq!(
        legal(&g),
        sorted(&["y1:h-5"]),
        "bringing a piece out is the only legal move"
    );
    play(&mut g, "y1:h-5");
    assert_eq!(place(&g, "y1"), Place::Square(5));
}

#[test]
fn a_five_is_an_ordinary_move_when_the_exit_holds_two_of_your_pieces() {
    let mut g = four("5,5',h,30", HOME, HOME, HOME);
    roll(&mut g, 5);
    assert_eq!(legal(&g), sorted(&["y1:5-10", "y2:5-10", "y4:30-35"]));
}

#[test]
fn coming_out_onto_two_pieces_with_an_opponent_captures_the_last_arrived_opponent() {
    let mut g = four(HOME, "5,h,h,h", HOME, "5',h,h,h");
    roll(&mut g, 5);
    let ev = play(&mut g, "y1:h-5");
    assert!(has(
        &ev,
        |e| matches!(e, Event::Captured { piece, .. } if piece.to_string() == "g1")
    ));
    assert!(has(&ev, |e| matches!(
        e,
        Event::BonusGranted { amount: 20, .. }
    )));
    assert_eq!(place(&g, "b1"), Place::Square(5), "the first arrived stays");
    assert_eq!(place(&g, "g1"), Place::Home);
}

#[test]
fn coming_out_onto_an_opponents_blockade_on_your_exit_captures_the_one_that_arrived_last() {
    let mut g = four("h,h,h,30", "5,5',h,h", HOME, HOME);
    roll(&mut g, 5);
    let ev = play(&mut g, "y1:h-5");
    assert!(has(
        &ev,
        |e| matches!(e, Event::Captured { piece, .. } if piece.to_string() == "b2")
    ));
    assert_eq!(place(&g, "b1"), Place::Square(5), "the first arrived stays");
    assert_eq!(place(&g, "b2"), Place::Home);
    assert_eq!(g.phase(), Phase::Count { amount: 20 });
}

#[test]
fn coming_out_onto_your_piece_and_an_opponent_captures_the_opponent() {
    let mut g = four("5,h,h,h", "5',h,h,h", HOME, HOME);
    roll(&mut g, 5);
    let ev = play(&mut g, "y2:h-5");
    assert!(has(
        &ev,
        |e| matches!(e, Event::Captured { piece, .. } if piece.to_string() == "b1")
    ));
    assert!(
        g.in_blockade(0),
        "yellow now holds its exit with two pieces"
    );
    // The other way round: the opponent came first and yellow's piece last. « celui arrivé en dernier » picks
    // among the opponents there, so the lone opponent is still the one taken.
    let mut g = four("5',h,h,h", "5,h,h,h", HOME, HOME);
    roll(&mut g, 5);
    let ev = play(&mut g, "y2:h-5");
    assert!(captured(&ev, "b1"));
    assert_eq!(place(&g, "y1"), Place::Square(5), "your own piece stays");
    assert_eq!(g.phase(), Phase::Count { amount: 20 });
}

#[test]
fn a_lone_opponent_on_your_exit_square_is_shared_not_captured() {
    let mut g = four(HOME, "5,h,h,h", HOME, HOME);
    roll(&mut g, 5);
    let ev = play(&mut g, "y1:h-5");
    assert!(!has(&ev, |e| matches!(e, Event::Captured { .. })));
    assert_eq!(place(&g, "b1"), Place::Square(5));
    assert_eq!(place(&g, "y1"), Place::Square(5));
}

#[test]
fn a_six_gives_another_roll() {
    let mut g = four("20,h,h,h", HOME, HOME, HOME);
    roll(&mut g, 6);
    let ev = play(&mut g, "y1:20-26");
    assert!(has(&ev, |e| matches!(e, Event::ExtraRoll { seat: 0 })));
    assert_eq!((g.seat(), g.phase()), (0, Phase::Roll));
}

#[test]
fn a_six_with_no_legal_move_still_gives_another_roll() {
    let mut g = four(HOME, HOME, HOME, HOME);
    let ev = roll(&mut g, 6);
    assert!(has(&ev, |e| matches!(e, Event::ExtraRoll { seat: 0 })));
    assert_eq!(g.seat(), 0);
}

#[test]
fn a_six_counts_seven_when_none_of_your_pieces_is_in_base_and_arrived_pieces_are_not_in_base() {
    let mut g = four("20,30,40,goal", HOME, HOME, HOME);
    roll(&mut g, 6);
    assert_eq!(legal(&g), sorted(&["y1:20-27", "y2:30-37", "y3:40-47"]));
}

#[test]
fn a_six_counts_six_while_a_piece_is_in_base() {
    let mut g = four("20,30,40,h", HOME, HOME, HOME);
    roll(&mut g, 6);
    assert_eq!(legal(&g), sorted(&["y1:20-26", "y2:30-36", "y3:40-46"]));
}

#[test]
fn three_sixes_in_a_row_void_the_third_send_the_last_moved_piece_home_and_end_the_turn() {
    let mut g = four("20,h,h,h", HOME, HOME, HOME);
    roll(&mut g, 6);
    play(&mut g, "y1:20-26");
    roll(&mut g, 6);
    play(&mut g, "y1:26-32");
    let ev = roll(&mut g, 6);
    assert!(has(
        &ev,
        |e| matches!(e, Event::ThreeSixes { sent_home: Some(p), from: Some(Place::Square(32)), .. } if p.to_string() == "y1")
    ));
    assert!(has(&ev, |e| matches!(e, Event::TurnPassed { seat: 1 })));
    assert_eq!(place(&g, "y1"), Place::Home);
}

#[test]
fn three_sixes_spare_a_piece_already_in_its_lane() {
    let mut g = four("60,h,h,h", HOME, HOME, HOME);
    roll(&mut g, 6);
    play(&mut g, "y1:60-66");
    roll(&mut g, 6);
    play(&mut g, "y1:66-l4");
    let ev = roll(&mut g, 6);
    assert!(has(&ev, |e| matches!(
        e,
        Event::ThreeSixes {
            sent_home: None,
            ..
        }
    )));
    assert_eq!(place(&g, "y1"), Place::Lane(4));
    assert_eq!(g.seat(), 1);
}

#[test]
fn three_sixes_leave_a_piece_that_has_already_arrived_where_it_is() {
    let mut g = game(
        "playgridia individual/4 y:goal,37,40,50/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 roll sixes=2,last=y1,six=y1,extra=0,first=-",
    );
    let ev = roll(&mut g, 6);
    assert!(has(&ev, |e| matches!(
        e,
        Event::ThreeSixes {
            sent_home: None,
            ..
        }
    )));
    assert_eq!(place(&g, "y1"), Place::Goal);
    assert_eq!(g.seat(), 1, "the turn still ends");
}

/// « Le pion ne retourne à la base que s'il est encore sur le circuit commun »: the only exception is leaving
/// the circuit, so a safe square or a blockade does not save it (unlike Morocco's
/// `penalty_spares_safe_and_blockade`).
#[test]
fn three_sixes_send_home_the_last_moved_piece_even_from_a_safe_square_or_a_blockade() {
    // y1's second six ended on safe square 29.
    let mut g = four("17,h,h,h", HOME, HOME, HOME);
    roll(&mut g, 6);
    play(&mut g, "y1:17-23");
    roll(&mut g, 6);
    play(&mut g, "y1:23-29");
    let ev = roll(&mut g, 6);
    assert!(has(
        &ev,
        |e| matches!(e, Event::ThreeSixes { sent_home: Some(p), from: Some(Place::Square(29)), .. } if p.to_string() == "y1")
    ));
    assert_eq!(place(&g, "y1"), Place::Home);
    // y2's second six made a blockade with y1 on 30; the blockade is broken, y1 stays.
    let mut g = four("30,18,h,h", HOME, HOME, HOME);
    roll(&mut g, 6);
    play(&mut g, "y2:18-24");
    roll(&mut g, 6);
    let ev = play(&mut g, "y2:24-30");
    assert!(has(&ev, |e| matches!(e, Event::BlockadeFormed { .. })));
    let ev = roll(&mut g, 6);
    assert!(has(
        &ev,
        |e| matches!(e, Event::ThreeSixes { sent_home: Some(p), from: Some(Place::Square(30)), .. } if p.to_string() == "y2")
    ));
    assert_eq!(place(&g, "y2"), Place::Home);
    assert_eq!(place(&g, "y1"), Place::Square(30));
    assert!(!g.in_blockade(0));
    assert_eq!(g.seat(), 1);
}

/// « Le couloir d'arrivée fait 7 cases et vous est réservé : aucune capture n'y a lieu »: a piece in its lane is
/// out of every opponent's reach; blue, passing the square where yellow turned in, carries on round the circuit.
#[test]
fn the_lane_is_yours_alone_and_no_capture_happens_there() {
    let mut g = game(&format!(
        "playgridia individual/4 y:l2,h,h,h/b:66,h,h,h/r:h,h,h,h/g:h,h,h,h 1 roll {FLAGS}"
    ));
    roll(&mut g, 4);
    assert_eq!(legal(&g), sorted(&["b1:66-2"]));
    let ev = play(&mut g, "b1:66-2");
    assert!(!has(&ev, |e| matches!(e, Event::Captured { .. })));
    assert_eq!(place(&g, "y1"), Place::Lane(2));
}

#[test]
fn the_last_piece_moved_includes_a_piece_moved_with_a_count_of_twenty() {
    let mut g = four("20,40,h,h", "32,h,h,h", HOME, HOME);
    roll(&mut g, 6);
    play(&mut g, "y1:20-26");
    roll(&mut g, 6);
    play(&mut g, "y1:26-32"); // captures blue: count 20
    assert_eq!(g.phase(), Phase::Count { amount: 20 });
    play(&mut g, "y2:40-60");
    let ev = roll(&mut g, 6);
    assert!(has(
        &ev,
        |e| matches!(e, Event::ThreeSixes { sent_home: Some(p), .. } if p.to_string() == "y2")
    ));
    assert_eq!(place(&g, "y2"), Place::Home);
    assert_eq!(place(&g, "y1"), Place::Square(32));
}

#[test]
fn three_sixes_after_a_count_of_ten_send_home_the_piece_moved_by_the_count() {
    // No piece in base: each six counts 7. The second six brings y1 home; y2 plays the count of 10.
    let mut g = four("l1,20,40,goal", HOME, HOME, HOME);
    roll(&mut g, 6);
    play(&mut g, "y3:40-47");
    roll(&mut g, 6);
    let ev = play(&mut g, "y1:l1-goal");
    assert!(has(&ev, |e| matches!(
        e,
        Event::BonusGranted { amount: 10, .. }
    )));
    play(&mut g, "y2:20-30");
    let ev = roll(&mut g, 6);
    assert!(has(
        &ev,
        |e| matches!(e, Event::ThreeSixes { sent_home: Some(p), from: Some(Place::Square(30)), .. } if p.to_string() == "y2")
    ));
    assert_eq!(place(&g, "y2"), Place::Home);
    assert_eq!(place(&g, "y3"), Place::Square(47));
    assert_eq!(g.seat(), 1);
}

#[test]
fn the_count_of_sixes_restarts_after_any_roll_that_is_not_a_six() {
    let mut g = game(
        "playgridia individual/4 y:20,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 roll sixes=2,last=y1,six=y1,extra=0,first=-",
    );
    roll(&mut g, 3);
    assert_eq!(g.sixes_in_a_row(), 0);
    play(&mut g, "y1:20-23");
    assert_eq!(g.seat(), 1);
}

#[test]
fn a_square_holds_at_most_two_pieces_of_any_colours() {
    // Blue and green share safe square 29: yellow cannot land there.
    let mut g = four("25,h,h,h", "29,h,h,h", HOME, "29',h,h,h");
    let ev = roll(&mut g, 4);
    assert!(has(&ev, |e| matches!(e, Event::NoLegalMove { .. })));
}

#[test]
fn a_blockade_cannot_be_passed_or_landed_on_even_by_its_owner() {
    let mut g = four("24,24',20,goal", HOME, HOME, HOME);
    roll(&mut g, 4);
    assert_eq!(
        legal(&g),
        sorted(&["y1:24-28", "y2:24-28"]),
        "y3 may not land on 24"
    );
    let mut g = four("24,24',20,goal", HOME, HOME, HOME);
    roll(&mut g, 5);
    assert_eq!(
        legal(&g),
        sorted(&["y1:24-29", "y2:24-29"]),
        "y3 may not pass 24"
    );
}

/// « Deux pions d'une même couleur sur une case du circuit forment un barrage »: in the lane two pieces are no
/// blockade (`lane_blockades=0`), so the pieces behind pass them, though the square is full to land on.
#[test]
fn two_pieces_in_the_lane_are_no_blockade_and_can_be_passed() {
    let mut g = four("l2,l2',66,goal", HOME, HOME, HOME);
    roll(&mut g, 5);
    assert_eq!(
        legal(&g),
        sorted(&["y1:l2-l7", "y2:l2-l7", "y3:66-l3"]),
        "y3 passes l2"
    );
    let mut g = four("l2,l2',66,goal", HOME, HOME, HOME);
    roll(&mut g, 4);
    assert_eq!(
        legal(&g),
        sorted(&["y1:l2-l6", "y2:l2-l6"]),
        "but cannot land on it: two pieces already"
    );
}

#[test]
fn a_blockade_on_a_safe_square_still_blocks() {
    let mut g = four("27,goal,goal,goal", "29,29',h,h", HOME, HOME);
    let ev = roll(&mut g, 3);
    assert!(has(&ev, |e| matches!(e, Event::NoLegalMove { .. })));
}

#[test]
fn a_partners_blockade_blocks_you_too() {
    let mut g = game(
        "playgridia pairs/4 y:20,goal,goal,goal/b:h,h,h,h/r:24,24',h,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-",
    );
    let ev = roll(&mut g, 5);
    assert!(has(&ev, |e| matches!(e, Event::NoLegalMove { .. })));
}

#[test]
fn a_rolled_six_must_open_one_of_your_blockades() {
    let mut g = four("24,24',40,h", HOME, HOME, HOME);
    roll(&mut g, 6);
    assert_eq!(legal(&g), sorted(&["y1:24-30", "y2:24-30"]));
    let m = g.parse_move("y3:40-46").unwrap();
    let before = g;
    assert_eq!(
        g.play(m),
        Err(PlayError::Illegal(IllegalMove::MustOpenBlockade))
    );
    assert_eq!(g, before, "a refused move changes nothing");
}

#[test]
fn a_rolled_six_that_counts_seven_must_still_open_a_blockade() {
    // No piece in base: the six counts 7, and it is still a rolled six.
    let mut g = four("24,24',40,goal", HOME, HOME, HOME);
    roll(&mut g, 6);
    assert_eq!(legal(&g), sorted(&["y1:24-31", "y2:24-31"]));
}

#[test]
fn in_pairs_a_rolled_six_does_not_force_your_partners_blockade_open() {
    let mut g = game(
        "playgridia pairs/4 y:10,h,h,h/b:h,h,h,h/r:30,30',h,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-",
    );
    roll(&mut g, 6);
    assert_eq!(legal(&g), sorted(&["y1:10-16"]));
    play(&mut g, "y1:10-16");
    assert_eq!(place(&g, "r1"), Place::Square(30), "red's blockade stands");
    assert_eq!(place(&g, "r2"), Place::Square(30));
}

#[test]
fn in_pairs_a_finished_player_moving_the_partners_pieces_must_open_the_partners_blockade_on_a_six()
{
    // Yellow has brought every piece home and plays red's: red's blockade is then the one of the pieces
    // yellow moves (RULES.md, ambiguity 19).
    let mut g = game(
        "playgridia pairs/4 y:goal,goal,goal,goal/b:h,h,h,h/r:30,30',40,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-",
    );
    roll(&mut g, 6);
    assert_eq!(legal(&g), sorted(&["r1:30-l2", "r2:30-l2"]));
}

#[test]
fn nothing_is_forced_when_no_piece_of_your_blockade_can_move() {
    let mut g = four("24,24',40,h", "28,28',h,h", HOME, HOME);
    roll(&mut g, 6);
    assert_eq!(legal(&g), sorted(&["y3:40-46"]));
}

#[test]
fn a_count_does_not_force_a_blockade_open() {
    let g = game(
        "playgridia individual/4 y:24,24',40,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 count:20 sixes=0,last=-,six=-,extra=0,first=-",
    );
    assert_eq!(legal(&g), sorted(&["y1:24-44", "y2:24-44", "y3:40-60"]));
}

#[test]
fn capturing_a_lone_opponent_on_an_ordinary_square_sends_it_home_and_counts_twenty() {
    let mut g = four("20,h,h,h", "24,h,h,h", HOME, HOME);
    roll(&mut g, 4);
    let ev = play(&mut g, "y1:20-24");
    assert!(has(&ev, |e| matches!(
        e,
        Event::Captured {
            at: Place::Square(24),
            ..
        }
    )));
    assert!(has(&ev, |e| matches!(
        e,
        Event::BonusGranted { amount: 20, .. }
    )));
    assert_eq!(place(&g, "b1"), Place::Home);
    assert_eq!(g.phase(), Phase::Count { amount: 20 });
}

#[test]
fn no_capture_on_a_safe_square() {
    let mut g = four("25,h,h,h", "29,h,h,h", HOME, HOME);
    roll(&mut g, 4);
    let ev = play(&mut g, "y1:25-29");
    assert!(!has(&ev, |e| matches!(e, Event::Captured { .. })));
    assert_eq!(place(&g, "b1"), Place::Square(29));
}

#[test]
fn partners_never_capture_each_other_in_pairs() {
    let mut g = game(
        "playgridia pairs/4 y:20,h,h,h/b:h,h,h,h/r:24,h,h,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-",
    );
    roll(&mut g, 4);
    let ev = play(&mut g, "y1:20-24");
    assert!(!has(&ev, |e| matches!(e, Event::Captured { .. })));
    assert_eq!(place(&g, "r1"), Place::Square(24));
}

#[test]
fn a_piece_reaching_the_goal_counts_ten() {
    let mut g = four("l5,30,h,h", HOME, HOME, HOME);
    roll(&mut g, 3);
    let ev = play(&mut g, "y1:l5-goal");
    assert!(has(&ev, |e| matches!(e, Event::ReachedGoal { .. })));
    assert!(has(&ev, |e| matches!(
        e,
        Event::BonusGranted { amount: 10, .. }
    )));
    assert_eq!(legal(&g), sorted(&["y2:30-40"]));
}

#[test]
fn a_count_is_played_exactly_by_any_piece_that_can() {
    let g = game(
        "playgridia individual/4 y:20,l3,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 count:20 sixes=0,last=-,six=-,extra=0,first=-",
    );
    assert_eq!(
        legal(&g),
        sorted(&["y1:20-40"]),
        "the lane piece cannot use 20 exactly"
    );
}

#[test]
fn a_count_no_piece_can_use_exactly_is_lost() {
    let mut g = four("60,goal,h,h", "64,h,h,h", HOME, HOME);
    roll(&mut g, 4);
    let ev = play(&mut g, "y1:60-64");
    assert!(has(&ev, |e| matches!(
        e,
        Event::BonusLost { amount: 20, .. }
    )));
    assert_eq!(g.seat(), 1);
}

#[test]
fn a_count_of_ten_that_no_piece_can_play_is_lost() {
    // y2 in its lane is six steps from the goal; the pieces in base cannot use a count.
    let mut g = four("l5,l2,h,h", HOME, HOME, HOME);
    roll(&mut g, 3);
    let ev = play(&mut g, "y1:l5-goal");
    assert!(has(&ev, |e| matches!(
        e,
        Event::BonusLost { amount: 10, .. }
    )));
    assert_eq!(place(&g, "y2"), Place::Lane(2));
    assert_eq!(g.seat(), 1);
}

#[test]
fn a_count_can_capture_and_open_a_new_count() {
    let mut g = game(
        "playgridia individual/4 y:20,h,h,h/b:40,h,h,h/r:h,h,h,h/g:h,h,h,h 0 count:20 sixes=0,last=-,six=-,extra=0,first=-",
    );
    let ev = play(&mut g, "y1:20-40");
    assert!(has(&ev, |e| matches!(e, Event::Captured { .. })));
    assert_eq!(g.phase(), Phase::Count { amount: 20 });
}

#[test]
fn counts_chain_through_an_arrival_a_count_of_twenty_reaching_the_goal_earns_a_ten() {
    let mut g = four("50,56,h,h", "54,h,h,h", HOME, HOME);
    roll(&mut g, 4);
    play(&mut g, "y1:50-54"); // captures blue: count 20
    let ev = play(&mut g, "y2:56-goal");
    assert!(has(&ev, |e| matches!(e, Event::ReachedGoal { .. })));
    assert!(has(&ev, |e| matches!(
        e,
        Event::BonusGranted { amount: 10, .. }
    )));
    assert_eq!(g.phase(), Phase::Count { amount: 10 });
    assert_eq!(legal(&g), sorted(&["y1:54-64"]));
}

#[test]
fn a_count_can_pass_no_blockade_and_never_brings_a_piece_out_of_base() {
    // Green's blockade on 30 stops y1 (14 → 34) and y2 (20 → 40); y4 stays in base.
    let mut g = four("10,20,45,h", "14,h,h,h", HOME, "30,30',h,h");
    roll(&mut g, 4);
    play(&mut g, "y1:10-14");
    assert_eq!(g.phase(), Phase::Count { amount: 20 });
    assert_eq!(legal(&g), sorted(&["y3:45-65"]));
}

#[test]
fn a_piece_must_arrive_exactly_and_cannot_overshoot_the_goal() {
    let mut g = four("l5,goal,goal,goal", HOME, HOME, HOME);
    let ev = roll(&mut g, 4);
    assert!(has(&ev, |e| matches!(e, Event::NoLegalMove { .. })));
}

#[test]
fn the_lane_has_seven_squares_and_the_goal_is_71_steps_from_the_exit() {
    let mut g = game(
        "playgridia individual/4 y:5,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 count:20 sixes=0,last=-,six=-,extra=0,first=-",
    );
    play(&mut g, "y1:5-25");
    assert_eq!(g.raw_pos(0) - 1, 20, "20 steps from the exit");
    let mut g = four("68,goal,goal,goal", HOME, HOME, HOME);
    roll(&mut g, 6); // counts 7: no piece in base
    assert_eq!(
        legal(&g),
        sorted(&["y1:68-l7"]),
        "seven lane squares after square 68"
    );
    play(&mut g, "y1:68-l7");
    assert_eq!(g.phase(), Phase::Roll, "the six gives another roll");
    roll(&mut g, 1);
    assert_eq!(
        legal(&g),
        sorted(&["y1:l7-goal"]),
        "the goal is the 71st step"
    );
    let mut g = four("68,goal,goal,goal", HOME, HOME, HOME);
    g.roll(3).unwrap();
    play(&mut g, "y1:68-l3");
    assert_eq!(g.raw_pos(0) - 1, 63 + 3);
}

#[test]
fn moving_is_never_optional() {
    let mut g = four("20,h,h,h", HOME, HOME, HOME);
    roll(&mut g, 3);
    assert_eq!(
        g.roll(4),
        Err(PlayError::MustMove),
        "no passing: the legal move must be played"
    );
}

#[test]
fn the_first_player_with_four_pieces_home_wins_and_the_game_stops_at_once() {
    let mut g = four("goal,goal,goal,l5", "40,h,h,h", HOME, HOME);
    roll(&mut g, 3);
    let ev = play(&mut g, "y4:l5-goal");
    assert!(has(&ev, |e| matches!(e, Event::GameWon { side: 0 })));
    assert!(
        !has(&ev, |e| matches!(e, Event::BonusGranted { .. })),
        "no count after the winning arrival"
    );
    assert_eq!(g.winner(), Some(0));
    assert_eq!(g.roll(2), Err(PlayError::GameOver));
}

#[test]
fn quick_mode_starts_one_piece_on_the_exit_and_two_home_win() {
    let g = parchis_rules::Game::new(
        parchis_rules::RuleSet::Playgridia,
        parchis_rules::Mode::Quick,
        4,
    )
    .unwrap();
    assert_eq!(place(&g, "y1"), Place::Square(5));
    assert_eq!(place(&g, "y2"), Place::Home);
    assert_eq!(place(&g, "b1"), Place::Square(22));
    let mut g = game(
        "playgridia quick/4 y:goal,l5,h,h/b:22,h,h,h/r:39,h,h,h/g:56,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-",
    );
    roll(&mut g, 3);
    let ev = play(&mut g, "y2:l5-goal");
    assert!(has(&ev, |e| matches!(e, Event::GameWon { side: 0 })));
}

#[test]
fn in_pairs_the_team_wins_when_both_partners_have_brought_all_their_pieces_home() {
    let mut g = game(
        "playgridia pairs/4 y:goal,goal,goal,l5/b:40,h,h,h/r:30,h,h,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-",
    );
    roll(&mut g, 3);
    let ev = play(&mut g, "y4:l5-goal");
    assert!(
        !has(&ev, |e| matches!(e, Event::GameWon { .. })),
        "red has not finished"
    );
    let mut g = game(
        "playgridia pairs/4 y:goal,goal,goal,goal/b:40,h,h,h/r:goal,goal,goal,l5/g:h,h,h,h 2 roll sixes=0,last=-,six=-,extra=0,first=-",
    );
    roll(&mut g, 3);
    let ev = play(&mut g, "r4:l5-goal");
    assert!(has(&ev, |e| matches!(e, Event::GameWon { side: 0 })));
}

#[test]
fn in_pairs_a_player_whose_pieces_have_all_arrived_moves_the_partners_pieces() {
    let mut g = game(
        "playgridia pairs/4 y:goal,goal,goal,goal/b:40,h,h,h/r:30,h,h,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-",
    );
    roll(&mut g, 3);
    assert_eq!(legal(&g), sorted(&["r1:30-33"]));
}

#[test]
fn in_pairs_the_count_of_ten_for_a_players_last_arrival_is_played_with_the_partners_pieces() {
    // « avec n’importe lequel de vos pions »: yellow has none left on the board, so the count is played as
    // yellow's next moves are, with red's pieces (RULES.md, ambiguity 19).
    let mut g = game(
        "playgridia pairs/4 y:goal,goal,goal,l5/b:h,h,h,h/r:30,h,h,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-",
    );
    roll(&mut g, 3);
    play(&mut g, "y4:l5-goal");
    assert_eq!(g.phase(), Phase::Count { amount: 10 });
    assert_eq!(legal(&g), sorted(&["r1:30-l6"]));
}

#[test]
fn playing_out_of_phase_or_an_illegal_move_is_refused_and_changes_nothing() {
    let mut g = four("20,h,h,h", "30,h,h,h", HOME, HOME);
    let before = g;
    let m = parchis_rules::Move {
        piece: 0,
        from: 21,
        to: 24,
        companion: 0xFF,
        flags: 0,
    };
    assert_eq!(g.play(m), Err(PlayError::MustRoll));
    assert_eq!(g.roll(7), Err(PlayError::BadDie(7)));
    assert_eq!(g, before);
    roll(&mut g, 3);
    let before = g;
    let blue = g.parse_move("b1:30-33").unwrap();
    assert_eq!(
        g.play(blue),
        Err(PlayError::Illegal(IllegalMove::NotYourPiece))
    );
    let wrong = g.parse_move("y1:20-24").unwrap();
    assert!(matches!(g.play(wrong), Err(PlayError::Illegal(_))));
    assert_eq!(g, before);
}

#[test]
fn coming_out_onto_your_piece_and_your_partner_is_not_possible() {
    // Pairs: yellow's exit holds yellow and its partner red: full, no opponent to capture; the 5 is ordinary.
    let mut g = game(
        "playgridia pairs/4 y:5,h,h,30/b:h,h,h,h/r:5',h,h,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-",
    );
    roll(&mut g, 5);
    assert_eq!(legal(&g), sorted(&["y1:5-10", "y4:30-35"]));
}

#[test]
fn coming_out_onto_your_partner_and_an_opponent_captures_the_opponent() {
    let mut g = game(
        "playgridia pairs/4 y:h,h,h,30/b:5',h,h,h/r:5,h,h,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-",
    );
    roll(&mut g, 5);
    let ev = play(&mut g, "y1:h-5");
    assert!(has(
        &ev,
        |e| matches!(e, Event::Captured { piece, .. } if piece.to_string() == "b1")
    ));
    assert_eq!(place(&g, "r1"), Place::Square(5), "the partner stays");
}

//! Each legal move of the view says what it would do (capture, goal, safe square, blockade, count earned),
//! so that a client shows a move's effect without knowing a rule.

mod common;
use common::*;
use parchis_rules::view::MoveView;

fn move_of<'a>(moves: &'a [MoveView], text: &str) -> &'a MoveView {
    moves
        .iter()
        .find(|m| m.text == text)
        .unwrap_or_else(|| panic!("no legal move {text}"))
}

#[test]
fn a_capture_says_it_earns_twenty_and_a_plain_move_says_nothing() {
    let mut g = playgridia("y:30,h,h,h/b:33,h,h,h/r:h,h,h,h/g:h,h,h,h");
    roll(&mut g, 3);
    let view = g.view();
    let capture = move_of(&view.legal_moves, "y1:30-33");
    assert!(capture.captures);
    assert_eq!(capture.bonus, 20);
    assert!(!capture.goal && !capture.safe && !capture.blockade);
}

#[test]
fn a_move_onto_a_safe_square_next_to_a_piece_of_its_colour_says_safe_and_blockade() {
    let mut g = playgridia("y:30,34,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h");
    roll(&mut g, 4);
    let view = g.view();
    let onto = move_of(&view.legal_moves, "y1:30-34");
    assert!(onto.safe, "34 is a safe square");
    assert!(onto.blockade, "two yellow pieces on 34 block it");
    assert_eq!(onto.bonus, 0);
    let away = move_of(&view.legal_moves, "y2:34-38");
    assert!(!away.safe && !away.blockade);
}

#[test]
fn an_arrival_says_goal_and_its_count_of_ten() {
    let mut g = playgridia("y:l5,30,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h");
    roll(&mut g, 3);
    let view = g.view();
    let arrival = move_of(&view.legal_moves, "y1:l5-goal");
    assert!(arrival.goal);
    assert_eq!(arrival.bonus, 10);
}

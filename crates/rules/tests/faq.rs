//! The "Questions fréquentes" / "Preguntas frecuentes" of seeds 000 and 003, each answer as a test.

mod common;
use common::*;
use parchis_rules::{Event, Game, Mode, Phase, Place, RuleSet};

/// « Quel chiffre faut-il pour sortir un pion ? Un 5 … le faire sortir est votre seul coup légal. L'exception :
/// quand votre case de sortie contient déjà deux de vos pions … le 5 se joue comme un coup ordinaire. »
#[test]
fn faq_which_number_brings_a_piece_out_a_five_and_only_then() {
    let mut g = playgridia("y:h,h,h,40/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h");
    roll(&mut g, 5);
    assert_eq!(legal(&g), sorted(&["y1:h-5"]), "y4 may not move instead");
    // « le 5 se joue comme un coup ordinaire »: every piece on the board may play it, no piece comes out.
    let mut g = playgridia("y:5,5',h,40/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h");
    roll(&mut g, 5);
    assert_eq!(
        legal(&g),
        sorted(&["y1:5-10", "y2:5-10", "y4:40-45"]),
        "exit full of own pieces: the 5 is ordinary"
    );
}

/// « Qu'est-ce qu'un barrage ? Deux pions d'une même couleur sur la même case du circuit. Personne ne peut s'y
/// poser ni la franchir, son propriétaire compris, et cela vaut même sur une case sûre. Quand vous faites un 6
/// et qu'un pion de l'un de vos barrages peut bouger, vous devez jouer l'un de ces pions. »
#[test]
fn faq_what_is_a_blockade_two_of_one_colour_nobody_passes_and_a_six_must_open_it() {
    // On safe square 12, owner behind it can neither pass (4) nor land (2).
    let mut g = playgridia("y:12,12',10,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h");
    roll(&mut g, 4);
    assert_eq!(legal(&g), sorted(&["y1:12-16", "y2:12-16"]));
    let mut g = playgridia("y:12,12',10,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h");
    roll(&mut g, 2);
    assert_eq!(legal(&g), sorted(&["y1:12-14", "y2:12-14"]));
    // « Personne »: an opponent neither lands on it (2) nor passes it (4).
    for die in [2, 4] {
        let mut g = game(&format!(
            "playgridia individual/4 y:12,12',h,h/b:10,h,h,h/r:h,h,h,h/g:h,h,h,h 1 roll {FLAGS}"
        ));
        let ev = roll(&mut g, die);
        assert!(
            has(&ev, |e| matches!(e, Event::NoLegalMove { seat: 1, .. })),
            "blue with a {die}"
        );
    }
    // A rolled 6: y3, free to move 6 elsewhere, must leave it and a blockade piece moves instead.
    let mut g = playgridia("y:12,12',30,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h");
    roll(&mut g, 6);
    assert_eq!(legal(&g), sorted(&["y1:12-18", "y2:12-18"]));
}

/// « Compte-t-on 20 ou 10 ? Les deux. Une capture rapporte un compte de 20, et un pion qui atteint l'arrivée un
/// compte de 10. Chacun se joue comme un coup distinct, avec n'importe quel pion pouvant avancer exactement de ce
/// nombre de cases. Si aucun pion ne peut utiliser le compte exactement, il est perdu. »
#[test]
fn faq_twenty_for_a_capture_ten_for_an_arrival_each_a_separate_exact_move() {
    let mut g = playgridia("y:20,l6,h,h/b:24,h,h,h/r:h,h,h,h/g:h,h,h,h");
    roll(&mut g, 4);
    let ev = play(&mut g, "y1:20-24");
    assert!(has(&ev, |e| matches!(
        e,
        Event::BonusGranted { amount: 20, .. }
    )));
    assert_eq!(
        legal(&g),
        sorted(&["y1:24-44"]),
        "the lane piece cannot use 20"
    );
    let mut g = playgridia("y:20,l6,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h");
    roll(&mut g, 2);
    let ev = play(&mut g, "y2:l6-goal");
    assert!(has(&ev, |e| matches!(
        e,
        Event::BonusGranted { amount: 10, .. }
    )));
    assert_eq!(g.phase(), Phase::Count { amount: 10 });
    assert_eq!(legal(&g), sorted(&["y1:20-30"]));
    // « Si aucun pion ne peut utiliser le compte exactement, il est perdu »: 20 from 64 overshoots the goal.
    let mut g = playgridia("y:60,goal,h,h/b:64,h,h,h/r:h,h,h,h/g:h,h,h,h");
    roll(&mut g, 4);
    let ev = play(&mut g, "y1:60-64");
    assert!(has(&ev, |e| matches!(
        e,
        Event::BonusLost { amount: 20, .. }
    )));
    assert_eq!(g.seat(), 1, "the lost count ends the turn");
}

/// « Combien compte un six ? Un six fait rejouer. Il compte 7 quand aucun de vos pions n'est à la base, et 6 tant
/// qu'au moins un pion y est encore. Un six ne fait jamais sortir un pion de la base. »
#[test]
fn faq_a_six_rolls_again_and_counts_seven_with_an_empty_base() {
    let mut g = playgridia("y:20,goal,goal,goal/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h");
    roll(&mut g, 6);
    assert_eq!(legal(&g), sorted(&["y1:20-27"]));
    let ev = play(&mut g, "y1:20-27");
    assert!(has(&ev, |e| matches!(e, Event::ExtraRoll { .. })));
    let mut g = playgridia("y:20,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h");
    roll(&mut g, 6);
    assert_eq!(
        legal(&g),
        sorted(&["y1:20-26"]),
        "six, and no piece comes out"
    );
}

/// « Trois six d'affilée ? Le troisième six est annulé, le dernier pion déplacé retourne à la base, et votre tour
/// se termine. Le pion n'est renvoyé que s'il est encore sur le circuit commun : un pion dans son couloir
/// d'arrivée ou déjà arrivé est donc en sécurité. »
#[test]
fn faq_three_sixes_send_the_last_moved_piece_home_unless_it_left_the_circuit() {
    let line = "playgridia individual/4 y:30,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 roll sixes=2,last=y1,six=y1,extra=0,first=-";
    let mut g = game(line);
    let ev = roll(&mut g, 6);
    assert!(has(&ev, |e| matches!(
        e,
        Event::ThreeSixes {
            sent_home: Some(_),
            ..
        }
    )));
    assert_eq!(place(&g, "y1"), Place::Home);
    assert_eq!(g.seat(), 1);
    let mut g = game(&line.replace("y:30", "y:l2"));
    let ev = roll(&mut g, 6);
    assert!(has(&ev, |e| matches!(
        e,
        Event::ThreeSixes {
            sent_home: None,
            ..
        }
    )));
    assert_eq!(place(&g, "y1"), Place::Lane(2));
    // « … ou déjà arrivé est donc en sécurité »
    let mut g = game(&line.replace("y:30,h", "y:goal,40"));
    let ev = roll(&mut g, 6);
    assert!(has(&ev, |e| matches!(
        e,
        Event::ThreeSixes {
            sent_home: None,
            ..
        }
    )));
    assert_eq!(place(&g, "y1"), Place::Goal);
    assert_eq!(g.seat(), 1);
}

/// « Combien de joueurs … comment gagne-t-on ? De deux à quatre personnes … quatre pions chacun. Le premier joueur
/// qui ramène ses quatre pions à l'arrivée gagne, et en mode Rapide le premier qui en ramène deux. À quatre
/// joueurs à table, vous pouvez aussi jouer en 2 contre 2 : l'équipe gagne quand ses deux partenaires sont arrivés. »
#[test]
fn faq_two_to_four_players_four_pieces_each_and_who_wins() {
    for players in 2..=4 {
        let g = Game::new(RuleSet::Playgridia, Mode::Individual, players).unwrap();
        assert_eq!(g.n_pieces(), 4 * players);
    }
    assert!(Game::new(RuleSet::Playgridia, Mode::Individual, 5).is_err());
    assert!(Game::new(RuleSet::Playgridia, Mode::Individual, 1).is_err());
    let two = Game::new(RuleSet::Playgridia, Mode::Individual, 2).unwrap();
    let colours: Vec<_> = two
        .view()
        .seats
        .iter()
        .flat_map(|s| s.colours.clone())
        .collect();
    assert_eq!(
        colours,
        vec![parchis_rules::Colour::Yellow, parchis_rules::Colour::Red],
        "two players sit opposite"
    );
    let mut g = playgridia("y:goal,goal,goal,l6/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h");
    roll(&mut g, 2);
    let ev = play(&mut g, "y4:l6-goal");
    assert!(has(&ev, |e| matches!(e, Event::GameWon { side: 0 })));
    let pairs = Game::new(RuleSet::Playgridia, Mode::Pairs, 4).unwrap();
    let sides: Vec<u8> = pairs.view().seats.iter().map(|s| s.side).collect();
    assert_eq!(sides, vec![0, 1, 0, 1], "partners sit opposite");
    // « en mode Rapide le premier qui en ramène deux »
    let mut g = game(&format!(
        "playgridia quick/4 y:goal,l5,h,h/b:22,h,h,h/r:39,h,h,h/g:56,h,h,h 0 roll {FLAGS}"
    ));
    roll(&mut g, 3);
    let ev = play(&mut g, "y2:l5-goal");
    assert!(has(&ev, |e| matches!(e, Event::GameWon { side: 0 })));
    // « l'équipe gagne quand ses deux partenaires sont arrivés »: yellow's four home are not yet a win.
    let mut g = game(&format!(
        "playgridia pairs/4 y:goal,goal,goal,l5/b:40,h,h,h/r:30,h,h,h/g:h,h,h,h 0 roll {FLAGS}"
    ));
    roll(&mut g, 3);
    let ev = play(&mut g, "y4:l5-goal");
    assert!(!has(&ev, |e| matches!(e, Event::GameWon { .. })));
    assert!(!g.is_over(), "red, yellow's partner, has not arrived");
    let mut g = game(&format!(
        "playgridia pairs/4 y:goal,goal,goal,goal/b:40,h,h,h/r:goal,goal,goal,l5/g:h,h,h,h 2 roll {FLAGS}"
    ));
    roll(&mut g, 3);
    let ev = play(&mut g, "r4:l5-goal");
    assert!(has(&ev, |e| matches!(e, Event::GameWon { side: 0 })));
}

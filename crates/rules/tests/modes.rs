//! Mode mechanics for every preset: seat layouts, turn order, teams, who wins, player counts, quick mode, the
//! 6-piece start, the 3-against-3 board, and Morocco's two-player colours and shared path.

use parchis_rules::{BoardKind, Colour, Event, Game, Mode, Phase, Place, RuleSet, SetupError};

mod common;
use common::{FLAGS, game};

/// Seats as (side, colours) in turn order.
fn seats(g: &Game) -> Vec<(u8, Vec<Colour>)> {
    g.view()
        .seats
        .into_iter()
        .map(|s| (s.side, s.colours))
        .collect()
}

use common::place;

use Colour::{Blue as B, Green as G, Orange as O, Red as R, Turquoise as T, Yellow as Y};

// ----- seat layouts -------------------------------------------------------------------------------------

#[test]
fn individual_seats_one_colour_each_in_counter_clockwise_order() {
    for rules in [RuleSet::Playgridia, RuleSet::Ludoteka] {
        let g = Game::new(rules, Mode::Individual, 4).unwrap();
        assert_eq!(
            seats(&g),
            vec![(0, vec![Y]), (1, vec![B]), (2, vec![R]), (3, vec![G])]
        );
        let g = Game::new(rules, Mode::Individual, 3).unwrap();
        assert_eq!(seats(&g), vec![(0, vec![Y]), (1, vec![B]), (2, vec![R])]);
    }
    // Seed 002: "L'ordre est bleu, jaune, vert, rouge."
    let g = Game::new(RuleSet::Morocco, Mode::Individual, 4).unwrap();
    assert_eq!(
        seats(&g),
        vec![(0, vec![B]), (1, vec![Y]), (2, vec![G]), (3, vec![R])]
    );
}

#[test]
fn two_individual_players_sit_at_opposite_corners() {
    for rules in [RuleSet::Playgridia, RuleSet::Ludoteka] {
        let g = Game::new(rules, Mode::Individual, 2).unwrap();
        assert_eq!(seats(&g), vec![(0, vec![Y]), (1, vec![R])]);
    }
    let g = Game::new(RuleSet::Morocco, Mode::Individual, 2).unwrap();
    assert_eq!(seats(&g), vec![(0, vec![B]), (1, vec![G])]);
}

#[test]
fn pairs_partners_sit_opposite_yellow_with_red_against_blue_with_green() {
    for rules in [RuleSet::Playgridia, RuleSet::Ludoteka] {
        let g = Game::new(rules, Mode::Pairs, 4).unwrap();
        assert_eq!(
            seats(&g),
            vec![(0, vec![Y]), (1, vec![B]), (0, vec![R]), (1, vec![G])]
        );
    }
    // Morocco pairs (a house combination): partners opposite on its board, blue with green.
    let g = Game::new(RuleSet::Morocco, Mode::Pairs, 4).unwrap();
    assert_eq!(
        seats(&g),
        vec![(0, vec![B]), (1, vec![Y]), (0, vec![G]), (1, vec![R])]
    );
}

#[test]
fn one_v_one_players_take_two_colours_yellow_red_against_blue_green() {
    for rules in [RuleSet::Playgridia, RuleSet::Ludoteka] {
        let g = Game::new(rules, Mode::OneVsOne, 2).unwrap();
        assert_eq!(seats(&g), vec![(0, vec![Y, R]), (1, vec![B, G])]);
    }
}

#[test]
fn morocco_two_players_are_blue_yellow_against_green_red() {
    let g = Game::new(RuleSet::Morocco, Mode::OneVsOne, 2).unwrap();
    assert_eq!(seats(&g), vec![(0, vec![B, Y]), (1, vec![G, R])]);
    assert_eq!(g.n_pieces(), 16);
    assert!(g.options().shared_path);
}

#[test]
fn six_piece_players_take_two_colours_of_six_pieces() {
    for rules in [RuleSet::Playgridia, RuleSet::Ludoteka] {
        let g = Game::new(rules, Mode::SixPiece, 2).unwrap();
        assert_eq!(seats(&g), vec![(0, vec![Y, R]), (1, vec![B, G])]);
        assert_eq!(g.layout().pieces_per_colour, 6);
    }
    // Morocco 6-piece (house combination) keeps the seed-001 rule of opposite colours: blue-green v yellow-red.
    let g = Game::new(RuleSet::Morocco, Mode::SixPiece, 2).unwrap();
    assert_eq!(seats(&g), vec![(0, vec![B, G]), (1, vec![Y, R])]);
    assert!(!g.options().shared_path);
}

#[test]
fn three_v_three_teams_alternate_yellow_red_orange_against_blue_green_turquoise() {
    for rules in RuleSet::ALL {
        let g = Game::new(rules, Mode::ThreeVsThree, 6).unwrap();
        assert_eq!(
            seats(&g),
            vec![
                (0, vec![Y]),
                (1, vec![B]),
                (0, vec![R]),
                (1, vec![G]),
                (0, vec![O]),
                (1, vec![T])
            ]
        );
        assert_eq!(g.board(), BoardKind::Six);
    }
}

#[test]
fn the_turn_goes_round_the_seats_in_order() {
    for rules in RuleSet::ALL {
        for mode in Mode::ALL {
            let players = mode.default_players();
            let mut g = Game::new(rules, mode, players).unwrap();
            // Skip Morocco's first rolls with a position that has none pending.
            let line = g.notation();
            let line = line.rsplit_once(' ').unwrap().0.to_string() + " " + FLAGS;
            g = game(&line);
            let mut order = vec![g.seat()];
            for _ in 0..players {
                // A 1 moves any piece one square (or nothing): the turn always passes.
                g.roll(1).unwrap();
                if !matches!(g.phase(), Phase::Roll) {
                    let m = g.legal_moves()[0];
                    g.play(m).unwrap();
                }
                order.push(g.seat());
            }
            let expected: Vec<u8> = (0..=players).map(|k| k % players).collect();
            assert_eq!(order, expected, "{rules} {mode}");
        }
    }
}

// ----- player counts ------------------------------------------------------------------------------------

#[test]
fn each_mode_accepts_only_its_player_counts() {
    let cases: [(Mode, &[u8], &[u8]); 6] = [
        (Mode::Individual, &[2, 3, 4], &[0, 1, 5, 6]),
        (Mode::Quick, &[2, 3, 4], &[1, 5]),
        (Mode::Pairs, &[4], &[2, 3, 5, 6]),
        (Mode::OneVsOne, &[2], &[1, 3, 4]),
        (Mode::SixPiece, &[2], &[1, 3, 4]),
        (Mode::ThreeVsThree, &[6], &[2, 3, 4, 5]),
    ];
    for rules in RuleSet::ALL {
        for (mode, ok, bad) in cases {
            for &p in ok {
                assert!(Game::new(rules, mode, p).is_ok(), "{rules} {mode}/{p}");
            }
            for &p in bad {
                let err = Game::new(rules, mode, p).unwrap_err();
                assert!(
                    matches!(err, SetupError::PlayerCount { players, .. } if players == p),
                    "{rules} {mode}/{p}"
                );
                assert_eq!(err.code(), "bad_player_count");
            }
        }
    }
}

#[test]
fn a_wrong_player_count_is_told_in_words_not_as_a_rust_range() {
    let err = Game::new(RuleSet::Playgridia, Mode::Individual, 7).unwrap_err();
    assert_eq!(
        err.to_string(),
        "individual is played by 2 to 4 players, not 7"
    );
    let err = Game::new(RuleSet::Ludoteka, Mode::Pairs, 3).unwrap_err();
    assert_eq!(err.to_string(), "pairs is played by 4 players, not 3");
}

#[test]
fn a_position_with_a_wrong_player_count_is_refused() {
    let line = format!("ludoteka pairs/3 y:h,h,h,h/b:h,h,h,h/r:h,h,h,h 0 roll {FLAGS}");
    assert!(line.parse::<Game>().is_err());
}

// ----- starts -------------------------------------------------------------------------------------------

#[test]
fn quick_mode_starts_one_piece_on_the_exit_and_three_at_home() {
    for rules in RuleSet::ALL {
        let g = Game::new(rules, Mode::Quick, 4).unwrap();
        let first = g.layout().colours[0].letter();
        let exit = Place::Square(5);
        assert_eq!(place(&g, &format!("{first}1")), exit, "{rules}");
        for k in 2..=4 {
            assert_eq!(place(&g, &format!("{first}{k}")), Place::Home, "{rules}");
        }
        assert_eq!(g.options().pieces_to_win, 2);
    }
}

#[test]
fn six_piece_mode_starts_on_the_first_three_safe_squares_of_each_path() {
    for rules in RuleSet::ALL {
        let g = Game::new(rules, Mode::SixPiece, 2).unwrap();
        for ci in 0..4 {
            let colour = g.layout().colours[ci];
            let exit = 5 + 17 * ci as u8;
            for (k, sq) in [exit, exit + 7, exit + 12].into_iter().enumerate() {
                assert_eq!(
                    place(&g, &format!("{}{}", colour.letter(), k + 1)),
                    Place::Square(sq),
                    "{rules}"
                );
            }
            for k in 4..=6 {
                assert_eq!(place(&g, &format!("{}{k}", colour.letter())), Place::Home);
            }
        }
    }
}

/// « Dans chaque case du parcours, il peut y avoir un maximum de deux jetons » (seed 001), « Jamais plus de deux
/// pions ne peuvent occuper une case » (seed 002). A start the set-up options can describe (for research: the CLI's
/// `--option`) that would put more than two pieces on one square, two colours sharing a path and each starting
/// two pieces on its exit, is refused with a typed error; every other start is a position that round-trips
/// through the notation.
#[test]
fn a_start_that_would_put_more_than_two_pieces_on_a_square_is_refused() {
    let mut o = RuleSet::Morocco.options_for(Mode::OneVsOne);
    o.set("start", "exit2").unwrap();
    let err = Game::with_options(RuleSet::Morocco, Mode::OneVsOne, 2, o).unwrap_err();
    assert_eq!(err, SetupError::TooManyPieces);
    assert_eq!(err.code(), "too_many_pieces");
    for rules in RuleSet::ALL {
        for mode in Mode::ALL {
            for players in mode.players() {
                for start in ["home", "exit1", "exit2", "safe"] {
                    for shared in ["0", "1"] {
                        let mut o = rules.options_for(mode);
                        o.set("start", start).unwrap();
                        o.set("shared_path", shared).unwrap();
                        let what =
                            format!("{rules} {mode}/{players} start={start} shared_path={shared}");
                        match Game::with_options(rules, mode, players, o) {
                            Ok(g) => {
                                let line = g.notation();
                                let back: Game = line
                                    .parse()
                                    .unwrap_or_else(|e| panic!("{what}: {e}: {line}"));
                                assert_eq!(back, g, "{what}");
                            }
                            Err(e) => assert_eq!(e, SetupError::TooManyPieces, "{what}"),
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn three_v_three_is_played_on_the_102_square_board_with_six_exits() {
    let g = Game::new(RuleSet::Ludoteka, Mode::ThreeVsThree, 6).unwrap();
    assert_eq!(g.board().circuit_len(), 102);
    for (c, exit) in [
        ("y", 5),
        ("b", 22),
        ("r", 39),
        ("g", 56),
        ("o", 73),
        ("t", 90),
    ] {
        assert_eq!(place(&g, &format!("{c}1")), Place::Square(exit));
    }
    // Turquoise enters its lane after square 85 (its exit − 5).
    let line = format!(
        "ludoteka 3v3/6 y:h,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h/o:h,h,h,h/t:84,h,h,h 5 roll {FLAGS}"
    );
    let mut g = game(&line);
    g.roll(2).unwrap();
    assert_eq!(g.legal_texts(), vec!["t1:84-l1"]);
}

// ----- who wins -----------------------------------------------------------------------------------------

/// A position where seat 0 rolls a 1 to bring `y_last` home; each colour's pieces given by `pieces`.
fn win_position(rules: RuleSet, mode: Mode, pieces: impl Fn(Colour, u8) -> String) -> Game {
    let players = mode.default_players();
    let base = Game::new(rules, mode, players).unwrap();
    let l = base.layout();
    let parts: Vec<String> = (0..l.n_colours as usize)
        .map(|ci| {
            let c = l.colours[ci];
            let list: Vec<String> = (1..=l.pieces_per_colour).map(|k| pieces(c, k)).collect();
            format!("{}:{}", c.letter(), list.join(","))
        })
        .collect();
    let head = base.notation();
    let head: Vec<&str> = head.split(' ').collect();
    game(&format!(
        "{} {} {} 0 roll {FLAGS}",
        head[0],
        head[1],
        parts.join("/")
    ))
}

/// Rolls a 1 and brings the seat-0 piece on l7 home; returns whether the game was won and by which side.
fn finish(mut g: Game) -> Option<u8> {
    g.roll(1).unwrap();
    let m = g
        .legal_moves()
        .into_iter()
        .find(|m| g.move_text(m).ends_with("l7-goal"))
        .expect("a piece on l7");
    let ev = g.play(m).unwrap();
    ev.iter().find_map(|e| match e {
        Event::GameWon { side } => Some(*side),
        _ => None,
    })
}

/// The colours of seat 0 and of its whole side.
fn seat0_colours(rules: RuleSet, mode: Mode) -> (Vec<Colour>, Vec<Colour>) {
    let g = Game::new(rules, mode, mode.default_players()).unwrap();
    let s = seats(&g);
    let side: Vec<Colour> = s
        .iter()
        .filter(|(side, _)| *side == 0)
        .flat_map(|(_, c)| c.clone())
        .collect();
    (s[0].1.clone(), side)
}

#[test]
fn individual_winner_brings_home_the_four_pieces_of_his_colour() {
    for rules in RuleSet::ALL {
        let (own, _) = seat0_colours(rules, Mode::Individual);
        let g = win_position(rules, Mode::Individual, |c, k| {
            if c == own[0] {
                if k == 4 { "l7".into() } else { "goal".into() }
            } else {
                "h".into()
            }
        });
        assert_eq!(finish(g), Some(0), "{rules}");
        let g = win_position(rules, Mode::Individual, |c, k| {
            if c == own[0] {
                ["goal", "goal", "l7", "h"][k as usize - 1].into()
            } else {
                "h".into()
            }
        });
        assert_eq!(finish(g), None, "{rules}: three pieces are not enough");
    }
}

#[test]
fn quick_mode_is_won_with_two_pieces_home() {
    for rules in RuleSet::ALL {
        let (own, _) = seat0_colours(rules, Mode::Quick);
        let g = win_position(rules, Mode::Quick, |c, k| {
            if c == own[0] {
                ["goal", "l7", "h", "h"][k as usize - 1].into()
            } else {
                "h".into()
            }
        });
        assert_eq!(finish(g), Some(0), "{rules}");
        let g = win_position(rules, Mode::Quick, |c, k| {
            if c == own[0] {
                ["l7", "h", "h", "h"][k as usize - 1].into()
            } else {
                "h".into()
            }
        });
        assert_eq!(finish(g), None, "{rules}: one piece is not enough");
    }
}

#[test]
fn team_modes_are_won_when_every_colour_of_the_side_is_home() {
    for rules in RuleSet::ALL {
        for mode in [Mode::Pairs, Mode::OneVsOne, Mode::ThreeVsThree] {
            let (own, side) = seat0_colours(rules, mode);
            let done = |c: Colour, k: u8| {
                if c == own[0] {
                    if k == 4 {
                        "l7".to_string()
                    } else {
                        "goal".to_string()
                    }
                } else if side.contains(&c) {
                    "goal".to_string()
                } else {
                    "h".to_string()
                }
            };
            assert_eq!(
                finish(win_position(rules, mode, done)),
                Some(0),
                "{rules} {mode}"
            );
            // One colour of the side still out: no win yet.
            let other = *side.iter().find(|&&c| c != own[0]).unwrap();
            let not_done = |c: Colour, k: u8| {
                if c == other && k == 4 {
                    "30".to_string()
                } else {
                    done(c, k)
                }
            };
            assert_eq!(
                finish(win_position(rules, mode, not_done)),
                None,
                "{rules} {mode}"
            );
        }
    }
}

#[test]
fn six_piece_mode_is_won_with_the_six_pieces_of_either_colour() {
    for rules in RuleSet::ALL {
        let (own, _) = seat0_colours(rules, Mode::SixPiece);
        for &colour in &own {
            let g = win_position(rules, Mode::SixPiece, |c, k| {
                if c == colour {
                    if k == 6 { "l7".into() } else { "goal".into() }
                } else {
                    "h".into()
                }
            });
            assert_eq!(finish(g), Some(0), "{rules} {colour}");
        }
    }
}

#[test]
fn a_won_game_refuses_further_rolls() {
    let line = format!(
        "ludoteka individual/4 y:goal,goal,goal,goal/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 1 over:0 {FLAGS}"
    );
    let mut g = game(&line);
    assert_eq!(g.winner(), Some(0));
    assert!(g.roll(4).is_err());
}

// ----- Morocco two players ------------------------------------------------------------------------------

const TWO: &str = "morocco 1v1/2";

#[test]
fn morocco_first_roll_brings_out_the_principal_colour_of_each_seat() {
    let mut g = Game::new(RuleSet::Morocco, Mode::OneVsOne, 2).unwrap();
    g.roll(3).unwrap();
    assert_eq!(g.legal_texts(), vec!["b1:h-8"]);
    g.play(g.parse_move("b1").unwrap()).unwrap();
    g.roll(4).unwrap();
    assert_eq!(g.legal_texts(), vec!["g1:h-43"]);
}

#[test]
fn morocco_yellow_comes_out_on_blue_exit_and_red_on_green_exit() {
    let mut g = game(&format!(
        "{TWO} b:30,h,h,h/y:h,h,h,h/g:50,h,h,h/r:h,h,h,h 0 roll {FLAGS}"
    ));
    g.roll(5).unwrap();
    let mut l = g.legal_texts();
    l.sort();
    assert_eq!(l, vec!["b2:h-5", "y1:h-5"]);
    let mut g = game(&format!(
        "{TWO} b:30,h,h,h/y:h,h,h,h/g:50,h,h,h/r:h,h,h,h 1 roll {FLAGS}"
    ));
    g.roll(5).unwrap();
    let mut l = g.legal_texts();
    l.sort();
    assert_eq!(l, vec!["g2:h-39", "r1:h-39"]);
}

#[test]
fn morocco_blue_and_yellow_go_home_by_the_blue_lane() {
    let mut g = game(&format!(
        "{TWO} b:h,h,h,h/y:67,h,h,h/g:h,h,h,h/r:33,h,h,h 0 roll {FLAGS}"
    ));
    g.roll(3).unwrap();
    assert_eq!(g.legal_texts(), vec!["y1:67-l2"]);
    let mut g = game(&format!(
        "{TWO} b:h,h,h,h/y:67,h,h,h/g:h,h,h,h/r:33,h,h,h 1 roll {FLAGS}"
    ));
    g.roll(3).unwrap();
    assert_eq!(g.legal_texts(), vec!["r1:33-l2"]);
}

#[test]
fn morocco_blue_and_yellow_in_the_shared_lane_form_a_blockade() {
    let mut g = game(&format!(
        "{TWO} b:l2,65,h,h/y:l2',h,h,h/g:h,h,h,h/r:h,h,h,h 0 roll {FLAGS}"
    ));
    assert!(g.in_blockade(g.layout().piece_of_ref("b1".parse().unwrap()).unwrap()));
    g.roll(6).unwrap();
    let l = g.legal_texts();
    assert!(!l.contains(&"b2:65-l3".to_string()), "{l:?}");
    assert!(l.contains(&"b1:l2-goal".to_string()));
}

//! The position notation round-trips, and bad notation gets a precise error instead of a panic.

use parchis_rules::{Game, Mode, RuleSet};

#[test]
fn every_start_position_round_trips_through_the_notation() {
    for r in RuleSet::ALL {
        for m in Mode::ALL {
            for p in m.players() {
                let g = Game::new(r, m, p).unwrap();
                let line = g.notation();
                let back: Game = line.parse().unwrap_or_else(|e| panic!("{e}: {line}"));
                assert_eq!(back, g, "{line}");
                assert_eq!(back.notation(), line);
            }
        }
    }
}

#[test]
fn house_rule_options_are_written_in_brackets_and_read_back() {
    let mut o = RuleSet::Playgridia.options();
    o.capture_allies = true;
    o.goal_bonus = 20;
    let g = Game::with_options(RuleSet::Playgridia, Mode::Pairs, 4, o).unwrap();
    let line = g.notation();
    assert!(
        line.starts_with("playgridia[goal_bonus=20,capture_allies=1] pairs/4 "),
        "{line}"
    );
    assert_eq!(line.parse::<Game>().unwrap().options(), &o);
}

#[test]
fn bad_notation_is_refused_with_a_reason() {
    let start = Game::new(RuleSet::Playgridia, Mode::Individual, 4)
        .unwrap()
        .notation();
    let cases: Vec<(String, &str)> = vec![
        ("".into(), "expected 6"),
        (start.replace("playgridia", "chess"), "unknown rule set"),
        (start.replace("individual/4", "individual/7"), "players"),
        (start.replace("individual/4", "duel/2"), "unknown mode"),
        (start.replace("y:h,h,h,h", "y:h,h,h"), "needs 4 pieces"),
        (start.replace("y:h,h,h,h", "y:h,h,h,99"), "cannot be on 99"),
        (start.replace("y:h,h,h,h", "y:h,h,h,zz"), "bad place"),
        (start.replace("y:h,h,h,h", "y:h,h,h,2"), "cannot be on 2"),
        (start.replace("y:h,h,h,h", "y:30,30,30,h"), "more than two"),
        (
            start.replace("y:h,h,h,h", "y:30,30,h,h"),
            "mark the last arrived",
        ),
        (start.replace("y:h,h,h,h", "x:h,h,h,h"), "unknown colour"),
        (start.replace(" 0 roll", " 9 roll"), "seat 9"),
        (start.replace(" 0 roll", " 0 move:9"), "die"),
        (start.replace(" 0 roll", " 0 move:3"), "none is legal"),
        (start.replace(" 0 roll", " 0 dance"), "bad phase"),
        (start.replace("sixes=0", "sixes=3"), "two sixes"),
        (
            start.replace("y:h,h,h,h", "y:goal,goal,goal,goal"),
            "must be over",
        ),
        (start.replace(" 0 roll", " 0 over:1"), "has not"),
        (
            start.replace("playgridia", "playgridia[colour=blue]"),
            "no such option",
        ),
    ];
    for (line, reason) in cases {
        match line.parse::<Game>() {
            Ok(_) => panic!("accepted: {line}"),
            Err(e) => assert!(
                e.to_string().contains(reason),
                "`{line}` gave `{e}`, expected `{reason}`"
            ),
        }
    }
}

#[test]
fn move_texts_round_trip_through_parse_move() {
    let mut g: Game = "playgridia individual/4 y:20,h,h,l6/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-"
        .parse()
        .unwrap();
    g.roll(2).unwrap();
    for m in g.legal_moves() {
        let text = g.move_text(&m);
        assert_eq!(g.parse_move(&text).unwrap(), m, "{text}");
    }
    assert_eq!(g.legal_texts().len(), 2);
    assert!(
        g.parse_move("y1").is_ok(),
        "a piece with one legal move may be named alone"
    );
    assert!(g.parse_move("q1:1-2").is_err());
    assert!(g.parse_move("y1:20").is_err());
    assert!(g.parse_move("y9").is_err());
}

#[test]
fn a_move_text_from_a_square_the_piece_is_not_on_is_refused_even_when_its_destination_is_legal() {
    let mut g: Game = "playgridia individual/4 y:20,h,h,l6/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-"
        .parse()
        .unwrap();
    g.roll(2).unwrap();
    assert!(g.parse_move("y1:20-22").is_ok());
    let err = g.parse_move("y1:5-22").unwrap_err();
    assert_eq!(err.code(), "piece_not_there");
    assert_eq!(err.to_string(), "piece `y1` is on 20, not on 5");
}

/// RULES.md, FLAGS: `extra=0|1`. Any other text was read as 0, so `extra=yes` or `extra=true` (the spellings
/// option flags accept) silently dropped a pending re-roll and came back as `extra=0`: it is refused instead.
#[test]
fn the_extra_roll_flag_is_read_only_as_0_or_1() {
    let line = "playgridia individual/4 y:20,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 count:20 sixes=1,last=y1,six=y1,extra=1,first=-";
    let g: Game = line.parse().unwrap();
    assert_eq!(g.notation(), line, "extra=1 round-trips");
    for bad in ["extra=yes", "extra=true", "extra=", "extra=2"] {
        let text = line.replace("extra=1", bad);
        match text.parse::<Game>() {
            Ok(g) => panic!("accepted `{text}` as `{g}`"),
            Err(e) => assert!(
                e.to_string().contains("extra must be 0 or 1"),
                "{text}: {e}"
            ),
        }
    }
}

/// A flag or an option written twice used to be read as its last value without a word (`sixes=2,…,sixes=0`
/// was a position with no six pending): the line says two things, so it is refused.
#[test]
fn a_flag_or_an_option_given_twice_is_refused() {
    let start = Game::new(RuleSet::Playgridia, Mode::Individual, 4)
        .unwrap()
        .notation();
    for (line, reason) in [
        (
            start.replace("first=-", "first=-,sixes=2"),
            "flag `sixes` is given twice",
        ),
        (
            start.replace("playgridia", "playgridia[six=6,goal_bonus=0,six=12]"),
            "option `six` is given twice",
        ),
    ] {
        let err = line.parse::<Game>().unwrap_err();
        assert_eq!(err.code(), "bad_position");
        assert!(err.to_string().contains(reason), "`{line}` gave `{err}`");
    }
}

/// Waiting for a roll, a six's re-roll is that roll: rolling sets the flag afresh, so `extra=1` there played
/// exactly as `extra=0` but was another position (unequal, written back differently). Refused.
#[test]
fn a_pending_re_roll_is_refused_while_waiting_for_a_roll() {
    let line = "playgridia individual/4 y:20,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 roll sixes=1,last=y1,six=y1,extra=1,first=-";
    let err = line.parse::<Game>().unwrap_err();
    assert!(err.to_string().contains("extra=1"), "{err}");
    assert!(line.replace("extra=1", "extra=0").parse::<Game>().is_ok());
}

/// Input is read more loosely than it is written (RULES.md, "Position notation"): every spelling of one
/// position parses to the same game, and that game writes one text.
#[test]
fn every_accepted_spelling_of_a_position_parses_to_one_game_written_one_way() {
    let canonical = "playgridia[six=6,capture_allies=1] individual/4 y:5,l1,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 1 roll sixes=0,last=-,six=-,extra=0,first=-";
    let spellings = [
        canonical,
        // Whitespace: any run, leading and trailing too (a line read from a file keeps its newline).
        "  playgridia[six=6,capture_allies=1]\tindividual/4  y:5,l1,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 1 roll sixes=0,last=-,six=-,extra=0,first=-\n",
        // Options in any order, flag values as `yes`, and a value equal to the preset's.
        "playgridia[capture_allies=yes,six=6,goal_bonus=10] individual/4 y:5,l1,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 1 roll sixes=0,last=-,six=-,extra=0,first=-",
        // Leading zeros, a plus sign.
        "playgridia[six=6,capture_allies=1] individual/04 y:05,l01,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h +1 roll sixes=0,last=-,six=-,extra=0,first=-",
        // Flags in any order, and flags left out take their start-of-turn values.
        "playgridia[six=6,capture_allies=1] individual/4 y:5,l1,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 1 roll first=-,extra=0,six=-,last=-,sixes=0",
        "playgridia[six=6,capture_allies=1] individual/4 y:5,l1,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 1 roll sixes=0",
    ];
    let game: Game = canonical.parse().unwrap();
    assert_eq!(game.notation(), canonical);
    for text in spellings {
        let g: Game = text.parse().unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(g, game, "{text}");
        assert_eq!(g.notation(), canonical, "{text}");
    }
    // Morocco's pending first rolls: any order, written in seat order.
    let m = "morocco individual/4 b:h,h,h,h/y:h,h,h,h/g:h,h,h,h/r:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=0123";
    let g: Game = m.replace("0123", "3102").parse().unwrap();
    assert_eq!(g.notation(), m);
}

/// A message quotes what it could not read, but not a whole pasted file: a field of 100 000 characters gives
/// a message of one short line.
#[test]
fn a_huge_bad_field_gives_a_short_message() {
    let start = Game::new(RuleSet::Playgridia, Mode::Individual, 4)
        .unwrap()
        .notation();
    let huge = "x".repeat(100_000);
    for line in [
        start.replace("playgridia", &huge),
        start.replace("individual", &huge),
        start.replace("g:h,h,h,h", &format!("g:h,h,h,{huge}")),
        start.replace("first=-", &format!("first=-,{huge}=1")),
        start.replace("playgridia", &format!("playgridia[{huge}=1]")),
    ] {
        let err = line.parse::<Game>().unwrap_err().to_string();
        assert!(
            err.len() < 200,
            "{} characters: {}…",
            err.len(),
            &err[..200]
        );
        assert!(!err.contains('\n'));
    }
    let mut g = Game::new(RuleSet::Playgridia, Mode::Individual, 4).unwrap();
    g.roll(5).unwrap();
    let err = g.parse_move(&format!("y1:{huge}")).unwrap_err().to_string();
    assert!(err.len() < 200, "{err:.200}");
}

//! House rules: the options of play a table may change on top of a preset, what values they take, and
//! that games played with them follow them (random combinations are in `random_games.rs`).

mod common;

use common::*;
use parchis_rules::{Event, Game, Mode, OptionValues, Options, Phase, Place, RuleSet};

fn house(
    rules: RuleSet,
    changes: &[(&str, &str)],
) -> Result<Options, parchis_rules::options::OptionError> {
    rules
        .options_for(Mode::Individual)
        .with_house_rules(changes.iter().copied())
}

#[test]
fn every_value_an_option_offers_is_accepted_and_read_back() {
    for name in Options::NAMES {
        let values = Options::values(name).unwrap_or_else(|| panic!("{name} offers no values"));
        let texts: Vec<String> = match values {
            OptionValues::Flag => vec!["0".into(), "1".into()],
            OptionValues::OneOf(texts) => texts.iter().map(|t| t.to_string()).collect(),
            OptionValues::Number { min, max } => {
                let mut o = RuleSet::Playgridia.options();
                for out in [min.checked_sub(1), max.checked_add(1)]
                    .into_iter()
                    .flatten()
                {
                    assert!(
                        o.set(name, &out.to_string()).is_err(),
                        "{name}={out} accepted"
                    );
                }
                vec![min.to_string(), max.to_string()]
            }
        };
        for text in texts {
            let mut o = RuleSet::Playgridia.options();
            o.set(name, &text).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(o.get(name).as_deref(), Some(text.as_str()), "{name}");
        }
    }
    assert_eq!(Options::values("no_such_option"), None);
}

#[test]
fn house_rules_change_the_rules_of_play_and_nothing_else() {
    assert_eq!(Options::house_rules().count(), 15);
    for name in Options::house_rules() {
        assert!(Options::NAMES.contains(&name), "{name}");
    }
    let o = house(
        RuleSet::Playgridia,
        &[("capture_bonus", "10"), ("three_sixes", "off")],
    )
    .unwrap();
    assert_eq!((o.capture_bonus, o.goal_bonus), (10, 10));
    assert_eq!(o.three_sixes, parchis_rules::Penalty::Off);
    for setup in [
        "pieces_per_colour",
        "start",
        "pieces_to_win",
        "win",
        "shared_path",
    ] {
        assert!(!Options::house_rules().any(|n| n == setup));
        let value = RuleSet::Playgridia.options().get(setup).unwrap();
        let err = house(RuleSet::Playgridia, &[(setup, &value)]).unwrap_err();
        assert!(err.to_string().contains("set-up"), "{setup}: {err}");
    }
    let err = house(RuleSet::Playgridia, &[("capture_bonnus", "10")]).unwrap_err();
    assert_eq!(err.reason, "no such option");
    let err = house(RuleSet::Playgridia, &[("capture_bonus", "100")]).unwrap_err();
    assert_eq!(err.key, "capture_bonus");
    let err = house(RuleSet::Playgridia, &[("six", "8")]).unwrap_err();
    assert!(
        err.to_string()
            .contains("expected 6, 7player, 7colour or 12"),
        "{err}"
    );
}

#[test]
fn a_house_capture_bonus_of_ten_counts_ten_for_a_capture() {
    let mut g = game(
        "playgridia[capture_bonus=10] individual/4 y:20,40,h,h/b:23,h,h,h/r:h,h,h,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-",
    );
    roll(&mut g, 3);
    let ev = play(&mut g, "y1:20-23");
    assert!(captured(&ev, "b1"));
    assert_eq!(g.phase(), Phase::Count { amount: 10 });
    assert_legal(&g, &["y1:23-33", "y2:40-50"]);
}

#[test]
fn without_the_three_sixes_penalty_a_third_six_is_an_ordinary_six_that_rolls_again() {
    let options = house(RuleSet::Playgridia, &[("three_sixes", "off")]).unwrap();
    let mut g = Game::with_options(RuleSet::Playgridia, Mode::Individual, 4, options).unwrap();
    g = game(&g.notation().replace("y:h,h,h,h", "y:20,h,h,h"));
    for (k, to) in [26, 32, 38, 44].into_iter().enumerate() {
        let ev = roll(&mut g, 6);
        assert!(
            !has(&ev, |e| matches!(e, Event::ThreeSixes { .. })),
            "six {}",
            k + 1
        );
        play(&mut g, &format!("y1:{}-{to}", to - 6));
        assert_eq!(g.seat(), 0, "six {} rolls again", k + 1);
        assert_eq!(g.sixes_in_a_row(), (k as u8 + 1).min(2));
        // What the notation holds plays on exactly the same.
        assert_eq!(g.notation().parse::<Game>().unwrap(), g);
    }
    assert_eq!(place(&g, "y1"), Place::Square(44));
    roll(&mut g, 2);
    play(&mut g, "y1:44-46");
    assert_eq!(g.seat(), 1);
}

#[test]
fn a_house_rule_game_says_its_house_rules_in_its_notation() {
    let options = house(
        RuleSet::Ludoteka,
        &[("goal_bonus", "0"), ("capture_allies", "0")],
    )
    .unwrap();
    let g = Game::with_options(RuleSet::Ludoteka, Mode::Individual, 4, options).unwrap();
    assert!(
        g.notation()
            .starts_with("ludoteka[goal_bonus=0,capture_allies=0] individual/4 "),
        "{}",
        g.notation()
    );
    assert_eq!(g.notation().parse::<Game>().unwrap(), g);
}

/// `Options` has public fields, so a caller of `Game::with_options` can build values that `Options::set` (and
/// `Options::values`) never offer. They are refused with the option named (`bad_option`), as `set` refuses
/// their text, instead of a game that divides by zero (`pieces_per_colour=0`), overflows a square number (a
/// count of 250 from square 20) or starts three pieces on an exit (`start=exit3`).
#[test]
fn options_outside_their_values_are_refused_with_a_typed_error_not_a_panic() {
    use parchis_rules::{SetupError, Start};
    let base = RuleSet::Playgridia.options_for(Mode::Individual);
    let cases: [(&str, Options); 6] = [
        (
            "pieces_per_colour",
            Options {
                pieces_per_colour: 0,
                ..base
            },
        ),
        (
            "pieces_per_colour",
            Options {
                pieces_per_colour: 5,
                ..base
            },
        ),
        (
            "capture_bonus",
            Options {
                capture_bonus: 250,
                ..base
            },
        ),
        (
            "goal_bonus",
            Options {
                goal_bonus: 41,
                ..base
            },
        ),
        (
            "start",
            Options {
                start: Start::OnExit(3),
                ..base
            },
        ),
        (
            "start",
            Options {
                start: Start::OnExit(0),
                ..base
            },
        ),
    ];
    for (key, options) in cases {
        let err = std::panic::catch_unwind(|| {
            Game::with_options(RuleSet::Playgridia, Mode::Individual, 4, options)
        })
        .unwrap_or_else(|_| panic!("{key}: panicked"))
        .expect_err(key);
        assert!(
            matches!(&err, SetupError::Option(e) if e.key == key),
            "{key}: {err}"
        );
        assert_eq!(err.code(), "bad_option");
    }
    // The values `set` offers all build a game (pieces_to_win is checked against pieces_per_colour apart).
    for (ppc, bonus, start) in [(4, 0, Start::Home), (6, 40, Start::OnExit(2))] {
        let o = Options {
            pieces_per_colour: ppc,
            capture_bonus: bonus,
            goal_bonus: bonus,
            start,
            ..base
        };
        assert!(Game::with_options(RuleSet::Playgridia, Mode::Individual, 4, o).is_ok());
    }
}

#[test]
fn a_views_options_read_as_house_rules_and_can_be_sent_back_as_them() {
    for rules in RuleSet::ALL {
        for mode in Mode::ALL {
            let Ok(game) = Game::new(rules, mode, mode.default_players()) else {
                continue;
            };
            let options = *game.options();
            let json = serde_json::to_value(game.view()).unwrap()["options"].clone();
            let object = json.as_object().expect("options are an object");
            let mut names = Options::NAMES.to_vec();
            names.sort();
            assert_eq!(
                object.keys().map(String::as_str).collect::<Vec<_>>(),
                names,
                "{rules} {mode}: every option by its name"
            );
            let mut texts = Vec::new();
            for (name, value) in object {
                let text = match value {
                    serde_json::Value::Bool(on) => if *on { "1" } else { "0" }.to_owned(),
                    serde_json::Value::Number(n) => n.to_string(),
                    serde_json::Value::String(s) => s.clone(),
                    other => panic!("{rules} {mode}: {name} is {other}"),
                };
                assert_eq!(
                    Some(text.clone()),
                    options.get(name),
                    "{rules} {mode}: {name} reads as the notation writes it"
                );
                texts.push((name.as_str(), text));
            }
            let back: Options = serde_json::from_value(json.clone()).unwrap();
            assert_eq!(back, options, "{rules} {mode}: the JSON reads back");
            // A table that likes these rules asks for them on another rule set of the same set-up.
            let other = RuleSet::ALL.into_iter().find(|o| *o != rules).unwrap();
            let mut base = other.options_for(mode);
            for name in Options::SET_UP {
                base.set(name, &options.get(name).unwrap()).unwrap();
            }
            let house = texts
                .iter()
                .filter(|(name, _)| !Options::SET_UP.contains(name))
                .map(|(name, text)| (*name, text.as_str()));
            assert_eq!(
                base.with_house_rules(house),
                Ok(options),
                "{rules} {mode}: the view's values, sent back as house rules on {other}"
            );
        }
    }
    let playgridia = serde_json::to_value(RuleSet::Playgridia.options()).unwrap();
    assert_eq!(playgridia["six"], "7player");
    assert_eq!(playgridia["three_sixes"], "last");
    assert_eq!(playgridia["exit_capture"], "full");
    assert_eq!(playgridia["start"], "home");
    assert_eq!(playgridia["pieces_per_colour"], 4);
    assert_eq!(playgridia["capture_bonus"], 20);
    assert_eq!(playgridia["exit_mandatory"], true);
}

#[test]
fn options_json_that_names_an_unknown_missing_or_doubled_option_or_a_bad_value_is_refused() {
    let good = serde_json::to_value(RuleSet::Ludoteka.options()).unwrap();
    let mut unknown = good.clone();
    unknown["turbo"] = serde_json::json!(true);
    let mut missing = good.clone();
    missing.as_object_mut().unwrap().remove("goal_bonus");
    let mut bad = good.clone();
    bad["six"] = serde_json::json!("8");
    let mut too_big = good.clone();
    too_big["capture_bonus"] = serde_json::json!(300);
    for (json, says) in [
        (unknown, "no option is named `turbo`"),
        (missing, "option `goal_bonus` is missing"),
        (bad, "expected 6, 7player, 7colour or 12"),
        (too_big, "number out of range"),
    ] {
        let err = serde_json::from_value::<Options>(json)
            .unwrap_err()
            .to_string();
        assert!(err.contains(says), "{err}");
    }
    let doubled = r#"{"start": "home", "start": "home"}"#;
    let err = serde_json::from_str::<Options>(doubled)
        .unwrap_err()
        .to_string();
    assert!(err.contains("option `start` given twice"), "{err}");
    assert_eq!(
        serde_json::from_value::<Options>(good).unwrap(),
        RuleSet::Ludoteka.options()
    );
}

//! The `parchis` command as a user runs it: output on success, a clear message and a non-zero exit on bad input.

use std::process::{Command, Output};

fn parchis(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parchis"))
        .args(args)
        .output()
        .expect("run parchis")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const START: &str = "playgridia individual/4 y:h,h,h,h/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 0 roll sixes=0,last=-,six=-,extra=0,first=-";

#[test]
fn new_prints_the_start_position() {
    let o = parchis(&["new", "--rules", "playgridia", "--mode", "individual"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).trim(), START);
    let o = parchis(&["new", "--rules", "ludoteka", "--mode", "3v3"]);
    assert!(
        stdout(&o).contains("y:5,5',h,h/b:22,22',h,h"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn new_refuses_a_mode_with_the_wrong_player_count() {
    let o = parchis(&[
        "new",
        "--rules",
        "playgridia",
        "--mode",
        "pairs",
        "--players",
        "3",
    ]);
    assert!(!o.status.success());
    assert_eq!(
        stderr(&o),
        "error: pairs is played by 4 players, not 3\n",
        "one line, no Rust range"
    );
    let o = parchis(&[
        "new",
        "--rules",
        "playgridia",
        "--mode",
        "individual",
        "--players",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: individual is played by 2 to 4 players, not 1\n"
    );
}

#[test]
fn legal_lists_moves_after_rolling_the_given_die() {
    let pos = START.replace("y:h,h,h,h", "y:h,h,h,20");
    let o = parchis(&["legal", &pos, "--die", "5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "y1:h-5");
    let o = parchis(&["legal", &pos, "--die", "3", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["moves"][0]["text"], "y4:20-23");
}

#[test]
fn bot_prints_the_move_a_bot_picks_among_the_legal_ones_the_same_for_the_same_seed() {
    // Yellow rolls a 3 with pieces on 20 and 30 and blue alone on 23: capturing (count 20) is the
    // obvious move, and the greedy and expert bots both see it.
    let pos = START
        .replace("y:h,h,h,h", "y:20,30,h,h")
        .replace("b:h,h,h,h", "b:23,h,h,h");
    for level in ["greedy", "expert"] {
        let o = parchis(&["bot", &pos, "--die", "3", "--level", level]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(stdout(&o).trim(), "y1:20-23", "{level}");
    }
    let legal = stdout(&parchis(&["legal", &pos, "--die", "3"]));
    let pick = |seed: &str| {
        let o = parchis(&[
            "bot", &pos, "--die", "3", "--level", "random", "--seed", seed,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o).trim().to_owned()
    };
    let first = pick("7");
    assert!(legal.lines().any(|l| l == first), "{first} in {legal}");
    assert_eq!(pick("7"), first);
    let o = parchis(&["bot", &pos, "--die", "3", "--level", "grandmaster"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("grandmaster"), "{}", stderr(&o));
    let o = parchis(&["bot", &pos]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--die"));
}

#[test]
fn legal_without_a_die_on_a_position_waiting_for_a_roll_says_so() {
    let o = parchis(&["legal", START]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--die"));
}

#[test]
fn play_prints_events_and_the_new_position() {
    let pos = START.replace("y:h,h,h,h", "y:h,h,h,20");
    let o = parchis(&["play", &pos, "5", "y1:h-5", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains(r#""type":"moved""#), "{out}");
    // Every line is JSON, the position too (it was the one plain line, which broke a line-by-line reader).
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: not JSON: {l}")))
        .collect();
    assert_eq!(
        lines.last().unwrap()["position"],
        "playgridia individual/4 y:5,h,h,20/b:h,h,h,h/r:h,h,h,h/g:h,h,h,h 1 roll sixes=0,last=-,six=-,extra=0,first=-"
    );
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|e| e["type"].is_string())
    );
}

#[test]
fn play_reads_a_die_as_a_die_whatever_its_value() {
    // A number past 255 was read as a move text ("cannot read move `300`").
    let o = parchis(&["play", START, "300"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "error: 300: a die shows 1 to 6, not 300\n");
    // And `--die 256` said "256 is not in 0..=255".
    let o = parchis(&["legal", START, "--die", "256"]);
    assert_eq!(stderr(&o), "error: a die shows 1 to 6, not 256\n");
    // A stray space (a shell variable, a copied cell) is not part of the action.
    let o = parchis(&["play", START, " 5", "y1:h-5 "]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn play_says_to_roll_first_when_given_a_move_before_the_die() {
    for mv in ["y1", "y1:h-5"] {
        let o = parchis(&["play", START, mv]);
        assert_eq!(o.status.code(), Some(2));
        // `y1` said "piece `y1` has no legal move now".
        assert_eq!(stderr(&o), format!("error: {mv}: roll the die first\n"));
    }
}

#[test]
fn play_continues_from_a_move_copied_out_of_legal() {
    let pos = START.replace("y:h,h,h,h", "y:h,h,h,20");
    let o = parchis(&["legal", &pos, "--die", "3"]);
    let copied = stdout(&o).lines().next().unwrap().to_owned();
    let o = parchis(&["play", &pos, "3", &copied]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("y4 20 → 23"), "{}", stdout(&o));
}

#[test]
fn a_huge_argument_gives_a_one_line_message() {
    let huge = "y1:".to_owned() + &"9".repeat(100_000);
    let o = parchis(&["play", START, "5", &huge]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.len() < 300 && err.lines().count() == 1, "{err:.300}");
}

#[test]
fn legal_and_bot_on_a_finished_game_say_it_is_over() {
    let over = START
        .replace("y:h,h,h,h", "y:goal,goal,goal,goal")
        .replace(" 0 roll", " 0 over:0");
    // It used to say "the roll passed".
    let o = parchis(&["legal", &over]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o), "no legal move: the game is over (side 0 won)\n");
    let o = parchis(&["bot", &over]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: no legal move: the game is over (side 0 won)\n"
    );
}

#[test]
fn play_tells_what_happened_one_line_each_in_the_notations_spelling() {
    // Yellow captures a lone blue piece off the safe squares, plays the count of 20, and blue finds no move.
    let pos = START.replace("y:h,h,h,h/b:h,h,h,h", "y:h,h,h,20/b:23,h,h,h");
    let o = parchis(&["play", &pos, "3", "y4", "y4", "6"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..lines.len() - 1],
        [
            "seat 0 rolls 3",
            "y4 20 → 23",
            "y4 captures b1 on 23",
            "seat 0 earns a count of 20",
            "y4 23 → 43 (count of 20)",
            "seat 1 to roll",
            "seat 1 rolls 6",
            "seat 1 has no move with 6",
            "seat 1 rolls again",
        ],
        "{out}"
    );
    assert!(
        lines[lines.len() - 1].contains("y:h,h,h,43/b:h,h,h,h"),
        "{out}"
    );
}

#[test]
fn play_refuses_an_illegal_move_naming_the_rule() {
    let pos = START.replace("y:h,h,h,h", "y:h,h,h,20");
    let o = parchis(&["play", &pos, "5", "y4:20-25"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bringing it out is the only legal move"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_notation_is_a_clear_error() {
    let o = parchis(&["legal", "playgridia individual/4 nonsense", "--die", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("invalid position"), "{}", stderr(&o));
}

#[test]
fn simulate_reports_speed_and_wins_by_seat() {
    let o = parchis(&[
        "simulate", "--rules", "morocco", "--mode", "1v1", "--games", "50", "--seed", "3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for line in [
        "games/s:",
        "moves/s:",
        "moves per game:",
        "wins seat 0 (blue+yellow)",
        "wins seat 1 (green+red)",
    ] {
        assert!(out.contains(line), "missing `{line}` in {out}");
    }
    let wins: u32 = out
        .lines()
        .filter(|l| l.starts_with("wins"))
        .map(|l| {
            l.split(": ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse::<u32>()
                .unwrap()
        })
        .sum();
    assert_eq!(wins, 50, "every game has a winner");
    let again = parchis(&[
        "simulate", "--rules", "morocco", "--mode", "1v1", "--games", "50", "--seed", "3",
    ]);
    let wins_line = |s: &str| {
        s.lines()
            .filter(|l| l.starts_with("wins"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        wins_line(&out),
        wins_line(&stdout(&again)),
        "the same seed gives the same games"
    );
}

#[test]
fn simulate_json_gives_the_same_totals_as_the_text() {
    let args = [
        "simulate",
        "--rules",
        "playgridia",
        "--mode",
        "pairs",
        "--games",
        "300",
        "--seed",
        "4",
    ];
    let text = stdout(&parchis(&args));
    let o = parchis(&[&args[..], &["--json"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
    assert_eq!(json["rules"], "playgridia");
    assert_eq!(json["mode"], "pairs");
    assert_eq!(json["games"], 300);
    assert!(json["games_per_second"].as_f64().unwrap() > 0.0);
    let wins = json["wins"].as_array().unwrap();
    assert_eq!(wins.len(), 2, "two teams");
    assert_eq!(
        wins[0]["seats"][1]["colours"][0], "red",
        "yellow's partner sits opposite"
    );
    let total: u64 = wins.iter().map(|w| w["games"].as_u64().unwrap()).sum();
    assert_eq!(total, 300, "every game has a winner");
    let first = format!("wins seat 0 (yellow), seat 2 (red): {} (", wins[0]["games"]);
    assert!(text.contains(&first), "the text says `{first}`: {text}");
    let per_game = format!(
        "moves per game: {:.1}",
        json["moves_per_game"].as_f64().unwrap()
    );
    assert!(text.contains(&per_game), "{per_game} in {text}");
}

#[test]
fn simulate_plays_the_same_games_on_any_number_of_threads() {
    let totals = |threads: &str| {
        let o = parchis(&[
            "simulate",
            "--rules",
            "playgridia",
            "--mode",
            "quick",
            "--games",
            "2500",
            "--seed",
            "9",
            "--threads",
            threads,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains(&format!("threads={threads}")), "{out}");
        out.lines()
            .filter(|l| l.starts_with("wins") || l.starts_with("moves per game"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let one = totals("1");
    assert!(one.contains("wins seat 3"), "{one}");
    assert_eq!(
        one,
        totals("3"),
        "three threads play the same 2,500 games as one"
    );
}

#[test]
fn simulate_refuses_an_absurd_thread_count_with_a_clear_message() {
    let o = parchis(&[
        "simulate",
        "--rules",
        "playgridia",
        "--mode",
        "quick",
        "--games",
        "10",
        "--threads",
        "100000",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not in 0..=1024"), "{}", stderr(&o));
}

#[test]
fn arena_prints_win_rates_for_each_seat() {
    let o = parchis(&[
        "arena",
        "--rules",
        "playgridia",
        "--mode",
        "1v1",
        "--bots",
        "greedy,random",
        "--games",
        "20",
        "--seed",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("greedy") && out.contains("random"), "{out}");
    assert!(out.contains('%'), "{out}");
    let o = parchis(&[
        "arena",
        "--rules",
        "playgridia",
        "--mode",
        "1v1",
        "--bots",
        "greedy,wizard",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("wizard"), "{}", stderr(&o));
}

#[test]
fn perft_counts_the_sequences_of_each_length_and_divides_them_by_the_first_roll() {
    let o = parchis(&["perft", START, "--depth", "3", "--divide"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let counts: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("depth "))
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(counts, ["6", "31", "161"], "{out}");
    // Only a 5 brings a piece out: after it, one move and then blue's roll (6); every other face, 31.
    assert!(
        out.contains("roll 5: 6\n") && out.contains("roll 1: 31\n"),
        "{out}"
    );
}

#[test]
fn perft_refuses_a_depth_out_of_range_and_bad_notation() {
    let o = parchis(&["perft", START, "--depth", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--depth is 1 to"), "{}", stderr(&o));
    let o = parchis(&["perft", "chess", "--depth", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("error:"), "{}", stderr(&o));
}

/// Every option of every command says what it is for in `--help` (`arena --rules` and `--games`,
/// `simulate --seed` and others printed a bare name).
#[test]
fn every_option_of_every_command_is_explained_in_help() {
    for command in [
        "new", "legal", "play", "view", "simulate", "verify", "arena", "perft", "bot", "engine",
    ] {
        let o = parchis(&[command, "--help"]);
        assert!(o.status.success());
        let help = stdout(&o);
        let lines: Vec<&str> = help.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let t = line.trim_start();
            let is_option = t.starts_with("--") || t.starts_with("-h") || t.starts_with("-V");
            let is_argument = line.starts_with("  <");
            if !(is_option || is_argument) {
                continue;
            }
            // Long help puts the text on the next lines, indented deeper; a bare name has nothing there
            // but a default.
            let described = lines.get(i + 1).is_some_and(|next| {
                let n = next.trim();
                !n.is_empty() && !n.starts_with('[') && !n.starts_with('-')
            }) || t.split("  ").filter(|p| !p.trim().is_empty()).count() > 1;
            assert!(described, "`parchis {command} --help`: `{t}` says nothing");
        }
    }
}

#[test]
fn verify_tells_a_file_that_is_not_a_game_record_from_a_dishonest_one() {
    use std::io::Write;
    let run = |input: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_parchis"))
            .args(["verify", "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    // Any JSON that is not a record was called a DISHONEST record.
    for input in ["{}", "[1, 2]", r#"{"rules": "playgridia"}"#] {
        let o = run(input);
        assert_eq!(o.status.code(), Some(2));
        let err = stderr(&o);
        assert!(!err.contains("DISHONEST"), "{input}: {err}");
        assert!(err.contains("not a game record"), "{input}: {err}");
    }
    // A game still being played has not revealed its seed: nothing to check yet, nothing dishonest.
    let unfinished = r#"{"settings": {"rules": "playgridia", "mode": "individual", "players": 4},
        "seed": null, "seed_hash": "00", "log": [], "finished_at": null}"#;
    let o = run(unfinished);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(!err.contains("DISHONEST"), "{err}");
    assert!(err.contains("not finished"), "{err}");
}

/// The `--json` outputs have the fields README.md lists, no more, no fewer: scripts rely on them.
#[test]
fn json_outputs_have_the_fields_the_readme_lists() {
    let keys = |v: &serde_json::Value| -> Vec<String> {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let pos = START.replace("y:h,h,h,h", "y:h,h,h,20");
    let o = parchis(&["legal", &pos, "--die", "5", "--json"]);
    let legal: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(keys(&legal), ["moves", "phase", "position", "seat"]);
    assert_eq!(
        legal["phase"],
        serde_json::json!({"phase": "move", "die": 5})
    );
    assert_eq!(
        keys(&legal["moves"][0]),
        [
            "blockade", "bonus", "captures", "from", "goal", "piece", "safe", "text", "to"
        ]
    );
    assert_eq!(
        legal["moves"][0]["from"],
        serde_json::json!({"kind": "home"})
    );
    assert_eq!(
        legal["moves"][0]["to"],
        serde_json::json!({"kind": "square", "at": 5})
    );
    let o = parchis(&[
        "simulate", "--rules", "ludoteka", "--mode", "pairs", "--games", "5", "--json",
    ]);
    let sim: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        keys(&sim),
        [
            "games",
            "games_per_second",
            "mode",
            "moves_per_game",
            "moves_per_second",
            "players",
            "rolls_per_game",
            "rules",
            "seconds",
            "seed",
            "threads",
            "wins"
        ]
    );
    assert_eq!(keys(&sim["wins"][0]), ["games", "seats", "side"]);
    assert_eq!(keys(&sim["wins"][0]["seats"][0]), ["colours", "seat"]);
}

#[test]
fn arena_refuses_an_absurd_thread_count_with_a_clear_message() {
    // It tried to start 100,000 threads and hung.
    let o = parchis(&[
        "arena",
        "--rules",
        "playgridia",
        "--mode",
        "1v1",
        "--bots",
        "greedy,greedy",
        "--games",
        "2",
        "--threads",
        "100000",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not in 0..=1024"), "{}", stderr(&o));
}

//! The engine protocol (ENGINE.md): `parchis engine` speaks it, `parchis arena --engine` seats programs
//! that speak it, and a program that misbehaves stops the arena with a message that says what it did.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const PARCHIS: &str = env!("CARGO_BIN_EXE_parchis");

fn parchis(args: &[&str]) -> Output {
    Command::new(PARCHIS)
        .args(args)
        .output()
        .expect("run parchis")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `parchis engine` fed `input` on standard input: what it printed.
fn engine(level: &str, input: &str) -> String {
    let mut child = Command::new(PARCHIS)
        .args(["engine", "--level", level])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run parchis engine");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

/// The win counts of an arena's report, one per entry.
fn wins(report: &str) -> Vec<String> {
    report
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.split_whitespace().nth(2).unwrap_or_default().to_owned())
        .collect()
}

/// The report's "N actions/game".
fn actions_per_game(report: &str) -> String {
    let head = report.lines().next().unwrap_or_default();
    let at = head
        .find(" actions/game")
        .expect("actions/game in the header");
    head[..at].rsplit(' ').next().unwrap_or_default().to_owned()
}

const WAITING_FOR_A_MOVE: &str = "playgridia 1v1/2 y:h,h,h,h/b:22,h,h,h/r:h,h,h,h/g:h,h,h,h 0 move:5 sixes=0,last=-,six=-,extra=0,first=-";

#[test]
fn the_engine_greets_then_answers_each_go_with_a_legal_move_of_the_position() {
    let out = engine(
        "greedy",
        &format!(
            "parchis-engine 1\nnewgame 7\nposition {WAITING_FOR_A_MOVE}\nlegal y1:h-5 r1:h-39\ngo\nquit\n"
        ),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[..2], ["id name parchis greedy", "ready"], "{out}");
    let answer = lines[2].strip_prefix("move ").expect("a move");
    assert!(["y1:h-5", "r1:h-39"].contains(&answer), "{out}");
    assert_eq!(lines.len(), 3, "quit ends it: {out}");
}

#[test]
fn the_engine_says_what_is_wrong_with_a_bad_position_or_command_and_carries_on() {
    let out = engine(
        "random",
        &format!(
            "parchis-engine 1\nposition nonsense\ngo\njump\nposition {WAITING_FOR_A_MOVE}\ngo\n"
        ),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[2].starts_with("info error: bad position"), "{out}");
    assert!(lines[3].starts_with("info error: no position"), "{out}");
    assert_eq!(lines[4], "info error: unknown command `jump`", "{out}");
    assert!(lines[5].starts_with("move "), "{out}");
}

#[test]
fn an_engine_seated_in_the_arena_plays_exactly_as_the_same_bot_built_in() {
    // The engine gets the seed the arena gives a built-in bot in the same seat, so the games are the same.
    let engine = format!("r={PARCHIS} engine --level random");
    let common = [
        "arena",
        "--rules",
        "playgridia",
        "--mode",
        "1v1",
        "--games",
        "12",
        "--seed",
        "5",
    ];
    let built_in = parchis(&[&common[..], &["--bots", "random,random"]].concat());
    let external = parchis(&[&common[..], &["--engine", &engine, "--bots", "r,random"]].concat());
    assert!(external.status.success(), "{}", text(&external.stderr));
    let (a, b) = (text(&built_in.stdout), text(&external.stdout));
    assert_eq!(wins(&a), wins(&b), "built in:\n{a}\nengine:\n{b}");
    assert_eq!(
        actions_per_game(&a),
        actions_per_game(&b),
        "the same games, move for move"
    );
    assert_eq!(wins(&a).len(), 2);
    assert!(
        b.contains("bots r,random") && b.contains("  r "),
        "named after --engine: {b}"
    );
}

/// `parchis arena` of playgridia 1v1 with `extra` arguments: its exit status and standard error.
fn arena_1v1(extra: &[&str]) -> (bool, String) {
    let o = parchis(
        &[
            &["arena", "--rules", "playgridia", "--mode", "1v1"][..],
            extra,
        ]
        .concat(),
    );
    (o.status.success(), text(&o.stderr))
}

#[test]
fn an_engine_that_answers_an_illegal_move_stops_the_arena_naming_the_move_and_the_position() {
    // Reads the greeting, the new game and one question, then answers with a piece that does not exist.
    let liar = "bad=echo ready; read a; read b; read c; read d; read e; echo 'move y9:1-2'; cat >/dev/null";
    let (ok, err) = arena_1v1(&["--games", "2", "--engine", liar, "--bots", "bad,greedy"]);
    assert!(!ok);
    assert!(
        err.contains("bad: `move y9:1-2` is not one of the legal moves"),
        "{err}"
    );
    assert!(
        err.contains("playgridia 1v1/2"),
        "the position is named: {err}"
    );
}

#[test]
fn an_engine_that_does_not_answer_in_time_or_exits_stops_the_arena() {
    let silent = "slow=echo ready; cat >/dev/null";
    let (ok, err) = arena_1v1(&[
        "--games",
        "1",
        "--engine",
        silent,
        "--engine-timeout-ms",
        "300",
        "--bots",
        "greedy,slow",
    ]);
    assert!(
        !ok && err.contains("slow: no `move …` within 300 ms"),
        "{err}"
    );
    let (ok, err) = arena_1v1(&[
        "--games",
        "1",
        "--engine",
        "gone=exit 3",
        "--bots",
        "gone,greedy",
    ]);
    assert!(!ok && err.contains("gone: "), "{err}");
    let (ok, err) = arena_1v1(&[
        "--games",
        "1",
        "--engine",
        "quiet=true",
        "--bots",
        "quiet,greedy",
    ]);
    assert!(!ok && err.contains("quiet: "), "{err}");
}

#[test]
fn engine_names_and_specs_are_checked_before_any_game() {
    for (args, message) in [
        (
            vec!["--engine", "expert=x", "--bots", "greedy,expert"],
            "is taken",
        ),
        (
            vec!["--engine", "nocommand", "--bots", "greedy,greedy"],
            "NAME=COMMAND",
        ),
        (
            vec!["--engine", "a=x", "--engine", "a=y", "--bots", "a,a"],
            "given twice",
        ),
        (
            vec!["--bots", "greedy,nobody"],
            "or the name of an --engine",
        ),
        // An engine left out of --bots would not play: the arena would report games it took no part in.
        (
            vec!["--engine", "mine=x", "--bots", "greedy,expert"],
            "--engine `mine` has no seat in --bots",
        ),
    ] {
        let (ok, err) = arena_1v1(&args);
        assert!(!ok && err.contains(message), "{args:?}: {err}");
    }
}

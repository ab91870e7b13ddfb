//! Helpers shared by the rule tests: positions from notation, rolls and moves by text, event checks.
#![allow(dead_code)]

use parchis_rules::{Event, Game, Mode, PieceRef, Place, RuleSet};

/// The turn flags of a position at the start of a turn, first rolls already made.
pub const FLAGS: &str = "sixes=0,last=-,six=-,extra=0,first=-";

/// Every rule set with every mode and number of players it allows.
pub fn every_preset_and_mode() -> Vec<(RuleSet, Mode, u8)> {
    let mut v = Vec::new();
    for r in RuleSet::ALL {
        for m in Mode::ALL {
            for p in m.players() {
                v.push((r, m, p));
            }
        }
    }
    v
}

/// A position from its notation; panics with the reason if it is invalid (tests only).
pub fn game(line: &str) -> Game {
    line.parse().unwrap_or_else(|e| panic!("{e}: {line}"))
}

/// A position waiting for `seat` to roll: `head` is "rules mode/players", `pieces` the pieces field.
pub fn at(head: &str, pieces: &str, seat: u8) -> Game {
    game(&format!("{head} {pieces} {seat} roll {FLAGS}"))
}

/// A Playgridia four-player position with the given pieces, yellow to roll.
pub fn playgridia(pieces: &str) -> Game {
    at("playgridia individual/4", pieces, 0)
}

pub fn roll(g: &mut Game, die: u8) -> Vec<Event> {
    g.roll(die)
        .unwrap_or_else(|e| panic!("roll {die}: {e} in {g}"))
        .to_vec()
}

pub fn play(g: &mut Game, text: &str) -> Vec<Event> {
    let m = g
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e} in {g}"));
    g.play(m)
        .unwrap_or_else(|e| panic!("{text}: {e} in {g}"))
        .to_vec()
}

/// The legal moves as sorted texts.
pub fn legal(g: &Game) -> Vec<String> {
    let mut v = g.legal_texts();
    v.sort();
    v
}

pub fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

pub fn assert_legal(g: &Game, expected: &[&str]) {
    assert_eq!(legal(g), sorted(expected), "legal moves of {g}");
}

pub fn has(events: &[Event], pred: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(pred)
}

pub fn pr(s: &str) -> PieceRef {
    s.parse().unwrap()
}

/// Where a piece named like `y1` is.
pub fn place(g: &Game, piece: &str) -> Place {
    g.place(g.layout().piece_of_ref(pr(piece)).unwrap())
}

pub fn captured(ev: &[Event], piece: &str) -> bool {
    ev.iter()
        .any(|e| matches!(e, Event::Captured { piece: p, .. } if *p == pr(piece)))
}

pub fn any_capture(ev: &[Event]) -> bool {
    ev.iter().any(|e| matches!(e, Event::Captured { .. }))
}

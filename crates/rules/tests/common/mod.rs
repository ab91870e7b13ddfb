//! Helpers shared by the rule tests: positions from notation, rolls and moves by text.
#![allow(dead_code)]

use parchis_rules::{Event, Events, Game, Place};

/// A position from its notation; panics with the reason if it is invalid (tests only).
pub fn pos(line: &str) -> Game {
    line.parse().unwrap_or_else(|e| panic!("{e}: {line}"))
}

/// A Playgridia four-player position with the given pieces, yellow to roll.
pub fn playgridia(pieces: &str) -> Game {
    pos(&format!(
        "playgridia individual/4 {pieces} 0 roll sixes=0,last=-,six=-,extra=0,first=-"
    ))
}

pub fn roll(g: &mut Game, die: u8) -> Events {
    g.roll(die)
        .unwrap_or_else(|e| panic!("roll {die} refused: {e} in {g}"))
}

pub fn play(g: &mut Game, text: &str) -> Events {
    let m = g
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e} in {g}"));
    g.play(m)
        .unwrap_or_else(|e| panic!("{text} refused: {e} in {g}"))
}

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

pub fn has(events: &Events, pred: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(pred)
}

/// Where a piece named like `y1` is.
pub fn at(g: &Game, piece: &str) -> Place {
    let r = piece.parse().unwrap();
    g.place(g.layout().piece_of_ref(r).unwrap())
}

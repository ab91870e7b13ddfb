//! The greedy bot: one ply of heuristic evaluation (see [`crate::eval`]).

use crate::Bot;
use crate::eval::evaluate;
use parchis_rules::{Game, Move, NoEvents, Phase};

/// How many counts in a row the greedy bot follows after its move (a capture granting 20 that captures again…).
pub(crate) const COUNT_DEPTH: u8 = 3;

/// Plays the move whose resulting position evaluates best for the mover's side. When the move earns a count
/// (20 for a capture, 10 for an arrival), the best way to play that count is included, so a capture or an
/// arrival is valued with what its count will do. Ties go to the first legal move: fully deterministic.
#[derive(Debug, Clone, Default)]
pub struct GreedyBot;

impl GreedyBot {
    /// A greedy bot (it has no randomness).
    pub fn new() -> GreedyBot {
        GreedyBot
    }
}

/// The value for `side` of the position after `g`'s pending own counts are played as well as possible.
pub(crate) fn own_line_value(g: &Game, side: u8, depth: u8) -> f32 {
    line_value(g, side, depth, &evaluate)
}

/// The value for `side` by `leaf` after `g`'s pending own counts (up to `depth` of them) are played as well as
/// possible by that same value.
pub fn line_value(g: &Game, side: u8, depth: u8, leaf: &impl Fn(&Game, u8) -> f32) -> f32 {
    let acting = g.layout().side_of_seat[g.seat() as usize];
    if depth > 0 && acting == side && matches!(g.phase(), Phase::Count { .. } | Phase::Move { .. })
    {
        let mut best = f32::NEG_INFINITY;
        for &m in g.legal() {
            let mut next = *g;
            next.play_unchecked_with(m, &mut NoEvents);
            best = best.max(line_value(&next, side, depth - 1, leaf));
        }
        if best > f32::NEG_INFINITY {
            return best;
        }
    }
    leaf(g, side)
}

/// The index of the greedy choice among `legal` for the seat to act.
pub(crate) fn greedy_index(g: &Game, legal: &[Move], count_depth: u8) -> usize {
    let side = g.layout().side_of_seat[g.seat() as usize];
    let mut best = (0, f32::NEG_INFINITY);
    for (i, &m) in legal.iter().enumerate() {
        let mut next = *g;
        if next.play_with(m, &mut NoEvents).is_err() {
            continue;
        }
        let v = own_line_value(&next, side, count_depth);
        if v > best.1 {
            best = (i, v);
        }
    }
    best.0
}

impl Bot for GreedyBot {
    fn name(&self) -> &str {
        "greedy"
    }

    fn choose(&mut self, game: &Game, legal: &[Move]) -> Move {
        if legal.len() == 1 {
            return legal[0];
        }
        legal[greedy_index(game, legal, COUNT_DEPTH)]
    }
}

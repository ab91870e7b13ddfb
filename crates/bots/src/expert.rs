//! The expert bot: expectimax over the dice with a node budget.
//!
//! The search follows the real turn structure: after a move the same seat may have a count to play or an
//! extra roll, so every node asks the game whose turn it is ([`Game::seat`]) and what it must do
//! ([`Game::phase`]):
//!
//! - at a [`Phase::Roll`] node (a *chance* node) the value is the mean over the six die faces;
//! - at a decision of the searching side (the bot's seat or a partner) every legal move is searched and the
//!   best one for that side is kept;
//! - at an opponent's decision the opponent is modelled by the greedy policy (one ply of the shared
//!   evaluation from *its* side's point of view), and only that reply is searched further;
//! - leaves are the positions where the next roll is due once `depth` chance nodes have been expanded, valued
//!   by [`crate::eval::side_scores`]; a won game is worth [`crate::eval::WIN`].
//!
//! Values are per-side score vectors (max-n with expectations), so with more than two sides each one is
//! compared from its own point of view. Iterative deepening: depth 1, 2, … chance layers, each completed
//! iteration replacing the choice of the previous one, until a depth would overrun the node budget (counted
//! in `roll`/`play` calls, so the choice is deterministic and independent of the machine's speed).

use crate::Bot;
use crate::eval::{MAX_SIDES, perspective, side_scores};
use parchis_rules::{Game, Move, Phase};

/// Default node budget per decision (rolls and moves applied), tuned for ≤ 50 ms per decision at p99.
pub const DEFAULT_BUDGET: u32 = 12_000;
/// Deepest search, in chance layers.
const MAX_DEPTH: u8 = 4;

type Scores = [f32; MAX_SIDES];

/// The search ran out of nodes.
struct OutOfBudget;

/// Expectimax over the dice to a small depth, with greedy's evaluation at the leaves.
#[derive(Debug, Clone)]
pub struct ExpertBot {
    budget: u32,
    nodes: u32,
    n_sides: u8,
    seed: u64,
    calls: u64,
}

impl ExpertBot {
    /// An expert with the default node budget.
    pub fn new() -> ExpertBot {
        ExpertBot::with_budget(std::env::var("PARCHIS_B").ok().and_then(|v| v.parse().ok()).unwrap_or(DEFAULT_BUDGET))
    }

    /// An expert that applies at most `budget` rolls and moves per decision (beyond the first, shallowest
    /// search, which always completes).
    pub fn with_budget(budget: u32) -> ExpertBot {
        ExpertBot { budget, nodes: 0, n_sides: 2, seed: 0, calls: 0 }
    }

    fn tick(&mut self, limit: u32) -> Result<(), OutOfBudget> {
        self.nodes += 1;
        if self.nodes > limit { Err(OutOfBudget) } else { Ok(()) }
    }

    /// Value of a position (a score per side) searching `depth` more chance layers.
    fn value(&mut self, g: &Game, depth: u8, me: u8, limit: u32) -> Result<Scores, OutOfBudget> {
        match g.phase() {
            Phase::Over { .. } => Ok(side_scores(g)),
            Phase::Roll => {
                if depth == 0 {
                    return Ok(side_scores(g));
                }
                let mut sum = [0.0f32; MAX_SIDES];
                for die in 1..=6 {
                    self.tick(limit)?;
                    let mut next = *g;
                    if next.roll(die).is_err() {
                        continue;
                    }
                    let v = self.value(&next, depth - 1, me, limit)?;
                    for (s, x) in sum.iter_mut().zip(v) {
                        *s += x / 6.0;
                    }
                }
                Ok(sum)
            }
            Phase::Move { .. } | Phase::Count { .. } => {
                let legal = g.legal_moves();
                let acting = g.layout().side_of_seat[g.seat() as usize];
                if acting != me || legal.len() == 1 {
                    // Opponents (and forced moves): the greedy reply, searched alone.
                    let i = if legal.len() == 1 { 0 } else { self.greedy_reply(g, &legal, acting, limit)? };
                    self.tick(limit)?;
                    let mut next = *g;
                    let _ = next.play(legal[i]);
                    return self.value(&next, depth, me, limit);
                }
                let mut best: Option<(f32, Scores)> = None;
                for &m in &legal {
                    self.tick(limit)?;
                    let mut next = *g;
                    if next.play(m).is_err() {
                        continue;
                    }
                    let v = self.value(&next, depth, me, limit)?;
                    let p = perspective(&v, self.n_sides, me);
                    if best.is_none_or(|(bp, _)| p > bp) {
                        best = Some((p, v));
                    }
                }
                Ok(best.map_or_else(|| side_scores(g), |b| b.1))
            }
        }
    }

    /// The move a greedy opponent would play: one ply of the evaluation from its side's point of view.
    fn greedy_reply(&mut self, g: &Game, legal: &[Move], side: u8, limit: u32) -> Result<usize, OutOfBudget> {
        let mut best = (0, f32::NEG_INFINITY);
        for (i, &m) in legal.iter().enumerate() {
            self.tick(limit)?;
            let mut next = *g;
            if next.play(m).is_err() {
                continue;
            }
            let v = perspective(&side_scores(&next), self.n_sides, side);
            if v > best.1 {
                best = (i, v);
            }
        }
        Ok(best.0)
    }

    /// The index of the best root move searching `depth` chance layers, or `None` when out of budget.
    fn search(&mut self, g: &Game, legal: &[Move], depth: u8, limit: u32) -> Option<usize> {
        let me = g.layout().side_of_seat[g.seat() as usize];
        let mut best = (0, f32::NEG_INFINITY);
        for (i, &m) in legal.iter().enumerate() {
            let mut next = *g;
            if next.play(m).is_err() {
                continue;
            }
            let v = self.value(&next, depth, me, limit).ok()?;
            let p = perspective(&v, self.n_sides, me);
            if p > best.1 {
                best = (i, p);
            }
        }
        Some(best.0)
    }
}

impl ExpertBot {
    /// Flat Monte Carlo with common random numbers: every root move is followed by the same dice sequences,
    /// all seats playing the greedy policy for `ROLLOUT_ROLLS` rolls, then evaluated.
    fn rollouts(&mut self, g: &Game, legal: &[Move]) -> usize {
        const ROLLOUT_ROLLS: usize = 64;
        let horizon: usize = std::env::var("PARCHIS_H").ok().and_then(|v| v.parse().ok()).unwrap_or(12);
        let me = g.layout().side_of_seat[g.seat() as usize];
        let mut totals = vec![0.0f32; legal.len()];
        let mut k = 0u64;
        while self.nodes < self.budget || k < 4 {
            let mut dice = [0u8; ROLLOUT_ROLLS];
            let mut z = crate::mix_seed(self.seed, k ^ self.calls.wrapping_mul(0x1_0000));
            for d in dice.iter_mut() {
                *d = (z % 6) as u8 + 1;
                z /= 6;
                if z < 6 {
                    z = crate::mix_seed(z, k);
                }
            }
            for (i, &m) in legal.iter().enumerate() {
                let mut next = *g;
                if next.play(m).is_err() {
                    totals[i] = f32::NEG_INFINITY;
                    continue;
                }
                totals[i] += self.simulate(next, &dice[..horizon], me);
            }
            k += 1;
        }
        self.calls += 1;
        let mut best = (0, f32::NEG_INFINITY);
        for (i, &t) in totals.iter().enumerate() {
            if t > best.1 {
                best = (i, t);
            }
        }
        best.0
    }

    fn simulate(&mut self, mut g: Game, dice: &[u8], me: u8) -> f32 {
        let mut d = 0;
        loop {
            match g.phase() {
                Phase::Over { .. } => break,
                Phase::Roll => {
                    if d == dice.len() {
                        break;
                    }
                    self.nodes += 1;
                    let _ = g.roll(dice[d]);
                    d += 1;
                }
                Phase::Move { .. } | Phase::Count { .. } => {
                    let legal = g.legal_moves();
                    let side = g.layout().side_of_seat[g.seat() as usize];
                    let i = if legal.len() == 1 {
                        0
                    } else {
                        self.nodes += legal.len() as u32;
                        crate::greedy::greedy_index(&g, &legal, 0)
                    };
                    let _ = side;
                    self.nodes += 1;
                    let _ = g.play(legal[i]);
                }
            }
        }
        perspective(&side_scores(&g), self.n_sides, me)
    }
}

impl Default for ExpertBot {
    fn default() -> Self {
        ExpertBot::new()
    }
}

impl Bot for ExpertBot {
    fn name(&self) -> &str {
        "expert"
    }

    fn choose(&mut self, game: &Game, legal: &[Move]) -> Move {
        if legal.len() == 1 {
            return legal[0];
        }
        self.n_sides = game.layout().n_sides();
        self.nodes = 0;
        if std::env::var_os("PARCHIS_EXPERT_ROLLOUT").is_some() {
            return legal[self.rollouts(game, legal)];
        }
        // Depth 1 always completes; deeper iterations stop at the budget.
        let mut choice = self.search(game, legal, 1, u32::MAX).unwrap_or(0);
        for depth in 2..=MAX_DEPTH {
            let used = self.nodes;
            // A deeper layer costs several times the previous one: do not start one that cannot finish.
            if used.saturating_mul(4) > self.budget {
                break;
            }
            match self.search(game, legal, depth, self.budget) {
                Some(i) => choice = i,
                None => break,
            }
        }
        legal[choice]
    }
}

//! The expert bot: search over the dice under a node budget, in one of two ways ([`Search`]).
//!
//! ## Expectimax (two sides: 1v1, pairs, 6-piece, 3v3, two-player individual)
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
//!
//! ## Rollouts (three or more sides: three- and four-player individual and quick)
//!
//! With several opponents a shallow expectimax sees little beyond the evaluation's own risk term, so the
//! expert plays flat Monte Carlo instead: each root move is followed by the *same* sampled dice sequences
//! (common random numbers, so the comparison between moves is not drowned in dice noise), every seat playing
//! the greedy policy for [`ROLLOUT_ROLLS`] rolls, and the move with the best mean evaluation is played. This
//! is one step of policy improvement over greedy. The sequences come from a `SmallRng` seeded from the
//! bot's seed and its decision counter, so a seeded game is reproducible.

use crate::Bot;
use crate::eval::{MAX_SIDES, perspective, side_scores};
use parchis_rules::{Game, Move, Phase};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// Default node budget per decision (rolls and moves applied) of the expectimax search.
pub const DEFAULT_BUDGET: u32 = 12_000;
/// Default node budget per decision of the rollouts (moves, rolls and greedy look-ups applied), chosen for
/// ≤ 50 ms per decision at p99 on a loaded two-core machine.
pub const DEFAULT_ROLLOUT_BUDGET: u32 = 16_000;
/// Rolls simulated after each root move in a rollout (about three turns of every seat).
pub const ROLLOUT_ROLLS: usize = 12;
/// Fewest rollouts per root move, whatever the budget.
const MIN_ROLLOUTS: u32 = 4;

/// How the expert searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Search {
    /// Expectimax with two sides, rollouts with more.
    #[default]
    Auto,
    /// Always expectimax.
    Expectimax,
    /// Always rollouts.
    Rollouts,
}
/// Deepest search, in chance layers.
const MAX_DEPTH: u8 = 4;

type Scores = [f32; MAX_SIDES];

/// The search ran out of nodes.
struct OutOfBudget;

/// Searches over the dice (expectimax or rollouts, see the [module docs](self)) with greedy's evaluation.
#[derive(Debug, Clone)]
pub struct ExpertBot {
    search: Search,
    budget: u32,
    rollout_budget: u32,
    nodes: u32,
    n_sides: u8,
    seed: u64,
    calls: u64,
}

impl ExpertBot {
    /// An expert with the default budgets and [`Search::Auto`].
    pub fn new(seed: u64) -> ExpertBot {
        ExpertBot {
            search: Search::Auto,
            budget: DEFAULT_BUDGET,
            rollout_budget: DEFAULT_ROLLOUT_BUDGET,
            nodes: 0,
            n_sides: 2,
            seed,
            calls: 0,
        }
    }

    /// An expert applying at most about `budget` nodes per decision in either search (the shallowest
    /// expectimax iteration and [`MIN_ROLLOUTS`] rollouts per move always complete).
    pub fn with_budget(seed: u64, budget: u32) -> ExpertBot {
        ExpertBot {
            budget,
            rollout_budget: budget,
            ..ExpertBot::new(seed)
        }
    }

    /// The same expert with another way of searching.
    pub fn with_search(self, search: Search) -> ExpertBot {
        ExpertBot { search, ..self }
    }

    fn tick(&mut self, limit: u32) -> Result<(), OutOfBudget> {
        self.nodes += 1;
        if self.nodes > limit {
            Err(OutOfBudget)
        } else {
            Ok(())
        }
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
                    let i = if legal.len() == 1 {
                        0
                    } else {
                        self.greedy_reply(g, &legal, acting, limit)?
                    };
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
    fn greedy_reply(
        &mut self,
        g: &Game,
        legal: &[Move],
        side: u8,
        limit: u32,
    ) -> Result<usize, OutOfBudget> {
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
    /// all seats playing the greedy policy for [`ROLLOUT_ROLLS`] rolls; the best mean evaluation wins.
    fn rollouts(&mut self, g: &Game, legal: &[Move]) -> usize {
        let me = g.layout().side_of_seat[g.seat() as usize];
        let mut rng = SmallRng::seed_from_u64(crate::mix_seed(self.seed, self.calls));
        self.calls += 1;
        let mut totals = vec![0.0f32; legal.len()];
        let mut k = 0;
        while k < MIN_ROLLOUTS || self.nodes < self.rollout_budget {
            let mut dice = [0u8; ROLLOUT_ROLLS];
            for d in dice.iter_mut() {
                *d = rng.random_range(1..=6);
            }
            for (i, &m) in legal.iter().enumerate() {
                let mut next = *g;
                // Count the root move too: rollouts of games that end at once must still use up the budget.
                self.nodes += 1;
                if next.play(m).is_err() {
                    totals[i] = f32::NEG_INFINITY;
                    continue;
                }
                totals[i] += self.simulate(next, &dice, me);
            }
            k += 1;
        }
        let mut best = (0, f32::NEG_INFINITY);
        for (i, &t) in totals.iter().enumerate() {
            if t > best.1 {
                best = (i, t);
            }
        }
        best.0
    }

    /// Plays the greedy policy for every seat along the dice, then evaluates for `me`.
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
                    if g.roll(dice[d]).is_err() {
                        break;
                    }
                    d += 1;
                }
                Phase::Move { .. } | Phase::Count { .. } => {
                    let legal = g.legal_moves();
                    let i = if legal.len() == 1 {
                        0
                    } else {
                        self.nodes += legal.len() as u32;
                        crate::greedy::greedy_index(&g, &legal, 0)
                    };
                    self.nodes += 1;
                    if g.play(legal[i]).is_err() {
                        // A listed move refused by `play` would loop forever: stop the rollout here.
                        break;
                    }
                }
            }
        }
        perspective(&side_scores(&g), self.n_sides, me)
    }
}

impl Default for ExpertBot {
    fn default() -> Self {
        ExpertBot::new(0)
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
        let rollouts = match self.search {
            Search::Auto => self.n_sides > 2,
            Search::Expectimax => false,
            Search::Rollouts => true,
        };
        if rollouts {
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

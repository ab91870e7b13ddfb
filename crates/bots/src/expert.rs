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
//! With several opponents a shallow expectimax sees little beyond the evaluation's own risk term (it did
//! worse than rollouts in seeded four-player arenas), so the expert plays Monte Carlo instead: each root
//! move is followed by the *same* sampled dice sequences (common random numbers, so the comparison between
//! moves is not drowned in dice noise) for [`ROLLOUT_ROLLS`] rolls, and the move with the best mean leaf
//! value is played: one step of policy improvement. In the rollouts
//!
//! - the other sides are played exactly as [`crate::GreedyBot`] plays (one ply of greedy's evaluation,
//!   following the counts a move earns), which is what they are against greedy bots;
//! - the expert's own side plays one ply of the learned network of [`crate::net`] in four-player individual
//!   Playgridia ([`ExpertBot::with_net_policy`]), elsewhere one ply of its sharper evaluation
//!   ([`crate::sharp`]: per-seat capture odds with the forced exit on a 5, the six counting seven, blockades
//!   in the way and the extra roll, and a credit for threatening exposed opponents), or optionally a linear
//!   policy ([`ExpertBot::with_policy`]);
//! - the leaf is the expert's win probability (a won game is 1, a lost one 0): in four-player individual
//!   Playgridia, the learned model of [`crate::net`] (two networks averaged, trained on the matchup against
//!   three greedy bots; over 2,000 seeded games against three greedy bots one network won 44.1 % where the
//!   previous leaf won 38.5 %, and the pair won 45.8 % over 7,000 where one network won 44.8 %; with the
//!   network also as the own rollout policy, 46.2 % over 9,000);
//!   elsewhere, or with [`ExpertBot::with_net_leaf`]`(false)`, a softmax over the sides' sharper scores with
//!   temperature [`Params::temp`].
//!
//! Successive halving spends the budget where it matters: once half of it is used the worse half of the
//! moves is dropped, then again at three quarters, and so on down to two moves.
//! Rollouts step the game with [`Game::legal`] and [`Game::play_unchecked_with`] without building events
//! ([`NoEvents`]: the same rules) and allocate nothing.
//! The dice come from a `Xoshiro256PlusPlus` (rand's named generator, stable across versions) seeded from the
//! bot's seed, its decision counter and the rollout index, so a seeded game is reproducible.

mod rollout;

use crate::Bot;
use crate::eval::{MAX_SIDES, Weights, perspective, side_scores};
use crate::sharp::Params;
use parchis_rules::{Game, Move, NoEvents, Phase};
use std::time::{Duration, Instant};

/// Default node budget per decision (rolls and moves applied) of the expectimax search.
pub const DEFAULT_BUDGET: u32 = 12_000;
/// Default node budget per decision of the rollouts (moves, rolls and greedy look-ups applied), chosen for
/// ≤ 50 ms per decision at p99 on a loaded two-core machine.
pub const DEFAULT_ROLLOUT_BUDGET: u32 = 16_000;
/// Rolls simulated after each root move in a rollout (about two and a half turns of every seat with four
/// players). With the sharper evaluation and exact greedy opponents, 10 beat 6 against three greedy bots:
/// 38.4 % against 35.3 % over 3,600 seeded games (seeds 1, 2, 5); 3 rolls did worse (31.3 %).
pub const ROLLOUT_ROLLS: usize = 10;
/// The evaluation weights at the end of a rollout when the sharper evaluation is off.
pub const LEAF_WEIGHTS: Weights = Weights::GREEDY;
/// Fewest rollouts per root move, whatever the budget.
pub const MIN_ROLLOUTS: u32 = 4;

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

/// Searches over the dice (expectimax or rollouts, see the [module docs](self)).
#[derive(Debug, Clone)]
pub struct ExpertBot {
    search: Search,
    budget: u32,
    rollout_budget: u32,
    nodes: u32,
    n_sides: u8,
    seed: u64,
    calls: u64,
    weights: Weights,
    rolls: usize,
    learned_leaf: bool,
    net_leaf: bool,
    /// Whether the expert's own seats in the rollouts play one ply of the network (where it fits) rather
    /// than of the sharper evaluation: the rollouts then play the expert's side more like the leaf values it.
    net_policy: bool,
    exact_greedy: bool,
    sharp: Option<Params>,
    policy: Option<[f32; crate::value::NP]>,
    time_cap: Option<Duration>,
    deadline: Option<Instant>,
    variant: u32,
    end_t: u32,
    end_x: u32,
    z: f32,
    ext: u32,
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
            weights: LEAF_WEIGHTS,
            rolls: ROLLOUT_ROLLS,
            learned_leaf: false,
            net_leaf: true,
            net_policy: true,
            exact_greedy: true,
            sharp: Some(Params::DEFAULT),
            policy: None,
            time_cap: None,
            deadline: None,
            variant: 0,
            end_t: 60,
            end_x: 4,
            z: 1.5,
            ext: 3,
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

    /// The same expert with rollouts of `rolls` rolls.
    pub fn with_rollout_rolls(self, rolls: usize) -> ExpertBot {
        ExpertBot { rolls, ..self }
    }

    /// The same expert valuing the end of its rollouts with the learned win probability of
    /// [`crate::value`] instead of greedy's score margin, when the sharper evaluation is off
    /// ([`ExpertBot::with_sharp`]`(None)`; off by default).
    pub fn with_learned_leaf(self, learned_leaf: bool) -> ExpertBot {
        ExpertBot {
            learned_leaf,
            ..self
        }
    }

    /// The same expert valuing the end of its rollouts, in the games it was trained for (Playgridia, four
    /// individual players), with the learned network of [`crate::net`] (the default) or not (then as
    /// [`ExpertBot::with_sharp`] says).
    pub fn with_net_leaf(self, net_leaf: bool) -> ExpertBot {
        ExpertBot { net_leaf, ..self }
    }

    /// The same expert playing its own seats in the rollouts, in the games the network was trained for, by one
    /// ply of that network (the default; its counts followed) or not (then one ply of the sharper evaluation).
    pub fn with_net_policy(self, net_policy: bool) -> ExpertBot {
        ExpertBot { net_policy, ..self }
    }

    /// The same expert modelling every seat in its rollouts by the greedy bot exactly (following the counts a
    /// move earns, the default) or by one ply of the evaluation.
    pub fn with_exact_greedy(self, exact_greedy: bool) -> ExpertBot {
        ExpertBot {
            exact_greedy,
            ..self
        }
    }

    /// The same expert playing its own seats in the rollouts, and valuing their ends, with the sharper
    /// evaluation of [`crate::sharp`] and these weights (the default: [`Params::DEFAULT`]); `None`: greedy's
    /// evaluation and score margin, as before.
    pub fn with_sharp(self, sharp: Option<Params>) -> ExpertBot {
        ExpertBot { sharp, ..self }
    }

    /// The same expert playing its own seats in the rollouts by a linear policy over
    /// [`crate::value::move_features`] (`None`: by its evaluation).
    pub fn with_policy(self, policy: Option<[f32; crate::value::NP]>) -> ExpertBot {
        ExpertBot { policy, ..self }
    }

    /// The same expert, also stopping each decision after about `cap` of wall-clock time (off by default).
    ///
    /// For servers under load: the node budget alone makes the choice deterministic but its duration depends
    /// on the machine. With a cap, a decision may stop earlier, so the same seed no longer guarantees the same
    /// game; the shallowest expectimax iteration and [`MIN_ROLLOUTS`] rollouts per move still complete.
    pub fn with_time_cap(self, cap: Duration) -> ExpertBot {
        ExpertBot {
            time_cap: Some(cap),
            ..self
        }
    }

    /// The same expert with experimental variants of the three-or-more-sides search (bit flags, for tuning
    /// tools; 0, the default, plays as documented above). None beat the default in seeded arenas:
    ///
    /// - 1: at its first own decision in a rollout, every move is tried on the same dice and the best kept;
    /// - 2: own decisions in the rollouts by two plies (the next opponent's six faces, its greedy replies);
    /// - 4: a rollout stops when the expert is to roll again, valued by the mean over its six faces of its
    ///   best move;
    /// - 8: rollouts to the end of the game when the leading side has at most `t` squares left, with `x`
    ///   times the budget ([`ExpertBot::with_endgame`]);
    /// - 16: when the two best moves are within `z` standard errors at the end of the budget, `ext` times the
    ///   budget ([`ExpertBot::with_adaptive`]);
    /// - 32: leaf temperature scaled by the square root of the leader's squares left / 150;
    /// - 64: expectimax over the next `x` rolls (the `x` of [`ExpertBot::with_endgame`]), greedy replies
    ///   exact, own moves maximised, the sharper leaf; rollouts when it would exceed 4× the budget.
    ///
    /// (Bits 128 and 256, the network as leaf and as own rollout policy, became the defaults and the named
    /// options [`ExpertBot::with_net_leaf`] and [`ExpertBot::with_net_policy`].)
    #[doc(hidden)]
    pub fn with_variant(self, variant: u32) -> ExpertBot {
        ExpertBot { variant, ..self }
    }

    /// Experimental: long rollouts when the leading side has at most `t` squares left, with `x` times the budget.
    #[doc(hidden)]
    pub fn with_endgame(self, t: u32, x: u32) -> ExpertBot {
        ExpertBot {
            end_t: t,
            end_x: x,
            ..self
        }
    }

    /// Experimental: when the two best moves are within `z` standard errors, `ext` times the budget.
    #[doc(hidden)]
    pub fn with_adaptive(self, z: f32, ext: u32) -> ExpertBot {
        ExpertBot { z, ext, ..self }
    }

    /// Whether the optional time cap of this decision has passed.
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn tick(&mut self, limit: u32) -> Result<(), OutOfBudget> {
        self.nodes += 1;
        // `u32::MAX`: the iteration that must complete. The clock is read once every 1024 nodes.
        if self.nodes > limit || (limit != u32::MAX && self.nodes & 1023 == 0 && self.out_of_time())
        {
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
                    if next.roll_with(die, &mut NoEvents).is_err() {
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
                let legal = g.legal();
                let acting = g.layout().side_of_seat[g.seat() as usize];
                if acting != me || legal.len() == 1 {
                    // Opponents (and forced moves): the greedy reply, searched alone.
                    let i = if legal.len() == 1 {
                        0
                    } else {
                        self.greedy_reply(g, legal, acting, limit)?
                    };
                    self.tick(limit)?;
                    let mut next = *g;
                    next.play_unchecked_with(legal[i], &mut NoEvents);
                    return self.value(&next, depth, me, limit);
                }
                let mut best: Option<(f32, Scores)> = None;
                for &m in legal {
                    self.tick(limit)?;
                    let mut next = *g;
                    next.play_unchecked_with(m, &mut NoEvents);
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
            next.play_unchecked_with(m, &mut NoEvents);
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
            if next.play_with(m, &mut NoEvents).is_err() {
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
    /// Experimental: expectimax over the next `EXACT_DEPTH` rolls (opponents by their exact greedy replies,
    /// own decisions maximised, the sharper leaf), or `None` when it would overrun 4× the rollout budget.
    fn exact_root(&mut self, g: &Game, legal: &[Move]) -> Option<usize> {
        let w = self.sharp?;
        let me = g.layout().side_of_seat[g.seat() as usize];
        let limit = self.rollout_budget.saturating_mul(4);
        let depth = self.end_x.min(6) as u8;
        let mut best = (0, f32::NEG_INFINITY);
        for (i, &m) in legal.iter().enumerate() {
            let mut next = *g;
            if next.play_with(m, &mut NoEvents).is_err() {
                continue;
            }
            let v = self.exact_value(&next, depth, me, &w, limit).ok()?;
            if v > best.1 {
                best = (i, v);
            }
        }
        Some(best.0)
    }

    fn exact_value(
        &mut self,
        g: &Game,
        depth: u8,
        me: u8,
        w: &Params,
        limit: u32,
    ) -> Result<f32, OutOfBudget> {
        self.nodes += 1;
        if self.nodes > limit {
            return Err(OutOfBudget);
        }
        match g.phase() {
            Phase::Over { .. } => Ok(crate::sharp::leaf_value(g, me, w)),
            Phase::Roll => {
                if depth == 0 {
                    return Ok(crate::sharp::leaf_value(g, me, w));
                }
                let mut sum = 0.0;
                for die in 1..=6 {
                    let mut next = *g;
                    if next.roll_with(die, &mut NoEvents).is_err() {
                        continue;
                    }
                    sum += self.exact_value(&next, depth - 1, me, w, limit)?;
                }
                Ok(sum / 6.0)
            }
            Phase::Move { .. } | Phase::Count { .. } => {
                let acting = g.layout().side_of_seat[g.seat() as usize];
                let legal = g.legal();
                if acting != me || legal.len() == 1 {
                    let m = self.greedy_pick(g, legal);
                    let mut next = *g;
                    next.play_unchecked_with(m, &mut NoEvents);
                    return self.exact_value(&next, depth, me, w, limit);
                }
                let moves: parchis_rules::MoveList = legal.iter().copied().collect();
                let mut best = f32::NEG_INFINITY;
                for m in moves {
                    let mut next = *g;
                    next.play_unchecked_with(m, &mut NoEvents);
                    best = best.max(self.exact_value(&next, depth, me, w, limit)?);
                }
                Ok(best)
            }
        }
    }
}

/// Squares the side closest to finishing still has to cover (a piece at home counts the whole way plus 5).
fn leader_left(g: &Game) -> u32 {
    let l = g.layout();
    let goal = u32::from(g.board().goal_pos());
    let mut left = [0u32; MAX_SIDES];
    for p in 0..l.n_pieces() {
        let side = l.side_of_colour(l.colour_of_piece(p)) as usize;
        let pos = u32::from(g.raw_pos(p));
        left[side] += if pos == 0 {
            goal + 5
        } else {
            goal.saturating_sub(pos)
        };
    }
    left[..l.n_sides() as usize]
        .iter()
        .copied()
        .min()
        .unwrap_or(0)
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
        self.deadline = self.time_cap.map(|cap| Instant::now() + cap);
        let rollouts = match self.search {
            Search::Auto => self.n_sides > 2,
            Search::Expectimax => false,
            Search::Rollouts => true,
        };
        if rollouts {
            if self.variant & 64 != 0
                && let Some(i) = self.exact_root(game, legal)
            {
                return legal[i];
            }
            self.nodes = 0;
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

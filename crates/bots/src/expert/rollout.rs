//! The expert's Monte Carlo search for games of three or more sides (the module page of [`super`] says why
//! and how): rollouts of the root moves over shared dice with successive halving, the policies the seats
//! follow in them, and the leaf values.

use super::{ExpertBot, MIN_ROLLOUTS, leader_left};
use crate::eval::{perspective, side_scores, side_scores_with};
use crate::sharp::Params;
use parchis_rules::{Game, Move, NoEvents, Phase};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

impl ExpertBot {
    /// Monte Carlo over the root moves with common random numbers and successive halving: rollout `j` of
    /// every root move uses the same dice (from a seed derived from the decision and `j`), every seat plays
    /// the greedy policy for [`ROLLOUT_ROLLS`](super::ROLLOUT_ROLLS) rolls, and the move with the best mean leaf value wins. When
    /// half, then three quarters… of the node budget is spent, the worse half of the moves still in the
    /// running is dropped, so the close candidates get most of the rollouts.
    pub(super) fn rollouts(&mut self, g: &Game, legal: &[Move]) -> usize {
        let me = g.layout().side_of_seat[g.seat() as usize];
        let base = crate::mix_seed(self.seed, self.calls);
        self.calls += 1;
        let n = legal.len();
        let mut roots: Vec<Game> = Vec::with_capacity(n);
        let mut alive: Vec<usize> = Vec::with_capacity(n);
        for (i, &m) in legal.iter().enumerate() {
            let mut next = *g;
            // `legal` comes from the caller: a move the game refuses is never chosen.
            if next.play_with(m, &mut NoEvents).is_ok() {
                alive.push(i);
            }
            roots.push(next);
        }
        if alive.is_empty() {
            return 0;
        }
        let mut totals = vec![0.0f32; n];
        let mut budget = self.rollout_budget;
        let saved_rolls = self.rolls;
        if self.variant & 8 != 0 && leader_left(g) <= self.end_t {
            budget = budget.saturating_mul(self.end_x);
            self.rolls = 400;
        }
        let saved_sharp = self.sharp;
        if self.variant & 32 != 0
            && let Some(w) = &mut self.sharp
        {
            w.temp *= (leader_left(g) as f32 / 150.0).sqrt().max(0.2);
        }
        let adaptive = self.variant & 16 != 0;
        let mut vals: Vec<Vec<f32>> = if adaptive {
            vec![Vec::new(); n]
        } else {
            Vec::new()
        };
        let mut extended = false;
        let mut cut_at = budget / 2;
        let mut j: u64 = 0;
        loop {
            let seed = crate::mix_seed(base, j);
            for &i in &alive {
                self.nodes += 1;
                let v = self.simulate(roots[i], seed, me);
                totals[i] += v;
                if adaptive {
                    vals[i].push(v);
                }
            }
            j += 1;
            if j >= u64::from(MIN_ROLLOUTS) && (self.nodes >= budget || self.out_of_time()) {
                if adaptive && !extended && alive.len() >= 2 {
                    extended = true;
                    let mut order = alive.clone();
                    order.sort_by(|&a, &b| totals[b].total_cmp(&totals[a]).then(a.cmp(&b)));
                    let (a, b) = (order[0], order[1]);
                    let k = vals[a].len().min(vals[b].len());
                    let d: Vec<f32> = (0..k).map(|t| vals[a][t] - vals[b][t]).collect();
                    let mean = d.iter().sum::<f32>() / k as f32;
                    let var = d.iter().map(|x| (x - mean) * (x - mean)).sum::<f32>()
                        / (k.max(2) - 1) as f32;
                    let se = (var / k as f32).sqrt();
                    if k == vals[a].len() && k == vals[b].len() && mean < self.z * se {
                        budget = budget.saturating_mul(self.ext);
                        // The nodes used may already pass the extended budget (one rollout overshoots it).
                        cut_at = self.nodes + budget.saturating_sub(self.nodes) / 2;
                        continue;
                    }
                }
                break;
            }
            if alive.len() > 2 && self.nodes >= cut_at && j >= u64::from(MIN_ROLLOUTS) {
                alive.sort_by(|&a, &b| totals[b].total_cmp(&totals[a]).then(a.cmp(&b)));
                alive.truncate(alive.len().div_ceil(2).max(2));
                alive.sort_unstable();
                cut_at += budget.saturating_sub(cut_at) / 2;
            }
        }
        self.rolls = saved_rolls;
        self.sharp = saved_sharp;
        let mut best = (alive[0], f32::NEG_INFINITY);
        for &i in &alive {
            if totals[i] > best.1 {
                best = (i, totals[i]);
            }
        }
        best.0
    }

    /// Plays the greedy policy (one ply) for every seat along dice drawn from `seed`, then evaluates for `me`.
    fn simulate(&mut self, g: Game, seed: u64, me: u8) -> f32 {
        let rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let branch = self.variant & 1 != 0;
        self.sim_from(g, rng, 0, me, branch, false)
    }

    /// The rollout from `g` with `rolls` rolls already made.
    fn sim_from(
        &mut self,
        mut g: Game,
        mut rng: Xoshiro256PlusPlus,
        mut rolls: usize,
        me: u8,
        branch: bool,
        mut seen_opp: bool,
    ) -> f32 {
        let n_sides = self.n_sides;
        loop {
            match g.phase() {
                Phase::Over { .. } => break,
                Phase::Roll => {
                    let acting = g.layout().side_of_seat[g.seat() as usize];
                    if self.variant & 4 != 0
                        && acting == me
                        && seen_opp
                        && let Some(w) = self.sharp
                    {
                        return self.turn_leaf(&g, me, &w);
                    }
                    if rolls == self.rolls {
                        break;
                    }
                    if acting != me {
                        seen_opp = true;
                    }
                    self.nodes += 1;
                    let die = rng.random_range(1..=6);
                    if g.roll_with(die, &mut NoEvents).is_err() {
                        break;
                    }
                    rolls += 1;
                }
                Phase::Move { .. } | Phase::Count { .. } => {
                    let legal = g.legal();
                    let side = g.layout().side_of_seat[g.seat() as usize];
                    if branch && side == me && legal.len() > 1 {
                        // Determinized: every own move with the same dice ahead, the best kept.
                        let moves: parchis_rules::MoveList = legal.iter().copied().collect();
                        let mut best = f32::NEG_INFINITY;
                        for m in moves {
                            self.nodes += 1;
                            let mut next = g;
                            next.play_unchecked_with(m, &mut NoEvents);
                            let v = self.sim_from(next, rng.clone(), rolls, me, false, seen_opp);
                            best = best.max(v);
                        }
                        return best;
                    }
                    let m = if legal.len() == 1 {
                        legal[0]
                    } else {
                        self.nodes += legal.len() as u32;
                        let mut best = (legal[0], f32::NEG_INFINITY);
                        for &m in legal {
                            let mut next = g;
                            next.play_unchecked_with(m, &mut NoEvents);
                            let v = match (self.sharp, &self.policy) {
                                (_, Some(pw)) if side == me => {
                                    crate::value::policy_score(&next, side, pw)
                                }
                                (_, _)
                                    if side == me && self.net_policy && crate::net::fits(&next) =>
                                {
                                    crate::greedy::line_value(&next, side, 3, &crate::net::win_prob)
                                }
                                (Some(w), _) if side == me && self.variant & 2 != 0 => {
                                    self.two_ply(&next, me, &w, 3)
                                }
                                (Some(w), _) if side == me => {
                                    crate::greedy::line_value(&next, side, 3, &|g, s| {
                                        crate::sharp::evaluate(g, s, &w)
                                    })
                                }
                                _ if self.exact_greedy => crate::greedy::own_line_value(
                                    &next,
                                    side,
                                    crate::greedy::COUNT_DEPTH,
                                ),
                                _ => perspective(&side_scores(&next), n_sides, side),
                            };
                            if v > best.1 {
                                best = (m, v);
                            }
                        }
                        best.0
                    };
                    self.nodes += 1;
                    g.play_unchecked_with(m, &mut NoEvents);
                }
            }
        }
        if self.net_leaf && crate::net::fits(&g) {
            crate::net::win_prob(&g, me)
        } else if let Some(w) = &self.sharp {
            crate::sharp::leaf_value(&g, me, w)
        } else if self.learned_leaf {
            crate::value::win_probs(&g)[me as usize]
        } else {
            perspective(&side_scores_with(&g, &self.weights), n_sides, me)
        }
    }

    /// The greedy choice of the seat to act (as [`crate::GreedyBot`]), charging the nodes.
    pub(super) fn greedy_pick(&mut self, g: &Game, legal: &[Move]) -> Move {
        if legal.len() == 1 {
            return legal[0];
        }
        self.nodes += legal.len() as u32;
        let side = g.layout().side_of_seat[g.seat() as usize];
        let mut best = (legal[0], f32::NEG_INFINITY);
        for &m in legal {
            let mut next = *g;
            next.play_unchecked_with(m, &mut NoEvents);
            let v = crate::greedy::own_line_value(&next, side, crate::greedy::COUNT_DEPTH);
            if v > best.1 {
                best = (m, v);
            }
        }
        best.0
    }

    /// Two plies for `me`: its pending counts played as well as possible, then the next opponent's roll
    /// averaged over the six faces with its greedy replies, then the sharper evaluation.
    fn two_ply(&mut self, g: &Game, me: u8, w: &Params, depth: u8) -> f32 {
        let acting = g.layout().side_of_seat[g.seat() as usize];
        match g.phase() {
            Phase::Over { .. } => crate::sharp::evaluate(g, me, w),
            Phase::Move { .. } | Phase::Count { .. } if acting == me && depth > 0 => {
                let moves: parchis_rules::MoveList = g.legal().iter().copied().collect();
                let mut best = f32::NEG_INFINITY;
                for m in moves {
                    self.nodes += 1;
                    let mut next = *g;
                    next.play_unchecked_with(m, &mut NoEvents);
                    best = best.max(self.two_ply(&next, me, w, depth - 1));
                }
                best
            }
            Phase::Roll if acting != me => {
                let seat = g.seat();
                let mut sum = 0.0;
                for die in 1..=6 {
                    self.nodes += 1;
                    let mut n = *g;
                    if n.roll_with(die, &mut NoEvents).is_err() {
                        continue;
                    }
                    while matches!(n.phase(), Phase::Move { .. } | Phase::Count { .. })
                        && n.seat() == seat
                    {
                        let m = self.greedy_pick(&n, n.legal());
                        n.play_unchecked_with(m, &mut NoEvents);
                    }
                    sum += crate::sharp::evaluate(&n, me, w);
                }
                sum / 6.0
            }
            _ => crate::sharp::evaluate(g, me, w),
        }
    }

    /// The leaf when `me` is to roll: the mean over its six faces of its best line (counts followed).
    fn turn_leaf(&mut self, g: &Game, me: u8, w: &Params) -> f32 {
        let mut sum = 0.0;
        for die in 1..=6 {
            self.nodes += 1;
            let mut n = *g;
            if n.roll_with(die, &mut NoEvents).is_err() {
                continue;
            }
            let v = if matches!(n.phase(), Phase::Move { .. } | Phase::Count { .. }) {
                self.nodes += 3 * n.legal().len() as u32;
                crate::greedy::line_value(&n, me, 3, &|g, s| crate::sharp::leaf_value(g, s, w))
            } else {
                crate::sharp::leaf_value(&n, me, w)
            };
            sum += v;
        }
        sum / 6.0
    }
}

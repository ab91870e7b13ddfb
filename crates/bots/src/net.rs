//! A small neural win-probability model for four-player individual games: the leaf of the expert's rollouts
//! there (see [`crate::ExpertBot::with_net_leaf`]).
//!
//! The input ([`inputs`]) lists the four sides in turn order starting from the side whose chances are asked
//! (`me`), each by the [`crate::value::side_features`] (22) and its [`crate::sharp::side_scores`] / 100. One
//! hidden layer of [`HIDDEN`] ReLU units gives a logit per side (same order); a network's win chance for `me`
//! is the softmax of `me`'s logit, and [`win_prob`] is the mean of two such networks. Both were fitted by
//! `examples/train_net.rs` on Roll-phase positions of the matchup the expert plays (one rotating seat against
//! three greedy bots), labelled by the side that went on to win, on the dice of training seed 1001 (20,000
//! games where that seat plays one ply of the expert's rollout policy, 20,000 where it plays a cheaper
//! expert); they differ in that cheaper expert: 8,000 nodes for [`crate::net_weights`], 1,500 for
//! [`crate::net_weights_b`] (the round-5 weights), that expert's own leaf being the network of the round
//! before. Evaluation works on fixed-size arrays and allocates nothing.

use parchis_rules::{Game, Mode, Phase, RuleSet};

use crate::net_weights::{B1, B2, W1, W2};
use crate::net_weights_b as second;
use crate::value::NF;

/// Sides the model knows.
pub const SIDES: usize = 4;
/// Inputs per side.
pub const PER_SIDE: usize = NF + 1;
/// Inputs.
pub const NI: usize = SIDES * PER_SIDE;
/// Hidden units.
pub const HIDDEN: usize = 64;

/// Whether the model was trained for this kind of game (Playgridia, four individual players).
pub fn fits(g: &Game) -> bool {
    g.rules() == RuleSet::Playgridia
        && g.mode() == Mode::Individual
        && g.layout().n_seats as usize == SIDES
        && g.layout().n_sides() as usize == SIDES
}

/// The model's input for the chances of `me` (a game for which [`fits`] holds).
pub fn inputs(g: &Game, me: u8) -> [f32; NI] {
    let l = g.layout();
    let f = crate::value::side_features(g);
    let s = crate::sharp::side_scores(g, &crate::sharp::Params::DEFAULT);
    let me_seat = (0..SIDES).find(|&t| l.side_of_seat[t] == me).unwrap_or(0);
    let mut x = [0.0f32; NI];
    for k in 0..SIDES {
        let side = l.side_of_seat[(me_seat + k) % SIDES] as usize;
        let o = k * PER_SIDE;
        x[o..o + NF].copy_from_slice(&f[side]);
        x[o + NF] = s[side] / 100.0;
    }
    x
}

/// The logits of the four sides (in [`inputs`] order) for an input, with the given weights.
#[inline]
pub fn forward(
    x: &[f32; NI],
    w1: &[f32],
    b1: &[f32],
    w2: &[f32],
    b2: &[f32],
    h: &mut [f32; HIDDEN],
) -> [f32; SIDES] {
    h.copy_from_slice(&b1[..HIDDEN]);
    // Input-major: each input adds its row to the hidden sums (most inputs are 0 or small counts).
    for (i, &xi) in x.iter().enumerate() {
        if xi != 0.0 {
            let row = &w1[i * HIDDEN..(i + 1) * HIDDEN];
            for (a, &w) in h.iter_mut().zip(row) {
                *a += xi * w;
            }
        }
    }
    let mut z = [0.0f32; SIDES];
    z.copy_from_slice(&b2[..SIDES]);
    for (j, &a) in h.iter().enumerate() {
        if a > 0.0 {
            let row = &w2[j * SIDES..(j + 1) * SIDES];
            for (zk, &w) in z.iter_mut().zip(row) {
                *zk += a * w;
            }
        }
    }
    z
}

/// The probability that side `me` wins (a won game: 1 or 0); the game must [`fit`](fits) the model: the mean
/// of the two networks' softmax probabilities ([`crate::net_weights`] and [`crate::net_weights_b`], trained on
/// different labels).
pub fn win_prob(g: &Game, me: u8) -> f32 {
    if let Phase::Over { side } = g.phase() {
        return if side == me { 1.0 } else { 0.0 };
    }
    let x = inputs(g, me);
    let a = first_prob(&forward(&x, &W1, &B1, &W2, &B2, &mut [0.0; HIDDEN]));
    let b = first_prob(&forward(
        &x,
        &second::W1,
        &second::B1,
        &second::W2,
        &second::B2,
        &mut [0.0; HIDDEN],
    ));
    0.5 * (a + b)
}

/// The softmax probability of the first of four logits.
fn first_prob(z: &[f32; SIDES]) -> f32 {
    let m = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f32 = z.iter().map(|&v| (v - m).exp()).sum();
    (z[0] - m).exp() / sum
}

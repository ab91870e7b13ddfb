//! A learned evaluation for the expert: the probability that each side wins, from a softmax over sides of a
//! linear function of per-side features.
//!
//! Each side's features ([`side_features`]) describe its pieces (at home, at the goal, in the lane, where on
//! the circuit through a piecewise-linear basis over progress, on safe squares, in blockades), how likely
//! its exposed pieces are to be captured before its next turn (for every opponent seat, the faces of one
//! die, with the forced exit on a 5, the six counting seven, blockades in the way and the extra roll after a
//! six), how much it threatens the others, and where it stands in the turn order. Its *strength* is
//! [`WEIGHTS`] · features, and [`win_probs`] is the softmax of the strengths over the sides.
//!
//! The weights were fitted by multinomial logistic regression on positions at the roll of greedy-vs-greedy
//! four-player Playgridia games, labelled by the side that went on to win (`examples/train.rs`; held-out
//! log-loss 1.194 against 1.386 for a uniform guess). It is an option of the expert
//! ([`crate::ExpertBot::with_learned_leaf`]), not its default: as a rollout leaf it did no better than
//! greedy's score margin in seeded arenas.
//!
//! [`move_features`] and [`policy_score`] define a linear move policy over the same features (plus the
//! sharper and greedy evaluations), fitted to the expert's own choices by `examples/distill.rs`; the expert
//! can play its own seats in the rollouts by it ([`crate::ExpertBot::with_policy`], off by default).

use parchis_rules::{Game, Phase};

use crate::eval::MAX_SIDES;
use crate::scan::Scan;

/// Number of features per side.
pub const NF: usize = 22;

/// Feature names, for the training tool.
pub const NAMES: [&str; NF] = [
    "home",
    "home²/n",
    "goal",
    "lane",
    "lane progress",
    "circuit hat 0",
    "circuit hat 1/4",
    "circuit hat 1/2",
    "circuit hat 3/4",
    "circuit hat 1",
    "risk",
    "risk × progress",
    "blockade",
    "safe",
    "threat",
    "to move",
    "moves 2nd",
    "moves 3rd",
    "extra roll",
    "2 sixes",
    "pending counts",
    "near enemy exit",
];

/// Fitted weights (see the module docs).
pub const WEIGHTS: [f32; NF] = [
    -0.6360, // home
    0.1615,  // home²/n
    0.5358,  // goal
    0.5317,  // lane
    0.2755,  // lane progress
    -0.3529, // circuit hat 0
    -0.3194, // circuit hat 1/4
    -0.1060, // circuit hat 1/2
    0.1127,  // circuit hat 3/4
    0.5366,  // circuit hat 1
    -0.4191, // risk
    -0.4168, // risk × progress
    -0.0035, // blockade
    0.0382,  // safe
    0.0009,  // threat
    0.0658,  // to move
    0.0399,  // moves 2nd
    0.0122,  // moves 3rd
    -0.0046, // extra roll
    -0.1067, // 2 sixes
    0.0000,  // pending counts
    0.0472,  // near enemy exit
];

type Features = [[f32; NF]; MAX_SIDES];

/// Per-side features of a position (sides past the game's are zero).
pub fn side_features(g: &Game) -> Features {
    let mut f = [[0.0f32; NF]; MAX_SIDES];
    let l = g.layout();
    let b = g.board();
    let Scan {
        n,
        n_seats,
        goal,
        last,
        len,
        seat,
        side,
        cell,
        blocked,
        seat_home,
        colour_home,
        dist,
    } = Scan::new(g);
    let per_side_pieces =
        l.pieces_per_colour as f32 * l.n_colours as f32 / l.n_sides().max(1) as f32;

    for p in 0..n {
        let pos = g.raw_pos(p as u8);
        let me = side[p] as usize;
        let ff = &mut f[me];
        if pos == 0 {
            ff[0] += 1.0;
            continue;
        }
        if pos >= goal {
            ff[2] += 1.0;
            continue;
        }
        if pos > last {
            ff[3] += 1.0;
            ff[4] += (pos - last) as f32 / (goal - last) as f32;
            continue;
        }
        // On the circuit: piecewise-linear basis over progress.
        let x = (pos - 1) as f32 / (last - 1) as f32 * 4.0;
        let k = (x as usize).min(3);
        let t = x - k as f32;
        ff[5 + k] += 1.0 - t;
        ff[6 + k] += t;
        let c = cell[p];
        if c == 255 {
            continue;
        }
        if blocked & (1u128 << c) != 0 {
            ff[12] += 1.0;
            continue;
        }
        if b.is_safe_cell(c) {
            ff[13] += 1.0;
            continue;
        }
        // Exposed: for every opponent seat, the chance that it lands here on its turn. `reach[s]` has bit
        // `d` set when a piece of seat `s` stands `d` squares behind with a free way and room on the circuit.
        let mut reach = [0u16; MAX_SIDES];
        for a in 0..n {
            let ca = cell[a];
            if ca == 255 || side[a] as usize == me {
                continue;
            }
            let d = (c as i16 - ca as i16).rem_euclid(len as i16) as u8;
            if d == 0 || d > 12 || g.raw_pos(a as u8) + d > last {
                continue;
            }
            if blocked != 0 && (1..d).any(|k| blocked & (1u128 << ((ca + k) % len)) != 0) {
                continue;
            }
            reach[seat[a] as usize] |= 1 << d;
        }
        let mut miss = 1.0f32;
        let mut near_exit = false;
        for s in 0..n_seats {
            if l.side_of_seat[s] as usize == me {
                continue;
            }
            let r = reach[s];
            if r != 0 {
                let hits = dist[s][1..=6]
                    .iter()
                    .filter(|&&d| d != 0 && r & (1 << d) != 0)
                    .count() as u8;
                let six_hits = r & (1 << dist[s][6]) != 0;
                let mut ps = hits as f32 / 6.0;
                if !six_hits {
                    ps += ps / 6.0;
                }
                if ps > 0.0 {
                    miss *= 1.0 - ps.min(1.0);
                    f[l.side_of_seat[s] as usize][14] += ps;
                }
            }
            if seat_home[s] > 0 && !near_exit {
                // Within reach of a piece this seat may bring out.
                let colours = l.seat_colours[s];
                for ci in 0..l.n_colours {
                    if colours & (1 << ci) != 0
                        && colour_home[ci as usize] > 0
                        && let Some(e) = b.cell(l.path_slot[ci as usize], 1)
                    {
                        let d = (c as i16 - e as i16).rem_euclid(len as i16);
                        near_exit |= (1..=7).contains(&d);
                    }
                }
            }
        }
        let risk = 1.0 - miss;
        let ff = &mut f[me];
        ff[10] += risk;
        ff[11] += risk * x / 4.0;
        if near_exit {
            ff[21] += 1.0;
        }
    }

    // Turn order and the state of the turn.
    let to_act = g.seat() as usize;
    let mut order = [u8::MAX; MAX_SIDES];
    for k in 0..n_seats {
        let s = (to_act + k) % n_seats;
        let sd = l.side_of_seat[s] as usize;
        order[sd] = order[sd].min(k as u8);
    }
    for (sd, ff) in f.iter_mut().enumerate().take(l.n_sides() as usize) {
        ff[1] = ff[0] * ff[0] / per_side_pieces;
        match order[sd] {
            0 => ff[15] = 1.0,
            1 => ff[16] = 1.0,
            2 => ff[17] = 1.0,
            _ => {}
        }
    }
    let acting = l.side_of_seat[to_act] as usize;
    if matches!(g.phase(), Phase::Roll) {
        match g.sixes_in_a_row() {
            0 => {}
            1 => f[acting][18] = 1.0,
            _ => f[acting][19] = 1.0,
        }
    }
    let pending: u32 = match g.phase() {
        Phase::Count { amount } => amount as u32,
        _ => 0,
    } + g.queued_counts().iter().map(|&a| a as u32).sum::<u32>();
    f[acting][20] = pending as f32 / 20.0;
    f
}

/// Strengths (weights · features) of every side.
#[inline]
pub fn strengths(f: &Features, w: &[f32; NF], n_sides: usize) -> [f32; MAX_SIDES] {
    let mut z = [0.0f32; MAX_SIDES];
    for s in 0..n_sides {
        z[s] = f[s].iter().zip(w).map(|(a, b)| a * b).sum();
    }
    z
}

/// The probability that each side wins (a won game: 1 for the winner).
pub fn win_probs_with(g: &Game, w: &[f32; NF]) -> [f32; MAX_SIDES] {
    let mut p = [0.0f32; MAX_SIDES];
    if let Phase::Over { side } = g.phase() {
        p[side as usize] = 1.0;
        return p;
    }
    let n = g.layout().n_sides() as usize;
    let z = strengths(&side_features(g), w, n);
    let m = z[..n].iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for s in 0..n {
        p[s] = (z[s] - m).exp();
        sum += p[s];
    }
    for x in &mut p[..n] {
        *x /= sum;
    }
    p
}

/// [`win_probs_with`] with the fitted [`WEIGHTS`].
pub fn win_probs(g: &Game) -> [f32; MAX_SIDES] {
    win_probs_with(g, &WEIGHTS)
}

/// Number of move features ([`move_features`]): the side features, then the sharper and greedy evaluations.
pub const NP: usize = NF + 2;

/// Features of the position after a move, from the mover's side's point of view: each side feature minus
/// its mean over the other sides, then [`crate::sharp::evaluate`] and [`crate::eval::evaluate`] (÷ 20).
pub fn move_features(after: &Game, side: u8) -> [f32; NP] {
    let mut out = [0.0f32; NP];
    let n = after.layout().n_sides().max(2) as usize;
    let f = side_features(after);
    for k in 0..NF {
        let mut others = 0.0;
        for (s, fs) in f.iter().enumerate().take(n) {
            if s != side as usize {
                others += fs[k];
            }
        }
        out[k] = f[side as usize][k] - others / (n - 1) as f32;
    }
    out[NF] = crate::sharp::evaluate(after, side, &crate::sharp::Params::DEFAULT) / 20.0;
    out[NF + 1] = crate::eval::evaluate(after, side) / 20.0;
    out
}

/// The score of a move for a linear policy over [`move_features`].
#[inline]
pub fn policy_score(after: &Game, side: u8, w: &[f32; NP]) -> f32 {
    if let Phase::Over { side: s } = after.phase() {
        return if s == side { 1e6 } else { -1e6 };
    }
    move_features(after, side)
        .iter()
        .zip(w)
        .map(|(a, b)| a * b)
        .sum()
}

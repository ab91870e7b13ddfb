//! The static evaluation shared by the greedy and expert bots.
//!
//! A position is scored per *side* (a team, or a lone player): the sum of the values of its pieces, where a
//! piece is worth more the further it has gone, lane squares and the goal add a bonus, a piece on an unsafe
//! square loses the part of its value an opponent standing 1..=12 squares behind it is likely to take, and
//! counts (20 / 10) waiting to be played are worth most of their squares. A side's point of view is its
//! own score minus the mean score of the other sides, so helping an opponent is always a loss.

use parchis_rules::{Game, Phase};

/// Most sides a game can have (six players on the six-colour board).
pub const MAX_SIDES: usize = 6;

/// The score of a won game: far above any position value.
pub const WIN: f32 = 100_000.0;

/// Value of a piece that has just come out of its base.
const OUT: f32 = 20.0;
/// Value of each square of progress.
const STEP: f32 = 1.0;
/// Extra value of a piece in its private lane (it can no longer be captured).
const LANE: f32 = 8.0;
/// Extra value of a piece at the goal.
const GOAL: f32 = 20.0;
/// Extra value of a piece that is part of a blockade on the circuit.
const BLOCKADE: f32 = 2.0;
/// Value of each square of a count still to be played.
const COUNT: f32 = 0.8;
/// What being captured costs on top of the piece's value: the 20 squares the captor counts.
const CAPTURE_LOSS: f32 = 16.0;

/// Weights of the evaluation that the expert may change (the greedy bot uses [`Weights::GREEDY`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Multiplies the expected loss of exposed pieces.
    pub risk: f32,
    /// Extra value of a piece that is part of a blockade on the circuit.
    pub blockade: f32,
    /// Extra value of a piece in its private lane.
    pub lane: f32,
}

impl Weights {
    /// The greedy bot's weights.
    pub const GREEDY: Weights = Weights {
        risk: 1.0,
        blockade: BLOCKADE,
        lane: LANE,
    };
}

/// Scores of every side, indexed by side. Sides past `n_sides` are 0.
pub fn side_scores(g: &Game) -> [f32; MAX_SIDES] {
    side_scores_with(g, &Weights::GREEDY)
}

/// [`side_scores`] with other weights.
#[inline]
pub fn side_scores_with(g: &Game, w: &Weights) -> [f32; MAX_SIDES] {
    let mut s = [0.0f32; MAX_SIDES];
    let l = g.layout();
    if let Phase::Over { side } = g.phase() {
        s[side as usize] = WIN;
        return s;
    }
    let b = g.board();
    let goal = b.goal_pos();
    let last = b.last_circuit() + 1; // stored position of the last circuit square
    let len = b.circuit_len() as i16;
    let n = l.n_pieces() as usize;
    let capture_allies = g.options().capture_allies;

    // Per piece: side, colour, circuit cell (255 when not on the circuit).
    let mut side = [0u8; 24];
    let mut colour = [0u8; 24];
    let mut cell = [255u8; 24];
    for p in 0..n {
        let c = l.colour_of_piece(p as u8);
        colour[p] = c;
        side[p] = l.side_of_colour(c);
        let pos = g.raw_pos(p as u8);
        if pos != 0
            && pos <= last
            && let Some(x) = b.cell(l.path_slot[c as usize], pos)
        {
            cell[p] = x;
        }
    }

    for p in 0..n {
        let pos = g.raw_pos(p as u8);
        let v = if pos == 0 {
            0.0
        } else if pos >= goal {
            OUT + (goal - 1) as f32 * STEP + w.lane + GOAL
        } else {
            let mut v = OUT + (pos - 1) as f32 * STEP;
            if pos > last {
                v += w.lane;
            } else if g.in_blockade(p as u8) {
                v += w.blockade;
            } else if !b.is_safe_cell(cell[p]) {
                // Exposed: the chance that some opponent behind it lands on it before our next turn.
                let mut miss = 1.0f32;
                for a in 0..n {
                    if cell[a] == 255 || a == p {
                        continue;
                    }
                    let enemy = side[a] != side[p] || (capture_allies && colour[a] != colour[p]);
                    if !enemy {
                        continue;
                    }
                    let d = (cell[p] as i16 - cell[a] as i16).rem_euclid(len) as u8;
                    if d == 0 || d > 12 || g.raw_pos(a as u8) + d > last {
                        continue;
                    }
                    let hit = match d {
                        1..=6 => 1.0 / 6.0,
                        7 => 1.0 / 12.0,
                        _ => 1.0 / 36.0,
                    };
                    // An ally of the piece only captures it when that is its best move: weigh it less.
                    let hit = if side[a] == side[p] { hit * 0.3 } else { hit };
                    miss *= 1.0 - hit;
                }
                v -= w.risk * (1.0 - miss) * (v + CAPTURE_LOSS);
            }
            v
        };
        s[side[p] as usize] += v;
    }

    // Counts waiting to be played by the seat to act.
    let pending: u32 = match g.phase() {
        Phase::Count { amount } => amount as u32,
        _ => 0,
    } + g.queued_counts().iter().map(|&a| a as u32).sum::<u32>();
    if pending > 0 {
        s[l.side_of_seat[g.seat() as usize] as usize] += pending as f32 * COUNT;
    }
    s
}

/// A side's point of view on scores: its own minus the mean of the others.
#[inline]
pub fn perspective(scores: &[f32; MAX_SIDES], n_sides: u8, side: u8) -> f32 {
    let n = n_sides.max(2) as usize;
    let total: f32 = scores[..n].iter().sum();
    let me = scores[side as usize];
    me - (total - me) / (n - 1) as f32
}

/// The evaluation of a position from the point of view of a side.
pub fn evaluate(g: &Game, side: u8) -> f32 {
    perspective(&side_scores(g), g.layout().n_sides(), side)
}

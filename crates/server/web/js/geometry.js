// Board geometry, only to draw: where each square, lane square, base and goal is.
// The client never decides a rule; it maps the server's places to coordinates.
//
// Both boards use one construction: a regular N-gon in the centre (the goal, side 3), and N arms of
// 3 columns x 8 rows glued to its sides. N = 4 gives the classic 19x19 cross, N = 6 the six-arm star.
// Arm k belongs to board slot k. Square numbering (counter-clockwise on screen):
//   tip (middle column, outer row) of arm k = square 17k (68 / 102 for k = 0);
//   squares 17k+1 .. 17k+8 run inward on arm k's exit side (+l), the exit 17k+5 among them;
//   squares 17k+9 .. 17k+16 run outward on arm k+1's other side (-l).
// Lane square i of slot k sits in arm k's middle column, row 7 - i; the goal is the centre triangle k.

export const SIDE = 17;
export const LANE_LEN = 7;
/** A piece's radius at the goal: three or fewer there are drawn nearly as big as on a square (0.36). */
export const GOAL_R_FEW = 0.32;
export const GOAL_R_MANY = 0.28;

export const COLOURS = {
  yellow: { fill: '#f4c20d', dark: '#8a6d00', light: '#fdf0b8', letter: 'Y' },
  blue: { fill: '#1f6fd1', dark: '#0d3b78', light: '#cfe0f7', letter: 'B' },
  red: { fill: '#d8342c', dark: '#7d1511', light: '#f8d3d0', letter: 'R' },
  green: { fill: '#2f9e4a', dark: '#145226', light: '#d3efd9', letter: 'G' },
  orange: { fill: '#f07f16', dark: '#8a4300', light: '#fde1c6', letter: 'O' },
  turquoise: { fill: '#14aeb0', dark: '#06585a', light: '#c8f0ef', letter: 'T' },
};

/** The colours of each board slot in turn order: the server's (GET /api/rules), not this file's. */
export { slotColours } from './rules.js';

export function circuitLen(board) {
  return board === 'six' ? 102 : 68;
}

/** Geometry of one board, rotated so that `bottomSlot`'s arm points down. */
export class Geometry {
  constructor(board, bottomSlot = 0) {
    this.board = board;
    this.n = board === 'six' ? 6 : 4;
    this.len = circuitLen(board);
    this.bottomSlot = bottomSlot;
    this.apothem = 1.5 / Math.tan(Math.PI / this.n);
    this.radius = this.apothem + 8; // centre to arm tip
    const half = this.n === 4 ? 9.5 : this.radius + 0.4;
    this.size = half * 2;
    this.cx = half;
    this.cy = half;
  }

  /** Outward unit vector d and lateral unit vector l (towards the exit column) of arm k. */
  arm(k) {
    const a = Math.PI / 2 - ((k - this.bottomSlot) * 2 * Math.PI) / this.n;
    const d = [Math.cos(a), Math.sin(a)];
    const l = [d[1], -d[0]];
    return { d, l, angle: a };
  }

  /** Point at (lateral offset u, distance v from the centre along the arm). */
  pt(k, u, v) {
    const { d, l } = this.arm(k);
    return [this.cx + d[0] * v + l[0] * u, this.cy + d[1] * v + l[1] * u];
  }

  /** Cell of arm k: column c in -1..1 (+1 = exit side), row r in 0..7 (0 = next to the centre). */
  cell(k, c, r) {
    const v0 = this.apothem + r;
    const corners = [
      this.pt(k, c - 0.5, v0),
      this.pt(k, c + 0.5, v0),
      this.pt(k, c + 0.5, v0 + 1),
      this.pt(k, c - 0.5, v0 + 1),
    ];
    return { arm: k, c, r, centre: this.pt(k, c, v0 + 0.5), corners, lat: this.arm(k).l };
  }

  /** Where circuit square sq (1-based) is drawn. */
  square(sq) {
    const s = ((sq - 1) % this.len) + 1;
    if (s % SIDE === 0) return this.cell((s / SIDE) % this.n, 0, 7);
    const k = Math.floor(s / SIDE);
    const j = s - SIDE * k;
    if (j <= 8) return this.cell(k % this.n, 1, 8 - j);
    return this.cell((k + 1) % this.n, -1, j - 9);
  }

  /** Lane square i (1..7) of slot k. */
  lane(k, i) {
    return this.cell(k, 0, 7 - i);
  }

  /** Vertices of the centre polygon (goal); triangle k spans vertices k and k+1 around arm k. */
  goalTriangle(k) {
    const R = 1.5 / Math.sin(Math.PI / this.n);
    const a = this.arm(k).angle;
    const h = Math.PI / this.n;
    return [
      [this.cx, this.cy],
      [this.cx + R * Math.cos(a - h), this.cy + R * Math.sin(a - h)],
      [this.cx + R * Math.cos(a + h), this.cy + R * Math.sin(a + h)],
    ];
  }

  /** Spots for pieces that reached the goal: in the triangle next to arm k, rows of three from its outer edge
   * inwards, spaced so that a piece there is as big as a piece on a square's half. */
  goalSpots(k, count) {
    const spots = [];
    const { d, l } = this.arm(k);
    // Up to three in one row, spaced for pieces of GOAL_R_FEW; more in two rows of smaller ones.
    const few = count <= 3;
    for (let i = 0; i < count; i++) {
      const row = Math.floor(i / 3);
      const col = (i % 3) - 1;
      const v = this.apothem * 0.8 - (few ? 0.03 : row * 0.55);
      const u = col * (few ? 0.66 : 0.62 - row * 0.06);
      spots.push([this.cx + d[0] * v + l[0] * u, this.cy + d[1] * v + l[1] * u]);
    }
    return spots;
  }

  /** The base of slot k: centre and radius (in the gap between arm k and arm k+1). */
  base(k) {
    const a = this.arm(k).angle - Math.PI / this.n;
    const dist = this.n === 4 ? Math.SQRT2 * 5.25 : 8.45;
    const r = this.n === 4 ? 3.1 : 2.45;
    return { centre: [this.cx + dist * Math.cos(a), this.cy + dist * Math.sin(a)], r, angle: a };
  }

  /** Corner square of the 19x19 board for slot k's base (four-colour board only). */
  baseCorner(k) {
    const { centre } = this.base(k);
    const x = centre[0] < this.cx ? 0 : this.cx + 1.5;
    const y = centre[1] < this.cy ? 0 : this.cy + 1.5;
    return { x, y, w: 8, h: 8 };
  }

  /** Home spots for up to `count` pieces in slot k's base. */
  homeSpots(k, count) {
    const { centre, r } = this.base(k);
    const spots = [];
    if (count <= 4) {
      const o = r * 0.38;
      const offs = [[-o, -o], [o, -o], [-o, o], [o, o]];
      for (let i = 0; i < count; i++) spots.push([centre[0] + offs[i][0], centre[1] + offs[i][1]]);
    } else {
      for (let i = 0; i < count; i++) {
        const a = (i * 2 * Math.PI) / count - Math.PI / 2;
        spots.push([centre[0] + Math.cos(a) * r * 0.55, centre[1] + Math.sin(a) * r * 0.55]);
      }
    }
    return spots;
  }

  /** Key of a place on the board for a piece following slot `pathSlot` ("sq:12", "lane:2:3", ...). */
  placeKey(place, pathSlot, homeSlot) {
    switch (place.kind) {
      case 'square': return `sq:${place.at}`;
      case 'lane': return `lane:${pathSlot}:${place.at}`;
      case 'goal': return `goal:${pathSlot}`;
      default: return `home:${homeSlot}`;
    }
  }

  /** Cell drawn for a place (null for home and goal). */
  placeCell(place, pathSlot) {
    if (place.kind === 'square') return this.square(place.at);
    if (place.kind === 'lane') return this.lane(pathSlot, place.at);
    return null;
  }

  /** The places a piece passes through from `from` to `to` (inclusive of `to`), for animation. */
  path(from, to, pathSlot) {
    const last = SIDE * pathSlot === 0 ? this.len : SIDE * pathSlot;
    const exit = SIDE * pathSlot + 5;
    const out = [];
    let cur = from;
    const same = (a, b) => a.kind === b.kind && (a.at ?? null) === (b.at ?? null);
    for (let guard = 0; guard < 120 && !same(cur, to); guard++) {
      let next;
      if (cur.kind === 'home') next = { kind: 'square', at: exit };
      else if (cur.kind === 'square') {
        if (to.kind === 'home') break; // never animate backwards
        next = cur.at === last ? { kind: 'lane', at: 1 } : { kind: 'square', at: (cur.at % this.len) + 1 };
      } else if (cur.kind === 'lane') next = cur.at >= LANE_LEN ? { kind: 'goal' } : { kind: 'lane', at: cur.at + 1 };
      else break;
      out.push(next);
      cur = next;
    }
    if (!out.length || !same(out[out.length - 1], to)) return [to];
    return out;
  }
}

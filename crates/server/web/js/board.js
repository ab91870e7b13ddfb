// SVG board: draws the static board once per (board, rotation) and the pieces for each view.
import { Geometry, COLOURS, LANE_LEN, GOAL_R_FEW, GOAL_R_MANY } from './geometry.js';
import { slotColours, boardInfo } from './rules.js';
import { t, placeName, pieceName } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';

/** Whether moves are shown at once: the device asks for reduced motion, or the page is not seen. */
export function still() {
  return document.hidden || matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function el(name, attrs = {}, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}
const pts = (list) => list.map((p) => `${p[0].toFixed(3)},${p[1].toFixed(3)}`).join(' ');

/** `square:12`, `lane:3`, `home`, `goal`: the place as data attributes carry it. */
export function placeAttr(place) {
  return place.at === undefined || place.at === null ? place.kind : `${place.kind}:${place.at}`;
}

export class BoardView {
  constructor(container, { onMove, onPreselect } = {}) {
    this.container = container;
    this.onMove = onMove || (() => {});
    this.onPreselect = onPreselect || (() => {});
    this.key = null;
    this.pieceEls = new Map();
    this.positions = new Map();
    this.animating = new Map();
    this.selected = null;
    this.preselected = null;
    this.moves = [];
    this.interactive = false;
  }

  /** Builds the static board for this board kind, rule set and bottom slot. */
  build(board, rules, bottomSlot) {
    const key = `${board}/${rules}/${bottomSlot}`;
    if (this.key === key) return;
    this.key = key;
    this.geo = new Geometry(board, bottomSlot);
    this.slotCols = slotColours(rules, board);
    // Which squares are safe and which are exits: the server's word (GET /api/rules).
    const { safe_squares: safe, exit_squares: exits } = boardInfo(board);
    const g = this.geo;
    this.container.textContent = '';
    const svg = el('svg', {
      viewBox: `0 0 ${g.size.toFixed(3)} ${g.size.toFixed(3)}`,
      class: `board board-${board}`,
      // A group, not an image: an image's children are hidden from screen readers, and the pieces one
      // can move are buttons in it. The pieces are named by their <title>; the squares are drawing.
      role: 'group',
      'aria-label': t(board === 'six' ? 'board_six' : 'board_four'),
      'data-board': board,
      'data-bottom-slot': bottomSlot,
    });
    this.svg = svg;
    const defs = el('defs', {}, svg);
    // Patterns so that bases differ without colour: stripes, dots, checks, crosses, waves, rings.
    const patterns = ['stripes', 'dots', 'checks', 'cross', 'hstripes', 'rings'];
    this.slotCols.forEach((col, k) => {
      const c = COLOURS[col];
      const p = el('pattern', { id: `pat-${k}`, width: 0.8, height: 0.8, patternUnits: 'userSpaceOnUse' }, defs);
      el('rect', { width: 0.8, height: 0.8, fill: c.fill }, p);
      const kind = patterns[k % patterns.length];
      const st = { stroke: c.dark, 'stroke-width': 0.08, 'stroke-opacity': 0.45, fill: 'none' };
      if (kind === 'stripes') el('path', { d: 'M0,0.8 L0.8,0', ...st }, p);
      else if (kind === 'dots') el('circle', { cx: 0.4, cy: 0.4, r: 0.12, fill: c.dark, 'fill-opacity': 0.4 }, p);
      else if (kind === 'checks') el('rect', { width: 0.4, height: 0.4, fill: c.dark, 'fill-opacity': 0.25 }, p);
      else if (kind === 'cross') el('path', { d: 'M0,0 L0.8,0.8 M0.8,0 L0,0.8', ...st }, p);
      else if (kind === 'hstripes') el('path', { d: 'M0,0.4 L0.8,0.4', ...st }, p);
      else el('circle', { cx: 0.4, cy: 0.4, r: 0.22, ...st }, p);
    });
    el('rect', { x: 0, y: 0, width: g.size, height: g.size, class: 'board-bg', rx: 0.3 }, svg);
    const layer = el('g', { class: 'board-static', 'aria-hidden': 'true' }, svg);
    // Bases.
    for (let k = 0; k < g.n; k++) {
      const c = COLOURS[this.slotCols[k]];
      if (g.n === 4) {
        const r = g.baseCorner(k);
        el('rect', { x: r.x + 0.1, y: r.y + 0.1, width: r.w - 0.2, height: r.h - 0.2, fill: `url(#pat-${k})`, class: 'base', rx: 0.25 }, layer);
      }
      const b = g.base(k);
      el('circle', { cx: b.centre[0], cy: b.centre[1], r: b.r, fill: g.n === 4 ? '#fffdf6' : `url(#pat-${k})`, class: 'base-ring', stroke: c.dark }, layer);
      if (g.n === 6) el('circle', { cx: b.centre[0], cy: b.centre[1], r: b.r * 0.8, fill: '#fffdf6', opacity: 0.9 }, layer);
    }
    // Circuit squares.
    this.squareEls = new Map();
    for (let sq = 1; sq <= g.len; sq++) {
      const cell = g.square(sq);
      const exitSlot = exits.indexOf(sq);
      // An exit square is filled with its colour: its mark and number are drawn light to stay readable.
      const exitColour = exitSlot >= 0 && exitSlot < g.n ? COLOURS[this.slotCols[exitSlot]] : null;
      const grp = el('g', { class: exitColour ? 'sq exit-sq' : 'sq', 'data-square': sq }, layer);
      el('polygon', { points: pts(cell.corners), fill: exitColour ? exitColour.fill : '#fffdf6', class: 'cell' }, grp);
      if (safe.includes(sq)) el('circle', { cx: cell.centre[0], cy: cell.centre[1], r: 0.36, class: 'safe-mark' }, grp);
      el('text', { x: cell.centre[0], y: cell.centre[1], class: 'sq-num', stroke: exitColour && exitColour.dark }, grp).textContent = String(sq);
      this.squareEls.set(`square:${sq}`, grp);
    }
    // Lanes and goal.
    for (let k = 0; k < g.n; k++) {
      const c = COLOURS[this.slotCols[k]];
      for (let i = 1; i <= LANE_LEN; i++) {
        const cell = g.lane(k, i);
        const grp = el('g', { class: 'sq lane', 'data-lane': `${k}:${i}` }, layer);
        el('polygon', { points: pts(cell.corners), fill: c.light, class: 'cell', stroke: c.dark }, grp);
        this.squareEls.set(`lane:${k}:${i}`, grp);
      }
      const tri = g.goalTriangle(k);
      const grp = el('g', { class: 'goal', 'data-goal': k }, layer);
      el('polygon', { points: pts(tri), fill: `url(#pat-${k})`, class: 'cell goal-tri' }, grp);
      this.squareEls.set(`goal:${k}`, grp);
    }
    // A destination is two drawings: the circle that takes the tap under the pieces (a piece that can be
    // picked keeps its own taps), and its mark over them (a piece standing where another would go leaves
    // the mark in sight). Pieces that cannot be picked let taps through to the circle under them.
    this.targetLayer = el('g', { class: 'targets' }, svg);
    this.pieceLayer = el('g', { class: 'pieces' }, svg);
    this.markLayer = el('g', { class: 'target-marks', 'aria-hidden': 'true' }, svg);
    this.container.appendChild(svg);
    this.pieceEls.clear();
    this.positions.clear();
  }

  /** Home slot of a colour (which base it sits in). */
  homeSlot(colour, pathSlot) {
    const i = this.slotCols.indexOf(colour);
    return i >= 0 ? i : pathSlot;
  }

  /** Computes the drawn position of every piece, sharing cells and bases between pieces. */
  layout(pieces) {
    const g = this.geo;
    const groups = new Map();
    for (const p of pieces) {
      const home = this.homeSlot(p.colour, p.path_slot);
      const key = g.placeKey(p.place, p.path_slot, home);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(p);
    }
    const out = new Map();
    for (const [key, list] of groups) {
      const p0 = list[0];
      if (p0.place.kind === 'home') {
        const home = this.homeSlot(p0.colour, p0.path_slot);
        const total = Math.max(4, pieces.filter((q) => q.colour === p0.colour).length);
        const spots = g.homeSpots(home, total);
        // Keep each piece in its own spot (by number) so pieces do not jump around in the base.
        list.forEach((p) => {
          const n = parseInt(p.id.slice(1), 10) - 1;
          out.set(p.id, { xy: spots[n % spots.length], r: 0.42, key });
        });
      } else if (p0.place.kind === 'goal') {
        const spots = g.goalSpots(p0.path_slot, Math.max(list.length, 1));
        list.forEach((p, i) => out.set(p.id, { xy: spots[i], r: list.length <= 3 ? GOAL_R_FEW : GOAL_R_MANY, key }));
      } else {
        const cell = g.placeCell(p0.place, p0.path_slot);
        // Two pieces side by side along the row; more (only transiently) in a small ring.
        const sorted = [...list].sort((a, b) => Number(a.last_arrived) - Number(b.last_arrived));
        sorted.forEach((p, i) => {
          let xy = cell.centre;
          let r = 0.36;
          if (sorted.length >= 2) {
            const off = sorted.length === 2 ? (i === 0 ? -0.24 : 0.24) : (i - (sorted.length - 1) / 2) * 0.2;
            xy = [cell.centre[0] + cell.lat[0] * off, cell.centre[1] + cell.lat[1] * off];
            r = sorted.length === 2 ? 0.25 : 0.2;
          }
          out.set(p.id, { xy, r, key, cell, count: sorted.length, blockade: p.in_blockade });
        });
      }
    }
    return out;
  }

  /**
   * Renders a view. `moved` lists Moved/Captured events (from the server) to animate step by step.
   */
  render(view, { bottomSlot = 0, moved = [], captured = [], mySeat = null } = {}) {
    this.build(view.board, view.rules, bottomSlot);
    this.view = view;
    const g = this.geo;
    const layout = this.layout(view.pieces);
    const seen = new Set();
    for (const p of view.pieces) {
      seen.add(p.id);
      const pos = layout.get(p.id);
      let pe = this.pieceEls.get(p.id);
      const c = COLOURS[p.colour] || COLOURS.yellow;
      if (!pe) {
        pe = el('g', { class: 'piece', 'data-piece': p.id, 'data-colour': p.colour }, this.pieceLayer);
        // Invisible, and as big as a finger needs (24 CSS px at least) while the piece can be picked.
        el('circle', { class: 'piece-hit', r: 0.36 }, pe);
        el('circle', { class: 'piece-body', r: 0.36, fill: c.fill, stroke: c.dark }, pe);
        el('circle', { class: 'piece-ring', r: 0.26, fill: 'none', stroke: '#fff' }, pe);
        const tx = el('text', { class: 'piece-label', fill: p.colour === 'yellow' ? '#3a2c00' : '#fff' }, pe);
        tx.textContent = `${c.letter}${p.id.slice(1)}`;
        el('title', {}, pe);
        pe.addEventListener('click', (ev) => { ev.stopPropagation(); this.pieceClicked(p.id); });
        pe.addEventListener('keydown', (ev) => this.pieceKey(ev, p.id));
        for (const on of ['pointerenter', 'focus']) pe.addEventListener(on, () => this.pair(p.id));
        for (const off of ['pointerleave', 'blur']) pe.addEventListener(off, () => this.pair(null));
        this.pieceEls.set(p.id, pe);
      }
      const old = this.positions.get(p.id);
      pe.setAttribute('data-place', placeAttr(p.place));
      pe.setAttribute('data-path-slot', p.path_slot);
      pe.classList.toggle('blockade', !!p.in_blockade);
      pe.classList.toggle('at-goal', p.place.kind === 'goal');
      pe.querySelector('.piece-body').setAttribute('r', pos.r);
      pe.querySelector('.piece-ring').setAttribute('r', pos.r * 0.72);
      pe.querySelector('.piece-label').setAttribute('font-size', (pos.r * 0.95).toFixed(3));
      pe.dataset.where = `${pieceName(p.id)} — ${placeName(p.place)}${p.in_blockade ? ' (' + t('blockade') + ')' : ''}`;
      this.namePiece(pe, p.id);
      const mv = moved.find((m) => m.piece === p.id);
      const hit = captured.find((c) => c.piece === p.id);
      if (old && mv && mv.type === 'moved' && old.key !== pos.key) {
        this.animate(pe, p, mv.from, mv.to, pos.xy);
      } else if (old && hit && p.place.kind === 'home' && old.key !== pos.key && !still()) {
        // Sent home: it stays under the piece that took it until that one lands, then goes back to base.
        const by = moved.find((m) => m.piece === hit.by);
        const wait = by ? this.stepMs(by.from, by.to, p.path_slot) * this.geo.path(by.from, by.to, p.path_slot).length : 0;
        this.glide(pe, old.xy, pos.xy, wait);
      } else {
        this.place(pe, pos.xy);
      }
      this.positions.set(p.id, pos);
    }
    for (const [id, pe] of this.pieceEls) if (!seen.has(id)) { pe.remove(); this.pieceEls.delete(id); }
    this.drawBlockades(layout);
    this.svg.setAttribute('data-turn-seat', view.turn.seat);
  }

  place(pe, xy) {
    const a = this.animating.get(pe);
    if (a) { clearInterval(a); clearTimeout(a); this.animating.delete(pe); }
    // An animation cut short (the next update came first) ends here too.
    pe.classList.remove('moving', 'sent-home');
    pe.setAttribute('transform', `translate(${xy[0].toFixed(3)},${xy[1].toFixed(3)})`);
  }

  /** How long a move's travel takes on screen (0 when shown at once). */
  travelMs(from, to, pathSlot) {
    const n = this.geo.path(from, to, pathSlot).length;
    return n <= 1 || still() ? 0 : this.stepMs(from, to, pathSlot) * n;
  }

  /** How long each square of a move takes: a short move steps slowly, a long one quicker (under ~0.7 s). */
  stepMs(from, to, pathSlot) {
    const n = this.geo.path(from, to, pathSlot).length;
    return Math.max(40, Math.min(110, 700 / Math.max(n, 1)));
  }

  /** Moves a piece square by square along its path. */
  animate(pe, piece, from, to, finalXY) {
    const g = this.geo;
    const steps = g.path(from, to, piece.path_slot);
    if (steps.length <= 1 || still()) {
      this.place(pe, finalXY);
      return;
    }
    const points = steps.slice(0, -1).map((pl) => g.placeCell(pl, piece.path_slot)).filter(Boolean).map((c) => c.centre);
    points.push(finalXY);
    this.run(pe, points, this.stepMs(from, to, piece.path_slot), 0);
  }

  /** A captured piece goes back to its base in a few frames once `wait` ms have passed. */
  glide(pe, fromXY, toXY, wait) {
    const frames = 8;
    const points = [];
    for (let i = 1; i <= frames; i++) points.push([fromXY[0] + ((toXY[0] - fromXY[0]) * i) / frames, fromXY[1] + ((toXY[1] - fromXY[1]) * i) / frames]);
    this.run(pe, points, 45, wait, 'sent-home');
  }

  /** Shows a piece at each point in turn, `ms` apart, after `wait` ms (marked `moving` all along). */
  run(pe, points, ms, wait, extra = '') {
    this.place(pe, wait ? this.positionOf(pe) : points[0]);
    pe.classList.add('moving');
    if (extra) pe.classList.add(extra);
    let i = wait ? 0 : 1;
    const end = () => {
      this.animating.delete(pe);
      pe.classList.remove('moving', 'sent-home');
    };
    const tick = () => {
      if (i < points.length) {
        const c = points[i++];
        pe.setAttribute('transform', `translate(${c[0].toFixed(3)},${c[1].toFixed(3)})`);
      } else { clearInterval(id); end(); }
    };
    let id = null;
    const start = () => { id = setInterval(tick, ms); this.animating.set(pe, id); tick(); };
    if (wait) { id = setTimeout(start, wait); this.animating.set(pe, id); } else start();
  }

  /** Where a piece is drawn now (its transform), to hold it there while it waits. */
  positionOf(pe) {
    const m = /translate\(([-\d.]+),([-\d.]+)\)/.exec(pe.getAttribute('transform') || '');
    return m ? [Number(m[1]), Number(m[2])] : [0, 0];
  }

  /**
   * A short text that rises where something happened ("+20" on the square of a capture), after `wait` ms.
   * Drawn, not read: the log and the announcement say it in words.
   */
  floatText(place, pathSlot, text, wait = 0) {
    let xy;
    if (place.kind === 'goal') xy = this.geo.goalSpots(pathSlot, 1)[0];
    else { const c = this.geo.placeCell(place, pathSlot); if (!c) return; xy = c.centre; }
    const show = () => {
      if (!this.svg.isConnected) return;
      const tx = el('text', { class: 'float-text', x: xy[0].toFixed(3), y: (xy[1] - 0.5).toFixed(3), 'aria-hidden': 'true' }, this.pieceLayer.parentNode);
      tx.textContent = text;
      setTimeout(() => tx.remove(), 1600);
    };
    if (wait && !still()) setTimeout(show, wait); else show();
  }

  /** A blockade is drawn as one: a joined outline around both pieces. */
  drawBlockades(layout) {
    this.svg.querySelectorAll('.blockade-mark').forEach((e) => e.remove());
    const done = new Set();
    for (const [, pos] of layout) {
      if (!pos.blockade || !pos.cell || done.has(pos.key)) continue;
      done.add(pos.key);
      const c = pos.cell;
      const angle = (Math.atan2(c.lat[1], c.lat[0]) * 180) / Math.PI;
      el('rect', {
        class: 'blockade-mark', 'data-at': pos.key,
        x: -0.5, y: -0.3, width: 1.0, height: 0.6, rx: 0.3,
        transform: `translate(${c.centre[0].toFixed(3)},${c.centre[1].toFixed(3)}) rotate(${angle.toFixed(1)})`,
      }, this.targetLayer);
    }
  }

  /** Sets the moves the user may choose from (empty when not their turn). */
  setMoves(moves, { interactive, preselectable = false } = {}) {
    this.moves = moves || [];
    this.interactive = !!interactive;
    this.preselectable = preselectable;
    if (this.selected && !this.moves.some((m) => m.piece === this.selected)) this.selected = null;
    this.refreshHighlights();
  }

  /** The radius, in board units, that makes a circle 26 CSS px across on the board as drawn now. */
  fingerRadius() {
    const w = this.svg.getBoundingClientRect().width;
    return w > 0 ? 13 / (w / this.geo.size) : 0.6;
  }

  refreshHighlights() {
    this.targetLayer.querySelectorAll('.target').forEach((e) => e.remove());
    this.markLayer.textContent = '';
    const movable = new Set(this.interactive ? this.moves.map((m) => m.piece) : []);
    const finger = this.fingerRadius();
    for (const [id, pe] of this.pieceEls) {
      const can = movable.has(id);
      pe.classList.toggle('movable', can);
      pe.classList.toggle('selected', this.selected === id);
      pe.classList.toggle('preselected', this.preselected === id);
      const mine = this.preselectable && this.preselectable(id);
      const drawn = this.positions.get(id);
      pe.querySelector('.piece-hit').setAttribute('r', (can || mine ? Math.max(finger, drawn ? drawn.r : 0.36) : 0).toFixed(3));
      if (can || mine) {
        pe.setAttribute('tabindex', '0');
        pe.setAttribute('role', 'button');
      } else {
        pe.removeAttribute('tabindex');
        pe.removeAttribute('role');
      }
      this.namePiece(pe, id);
    }
    const shown = this.interactive ? this.moves.filter((m) => !this.selected || m.piece === this.selected) : [];
    // Each destination is marked with the piece that would go there (its letter and number, in its colour);
    // two pieces going to one square share a marker that says both.
    const byPlace = new Map();
    for (const m of shown) {
      const piece = this.view.pieces.find((p) => p.id === m.piece);
      if (!piece) continue;
      const key = `${placeAttr(m.to)}/${piece.path_slot}`;
      if (!byPlace.has(key)) byPlace.set(key, { moves: [], piece });
      byPlace.get(key).moves.push(m);
    }
    for (const { moves, piece } of byPlace.values()) {
      const m = moves[0];
      let xy;
      if (m.to.kind === 'goal') xy = this.geo.goalSpots(piece.path_slot, 1)[0];
      else { const c = this.geo.placeCell(m.to, piece.path_slot); if (!c) continue; xy = c.centre; }
      const c = COLOURS[piece.colour] || COLOURS.yellow;
      const kind = `${moves.some((x) => x.captures) ? ' captures' : ''}${this.selected ? ' chosen' : ''}`;
      const pieces = moves.map((x) => x.piece).join(' ');
      const tg = el('circle', {
        class: `target${kind}`, r: Math.max(finger, 0.46).toFixed(3), cx: xy[0].toFixed(3), cy: xy[1].toFixed(3),
        'data-move': m.text, 'data-to': placeAttr(m.to), 'data-pieces': pieces,
      }, this.targetLayer);
      const mark = el('g', { class: `target-mark${kind}`, 'data-pieces': pieces, transform: `translate(${xy[0].toFixed(3)},${xy[1].toFixed(3)})` }, this.markLayer);
      el('circle', { class: 'target-ring', r: 0.46, stroke: c.dark }, mark);
      // The name of the piece that goes there, on a tag in its colour at the marker's corner.
      const name = moves.map((x) => `${(COLOURS[this.view.pieces.find((p) => p.id === x.piece)?.colour] || c).letter}${x.piece.slice(1)}`).join('·');
      const w = 0.24 + 0.24 * name.length;
      el('rect', { class: 'target-tag', x: (0.15).toFixed(3), y: -0.7, width: w.toFixed(3), height: 0.42, rx: 0.14, fill: c.fill, stroke: c.dark }, mark);
      const label = el('text', { class: 'target-label', x: (0.15 + w / 2).toFixed(3), y: -0.49, fill: piece.colour === 'yellow' ? '#3a2c00' : '#fff' }, mark);
      label.textContent = name;
      label.setAttribute('font-size', '0.32');
      tg.addEventListener('click', () => this.chooseTarget(m));
      tg.addEventListener('pointerenter', () => this.pair(m.piece));
      tg.addEventListener('pointerleave', () => this.pair(null));
    }
    this.svg.classList.toggle('choosing', shown.length > 0);
    this.pair(this.paired || null);
  }

  /** Singles out a piece and its destinations (hover or focus on either); `null` shows them all alike. */
  pair(id) {
    this.paired = id;
    if (!this.svg) return;
    this.svg.classList.toggle('pairing', !!id && this.moves.some((m) => m.piece === id));
    for (const tg of this.svg.querySelectorAll('.target, .target-mark')) tg.classList.toggle('paired', !!id && tg.dataset.pieces.split(' ').includes(id));
    for (const [pid, pe] of this.pieceEls) pe.classList.toggle('paired', pid === id);
  }

  /**
   * A piece's name, in its <title> (its tooltip too): where it is, or, when it is a button, where it can
   * go (or that it can be chosen ahead). The title, not an aria-label: the label would differ from the
   * text drawn on the piece ("Y1") followed by its title, which is what the piece says.
   */
  namePiece(pe, id) {
    const can = this.interactive && this.moves.some((m) => m.piece === id);
    const mine = !can && this.preselectable && this.preselectable(id);
    const mv = this.moves.filter((m) => m.piece === id);
    pe.querySelector('title').textContent = can
      ? `${pieceName(id)}: ${mv.map((m) => t('path', { from: placeName(m.from), to: placeName(m.to) })).join(t('list_sep'))}`
      : mine ? `${pieceName(id)} — ${t('preselect')}` : (pe.dataset.where || pieceName(id));
  }

  chooseTarget(m) {
    const same = this.moves.filter((x) => placeAttr(x.to) === placeAttr(m.to) && (!this.selected || x.piece === this.selected));
    if (same.length === 1 || this.selected) { this.selected = null; this.onMove(m); }
    else { this.selected = m.piece; this.refreshHighlights(); }
  }

  pieceClicked(id) {
    const mv = this.interactive ? this.moves.filter((m) => m.piece === id) : [];
    if (mv.length === 1) { this.selected = null; this.onMove(mv[0]); return; }
    if (mv.length > 1) { this.selected = this.selected === id ? null : id; this.refreshHighlights(); return; }
    if (this.preselectable && this.preselectable(id)) {
      this.preselected = this.preselected === id ? null : id;
      this.onPreselect(this.preselected);
      this.refreshHighlights();
    }
  }

  pieceKey(ev, id) {
    if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); this.pieceClicked(id); return; }
    if (['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp'].includes(ev.key)) {
      ev.preventDefault();
      const list = [...this.pieceEls.values()].filter((e) => e.getAttribute('tabindex') === '0');
      const i = list.indexOf(ev.currentTarget);
      const step = ev.key === 'ArrowRight' || ev.key === 'ArrowDown' ? 1 : -1;
      const next = list[(i + step + list.length) % list.length];
      if (next) next.focus();
    }
  }

  /** A compact description of what is drawn, for tests and debugging. */
  snapshot() {
    return [...this.pieceEls].map(([id, e]) => ({ id, place: e.getAttribute('data-place') }));
  }
}

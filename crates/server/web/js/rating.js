// Skill ratings as the server sends them (one per rule set, Weng-Lin, shown as an integer from 1500):
// the client never computes one, it only shows `{value, games, provisional}` and the changes of a game.
import { h } from './dom.js';
import { t } from './i18n.js';

/** "1563", or "1500?" while provisional (fewer than 5 rated games), as lichess shows it. */
export function ratingValue(r) {
  return `${r.value}${r.provisional ? '?' : ''}`;
}

/** "+23", "−12" (a real minus sign) or "±0". */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `\u2212${-n}`;
  return '\u00b10';
}

/**
 * A chip "rating 1563" ("rating 1500?" with its explanation while provisional); nothing for `null`
 * (never played a rated game of these rules).
 */
export function ratingChip(r) {
  if (!r) return null;
  const provisional = !!r.provisional;
  return h('span.chip.rating', {
    'data-rating': r.value, 'data-provisional': provisional ? 'true' : 'false',
    title: provisional ? `${t('rating_provisional')} · ${t('rating_games', { n: r.games })}` : t('rating_games', { n: r.games }),
  }, t('rating_value', { value: ratingValue(r) }),
  provisional ? h('span.sr-only', ` (${t('rating_provisional')})`) : null);
}

/**
 * A game's change of rating: "rating +23" / "rating −12", in the ok or accent colour (the sign and the
 * words say it too); nothing for a game that was not rated (`null`).
 */
export function changeChip(n) {
  if (n === null || n === undefined) return null;
  return h('span.chip.rating-change', {
    class: n > 0 ? 'up' : n < 0 ? 'down' : 'same', 'data-rating-change': n,
  }, t('rating_change', { change: signed(n) }));
}

/**
 * The ratings of a rated game's people, before → after: `result.ratings` ([{seat, before, after}]),
 * `nameOf(seat)` names them and `decorate(seat)` may put something (their colours) in front; a person
 * who left the game (`left`: their seat is a bot's now) is named as such. Nothing when the game was not
 * rated.
 */
export function ratingsList(result, nameOf, { id = 'ratings', decorate = () => null } = {}) {
  const list = result && Array.isArray(result.ratings) ? result.ratings : null;
  if (!list || !list.length) return null;
  return h('div.ratings', { id },
    h('p.ratings-h', h('strong', t('ratings_after_game'))),
    h('ul.ratings-list', list.map((r) => {
      const d = r.after - r.before;
      return h('li', { 'data-seat': r.seat, 'data-before': r.before, 'data-after': r.after },
        decorate(r.seat), ' ',
        h('span.rating-name', { dir: 'auto' }, r.left ? t('left_player') : nameOf(r.seat)), ' ',
        // Numbers with their arrow, and the change with its sign: left to right in every language.
        h('span.rating-values', { dir: 'ltr' }, `${r.before} \u2192 ${r.after}`), ' ',
        h('span.rating-delta', { dir: 'ltr', class: d > 0 ? 'up' : d < 0 ? 'down' : 'same', 'data-rating-change': d }, `(${signed(d)})`));
    })));
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element (the `h` of dom.js makes HTML ones). */
function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, String(v));
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined) e.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

/**
 * A player's rating history in one rule set (`GET /api/accounts/{username}/ratings`'s `history`, oldest
 * first) as a small line chart: the rating before the first game, then after each one. Accessible: the
 * chart's `<title>` sums it up (first → last), and a visually hidden list gives every game's numbers.
 * Nothing for an empty history.
 */
export function ratingChart(history, rulesName, { id = 'rating-chart' } = {}) {
  if (!history || !history.length) return null;
  const values = [history[0].before, ...history.map((p) => p.after)];
  const W = 320; const H = 140; const L = 38; const R = 8; const T = 10; const B = 10;
  let lo = Math.min(...values); let hi = Math.max(...values);
  if (hi - lo < 20) { const mid = Math.round((hi + lo) / 2); lo = mid - 10; hi = mid + 10; }
  const x = (i) => L + (values.length === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (values.length - 1));
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const first = values[0]; const last = values[values.length - 1];
  const summary = t('rating_history_summary', { rules: rulesName, first, last, n: history.length });
  const titleId = `${id}-title`;
  const date = (ms) => new Date(ms).toLocaleDateString(undefined, { dateStyle: 'short' });
  const chart = svg('svg', {
    id, class: 'rating-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': titleId,
    'data-first': first, 'data-last': last, 'data-points': values.length,
  },
  svg('title', { id: titleId }, summary),
  // The highest and lowest ratings, and the newcomers' 1500 when it is in between.
  [hi, lo].map((v) => [
    svg('line', { class: 'grid', x1: L, x2: W - R, y1: y(v).toFixed(1), y2: y(v).toFixed(1) }),
    svg('text', { class: 'axis', x: L - 4, y: (y(v) + 3.5).toFixed(1), 'text-anchor': 'end', 'aria-hidden': 'true' }, String(v)),
  ]),
  lo < 1500 && hi > 1500 ? svg('line', { class: 'grid start', x1: L, x2: W - R, y1: y(1500).toFixed(1), y2: y(1500).toFixed(1) }) : null,
  svg('polyline', { class: 'line', points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ') }),
  values.map((v, i) => svg('circle', { class: 'point', cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: values.length > 40 ? 1.5 : 2.5, 'data-value': v })));
  return h('figure.rating-history', { id: `${id}-figure` },
    chart,
    h('figcaption.muted', { id: `${id}-summary`, 'aria-hidden': 'true' }, summary),
    h('ol.sr-only', { id: `${id}-points`, 'aria-label': t('rating_history_points') },
      history.map((p) => h('li', { 'data-game': p.game_id, 'data-before': p.before, 'data-after': p.after },
        t('rating_history_point', { date: date(p.finished_at), before: p.before, after: p.after, change: signed(p.after - p.before) })))));
}

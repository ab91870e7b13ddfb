// The end of a game in figures: what each seat did, as the server counted it from the referee's events
// (`result.seats`). The page only lays the numbers out; it never counts them.
import { h } from './dom.js';
import { t } from './i18n.js';

const COLUMNS = ['home', 'captures', 'captured', 'sixes'];

/**
 * A table of `result.seats`: winners first, then by pieces at the goal and captures; the seats played
 * from this device (`mine`: a list of seats) are marked. `name(seat)` and `decorate(seat)` give each row's name and colour swatches. Nothing
 * when the result has no figures (games finished before they were kept).
 */
export function figuresTable(result, name, { id = 'figures', decorate = () => null, mine = [] } = {}) {
  const figures = result && Array.isArray(result.seats) ? result.seats : [];
  if (!figures.length) return null;
  const winners = Array.isArray(result.winner_seats) ? result.winner_seats : [];
  const rows = [...figures].sort((a, b) => (winners.includes(b.seat) - winners.includes(a.seat))
    || (b.home - a.home) || (b.captures - a.captures) || (a.seat - b.seat));
  return h('table.figures', { id },
    h('caption', t('figures_h')),
    h('thead', h('tr', h('th', { scope: 'col' }, t('col_player')), COLUMNS.map((c) => h('th', { scope: 'col' }, t('col_' + c))))),
    h('tbody', rows.map((f) => h('tr', { 'data-seat': f.seat, class: mine.includes(f.seat) ? 'me' : null },
      h('th', { scope: 'row' }, decorate(f.seat), ' ', h('bdi', name(f.seat))),
      COLUMNS.map((c) => h('td', String(f[c])))))));
}

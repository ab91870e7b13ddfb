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
 * `nameOf(seat)` names them and `decorate(seat)` may put something (their colours) in front.
 * Nothing when the game was not rated.
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
        h('span.rating-name', { dir: 'auto' }, nameOf(r.seat)), ' ',
        // Numbers with their arrow: left to right in every language.
        h('span.rating-values', { dir: 'ltr' }, `${r.before} \u2192 ${r.after}`), ' ',
        h('span.rating-delta', { class: d > 0 ? 'up' : d < 0 ? 'down' : 'same', 'data-rating-change': d }, `(${signed(d)})`));
    })));
}

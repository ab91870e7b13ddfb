// A player's record per rule set: on the home page (yours) and on a player's page (/players/{username},
// opened from the leaderboard).
import { h, clear } from './dom.js';
import { t, dateLocale } from './i18n.js';
import { api } from './api.js';
import { ratingChip, changeChip, ratingChart } from './rating.js';

const RULE_SETS = ['playgridia', 'ludoteka', 'morocco'];

/**
 * One line per rule set played: games and wins, apart those against people, and the skill rating in those
 * rules (marked while provisional) once a rated game was played; under it the figures of those games added
 * up by the server, with how many games they cover (none when no game kept figures).
 */
export function recordItems(rules) {
  return rules.map((r) => h('li', { 'data-rules': r.rules },
    h('strong', t('rulesets.' + r.rules)), ' ',
    h('span', t('stats_line', { games: r.games, wins: r.wins, pct: Math.round((100 * r.wins) / r.games) })),
    r.games_with_people ? h('span.muted', ` · ${t('stats_people', { games: r.games_with_people, wins: r.wins_with_people })}`) : null,
    r.rating ? [' ', ratingChip(r.rating)] : null,
    recordFigures(r.figures)));
}

/** The line of a rule set's figures, or nothing when none of its games kept them. */
function recordFigures(f) {
  if (!f || !f.games) return null;
  return h('span.record-figures', { 'data-figures-games': f.games, title: t('record_figures_hint') },
    t('record_figures', { captures: f.captures, captured: f.captured, sixes: f.sixes, home: f.home, games: f.games }));
}

/** The latest finished games, newest first: rules, result, the rating change of a rated one, company and the replay. */
export function recentItems(recent) {
  return recent.map((g) => h('li', { 'data-game': g.game_id },
    h('div.info',
      h('strong', t('rulesets.' + g.rules)), ' ',
      h('span.muted', `${new Date(g.finished_at).toLocaleDateString(dateLocale(), { dateStyle: 'short' })} · ${g.people > 1 ? t('with_people', { n: g.people }) : t('vs_bots')}`),
      // Played with house rules: counted here, not on the leaderboard.
      g.house_rules ? [' ', h('span.chip.house', { title: t('house_not_ranked') }, t('house_rules'))] : null),
    h('span.chip', { class: g.won ? 'ok' : '', 'data-result': g.won ? 'won' : 'lost' }, g.won ? t('won') : t('lost')),
    // A rated game: what it did to the rating (nothing for the others).
    changeChip(g.rating_change),
    h('a', { href: `/replay/${g.game_id}`, 'data-link': true, class: 'button' }, t('replay'))));
}

/**
 * The rating history section of a player's page: a rule set to choose and the chart of the player's rating
 * in it (from `GET /api/accounts/{username}/ratings`). `isGone()` tells when the page was left.
 */
function ratingHistorySection(username, isGone) {
  const rules = h('select', { id: 'rating-history-rules' },
    RULE_SETS.map((r) => h('option', { value: r }, t('rulesets.' + r))));
  const body = h('div', { id: 'rating-history', 'aria-live': 'polite' });
  const section = h('section.hidden', { id: 'rating-history-section', 'aria-labelledby': 'rating-history-h' },
    h('div.rating-history-head',
      h('h3', { id: 'rating-history-h' }, t('rating_history')),
      h('label.sr-only', { for: 'rating-history-rules' }, t('rating_history_rules')), rules),
    body);
  let asked = 0;
  function load() {
    const ask = ++asked;
    const chosen = rules.value;
    body.setAttribute('aria-busy', 'true');
    clear(body, h('p.muted', t('rating_history_loading')));
    api.ratingHistory(username, chosen).then((r) => {
      if (isGone() || ask !== asked) return;
      body.removeAttribute('aria-busy');
      body.dataset.rules = r.rules;
      clear(body,
        r.rating ? h('p', { id: 'rating-history-now' }, ratingChip(r.rating)) : null,
        r.history.length ? ratingChart(r.history, t('rulesets.' + r.rules)) : h('p.muted', { id: 'rating-history-none' }, t('rating_history_none')));
    }).catch((x) => {
      if (isGone() || ask !== asked) return;
      body.removeAttribute('aria-busy');
      clear(body, h('p.error', t('error', { msg: x.message })));
    });
  }
  rules.addEventListener('change', load);
  /** Shows the section for `initial` (the rule set to show first). */
  function show(initial) {
    if (RULE_SETS.includes(initial)) rules.value = initial;
    section.classList.remove('hidden');
    load();
  }
  return { section, show };
}

/** The page of the player with `username`: their name, record, rating history and latest games. */
export function mountPlayer(main, username) {
  const heading = h('h2', { id: 'player-h' }, h('bdi', `@${username}`));
  const list = h('ul.stats', { id: 'player-stats', 'aria-labelledby': 'player-h' });
  const summary = h('p.muted', { id: 'player-summary' });
  const latestHeading = h('h3.hidden', { id: 'player-recent-h' }, t('recent_games'));
  const latest = h('ul.rooms', { id: 'player-recent', 'aria-labelledby': 'player-recent-h' });
  let gone = false;
  const history = ratingHistorySection(username, () => gone);
  clear(main, h('section.card', { 'aria-labelledby': 'player-h' }, heading, summary, list, history.section, latestHeading, latest,
    h('p', h('a', { href: '/', 'data-link': true }, t('back_home')))));
  api.playerStats(username).then((p) => {
    if (gone) return;
    clear(heading, h('bdi', p.display_name), ' ', h('span.muted', { dir: 'ltr' }, `@${p.username}`));
    summary.textContent = p.games ? t('stats_line', { games: p.games, wins: p.wins, pct: Math.round((100 * p.wins) / p.games) }) : t('stats_none');
    clear(list, recordItems(p.rules));
    latestHeading.classList.toggle('hidden', p.recent.length === 0);
    clear(latest, recentItems(p.recent));
    // The rule set of their latest rated game first (else the first with a rating, else the default).
    const rated = p.recent.find((g) => g.rating_change !== null && g.rating_change !== undefined);
    const withRating = p.rules.find((r) => r.rating);
    history.show(rated ? rated.rules : withRating ? withRating.rules : 'playgridia');
  }).catch((x) => {
    if (gone) return;
    summary.textContent = x.status === 404 ? t('player_unknown') : t('error', { msg: x.message });
    summary.classList.add('error');
  });
  return () => { gone = true; };
}

// Pieces of the room page shared by its parts (waiting room, game, end card) and the replay page.
import { h } from './dom.js';
import { t } from './i18n.js';
import { COLOURS } from './geometry.js';
import { ratingChip } from './rating.js';

/** How long an automatic roll refused as `storage_unavailable` waits before it is tried again. */
export const AUTO_RETRY_MS = 3000;
const PIPS = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

export function dieFace(n, extra = '') {
  const d = h('div.die', { class: extra, role: 'img' });
  for (let i = 0; i < 9; i++) d.append(h('i'));
  setDieFace(d, n);
  return d;
}

/** Shows `n` on a die made by dieFace, and names it so (`pips` only: the pips of a face shown while it rolls). */
export function setDieFace(d, n, pips = n) {
  d.setAttribute('aria-label', n ? String(n) : '–');
  d.dataset.die = n || '';
  [...d.children].forEach((pip, i) => pip.classList.toggle('on', !!pips && PIPS[pips].includes(i)));
}

export function swatch(colour) {
  const c = COLOURS[colour] || COLOURS.yellow;
  // An image named by its colour (an aria-label on a plain span is not read): "Yellow", not its letter.
  return h('span.swatch', { class: colour, style: `background:${c.fill}`, role: 'img', title: t('colours.' + colour), 'aria-label': t('colours.' + colour) }, c.letter);
}

/** Room state shape of the WebSocket, built from the REST room view (fallback before the WS answers). */
export function stateFromRest(r) {
  return {
    room: { id: r.id, status: r.status, owner_id: r.owner_id, settings: r.settings },
    seats: r.seats.map((s) => ({ ...s, status: s.bot ? 'bot' : s.player_id || s.local_of ? 'away' : 'empty' })),
    spectators: 0,
    game: r.game_id ? { id: r.game_id, seed_hash: null, seed: null, view: null, result: null } : null,
    rest: true,
  };
}


/** The seated person's rating in the room's rules (the server's; nothing for bots and newcomers). */
export function seatRating(s) {
  return s && s.player_id && s.rating ? ratingChip(s.rating) : null;
}

export function statusChip(s) {
  const label = s.label || s.status;
  if (s.status === 'connected') return h('span.chip.ok', { 'data-status': 'connected' }, t('connected'));
  if (s.status === 'away') return h('span.chip.away', { 'data-status': 'away' }, s.bot_playing ? `${t('away')} (${t('bot')})` : t('away'));
  if (s.status === 'bot') return h('span.chip.bot', { 'data-status': 'bot' }, `${t('bot')}${s.bot ? ' · ' + t('bot_' + s.bot).replace(/^.*\((.*)\)$/, '$1') : ''}`);
  return h('span.chip', { 'data-status': label || 'empty' }, t('empty_seat'));
}

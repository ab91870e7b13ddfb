// Turns the server's events into sentences for the move log and the screen-reader announcements.
import { t, pieceName, placeName, listNames } from './i18n.js';

/** "Bot 2 wins the game!", "Ana and Bot 4 win the game!" (the verb agrees with the number of winners). */
function wonText(names) {
  const list = Array.isArray(names) ? names : String(names || '').split(', ').filter(Boolean);
  return t('ev_won', { names: listNames(list), n: list.length });
}

/**
 * What the server did for a person (`by` of an update's `acted` or a log entry): "Time ran out: the server
 * rolled for Ana." for `timer`, "Ana is away: the server moved for them." for `away`; '' for anyone else.
 * `what` is `roll` or `move`.
 */
export function serverActedText(by, what, name) {
  return by === 'timer' || by === 'away' ? t(`acted_${by}_${what}`, { name }) : '';
}

/** names(seat) → display name; sideNames(side) → ["Ana", "Bot 2"] (the seats of that side). */
export function describe(ev, names, sideNames) {
  const who = ev.seat !== undefined ? names(ev.seat) : '';
  const P = (id) => pieceName(id);
  switch (ev.type) {
    case 'rolled': return { text: t('ev_rolled', { who, die: ev.die }), kind: 'roll' };
    case 'no_legal_move': return { text: t('ev_no_move', { who, die: ev.die }), kind: 'info' };
    case 'moved':
      return ev.count
        ? { text: t('ev_count', { who, n: ev.distance, piece: P(ev.piece), from: placeName(ev.from), to: placeName(ev.to) }), kind: 'move' }
        : { text: t('ev_moved', { who, piece: P(ev.piece), from: placeName(ev.from), to: placeName(ev.to) }), kind: 'move' };
    case 'captured': return { text: t('ev_captured', { by: P(ev.by), piece: P(ev.piece), at: placeName(ev.at) }), kind: 'capture' };
    case 'reached_goal': return { text: t('ev_goal', { piece: P(ev.piece) }), kind: 'goal' };
    case 'blockade_formed': return { text: t('ev_blockade', { at: placeName(ev.at) }), kind: 'info' };
    case 'blockade_opened': return { text: t('ev_blockade_open', { at: placeName(ev.at) }), kind: 'info' };
    case 'bonus_granted': return { text: t('ev_bonus', { who, n: ev.amount }), kind: 'bonus' };
    case 'bonus_lost': return { text: t('ev_bonus_lost', { who, n: ev.amount }), kind: 'info' };
    case 'reroll_lost': return { text: t('ev_reroll_lost', { who }), kind: 'info' };
    case 'three_sixes':
      return ev.sent_home
        ? { text: t('ev_three_sixes_home', { who, piece: P(ev.sent_home), at: placeName(ev.from) }), kind: 'capture' }
        : { text: t('ev_three_sixes', { who }), kind: 'capture' };
    case 'extra_roll': return { text: t('ev_extra', { who }), kind: 'info' };
    case 'turn_passed': return { text: t('ev_turn', { who }), kind: 'turn' };
    case 'game_won': return { text: wonText(sideNames(ev.side)), kind: 'won' };
    default: return { text: ev.type, kind: 'info' };
  }
}

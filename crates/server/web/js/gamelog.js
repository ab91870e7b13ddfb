// A game record's log in words: its move texts ("y1:5-12", RULES.md's move notation) read into pieces and
// places, for the live page's log after a reload and the replay's expert card. Words only: where the pieces
// stand comes from the server.
import { t, pieceName, placeName } from './i18n.js';
import { serverActedText } from './events.js';

/** "y1:5-12" (or "y1:h-5+y2:h-6") → [{piece, from, to}] with places like the view's. */
export function parseMoveText(text) {
  const out = [];
  for (const part of String(text).split('+')) {
    const m = part.match(/^([a-z]\d+):([^-]+)-(.+)$/);
    if (!m) continue;
    out.push({ piece: m[1], from: parsePlace(m[2]), to: parsePlace(m[3]) });
  }
  return out;
}
function parsePlace(s) {
  if (s === 'h') return { kind: 'home' };
  if (s === 'goal') return { kind: 'goal' };
  if (s[0] === 'l') return { kind: 'lane', at: Number(s.slice(1)) };
  return { kind: 'square', at: Number(s) };
}

/** A seat's name in the record: its player, "Bot n", or "#n". */
export function seatLabel(rec, i) {
  const s = rec.seats[i];
  return (s && (s.display_name || (s.bot ? t('bot_n', { n: i + 1 }) : null))) || `#${i + 1}`;
}

/** Log lines (in words) from a record, for the live page after a reload (what the server did for a person too). */
export function historyFromRecord(rec, names) {
  const name = names || ((i) => seatLabel(rec, i));
  return rec.log.flatMap((e) => {
    const p = e.payload || {};
    const acted = serverActedText(p.by, e.kind === 'roll' ? 'roll' : 'move', name(p.seat));
    const note = acted ? [{ text: acted, kind: 'info', type: 'server_acted', fromRecord: true }] : [];
    if (e.kind === 'roll') return [...note, { text: t('ev_rolled', { who: name(p.seat), die: p.die }), kind: 'roll', type: 'rolled', fromRecord: true }];
    const parts = parseMoveText(p.move);
    const text = parts.length
      ? parts.map((m) => t('ev_moved', { who: name(p.seat), piece: pieceName(m.piece), from: placeName(m.from), to: placeName(m.to) })).join('; ')
      : `${name(p.seat)}: ${p.move}`;
    return [...note, { text, kind: 'move', type: 'moved', fromRecord: true }];
  });
}

/** A move text in words: "Y1 square 20 → square 25" (both halves of a double move; the arrow follows the language). */
export function moveWords(text) {
  const parts = parseMoveText(text);
  return parts.length ? parts.map((m) => `${pieceName(m.piece)} ${t('path', { from: placeName(m.from), to: placeName(m.to) })}`).join(' + ') : text;
}

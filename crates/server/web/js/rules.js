// The server's catalogue (GET /api/rules): its rule sets and their modes (player counts, board, the colour
// of each board slot, the house rules that change anything), its house rules and its boards (safe and exit
// squares). The client knows no rule of its own: it draws and offers what this says. Asked once per page
// load, before the first page is shown (asked again after a failure).
import { api } from './api.js';

let pending = null;
let catalogue = null;

/** The catalogue, fetched once. */
export function loadRules() {
  if (!pending) {
    // A request that never settles (a dropped connection, a blip) is given up after a while, so that the
    // page's next try asks again instead of waiting on it for ever.
    const giveUp = new Promise((_, reject) => setTimeout(() => reject(new Error('no answer')), RULES_WAIT_MS));
    pending = Promise.race([api.rules(), giveUp])
      .then((c) => { catalogue = c; return c; }, (x) => { pending = null; throw x; });
  }
  return pending;
}

/** How long the catalogue's request may take before it is asked again. */
const RULES_WAIT_MS = 5000;

/** The catalogue once loaded, else null. */
export function rulesCatalogue() { return catalogue; }

/** Mode `mode` of rule set `rules` (`{ name, players, board, slot_colours, house_rules, options, … }`), or null. */
export function modeInfo(rules, mode) {
  const set = catalogue && catalogue.rule_sets.find((r) => r.name === rules);
  return (set && set.modes.find((m) => m.name === mode)) || null;
}

/** Board `board` (`four` or `six`): `{ squares, lane, safe_squares, exit_squares, colours }`, or null. */
export function boardInfo(board) {
  return (catalogue && catalogue.boards.find((b) => b.name === board)) || null;
}

/** The colour of each slot of `board` under rule set `rules`, in turn order (as the server plays them). */
export function slotColours(rules, board) {
  const set = catalogue && catalogue.rule_sets.find((r) => r.name === rules);
  const mode = set && set.modes.find((m) => m.board === board);
  return mode ? mode.slot_colours : [];
}

// Replay viewer of a game: GET /api/games/{id}/replay has the server replay the log through the rules
// crate and returns every step's events (captures, three sixes, counts) and the pieces and turn after it
// (a game still being played up to its last action), so the board and the log show what really happened
// without the page knowing a rule. GET /api/games/{id}/record gives the seats, the seed and the log,
// whose dice are checked against the revealed seed in the browser.
import { h, clear } from './dom.js';
import { t, isRtl, rulesAndMode, winnersText } from './i18n.js';
import { api } from './api.js';
import { describe } from './events.js';
import { BoardView } from './board.js';
import { verifySeed, dieOf } from './sha256.js';
import { dieFace, swatch } from './room_parts.js';
import { ratingsList } from './rating.js';
import { figuresTable } from './figures.js';
import { loadRules, houseLine } from './house.js';
import { seatLabel, moveWords } from './gamelog.js';

/** Board states and log lines from the server's exact replay (`GET /api/games/{id}/replay`). */
function exactSteps(rec, replay) {
  const init = replay.initial;
  const name = (i) => seatLabel(rec, i);
  const sideNames = (side) => init.seats.filter((s) => s.side === side).map((s) => name(s.seat));
  const viewAt = (k) => {
    if (k === 0) return { ...init, legal_moves: [] };
    const step = replay.steps[k - 1];
    // A server from before the replay said so has no blockades nor order of arrival: none drawn.
    const pieces = init.pieces.map((p, i) => ({ ...p, place: step.pieces[i].place, in_blockade: !!step.pieces[i].in_blockade, last_arrived: !!step.pieces[i].last_arrived }));
    return { ...init, pieces, turn: step.turn, legal_moves: [] };
  };
  const movedAt = (k) => (k > 0 ? replay.steps[k - 1].events.filter((e) => e.type === 'moved') : []);
  const lines = replay.steps.map((s) => {
    const said = s.events.filter((e) => e.type !== 'turn_passed' || s.events.length === 1).map((e) => describe(e, name, sideNames));
    const kind = said.find((d) => d.kind === 'capture' || d.kind === 'won' || d.kind === 'goal');
    return { text: said.map((d) => d.text).join(' · '), kind: kind ? kind.kind : s.kind, exact: true };
  });
  return { viewAt, movedAt, lines };
}

/**
 * The result of a finished game: who won, for a rated game each person's rating before → after
 * (`result.ratings`), and what each seat did (`result.seats`): from the replay or the record, the server's
 * numbers, never the page's.
 */
function resultCard(rec, replay) {
  const result = (replay && replay.result) || rec.result;
  if (!result || !Array.isArray(result.winner_seats)) return null;
  const view = replay && replay.initial;
  const colours = (seat) => (view && view.seats && view.seats[seat] ? view.seats[seat].colours.map(swatch) : null);
  const name = (seat) => seatLabel(rec, seat);
  return h('section.card', { id: 'replay-result' },
    h('h2', t('game_result')),
    h('p', { id: 'replay-winner' }, result.winner_seats.map(colours), ' ', winnersText(result.winner_seats.map(name))),
    ratingsList(result, name, { id: 'replay-ratings', decorate: colours }),
    figuresTable(result, name, { id: 'replay-figures', decorate: colours }));
}

/**
 * The "Expert's view" card of a finished game's replay: at a step that is a move, one click asks the
 * server (GET /api/games/{id}/analysis) what the expert bot plays in the position that move was played in.
 * Answers are kept per step, so going back and forth asks once.
 */
function expertCard(gameId, log) {
  const body = h('div', { id: 'expert', 'aria-live': 'polite' });
  const card = h('section.card', h('h2', t('expert_view')), body);
  const answers = new Map(); // seq → analysis
  let shown = -1;
  const render = (seq, a) => {
    const lines = [h('p', { id: 'expert-played' }, t('expert_played', { move: moveWords(a.played) }))];
    if (a.legal.length === 1) lines.push(h('p.muted', { id: 'expert-verdict', 'data-agrees': 'true' }, t('expert_only_move')));
    else if (a.agrees) lines.push(h('p.verified', { id: 'expert-verdict', 'data-agrees': 'true' }, '✓ ', t('expert_agrees')));
    else lines.push(h('p', { id: 'expert-verdict', 'data-agrees': 'false' }, h('strong', t('expert_would', { move: moveWords(a.expert) }))));
    lines.push(h('p.muted', { id: 'expert-choices' }, t('expert_choices', { n: a.legal.length })));
    clear(body, ...lines);
    body.dataset.seq = String(seq);
  };
  /** Step k shows the position after log[k - 1]: that entry is the move to compare, if it is one. */
  const at = (k) => {
    const seq = k - 1;
    if (seq === shown) return;
    shown = seq;
    const entry = log[seq];
    if (!entry || entry.kind !== 'move') { clear(body, h('p.muted', t('expert_pick_move'))); delete body.dataset.seq; return; }
    if (answers.has(seq)) { render(seq, answers.get(seq)); return; }
    const ask = h('button', { type: 'button', id: 'ask-expert' }, t('ask_expert'));
    ask.onclick = async () => {
      ask.disabled = true;
      ask.textContent = t('expert_thinking');
      try {
        const a = await api.analysis(gameId, seq);
        answers.set(seq, a);
        if (shown === seq) render(seq, a);
      } catch (x) {
        if (shown === seq) clear(body, h('p.error', t('error', { msg: x.message })), ask);
        ask.disabled = false;
        ask.textContent = t('ask_expert');
      }
    };
    clear(body, h('p', { id: 'expert-played' }, t('expert_played', { move: moveWords(entry.payload.move) })), ask);
    delete body.dataset.seq;
  };
  return { card, at };
}

/**
 * Scrolls `list` (and nothing else) so that its line `li` shows: stepping must not move the page, or on a
 * phone, where the list is under the board, every Next would carry the board and the buttons off the screen.
 */
function scrollWithin(list, li) {
  const box = list.getBoundingClientRect();
  const line = li.getBoundingClientRect();
  if (line.top < box.top) list.scrollTop -= box.top - line.top;
  else if (line.bottom > box.bottom) list.scrollTop += line.bottom - box.bottom;
}

export function mountReplay(main, gameId) {
  const root = h('div.replay', { id: 'replay' }, h('p.muted', t('loading')));
  main.append(root);
  let timer = null;
  let stopped = false;
  (async () => {
    let rec;
    try { rec = await api.record(gameId); } catch (x) { clear(root, h('p.error', t('error', { msg: x.message }))); return; }
    // Every position as the server replays it (after the record: a running game may have gone on since).
    let replay;
    try { replay = await api.replay(gameId); } catch (x) { clear(root, h('p.error', t('error', { msg: x.message }))); return; }
    await loadRules().catch(() => null); // to name the house rules, if any
    if (stopped) return;
    const steps = exactSteps(rec, replay);
    const lines = steps.lines;
    const boardBox = h('div.board-wrap', { id: 'board' });
    const pos = h('span', { id: 'replay-step', 'aria-live': 'polite' });
    const die = h('div');
    // It scrolls: focusable, so that a keyboard can scroll it too, and named by its heading.
    const list = h('ol.log', { id: 'replay-log', tabindex: 0, 'aria-labelledby': 'replay-log-h' }, lines.map((l, i) => h('li', { 'data-step': i + 1, class: l.kind }, l.text)));
    const proof = h('div.proof', { id: 'proof' });
    // Only a finished game is analysed: the server refuses running ones.
    const expert = rec.finished_at ? expertCard(gameId, rec.log) : null;
    const board = new BoardView(boardBox);
    let k = 0;
    const n = replay.steps.length;
    // Any step at once: a long game has hundreds, too many to reach with Next.
    const seek = h('input', { type: 'range', id: 'replay-seek', min: 0, max: n, step: 1, value: n, 'aria-label': t('replay_seek') });
    const show = (i) => {
      // Only a step forwards is animated: going back or jumping, the moves that led to the step shown are not
      // the ones the pieces make on the screen (a piece moved twice in a row would run along its earlier path).
      const forward = i === k + 1;
      k = Math.max(0, Math.min(n, i));
      pos.textContent = t('step', { i: k, n });
      seek.value = String(k);
      seek.setAttribute('aria-valuetext', pos.textContent);
      list.querySelectorAll('li').forEach((li) => li.classList.toggle('current', Number(li.dataset.step) === k));
      const cur = list.querySelector(`li[data-step="${k}"]`);
      if (cur) { cur.style.fontWeight = '700'; list.querySelectorAll('li').forEach((li) => { if (li !== cur) li.style.fontWeight = ''; }); scrollWithin(list, cur); }
      let lastRoll = null;
      for (let j = k - 1; j >= 0; j--) if (replay.steps[j].kind === 'roll') { lastRoll = replay.steps[j].die; break; }
      clear(die, dieFace(lastRoll));
      board.render(steps.viewAt(k), { bottomSlot: 0, moved: forward ? steps.movedAt(k) : [] });
      board.svg.setAttribute('data-step', k);
      if (expert) expert.at(k);
    };
    seek.addEventListener('input', () => show(Number(seek.value)));
    // A line of the moves list shows the board at its step.
    list.addEventListener('click', (e) => { const li = e.target.closest('li[data-step]'); if (li) show(Number(li.dataset.step)); });
    const play = h('button', { type: 'button', id: 'replay-play' }, t('play'));
    play.onclick = () => {
      if (timer) { clearInterval(timer); timer = null; play.textContent = t('play'); return; }
      if (k >= n) show(0);
      play.textContent = t('pause');
      timer = setInterval(() => { if (k >= n) { clearInterval(timer); timer = null; play.textContent = t('play'); } else show(k + 1); }, 500);
    };
    // Right to left the steps run leftwards: the arrows (« » turn by themselves) and the arrow keys follow.
    const rtl = isRtl();
    const [back, forward] = rtl ? ['▶', '◀'] : ['◀', '▶'];
    clear(root,
      h('div.game',
        h('div', h('section.card',
          h('h2', `${t('replay')} — ${rulesAndMode(rec.settings.rules, rec.settings.mode)}`),
          houseLine(rec.settings.house_rules, 'replay-house-line'),
          h('div.row', h('button', { type: 'button', id: 'replay-first', onclick: () => show(0) }, '« ', t('first')),
            h('button', { type: 'button', id: 'replay-prev', onclick: () => show(k - 1) }, `${back} `, t('prev')),
            play,
            h('button', { type: 'button', id: 'replay-next', onclick: () => show(k + 1) }, t('next'), ` ${forward}`),
            h('button', { type: 'button', id: 'replay-last', onclick: () => show(n) }, t('last'), ' »'), pos),
          seek),
        boardBox),
        h('div.side', rec.finished_at ? resultCard(rec, replay) : null, h('section.card', die), h('section.card', h('h2', { id: 'replay-log-h' }, t('move_log')), h('p.muted.hint', { id: 'replay-log-hint' }, t('replay_line_hint')), list), expert ? expert.card : '', h('section.card', h('h2', t('dice_proof')), proof),
          // One line (the side column is a grid: bare, the links and the dot between them were three rows).
          h('p.replay-links', h('a', { href: `/room/${rec.room_id}`, 'data-link': true }, t('game')), ' · ', h('a', { href: '/', 'data-link': true }, t('back_home'))))));
    root.addEventListener('keydown', (e) => {
      if (e.target.closest('input,select')) return;
      if (e.key === (rtl ? 'ArrowLeft' : 'ArrowRight')) { e.preventDefault(); show(k + 1); } else if (e.key === (rtl ? 'ArrowRight' : 'ArrowLeft')) { e.preventDefault(); show(k - 1); }
    });
    show(n);
    // Dice proof: the seed hashes to the published hash, and every roll follows from the seed.
    const status = h('p', { id: 'proof-status' });
    clear(proof, h('p', t('seed_hash'), ': ', h('code', { id: 'seed-hash', dir: 'ltr' }, rec.seed_hash)),
      h('p', t('seed'), ': ', rec.seed ? h('code', { id: 'seed', dir: 'ltr' }, rec.seed) : h('em.muted', t('seed_hidden'))), status);
    if (rec.seed) {
      let ok = await verifySeed(rec.seed, rec.seed_hash).catch(() => false);
      let rolls = 0;
      let bad = null;
      if (ok) {
        for (const e of rec.log) {
          if (e.kind !== 'roll') continue;
          const expect = await dieOf(rec.seed, e.payload.roll ?? rolls);
          rolls++;
          if (expect !== e.payload.die) { bad = e.seq; ok = false; break; }
        }
      }
      status.className = ok ? 'verified' : 'not-verified';
      status.dataset.verified = String(ok);
      status.textContent = ok ? `✓ ${t('verified')} — ${t('rolls_checked', { n: rolls })}` : `✗ ${t('not_verified')}${bad !== null ? ` (${t('log_entry', { n: bad })})` : ''}`;
    }
  })();
  return () => { stopped = true; if (timer) clearInterval(timer); };
}

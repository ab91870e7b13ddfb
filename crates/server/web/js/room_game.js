// The room page's live game: the board, the action bar (turn, timer, die, roll, moves), players, log.
import { h, clear } from './dom.js';
import { t, pieceName, placeName, rulesAndMode } from './i18n.js';
import { api, me } from './api.js';
import { BoardView, still } from './board.js';
import { slotColours } from './geometry.js';
import { describe, serverActedText } from './events.js';
import { navigate, announce } from './nav.js';
import { historyFromRecord } from './gamelog.js';
import { houseLine } from './house.js';
import { AUTO_RETRY_MS, dieFace, setDieFace, swatch, statusChip, seatRating } from './room_parts.js';
import { roomLink, sharePanel, roomSignIn } from './share.js';

/** How long the only legal move is shown before it is played for the player (auto-move). */
const AUTO_MOVE_MS = 700;
/** The die tumbles this long (its faces changing every DIE_FACE_MS) before it shows what was rolled. */
const ROLL_MS = 560;
const DIE_FACE_MS = 80;
/**
 * How long an update stays on screen before the next one is shown (pace.js), at least: a move long enough
 * to read its line, a capture, a piece home or three sixes longer. A table of fast bots shows them quicker.
 */
const READ_MS = 900;
const TELLING_MS = 1600;
const FAST_PACE = 0.3;

/** The game screen of the room `r` (mountRoom's shared context and helpers). */
export function gameScreen(r) {
  const { ctx, root } = r;
  const { mySeatIndex, localSeats, playsHere, seatNote, seatName, sideNames, showError } = r;

  function buildGame() {
    const boardBox = h('div.board-wrap', { id: 'board' });
    const els = {
      // Not live (it is drawn again on every update): a screen reader hears whose turn it is from announce().
      turn: h('div.turn-line', { id: 'turn-line' }),
      // The seconds left, beside the turn; the bar under them shows the same at a glance.
      secs: h('span.timer-secs.hidden', { id: 'timer-secs', 'aria-hidden': 'true' }),
      timer: h('div.timer', { id: 'turn-timer', role: 'progressbar', 'aria-label': t('timer'), 'aria-valuemin': 0, 'aria-valuemax': 100 }, h('div')),
      // What just happened, in one short line that stays until the next thing happens. Not live: each event
      // is announced once, by announce().
      last: h('p.last-event', { id: 'last-event' }),
      dice: h('div.dice-row', { id: 'dice' }),
      // One die for the game's life, so that a roll's animation is not cut short by the next redraw.
      die: dieFace(null),
      info: h('div', { id: 'turn-info' }),
      moves: h('ul.moves', { id: 'moves', 'aria-label': t('moves_to_play') }),
      players: h('ul.seats', { id: 'players' }),
      spect: h('p.muted', { id: 'spectators' }),
      rules: h('div.game-rules', { id: 'game-rules' }),
      // The link to watch this game from another device, and (for someone watching) signing in to play
      // their own seat here: an account's seat is its own on any device it signs in on.
      share: h('div', { id: 'game-share' }),
      signIn: roomSignIn(),
      // Built once (renderPlayers only shows or hides it), so that an opened confirmation stays open.
      leave: h('details.leave-game.hidden', { id: 'leave-game' },
        h('summary', t('leave_game')),
        h('p.muted', t('leave_game_hint')),
        h('button', { type: 'button', id: 'leave-game-confirm', onclick: leaveGame }, t('leave_game_confirm'))),
      // It scrolls: focusable, so that a keyboard can scroll it too.
      log: h('ol.log', { id: 'log', 'aria-label': t('log'), tabindex: 0 }),
      // Not live: the winner is announced once, as an event; the card is there to read.
      end: h('section.card.end-card.hidden', { id: 'end' }),
      proof: h('div.proof', { id: 'proof' }),
    };
    // Focusable from script only: where a keyboard player's focus waits while there is nothing to press.
    els.panel = h('section.card.action-bar', { id: 'game-panel', 'aria-label': t('game'), tabindex: -1 },
      h('div.turn-row', els.turn, els.secs), els.timer, els.last, els.info, h('div.play-row', els.dice, els.moves), els.toggles = h('div.toggles', { id: 'toggles' }),
      h('p.error', { id: 'room-error', role: 'alert' }));
    ctx.els = els;
    root.append(h('div.game',
      h('div', els.end, boardBox),
      h('div.side',
        els.panel,
        h('section.card', h('h2', t('players')), els.players, els.spect, els.rules, els.share, els.signIn, els.leave),
        ctx.chat.el,
        h('section.card', h('h2', t('log')), els.log),
        h('details.card', { id: 'proof-box' }, h('summary', t('dice_proof')), els.proof))));
    ctx.board = new BoardView(boardBox, {
      onMove: (m) => playMove(m.text),
      onPreselect: (id) => {
        ctx.preselected = id;
        if (ctx.conn && ctx.conn.open) ctx.conn.send({ type: 'preselect', move: id }).catch(() => {});
        renderControls();
      },
    });
    ctx.timerId = setInterval(updateTimer, 250);
    // Keyboard: R rolls (when the roll button is enabled); pieces and moves are reachable with Tab.
    ctx.onKey = (e) => {
      if (e.target.closest && e.target.closest('input,select,textarea')) return;
      if ((e.key === 'r' || e.key === 'R') && !e.ctrlKey && !e.metaKey && !e.altKey) {
        const b = document.getElementById('roll');
        if (b && !b.disabled) { e.preventDefault(); b.click(); }
      }
    };
    document.addEventListener('keydown', ctx.onKey);
  }

  function myColours() {
    const v = ctx.state.game.view;
    const s = mySeatIndex();
    return s === null || !v.seats[s] ? [] : v.seats[s].colours;
  }

  /** Draws an update; returns how long (ms) it needs on screen before the next. `instant`: catching up. */
  function renderGame(events, kind, instant = false) {
    const st = ctx.state;
    const g = st.game;
    const v = g.view;
    const mine = mySeatIndex();
    const slots = slotColours(v.rules, v.board);
    const bottom = mine !== null && v.seats[mine] ? Math.max(0, slots.indexOf(v.seats[mine].colours[0])) : 0;
    const moved = events.filter((e) => e.type === 'moved');
    const captured = events.filter((e) => e.type === 'captured');
    ctx.board.render(v, { bottomSlot: bottom, moved: instant ? [] : moved, captured: instant ? [] : captured, mySeat: mine });
    if (!instant) showCounts(events, v);
    const line = lastEventLine(events);
    const late = ctx.acted ? actedFor(ctx.acted, events) : '';
    if (late) {
      ctx.log.push({ text: late, kind: 'info', type: 'server_acted' });
      announce(late);
    }
    if (line) {
      ctx.els.last.textContent = late ? `${late} ${line}` : line;
      ctx.els.last.classList.toggle('server-acted', !!late);
    }
    ctx.board.svg.setAttribute('data-version', ctx.version ?? '');
    for (const e of events) {
      const d = describe(e, seatName, sideNames);
      ctx.log.push({ ...d, type: e.type });
      if (e.type === 'rolled') { ctx.rolling = !instant; if (e.seat === mine) ctx.myLastDie = e.die; }
      if (['moved', 'captured', 'reached_goal', 'three_sixes', 'game_won', 'no_legal_move', 'bonus_granted'].includes(e.type)
        || (e.type === 'turn_passed' && e.seat === mine) || (e.type === 'rolled')) announce(d.text);
      if (e.type === 'three_sixes') ctx.penalty = { text: d.text, until: Date.now() + 5000 };
      if (e.type === 'moved' && ctx.preselected && e.piece === ctx.preselected) ctx.preselected = null;
    }
    // A game that starts (or is opened) on this player's turn says so once, as a turn passed to them does.
    if (g.id && ctx.turnToldFor !== g.id) {
      ctx.turnToldFor = g.id;
      if (isMyTurn() && !events.some((e) => e.type === 'turn_passed')) {
        announce(v.turn.seat === mine ? t('your_turn') : t('local_turn', { name: seatName(v.turn.seat) }));
      }
    }
    if (kind === 'snapshot' && !ctx.recordLoaded && g.id) loadHistory(g.id);
    renderLog();
    renderPlayers();
    renderControls();
    r.renderEnd();
    maybeAuto();
    return holdMs(events, v);
  }

  /** How long the update's events take to see: the die's tumble, the pieces' travel, time to read the line. */
  function holdMs(events, v) {
    let ms = 0;
    for (const e of events) {
      if (e.type === 'rolled') ms = Math.max(ms, ROLL_MS);
      if (e.type === 'moved' || e.type === 'no_legal_move') ms = Math.max(ms, READ_MS);
      if (['captured', 'reached_goal', 'three_sixes', 'game_won'].includes(e.type)) ms = Math.max(ms, TELLING_MS);
      const piece = e.type === 'moved' && v.pieces.find((p) => p.id === e.piece);
      // A capture's piece glides home once the capturing one has arrived (board.js glide: ~0.4 s).
      if (piece) ms = Math.max(ms, ctx.board.travelMs(e.from, e.to, piece.path_slot) + (events.some((c) => c.type === 'captured') ? 400 : 0) + 200);
    }
    return ctx.state.room.settings.bot_pace === 'fast' ? Math.round(ms * FAST_PACE) : ms;
  }

  /** The die of the game as the state says it: the one to move with, else the latest roll. */
  function currentDie() {
    const g = ctx.state.game;
    const turn = g.view.turn;
    return turn.phase === 'move' ? turn.die : g.last_roll && g.last_roll.die;
  }

  /**
   * The die tumbles (its faces changing, and a turn) before it shows the roll; under reduced motion it shows
   * it at once. Its name is the roll's from the start: a screen reader hears the roll once, as an event.
   */
  function rollDie() {
    const d = ctx.els.die;
    clearInterval(ctx.dieTimer);
    ctx.dieTimer = null;
    d.classList.remove('rolling');
    setDieFace(d, currentDie());
    if (still()) return;
    void d.offsetWidth; // a new roll restarts the turn
    d.classList.add('rolling');
    let left = Math.round(ROLL_MS / DIE_FACE_MS);
    let face = currentDie() || 1;
    ctx.dieTimer = setInterval(() => {
      if (--left <= 0 || !d.isConnected) {
        clearInterval(ctx.dieTimer);
        ctx.dieTimer = null;
        d.classList.remove('rolling');
        setDieFace(d, currentDie());
        return;
      }
      face = 1 + ((face + Math.floor(Math.random() * 5)) % 6); // never the same face twice in a row
      setDieFace(d, currentDie(), face);
    }, DIE_FACE_MS);
  }

  /**
   * "+20" over the square of a capture, "+10" at the goal: where the count was earned, once the piece that
   * earned it has arrived there.
   */
  function showCounts(events, v) {
    let wait = 0;
    let where = null;
    for (const e of events) {
      if (e.type === 'moved') {
        const piece = v.pieces.find((p) => p.id === e.piece);
        if (piece) { wait = ctx.board.stepMs(e.from, e.to, piece.path_slot) * ctx.board.geo.path(e.from, e.to, piece.path_slot).length; where = { place: e.to, slot: piece.path_slot }; }
      }
      if (e.type === 'bonus_granted' && where) ctx.board.floatText(where.place, where.slot, `+${e.amount}`, wait);
    }
  }

  /**
   * "Time ran out: the server rolled for Ana." when the server says (the update's `acted`) that it rolled or
   * moved for a person, their turn timer run out or they away, so that everyone knows who played that turn.
   */
  function actedFor(acted, events) {
    return serverActedText(acted.by, events.some((e) => e.type === 'rolled') ? 'roll' : 'move', seatName(acted.seat));
  }

  /** The update's story in one line: its most telling event, with the count it earned ("… : +20"). */
  function lastEventLine(events) {
    const rank = ['captured', 'three_sixes', 'reached_goal', 'game_won', 'moved', 'no_legal_move', 'blockade_formed', 'rolled'];
    let best = null;
    for (const e of events) {
      const k = rank.indexOf(e.type);
      if (k >= 0 && (!best || k < rank.indexOf(best.type))) best = e;
    }
    if (!best) return '';
    const text = describe(best, seatName, sideNames).text;
    const bonus = events.filter((e) => e.type === 'bonus_granted').reduce((n, e) => n + e.amount, 0);
    return bonus && best.type !== 'game_won' ? `${text} +${bonus}` : text;
  }

  async function loadHistory(gameId) {
    ctx.recordLoaded = true;
    // A private room's running game is recorded for its owner and seated players only (PROTOCOL §8): a
    // spectator who came with the code does not ask, and its log starts with what it sees.
    const who = me();
    const member = mySeatIndex() !== null || (who && ctx.state.room.owner_id === who.id);
    if (!ctx.state.room.settings.public && !member && ctx.state.room.status === 'playing') return;
    try {
      const rec = await api.record(gameId);
      const past = historyFromRecord(rec, seatName);
      if (ctx.log.length === 0 || past.length) ctx.log = [...past, ...ctx.log.filter((l) => !l.fromRecord)];
      renderLog();
    } catch { /* the log just starts empty */ }
  }

  function renderLog() {
    const ol = ctx.els.log;
    if (!ol) return;
    const shown = ctx.log.filter((l) => l.type !== 'turn_passed' || true).slice(-150);
    clear(ol, shown.map((l) => h('li', { class: l.kind }, l.text)));
    ol.scrollTop = ol.scrollHeight;
  }

  function renderPlayers() {
    const st = ctx.state;
    const v = st.game.view;
    const mine = mySeatIndex();
    clear(ctx.els.players, v.seats.map((s) => {
      const seat = st.seats[s.seat] || {};
      return h('li', { class: `${mine === s.seat ? 'me' : ''} ${v.turn.seat === s.seat && v.turn.phase !== 'over' ? 'turn' : ''}`, 'data-seat': s.seat },
        s.colours.map(swatch),
        h('span', { style: 'flex:1' }, h('bdi', seatName(s.seat)), seat.seat === undefined ? '' : seatNote(seat)),
        seatRating(seat),
        v.seats.length > 2 && new Set(v.seats.map((x) => x.side)).size < v.seats.length ? h('span.muted', t('side', { n: s.side + 1 })) : null,
        statusChip(seat));
    }));
    ctx.els.spect.textContent = t('spectators', { n: st.spectators || 0 }) + (mine === null ? ` · ${t('spectator_mode')}` : '');
    ctx.els.leave.classList.toggle('hidden', !(mine !== null && st.room.status === 'playing' && v.turn.phase !== 'over'));
    // Drawn again only when the link changes, so that "Copied!" stays.
    const link = roomLink(ctx.rest, st).url;
    if (ctx.els.share.dataset.url !== link) { ctx.els.share.dataset.url = link; clear(ctx.els.share, sharePanel(ctx.rest, st)); }
    const who = me();
    ctx.els.signIn.classList.toggle('hidden', !(mine === null && !(who && who.username) && st.room.status === 'playing'));
    const s = st.room.settings;
    clear(ctx.els.rules, h('p.muted', rulesAndMode(s.rules, s.mode)), ctx.rulesReady ? houseLine(s.house_rules, 'game-house-line') : null);
  }

  /** What a move does, as the server says it (`legal_moves[]`): tags after its text. */
  function moveEffects(m) {
    const tags = [];
    if (m.captures) tags.push(['capture', t('captures')]);
    if (m.goal) tags.push(['goal', t('move_goal')]);
    if (m.blockade) tags.push(['blockade', t('blockade')]);
    if (m.safe && !m.blockade) tags.push(['safe', t('move_safe')]);
    if (m.bonus) tags.push(['bonus', `+${m.bonus}`]);
    return tags.map(([kind, text]) => h('span.move-tag', { class: kind, 'data-effect': kind }, text));
  }

  function isMyTurn() {
    const v = ctx.state.game.view;
    return playsHere(v.turn.seat) && v.turn.phase !== 'over' && ctx.state.room.status === 'playing';
  }

  function renderControls() {
    if (ctx.mode !== 'game' || !ctx.els.turn) return;
    // The dice row and the moves are rebuilt below: a keyboard player's focus is given back afterwards.
    const focus = focusedControl();
    const st = ctx.state;
    const v = st.game.view;
    const turn = v.turn;
    const mine = mySeatIndex();
    const my = isMyTurn();
    const over = turn.phase === 'over' || st.room.status === 'finished';
    const local = my && turn.seat !== mine;
    ctx.els.turn.textContent = over ? t('game_over') : local ? t('local_turn', { name: seatName(turn.seat) }) : my ? t('your_turn') : t('turn_of', { name: seatName(turn.seat) });
    const turnColours = v.seats[turn.seat] ? v.seats[turn.seat].colours : [];
    ctx.els.turn.prepend(...turnColours.map(swatch), ' ');
    // Dice: the die of the move to play, else the game's latest roll (a six before rolling again, a count,
    // the last player's roll), from the server's state so that a reload shows the die everyone else sees.
    if (ctx.rolling) rollDie();
    else if (!ctx.dieTimer) setDieFace(ctx.els.die, currentDie());
    ctx.rolling = false;
    const rollBtn = h('button.primary', { type: 'button', id: 'roll', 'aria-keyshortcuts': 'R', disabled: !(my && turn.phase === 'roll'), onclick: () => roll() }, t('roll'));
    renderToggles(mine !== null && !over);
    ctx.attention.setMyTurn(my, local ? t('local_turn', { name: seatName(turn.seat) }) : t('your_turn'));
    // The die stays (a roll's animation runs on across redraws); the roll button after it is drawn anew.
    const row = ctx.els.dice;
    if (row.firstChild !== ctx.els.die) row.prepend(ctx.els.die);
    while (ctx.els.die.nextSibling) ctx.els.die.nextSibling.remove();
    if (mine !== null && !over) row.append(rollBtn);
    // While a move is to be chosen the roll waits: on a phone the moves take its place beside the die.
    ctx.els.dice.classList.toggle('choosing', my && (turn.phase === 'move' || turn.phase === 'count'));
    // Info: counts, sixes, penalty, preview, pre-selection.
    const info = [];
    // A count is an order to whoever plays it; to the others it is theirs ("Bot 3 counts 20").
    if (turn.phase === 'count') info.push(h('p.count-chip', { id: 'count-now' }, my ? t('count_to_play', { n: turn.amount }) : t('count_of', { name: seatName(turn.seat), n: turn.amount })));
    if (turn.queued_counts && turn.queued_counts.length) info.push(h('div.counts', { id: 'queued-counts' }, turn.queued_counts.map((n) => h('span.count-chip', `+${n}`))));
    if (turn.sixes_in_a_row > 0 && !over) info.push(h('p.muted', { id: 'sixes' }, t('sixes_in_a_row', { n: turn.sixes_in_a_row })));
    if (ctx.penalty && ctx.penalty.until > Date.now()) info.push(h('p.penalty', { id: 'penalty' }, ctx.penalty.text));
    if (ctx.preview && st.game.rolls === ctx.preview.roll && !over) info.push(h('p.preview', { id: 'preview' }, t('next_roll', { n: ctx.preview.die })));
    if (ctx.preselected && !over) info.push(h('p.muted', { id: 'preselected' }, t('preselected', { piece: pieceName(ctx.preselected) })));
    clear(ctx.els.info, info);
    // Moves.
    const moves = my && (turn.phase === 'move' || turn.phase === 'count') ? v.legal_moves : [];
    clear(ctx.els.moves, moves.map((m) => h('li', h('button', {
      type: 'button', class: m.captures ? 'capture' : '', 'data-move': m.text,
      onclick: () => playMove(m.text),
      onpointerenter: () => ctx.board.pair(m.piece), onpointerleave: () => ctx.board.pair(null),
      onfocus: () => ctx.board.pair(m.piece), onblur: () => ctx.board.pair(null),
    }, swatch(v.pieces.find((p) => p.id === m.piece)?.colour || 'yellow'),
    h('span.move-text', `${m.piece.toUpperCase()} ${t('path', { from: placeName(m.from), to: placeName(m.to) })}`),
    ...moveEffects(m)))));
    const colours = new Set(myColours());
    ctx.board.preselectable = !over && mine !== null && !my ? (id) => {
      const p = v.pieces.find((x) => x.id === id);
      return p && colours.has(p.colour) && p.place.kind !== 'goal';
    } : false;
    ctx.board.setMoves(moves, { interactive: moves.length > 0, preselectable: ctx.board.preselectable });
    if (ctx.preselected !== ctx.board.preselected) { ctx.board.preselected = ctx.preselected; ctx.board.refreshHighlights(); }
    restoreFocus(focus);
    updateTimer();
  }

  /** Auto-roll, auto-move (a turn with one legal move plays it) and sound: built once, kept while playing. */
  function renderToggles(show) {
    const box = ctx.els.toggles;
    box.classList.toggle('hidden', !show);
    if (!show || box.firstChild) return;
    const check = (id, checked, label, onchange) => {
      const input = h('input', { type: 'checkbox', id, checked });
      input.onchange = () => onchange(input.checked);
      return h('label.toggle', { for: id }, input, label);
    };
    box.append(
      check('auto-roll', ctx.autoRoll, t('auto_roll'), (on) => { ctx.autoRoll = on; localStorage.setItem('parchis.autoRoll', on ? '1' : '0'); maybeAuto(); }),
      check('auto-move', ctx.autoMove, t('auto_move'), (on) => { ctx.autoMove = on; localStorage.setItem('parchis.autoMove', on ? '1' : '0'); maybeAuto(); }),
      check('sound', ctx.attention.sound, t('sound'), (on) => ctx.attention.setSound(on)));
  }

  /**
   * The control of the dice row or the moves that has the focus, by what outlives their rebuild (its id, or
   * the move it plays); `parked` when the focus waits on the game panel itself; null when it is elsewhere.
   */
  function focusedControl() {
    const el = document.activeElement;
    if (!el || !ctx.els.panel) return null;
    if (el === ctx.els.panel) return { parked: true };
    if (!ctx.els.dice.contains(el) && !ctx.els.moves.contains(el)) return null;
    return { id: el.id, move: el.dataset.move };
  }

  /**
   * Gives the focus back after a rebuild: to the same control while it is there and enabled, else to what
   * there is to do now (the first move, the roll), else to the game panel, so that it never falls to the
   * page's start. Never scrolls: a phone's player may be looking at the board.
   */
  function restoreFocus(was) {
    if (!was) return;
    const same = was.move ? [...ctx.els.moves.querySelectorAll('button')].find((b) => b.dataset.move === was.move)
      : was.id ? document.getElementById(was.id) : null;
    const next = ctx.els.moves.querySelector('button') || ctx.els.dice.querySelector('#roll:not([disabled])');
    const target = same && !same.disabled ? same : next || (was.parked ? null : ctx.els.panel);
    if (target && target !== document.activeElement) target.focus({ preventScroll: true });
  }

  function updateTimer() {
    const g = ctx.state && ctx.state.game;
    const bar = ctx.els.timer;
    if (!g || !bar) return;
    const secs = ctx.state.room.settings.turn_time_secs;
    const over = g.view.turn.phase === 'over';
    if (!g.deadline_ms || over) { bar.classList.add('hidden'); ctx.els.secs.classList.add('hidden'); return; }
    bar.classList.remove('hidden');
    ctx.els.secs.classList.remove('hidden');
    const left = Math.max(0, g.deadline_ms - Date.now());
    // A full bar is the turn timer; without one (a bot takes over an away player's turn at the end of the
    // server's grace), the time left when this deadline was first seen.
    if (ctx.deadlineSeen !== g.deadline_ms) { ctx.deadlineSeen = g.deadline_ms; ctx.deadlineSpan = secs ? secs * 1000 : Math.max(left, 1); }
    const pct = Math.max(0, Math.min(100, (left / ctx.deadlineSpan) * 100));
    bar.firstChild.style.width = `${pct}%`;
    bar.classList.toggle('low', pct < 25);
    bar.setAttribute('aria-valuenow', Math.round(pct));
    bar.title = t('seconds', { n: Math.ceil(left / 1000) });
    bar.setAttribute('aria-valuetext', bar.title);
    ctx.els.secs.textContent = bar.title;
    ctx.els.secs.classList.toggle('low', pct < 25);
  }

  function maybeAuto() {
    if (ctx.mode !== 'game' || !ctx.conn || !ctx.conn.open || !isMyTurn()) return;
    const v = ctx.state.game.view;
    const key = `${ctx.version}`;
    if (ctx.autoSentFor === key) return;
    if (v.turn.phase === 'roll' && ctx.autoRoll) {
      ctx.autoSentFor = key;
      clearTimeout(ctx.autoTimer);
      ctx.autoTimer = setTimeout(() => { if (isMyTurn() && ctx.state.game.view.turn.phase === 'roll' && `${ctx.version}` === key) roll(true); }, 450);
    } else if ((v.turn.phase === 'move' || v.turn.phase === 'count') && ctx.autoMove && v.legal_moves.length === 1) {
      // Nothing to choose: the only move is played, a moment later so that the player sees which.
      ctx.autoSentFor = key;
      const text = v.legal_moves[0].text;
      clearTimeout(ctx.autoTimer);
      ctx.autoTimer = setTimeout(() => { if (isMyTurn() && `${ctx.version}` === key) playMove(text, true); }, AUTO_MOVE_MS);
    } else if ((v.turn.phase === 'move' || v.turn.phase === 'count') && ctx.preselected) {
      const mv = v.legal_moves.filter((m) => m.piece === ctx.preselected);
      if (mv.length === 1) {
        ctx.autoSentFor = key;
        const text = mv[0].text;
        ctx.preselected = null;
        clearTimeout(ctx.autoTimer);
        // Only for the seat and the state it was chosen in (the seat may go meanwhile: followSeats).
        ctx.autoTimer = setTimeout(() => { if (isMyTurn() && `${ctx.version}` === key) playMove(text, true); }, 300);
      }
    }
  }

  /**
   * A command's failure in words: the server's refusal, or that the connection is down (a tap is not lost
   * silently). An automatic roll or move (auto-roll, a piece picked ahead) is the device's doing, not the
   * player's: refused as `stale_version`, the game moved on before it arrived (the same player's other
   * device sent the same action first, or it was played meanwhile), and there is nothing to tell. Lost with
   * the connection, it is armed again for when the state comes back.
   */
  function commandFailed(x, auto = false) {
    if (auto && x.code === 'stale_version') return;
    if (auto && !x.code) { ctx.autoSentFor = null; return; }
    if (auto && x.code === 'storage_unavailable') {
      // The server could not store it just now (its database out of reach for a moment): said below, and
      // an automatic roll is tried again a little later, as the player would, while the turn still waits
      // for it. Stored after all (`maybe_stored`), the state moves on and the retry is never sent.
      const key = ctx.autoSentFor;
      clearTimeout(ctx.autoRetry);
      ctx.autoRetry = setTimeout(() => { if (ctx.autoSentFor === key) { ctx.autoSentFor = null; maybeAuto(); } }, AUTO_RETRY_MS);
    }
    if (x.code) showError(x.message || x.code);
    else if (!ctx.conn || !ctx.conn.open) showError(t('reconnecting'));
  }
  /** Rolls, at the version the roll was decided in: a second roll sent for the same decision is refused stale. */
  async function roll(auto = false) {
    showError('');
    try { await ctx.conn.send({ type: 'roll', version: ctx.version }); } catch (x) { commandFailed(x, auto); }
  }
  /** Leaves the running game: a bot plays the seat on, and the game counts as a loss (the server's rule). */
  async function leaveGame(e) {
    const button = e.currentTarget;
    button.disabled = true;
    showError('');
    try {
      await ctx.conn.send({ type: 'leave' });
      navigate('/');
    } catch (x) {
      button.disabled = false;
      showError(x.message || x.code);
    }
  }

  async function playMove(text, auto = false) {
    showError('');
    try { await ctx.conn.send({ type: 'move', move: text, version: ctx.version }); } catch (x) { commandFailed(x, auto); }
  }

  return { build: buildGame, render: renderGame, renderControls, isMyTurn, maybeAuto };
}

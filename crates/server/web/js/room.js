// The room page: waiting room, live game and end of game, all driven by the room WebSocket.
import { h, clear } from './dom.js';
import { t, pieceName, placeName, rulesAndMode, winnersText, listNames } from './i18n.js';
import { api, me, register, forget, BOT_LEVELS } from './api.js';
import { RoomConnection } from './conn.js';
import { BoardView } from './board.js';
import { COLOURS, slotColours } from './geometry.js';
import { describe } from './events.js';
import { verifySeed } from './sha256.js';
import { navigate, banner, announce } from './app.js';
import { historyFromRecord } from './replay.js';
import { figuresTable } from './figures.js';
import { ChatPanel } from './chat.js';
import { Attention } from './attention.js';
import { loadRules, houseLine } from './house.js';
import { ratingsList, ratingChip } from './rating.js';

const SERVER_COLOURS = { four: ['yellow', 'blue', 'red', 'green'], six: ['yellow', 'blue', 'red', 'green', 'orange', 'turquoise'] };
/** How long an automatic roll refused as `storage_unavailable` waits before it is tried again. */
const AUTO_RETRY_MS = 3000;
const PIPS = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

export function dieFace(n, extra = '') {
  const d = h('div.die', { class: extra, role: 'img', 'aria-label': n ? String(n) : '–', 'data-die': n || '' });
  for (let i = 0; i < 9; i++) d.append(h('i', { class: n && PIPS[n].includes(i) ? 'on' : '' }));
  return d;
}

export function swatch(colour) {
  const c = COLOURS[colour] || COLOURS.yellow;
  // An image named by its colour (an aria-label on a plain span is not read): "Yellow", not its letter.
  return h('span.swatch', { class: colour, style: `background:${c.fill}`, role: 'img', title: t('colours.' + colour), 'aria-label': t('colours.' + colour) }, c.letter);
}

/** Room state shape of the WebSocket, built from the REST room view (fallback before the WS answers). */
function stateFromRest(r) {
  return {
    room: { id: r.id, status: r.status, owner_id: r.owner_id, settings: r.settings },
    seats: r.seats.map((s) => ({ ...s, status: s.bot ? 'bot' : s.player_id || s.local_of ? 'away' : 'empty' })),
    spectators: 0,
    game: r.game_id ? { id: r.game_id, seed_hash: null, seed: null, view: null, result: null } : null,
    rest: true,
  };
}

export function mountRoom(main, ref) {
  const params = new URLSearchParams(location.search);
  const ctx = {
    ref, state: null, hello: null, preview: null, rest: null, conn: null, version: null,
    log: [], rolling: false, autoRoll: localStorage.getItem('parchis.autoRoll') === '1',
    preselected: null, autoSentFor: null, timerId: null, mode: null, board: null, els: {}, error: '',
    proof: null, recordLoaded: false, watch: params.has('watch'),
  };
  window.__parchis = ctx;
  ctx.attention = new Attention(() => t('title'));
  // One chat panel for the room's life: it moves between the waiting room and the game screens.
  ctx.chat = new ChatPanel({
    send: (text) => ctx.conn.send({ type: 'chat', text }),
    colourOfSeat: (seat) => {
      const v = ctx.state && ctx.state.game && ctx.state.game.view;
      const colour = v && v.seats[seat] ? v.seats[seat].colours[0] : ctx.state && ctx.state.seats[seat] && ctx.state.seats[seat].preferred_colour;
      return colour && COLOURS[colour] ? COLOURS[colour].fill : '#9a9384';
    },
    isMine: (m) => { const who = me(); return !!who && m.player_id === who.id; },
    // Reporting needs a player's token; a visitor without a name reads only.
    // By the reference the page was opened with: a private room by its join code for whoever came with it.
    report: me() ? (seq) => api.reportMessage(ctx.ref, seq) : null,
  });
  const root = h('div.room', { id: 'room' });
  main.append(root, ctx.chat.badge);
  root.append(h('p.muted', t('loading')));

  // The room's seats say where this player sits, as every device of theirs reads them: a seat draw, or a
  // seat taken or given up on another device, shows in the state first and in the connection's `hello`
  // only a moment later, so the hello's seat is the fallback of a page that has no seats yet (or no player).
  const mySeatIndex = () => {
    const who = me();
    if (who && ctx.state) {
      const s = ctx.state.seats.find((x) => x.player_id === who.id);
      return s ? s.seat : null;
    }
    if (ctx.hello && ctx.hello.seat !== null && ctx.hello.seat !== undefined) return ctx.hello.seat;
    return null;
  };
  /** Seats played at this device by people without a player of their own (pass and play). */
  const localSeats = () => {
    const who = me();
    if (!who || !ctx.state) return [];
    return ctx.state.seats.filter((x) => x.local_of === who.id).map((x) => x.seat);
  };
  /** Whether this device plays the seat: its player's own seat, or one of the people at it. */
  const playsHere = (seat) => seat !== null && seat !== undefined && (seat === mySeatIndex() || localSeats().includes(seat));
  /** What a seat's name is followed by: "(you)", "(on this device)", or whose device it is played at. */
  function seatNote(seat) {
    if (seat.seat === mySeatIndex()) return ` (${t('you')})`;
    if (!seat.local_of) return '';
    const who = me();
    if (who && seat.local_of === who.id) return ` (${t('on_this_device')})`;
    const host = ctx.state.seats.find((x) => x.player_id === seat.local_of);
    return host && host.display_name ? ` (${t('at_device_of', { name: host.display_name })})` : '';
  }

  async function loadRest() {
    try {
      ctx.rest = await api.room(ref);
      // A private room shows its code only to its members and to whoever came with the code: anyone else
      // cannot watch or join it, so the page says so instead of trying (and failing) to connect.
      if (!ctx.rest.settings.public && !ctx.rest.join_code) {
        clear(root, h('p.error', { id: 'private-room' }, t('private_room_closed')), h('a', { href: '/', 'data-link': true }, t('back_home')));
        ctx.dead = true;
        return;
      }
      if (!ctx.state || ctx.state.rest) { ctx.state = stateFromRest(ctx.rest); render([]); }
    } catch (x) {
      // A private room by its bare id, and we are neither its owner nor seated (nor came with the code).
      if (x.status === 403 && x.code === 'wrong_join_code') {
        clear(root, h('p.error', { id: 'private-room' }, t('private_room_closed')), h('a', { href: '/', 'data-link': true }, t('back_home')));
        ctx.dead = true;
        return;
      }
      if (x.status === 404) { clear(root, h('p.error', t('room_not_found')), h('a', { href: '/', 'data-link': true }, t('back_home'))); ctx.dead = true; }
      else if (!ctx.state) clear(root, h('p.error', t('error', { msg: x.message })));
    }
  }

  function connect() {
    if (ctx.conn) ctx.conn.close();
    const who = me();
    // Who the old socket was is no one's business now: the new one says who it is.
    ctx.hello = null;
    ctx.conn = new RoomConnection(ref, who && who.token, {
      onState: (state, { events, kind }) => {
        ctx.state = state;
        ctx.version = ctx.conn.version;
        if (kind === 'snapshot') { ctx.preview = null; }
        render(events || [], kind);
      },
      onHello: (msg) => { ctx.hello = msg; render([]); },
      onPreview: (msg) => { ctx.preview = msg; renderControls(); },
      onChat: (messages, { live }) => {
        const added = ctx.chat.add(messages);
        const who = me();
        if (!live) return;
        const fromOthers = added.filter((m) => (!who || m.player_id !== who.id) && !ctx.chat.isMuted(m)).length;
        ctx.attention.chatArrived(fromOthers);
        ctx.chat.noteUnseen(fromOthers);
      },
      onError: (msg) => { if (msg.id === null || msg.id === undefined) showError(msg.message || msg.code); },
      onStatus: (status, info) => {
        if (status === 'closed' && info && info.code === 4001) {
          // Signed out on this device from elsewhere: forget the dead token and go home, where the page
          // says why and offers to sign in again (a private room would not even let a guest watch).
          forget();
          history.replaceState({}, '', '/');
          window.dispatchEvent(new CustomEvent('parchis:signed-out', { detail: 'revoked' }));
          return;
        }
        ctx.connStatus = status;
        if (status === 'reconnecting') banner(t('reconnecting'));
        else if (status === 'open') { if (ctx.wasDown) { banner(t('reconnected'), 'ok'); setTimeout(() => { if (ctx.connStatus === 'open') banner(''); }, 1500); } else banner(''); }
        ctx.wasDown = status === 'reconnecting' || (ctx.wasDown && status !== 'open');
        if (status === 'reconnecting' && !ctx.restPoll) {
          // Keep the lobby fresh over REST while the socket is down.
          ctx.restPoll = setInterval(() => { if (ctx.connStatus !== 'open') loadRest(); }, 3000);
        }
        if (status === 'open' && ctx.restPoll) { clearInterval(ctx.restPoll); ctx.restPoll = null; }
        if (status === 'open' && ctx.error === t('reconnecting')) showError('');
      },
    });
  }

  function showError(msg) {
    ctx.error = msg;
    const e = root.querySelector('#room-error');
    if (e) e.textContent = msg ? t('error', { msg }) : '';
  }

  /* ----- rendering ----- */

  /**
   * The seats this device plays changed (a seat draw, a seat given up or taken here or on another device of
   * the same player): what was armed for the old ones goes, a pre-selected piece, the preview of their next
   * roll, an automatic roll or move about to be sent, so that nothing is shown or played for a seat that is
   * no longer this device's.
   */
  function followSeats() {
    const key = [mySeatIndex(), ...localSeats()].join(',');
    if (ctx.seatKey === undefined || ctx.seatKey === key) { ctx.seatKey = key; return; }
    ctx.seatKey = key;
    ctx.preselected = null;
    ctx.preview = null;
    ctx.autoSentFor = null;
    clearTimeout(ctx.autoTimer);
    ctx.autoTimer = null;
  }

  function render(events, kind) {
    if (ctx.dead || !ctx.state) return;
    followSeats();
    const st = ctx.state;
    const status = st.room.status;
    const hasGame = st.game && st.game.view;
    const mode = status === 'waiting' || !hasGame ? 'waiting' : 'game';
    if (mode !== ctx.mode) {
      ctx.mode = mode;
      clear(root);
      if (mode === 'waiting') buildWaiting(); else buildGame();
    }
    if (mode === 'waiting') { renderWaiting(); ctx.attention.setMyTurn(false); } else renderGame(events, kind);
    ctx.chat.setCanWrite(!!ctx.hello && ctx.hello.role === 'player');
  }

  function seatName(i) {
    const s = ctx.state.seats[i];
    if (!s) return `#${i + 1}`;
    if (s.display_name) return s.display_name;
    if (s.bot) return t('bot_n', { n: i + 1 });
    return `${t('seat')} ${i + 1}`;
  }
  function sideNames(side) {
    const v = ctx.state.game && ctx.state.game.view;
    if (!v) return [];
    return v.seats.filter((s) => s.side === side).map((s) => seatName(s.seat));
  }

  /** The seated person's rating in the room's rules (the server's; nothing for bots and newcomers). */
  function seatRating(s) {
    return s && s.player_id && s.rating ? ratingChip(s.rating) : null;
  }

  function statusChip(s) {
    const label = s.label || s.status;
    if (s.status === 'connected') return h('span.chip.ok', { 'data-status': 'connected' }, t('connected'));
    if (s.status === 'away') return h('span.chip.away', { 'data-status': 'away' }, s.bot_playing ? `${t('away')} (${t('bot')})` : t('away'));
    if (s.status === 'bot') return h('span.chip.bot', { 'data-status': 'bot' }, `${t('bot')}${s.bot ? ' · ' + t('bot_' + s.bot).replace(/^.*\((.*)\)$/, '$1') : ''}`);
    return h('span.chip', { 'data-status': label || 'empty' }, t('empty_seat'));
  }

  /* ----- waiting room ----- */

  function buildWaiting() {
    ctx.els = {};
    root.append(
      h('section.card', { 'aria-labelledby': 'wr-h' },
        h('h2', { id: 'wr-h' }, t('waiting_room')),
        h('p', { id: 'wr-settings' }),
        h('div', { id: 'wr-house' }),
        h('p.looking.hidden', { id: 'wr-looking', 'aria-live': 'polite' }),
        h('div', { id: 'wr-share' }),
        h('ul.seats', { id: 'seats', 'aria-live': 'polite' }),
        h('div.row', { id: 'wr-actions', style: 'margin-top:0.75rem' }),
        h('p.muted', { id: 'wr-hint' }),
        h('p.error', { id: 'room-error', role: 'alert' }, ctx.error ? t('error', { msg: ctx.error }) : '')),
      ctx.chat.el,
    );
  }

  function renderWaiting() {
    const st = ctx.state;
    const who = me();
    const mine = mySeatIndex();
    const owner = who && st.room.owner_id === who.id;
    const s = st.room.settings;
    clear(root.querySelector('#wr-settings'),
      h('strong', rulesAndMode(s.rules, s.mode)), ' · ',
      `${t('n_players', { n: s.players })} · ${t('turn_timer')}: ${s.turn_time_secs ? t('seconds', { n: s.turn_time_secs }) : t('no_limit')}`,
      s.preview_next_roll ? ` · ${t('preview')}` : '', ' · ', s.public ? t('public_room').replace(/\s*\(.*\)/, '') : '🔒',
      s.quick_match ? ` · ${t('quick_match')}` : '',
      s.draw_seats ? ` · ${t('seats_drawn')}` : '',
      s.bot_pace === 'fast' ? ` · ${t('bots_fast')}` : '',
      st.spectators ? ` · ${t('spectators', { n: st.spectators })}` : '');
    clear(root.querySelector('#wr-house'), ctx.rulesReady ? houseLine(s.house_rules, 'house-rules-line') : null);
    const code = ctx.rest && ctx.rest.join_code;
    const link = `${location.origin}/room/${code || st.room.id}`;
    const share = root.querySelector('#wr-share');
    clear(share,
      code ? h('p', t('room_code'), ': ', h('span.code-big', { id: 'join-code-value', dir: 'ltr' }, code)) : null,
      h('p.row', h('span', t('share_link'), ': '), h('span.share', { id: 'share-link', dir: 'ltr' }, link),
        h('button', {
          type: 'button',
          id: 'copy-link',
          onclick: async (e) => {
            try {
              await navigator.clipboard.writeText(link);
              e.target.textContent = t('copied');
            } catch {
              // No clipboard (a plain-HTTP address on a LAN, or refused): the link is selected, to copy by hand.
              window.getSelection().selectAllChildren(root.querySelector('#share-link'));
              e.target.textContent = t('copy_by_hand');
            }
          },
        }, t('copy'))));
    // A quick-match room fills with people from others' quick matches and starts by itself when full.
    const looking = root.querySelector('#wr-looking');
    looking.classList.toggle('hidden', !s.quick_match);
    if (s.quick_match) {
      const taken = st.seats.filter((seat) => seat.player_id || seat.local_of || seat.bot).length;
      looking.textContent = t('looking_for_players', { n: taken, total: st.seats.length });
    }
    const emptySeat = s.quick_match ? t('qm_seat_open') : t('bot_fills', { level: t('bot_greedy').replace(/^.*\((.*)\)$/, '$1') });
    const board = s.mode === '3v3' ? 'six' : 'four';
    const seatList = root.querySelector('#seats');
    const focusedSeat = focusedSeatControl(seatList);
    clear(seatList, st.seats.map((seat) => {
      const isMe = mine === seat.seat;
      return h('li', { class: isMe ? 'me' : '', 'data-seat': seat.seat },
        h('strong', `${seat.seat + 1}.`),
        seat.preferred_colour ? swatch(seat.preferred_colour) : null,
        h('span', { style: 'flex:1' }, seat.display_name ? h('bdi', seat.display_name) : (seat.bot ? t('bot_' + seat.bot) : h('em.muted', `${t('empty_seat')} — ${emptySeat}`)),
          seatNote(seat), seat.player_id && seat.player_id === st.room.owner_id ? ` · ${t('owner')}` : ''),
        seatRating(seat),
        statusChip(seat),
        who && seat.local_of === who.id ? h('button', {
          type: 'button', class: 'remove-local', 'aria-label': t('remove_local', { name: seat.display_name || '' }),
          onclick: () => removeLocal(seat.seat),
        }, t('remove')) : null,
        owner ? seatControls(seat, who) : null);
    }));
    restoreSeatFocus(seatList, focusedSeat);
    const actions = clear(root.querySelector('#wr-actions'));
    // Removed by the owner: the page watches on, says why, and offers no seat (the server would refuse it).
    if (mine === null && ctx.hello && ctx.hello.removed) {
      actions.append(h('p', { id: 'removed-note', role: 'status' }, t('removed_by_owner')));
      return;
    }
    // Every seat taken (by people, people at a device or bots): whoever is not seated can only watch, and is
    // told so instead of offered a seat the server would refuse (a name given for it would make a player too).
    const free = st.seats.some((x) => !x.player_id && !x.local_of && !x.bot);
    if (mine === null && !free) {
      actions.append(h('p.muted', { id: 'room-full-note' }, `${t('errors.room_full')} ${t('spectator_mode')}.`));
      if (owner) actions.append(h('button.primary', { type: 'button', id: 'start-game', onclick: start }, t('start_game')));
    } else if (!who) {
      const input = h('input', { id: 'wr-name', maxlength: 32, placeholder: t('your_name') });
      actions.append(h('form.row', {
        onsubmit: async (e) => {
          e.preventDefault();
          if (!input.value.trim()) return;
          // Seated first, then one socket with the new token (join opens it).
          try { await register(input.value.trim()); await join(); } catch (x) { showError(x.message); }
        },
      }, h('label.sr-only', { for: 'wr-name' }, t('your_name')), input, h('button.primary', { type: 'submit' }, t('take_seat'))));
    } else {
      const colourSel = h('select', { id: 'pref-colour' }, h('option', { value: '' }, t('any_colour')),
        SERVER_COLOURS[board].map((c) => h('option', { value: c }, t('colours.' + c))));
      const mySeat = mine !== null ? st.seats[mine] : null;
      colourSel.value = (mySeat && mySeat.preferred_colour) || '';
      colourSel.onchange = () => { if (mine !== null) join(colourSel.value || null); };
      actions.append(h('label', { for: 'pref-colour' }, t('preferred_colour')), colourSel);
      if (mine === null) actions.append(h('button.primary', { type: 'button', id: 'take-seat', onclick: () => join(colourSel.value || null) }, t('take_seat')));
      else actions.append(h('button', { type: 'button', id: 'leave-seat', onclick: leave }, t('leave_seat')));
      if (owner) actions.append(h('button.primary', { type: 'button', id: 'start-game', onclick: start }, t('start_game')));
      // Pass and play: people at this phone or tablet take free seats and play their turns here.
      if (mine !== null && !s.quick_match && st.seats.some((x) => !x.player_id && !x.local_of && !x.bot)) {
        const name = h('input', { id: 'local-name', maxlength: 32, autocomplete: 'off', placeholder: t('their_name') });
        actions.append(h('form.row.local-form', {
          onsubmit: async (e) => {
            e.preventDefault();
            if (!name.value.trim()) { name.focus(); return; }
            await addLocal(name.value.trim());
          },
        }, h('label', { for: 'local-name' }, t('add_local')), name, h('button', { type: 'submit', id: 'add-local' }, t('add')),
        h('span.muted', { id: 'local-hint' }, t('local_hint'))));
      }
    }
    const hint = s.quick_match
      ? [t('qm_auto_start'), owner ? t('qm_start_early') : ''].filter(Boolean).join(' ')
      : owner ? t('start_hint') : t('wait_owner');
    root.querySelector('#wr-hint').textContent = hint;
  }

  async function join(colour = null) {
    showError('');
    try {
      const body = {};
      if (colour) body.preferred_colour = colour;
      ctx.rest = await api.join(ref, body);
      // A socket opened with this player's token plays the seat as it is: the server shows the seat in the
      // state and tells the socket (a `hello`). Only one opened without it (before the name was given, or
      // for another player) is replaced.
      const who = me();
      if (!ctx.conn || !who || ctx.conn.token !== who.token) connect();
      else if (!ctx.conn.open || (ctx.state && ctx.state.rest)) { ctx.state = stateFromRest(ctx.rest); render([]); }
    } catch (x) { showError(x.message); }
  }
  async function addLocal(name) {
    showError('');
    try { ctx.rest = await api.addLocal(ref, name); if (!ctx.conn.open) { ctx.state = stateFromRest(ctx.rest); render([]); } } catch (x) { showError(x.message); }
  }
  /** The seat control that has the focus, by what outlives the list's rebuild on every update (someone
   * joins, a connection comes or goes): its seat and its kind. Null when the focus is elsewhere. */
  function focusedSeatControl(list) {
    const el = document.activeElement;
    const li = el && list.contains(el) ? el.closest('li[data-seat]') : null;
    return li ? { seat: li.dataset.seat, tag: el.tagName, kind: el.className } : null;
  }
  /** Gives a keyboard user's focus back to the same control of the same seat after the rebuild, or to that
   * seat's first control when it changed (a bot just added: its level select), so that it never falls to
   * the page's start. Never scrolls. */
  function restoreSeatFocus(list, was) {
    if (!was) return;
    const li = list.querySelector(`li[data-seat="${was.seat}"]`);
    if (!li) return;
    const same = [...li.querySelectorAll(was.tag)].find((e) => e.className === was.kind);
    const target = same || li.querySelector('button, select');
    if (target) target.focus({ preventScroll: true });
  }
  /** The owner's controls of a seat that is not theirs: a bot for an empty seat, a bot's level or the bot
   * out, or the person removed (once confirmed). Labelled for screen readers; every one is a button or a select. */
  function seatControls(seat, who) {
    if (seat.player_id && seat.player_id === who.id) return null;
    if (seat.local_of === who.id) return null;
    const levelSelect = (id, value) => h('select', { id, class: 'bot-level', 'aria-label': t('bot_level_of', { n: seat.seat + 1 }) },
      BOT_LEVELS.map((l) => h('option', { value: l, selected: l === value ? '' : undefined }, t('bot_' + l))));
    if (seat.bot) {
      const sel = levelSelect(`bot-level-${seat.seat}`, seat.bot);
      sel.value = seat.bot;
      sel.onchange = () => setSeatBot(seat.seat, sel.value);
      return h('span.row.seat-controls', sel,
        h('button', { type: 'button', class: 'remove-bot', 'aria-label': t('remove_bot_of', { n: seat.seat + 1 }), onclick: () => setSeatBot(seat.seat, null) }, t('remove_bot')));
    }
    if (!seat.player_id && !seat.local_of) {
      const sel = levelSelect(`add-bot-level-${seat.seat}`, 'greedy');
      sel.value = 'greedy';
      return h('span.row.seat-controls', sel,
        h('button', { type: 'button', class: 'add-bot', 'aria-label': t('add_bot_of', { n: seat.seat + 1 }), onclick: () => setSeatBot(seat.seat, sel.value) }, t('add_bot')));
    }
    const name = seat.display_name || '';
    return h('button', {
      type: 'button', class: 'remove-player', 'aria-label': t('remove_player_of', { name }),
      onclick: () => { if (window.confirm(t('remove_player_confirm', { name }))) removePlayer(seat.seat); },
    }, t('remove_player'));
  }
  async function setSeatBot(seat, bot) {
    try { ctx.rest = await api.setSeatBot(ref, seat, bot); if (!ctx.conn.open) { ctx.state = stateFromRest(ctx.rest); render([]); } } catch (x) { showError(x.message); }
  }
  async function removePlayer(seat) {
    try { await api.removePlayer(ref, seat); if (!ctx.conn.open) await loadRest(); } catch (x) { showError(x.message); }
  }
  async function removeLocal(seat) {
    showError('');
    try { ctx.rest = await api.removeLocal(ref, seat); if (!ctx.conn.open) { ctx.state = stateFromRest(ctx.rest); render([]); } } catch (x) { showError(x.message); }
  }
  async function leave() {
    try { ctx.rest = await api.leave(ref); if (!ctx.conn.open) { ctx.state = stateFromRest(ctx.rest); render([]); } } catch (x) { showError(x.message); }
  }
  async function start() {
    try {
      ctx.rest = await api.start(ref);
      if (!ctx.conn.open) { ctx.state = stateFromRest(ctx.rest); render([]); }
    } catch (x) { showError(x.message); }
  }

  /* ----- game ----- */

  function buildGame() {
    const boardBox = h('div.board-wrap', { id: 'board' });
    const els = {
      turn: h('div.turn-line', { id: 'turn-line', 'aria-live': 'polite' }),
      timer: h('div.timer', { id: 'turn-timer', role: 'progressbar', 'aria-label': t('timer'), 'aria-valuemin': 0, 'aria-valuemax': 100 }, h('div')),
      dice: h('div.dice-row', { id: 'dice' }),
      info: h('div', { id: 'turn-info' }),
      moves: h('ul.moves', { id: 'moves', 'aria-label': t('moves_to_play') }),
      players: h('ul.seats', { id: 'players' }),
      spect: h('p.muted', { id: 'spectators' }),
      rules: h('div.game-rules', { id: 'game-rules' }),
      // Built once (renderPlayers only shows or hides it), so that an opened confirmation stays open.
      leave: h('details.leave-game.hidden', { id: 'leave-game' },
        h('summary', t('leave_game')),
        h('p.muted', t('leave_game_hint')),
        h('button', { type: 'button', id: 'leave-game-confirm', onclick: leaveGame }, t('leave_game_confirm'))),
      // It scrolls: focusable, so that a keyboard can scroll it too.
      log: h('ol.log', { id: 'log', 'aria-label': t('log'), tabindex: 0 }),
      end: h('section.card.end-card.hidden', { id: 'end', 'aria-live': 'polite' }),
      proof: h('div.proof', { id: 'proof' }),
    };
    // Focusable from script only: where a keyboard player's focus waits while there is nothing to press.
    els.panel = h('section.card', { id: 'game-panel', 'aria-label': t('game'), tabindex: -1 }, els.turn, els.timer, els.dice, els.info, els.moves,
      h('p.error', { id: 'room-error', role: 'alert' }));
    ctx.els = els;
    root.append(h('div.game',
      h('div', els.end, boardBox),
      h('div.side',
        els.panel,
        h('section.card', h('h2', t('players')), els.players, els.spect, els.rules, els.leave),
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

  function renderGame(events, kind) {
    const st = ctx.state;
    const g = st.game;
    const v = g.view;
    const mine = mySeatIndex();
    const slots = slotColours(v.rules, v.board);
    const bottom = mine !== null && v.seats[mine] ? Math.max(0, slots.indexOf(v.seats[mine].colours[0])) : 0;
    const moved = events.filter((e) => e.type === 'moved');
    ctx.board.render(v, { bottomSlot: bottom, moved, mySeat: mine });
    ctx.board.svg.setAttribute('data-version', ctx.version ?? '');
    for (const e of events) {
      const d = describe(e, seatName, sideNames);
      ctx.log.push({ ...d, type: e.type });
      if (e.type === 'rolled') { ctx.rolling = true; if (e.seat === mine) ctx.myLastDie = e.die; }
      if (['moved', 'captured', 'reached_goal', 'three_sixes', 'game_won', 'no_legal_move', 'bonus_granted'].includes(e.type)
        || (e.type === 'turn_passed' && e.seat === mine) || (e.type === 'rolled')) announce(d.text);
      if (e.type === 'three_sixes') ctx.penalty = { text: d.text, until: Date.now() + 5000 };
      if (e.type === 'moved' && ctx.preselected && e.piece === ctx.preselected) ctx.preselected = null;
    }
    if (kind === 'snapshot' && !ctx.recordLoaded && g.id) loadHistory(g.id);
    renderLog();
    renderPlayers();
    renderControls();
    renderEnd();
    maybeAuto();
  }

  async function loadHistory(gameId) {
    ctx.recordLoaded = true;
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
    const s = st.room.settings;
    clear(ctx.els.rules, h('p.muted', rulesAndMode(s.rules, s.mode)), ctx.rulesReady ? houseLine(s.house_rules, 'game-house-line') : null);
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
    const die = turn.phase === 'move' ? turn.die : st.game.last_roll && st.game.last_roll.die;
    const face = dieFace(die, ctx.rolling ? 'rolling' : '');
    ctx.rolling = false;
    const rollBtn = h('button.primary', { type: 'button', id: 'roll', 'aria-keyshortcuts': 'R', disabled: !(my && turn.phase === 'roll'), onclick: () => roll() }, t('roll'));
    const auto = h('input', { type: 'checkbox', id: 'auto-roll', checked: ctx.autoRoll });
    auto.onchange = () => { ctx.autoRoll = auto.checked; localStorage.setItem('parchis.autoRoll', auto.checked ? '1' : '0'); maybeAuto(); };
    const sound = h('input', { type: 'checkbox', id: 'sound', checked: ctx.attention.sound });
    sound.onchange = () => ctx.attention.setSound(sound.checked);
    const els = [face];
    if (mine !== null && !over) {
      els.push(rollBtn, h('label.row', { for: 'auto-roll', style: 'gap:0.3rem' }, auto, t('auto_roll')),
        h('label.row', { for: 'sound', style: 'gap:0.3rem' }, sound, t('sound')));
    }
    ctx.attention.setMyTurn(my, local ? t('local_turn', { name: seatName(turn.seat) }) : t('your_turn'));
    clear(ctx.els.dice, els);
    // Info: counts, sixes, penalty, preview, pre-selection.
    const info = [];
    // A count is an order to whoever plays it; to the others it is theirs ("Bot 3 counts 20").
    if (turn.phase === 'count') info.push(h('p.count-chip', { id: 'count-now' }, my ? t('count_to_play', { n: turn.amount }) : t('count_of', { name: seatName(turn.seat), n: turn.amount })));
    if (turn.queued_counts && turn.queued_counts.length) info.push(h('div.counts', { id: 'queued-counts' }, turn.queued_counts.map((n) => h('span.count-chip', `+${n}`))));
    if (turn.sixes_in_a_row > 0 && !over) info.push(h('p.muted', { id: 'sixes' }, t('sixes_in_a_row', { n: turn.sixes_in_a_row })));
    if (ctx.penalty && ctx.penalty.until > Date.now()) info.push(h('p.penalty', { id: 'penalty', role: 'alert' }, ctx.penalty.text));
    if (ctx.preview && st.game.rolls === ctx.preview.roll && !over) info.push(h('p.preview', { id: 'preview' }, t('next_roll', { n: ctx.preview.die })));
    if (ctx.preselected && !over) info.push(h('p.muted', { id: 'preselected' }, t('preselected', { piece: pieceName(ctx.preselected) })));
    clear(ctx.els.info, info);
    // Moves.
    const moves = my && (turn.phase === 'move' || turn.phase === 'count') ? v.legal_moves : [];
    clear(ctx.els.moves, moves.map((m) => h('li', h('button', {
      type: 'button', class: m.captures ? 'capture' : '', 'data-move': m.text,
      onclick: () => playMove(m.text),
    }, swatch(v.pieces.find((p) => p.id === m.piece)?.colour || 'yellow'),
    `${m.piece.toUpperCase()} ${t('path', { from: placeName(m.from), to: placeName(m.to) })}${m.captures ? ` (${t('captures')})` : ''}`))));
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
    if (!g.deadline_ms || over) { bar.classList.add('hidden'); return; }
    bar.classList.remove('hidden');
    const left = Math.max(0, g.deadline_ms - Date.now());
    // A full bar is the turn timer; without one (a bot takes over an away player's turn at the end of the
    // server's grace), the time left when this deadline was first seen.
    if (ctx.deadlineSeen !== g.deadline_ms) { ctx.deadlineSeen = g.deadline_ms; ctx.deadlineSpan = secs ? secs * 1000 : Math.max(left, 1); }
    const pct = Math.max(0, Math.min(100, (left / ctx.deadlineSpan) * 100));
    bar.firstChild.style.width = `${pct}%`;
    bar.classList.toggle('low', pct < 25);
    bar.setAttribute('aria-valuenow', Math.round(pct));
    bar.title = `${Math.ceil(left / 1000)} s`;
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

  async function renderEnd() {
    const st = ctx.state;
    const g = st.game;
    renderProof();
    const over = g.view.turn.phase === 'over' || st.room.status === 'finished';
    const end = ctx.els.end;
    if (!over) { end.classList.add('hidden'); return; }
    const side = g.result ? g.result.winner_side : g.view.turn.winner_side;
    const seats = g.result && g.result.winner_seats ? g.result.winner_seats : g.view.seats.filter((s) => s.side === side).map((s) => s.seat);
    const mine = mySeatIndex();
    const here = localSeats();
    const ratings = g.result && Array.isArray(g.result.ratings) ? g.result.ratings : [];
    const figures = g.result && Array.isArray(g.result.seats) ? g.result.seats : [];
    const key = `${side}/${seats.join(',')}/${mine}/${here.join(',')}/${!!g.seed}/${ratings.map((r) => `${r.seat}:${r.before}:${r.after}`).join(',')}/${figures.length}`;
    if (end.dataset.key === key) return;
    end.dataset.key = key;
    end.classList.remove('hidden');
    const colours = (s) => (g.view.seats[s] ? g.view.seats[s].colours.map(swatch) : null);
    clear(end,
      h('h2', { id: 'end-title' }, t('game_over')),
      h('p', { id: 'winner' }, seats.map(colours), ' ',
        winnersText(seats.map(seatName))),
      resultHere(seats, mine, here),
      // A rated game: each person's rating before → after, as the server computed it.
      ratingsList(g.result, seatName, { decorate: colours }),
      // Every row played from this device is marked, the people added at it (a shared phone) included.
      figuresTable(g.result, seatName, { mine: [mine, ...here].filter((s) => s !== null), decorate: colours }),
      h('div.row',
        // The same players and settings in a new room: whoever asks first creates it, the others join it.
        mine !== null ? h('button.primary', { type: 'button', id: 'rematch', onclick: async (e) => {
          const button = e.currentTarget;
          button.disabled = true;
          try {
            const next = await api.rematch(st.room.id);
            navigate(`/room/${next.id}`);
          } catch (err) {
            banner(err.message, 'error');
            button.disabled = false;
          }
        } }, t('rematch')) : null,
        h('a', { href: `/replay/${g.id}`, 'data-link': true, id: 'replay-link', class: mine !== null ? 'button' : 'button primary' }, t('replay')),
        h('a', { href: '/', 'data-link': true, class: 'button' }, t('back_home'))),
    );
    // Drawn again (the ratings came after the seed): the dice proof checked already stays on it.
    const checked = ctx.els.proof && ctx.els.proof.querySelector('#proof-status[data-verified]');
    if (checked) end.append(endProof(checked));
  }

  /**
   * The end card's line for this device: "You won!" when its player's seat won; when a seat played here by
   * someone else won, the device won all the same ("Abuela won, on this device!"); else "You lost.". Nothing
   * for a device that played no seat.
   */
  function resultHere(winners, mine, here) {
    if (mine === null && !here.length) return null;
    const wonHere = here.filter((seat) => winners.includes(seat));
    const text = winners.includes(mine) ? t('you_won')
      : wonHere.length ? t('local_won', { names: listNames(wonHere.map(seatName)), n: wonHere.length })
        : t('you_lost');
    return h('p', { id: 'result-me' }, h('strong', text));
  }

  /** The end card's line of the dice proof, from the proof card's checked status. */
  function endProof(status) {
    return h('div.proof', h('p', h('strong', t('dice_proof')), ': ', h('span', { class: status.className, id: 'end-proof', 'data-verified': status.dataset.verified }, status.textContent)));
  }

  async function renderProof() {
    const g = ctx.state.game;
    const box = ctx.els.proof;
    if (!box) return;
    const key = `${g.seed_hash}/${g.seed}`;
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    const status = h('p', { id: 'proof-status' });
    clear(box,
      h('p', t('seed_hash'), ': ', h('code', { id: 'seed-hash', dir: 'ltr' }, g.seed_hash || '…')),
      h('p', t('seed'), ': ', g.seed ? h('code', { id: 'seed', dir: 'ltr' }, g.seed) : h('em.muted', t('seed_hidden'))),
      status);
    if (g.seed && g.seed_hash) {
      const ok = await verifySeed(g.seed, g.seed_hash).catch(() => false);
      status.className = ok ? 'verified' : 'not-verified';
      status.textContent = ok ? `✓ ${t('verified')}` : `✗ ${t('not_verified')}`;
      status.dataset.verified = ok ? 'true' : 'false';
      const det = box.closest('details');
      if (det) det.open = true;
      // The end card also shows the proof.
      const end = ctx.els.end;
      if (end && !end.classList.contains('hidden') && !end.querySelector('.proof')) {
        end.append(endProof(status));
      }
    }
  }

  loadRest().then(() => { if (!ctx.dead) connect(); });
  // The house rules in words (flags as yes or no, in the server's order) once the catalogue is here.
  loadRules().catch(() => null).then(() => { ctx.rulesReady = true; if (!ctx.dead && ctx.state) render([]); });
  const onVis = () => { if (!document.hidden && ctx.conn && !ctx.conn.open && ctx.connStatus === 'reconnecting') { clearTimeout(ctx.conn.timer); ctx.conn.connect(); } };
  document.addEventListener('visibilitychange', onVis);
  void navigate;
  return () => {
    ctx.dead = true; // a request still under way must not reconnect a page that is gone
    if (ctx.conn) ctx.conn.close();
    ctx.attention.dispose();
    clearInterval(ctx.timerId);
    clearTimeout(ctx.autoTimer);
    clearTimeout(ctx.autoRetry);
    clearInterval(ctx.restPoll);
    document.removeEventListener('visibilitychange', onVis);
    if (ctx.onKey) document.removeEventListener('keydown', ctx.onKey);
    if (window.__parchis === ctx) window.__parchis = null;
  };
}

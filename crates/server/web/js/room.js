// The room page: waiting room, live game and end of game, all driven by the room WebSocket. This file holds the
// room's state and connection; its parts draw it (room_waiting.js, room_game.js, room_end.js).
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { api, me, forget } from './api.js';
import { RoomConnection } from './conn.js';
import { COLOURS } from './geometry.js';
import { banner, announce, exposeForTests, withdrawForTests } from './nav.js';
import { ChatPanel } from './chat.js';
import { Attention } from './attention.js';
import { loadRules } from './house.js';
import { stateFromRest } from './room_parts.js';
import { waitingRoom } from './room_waiting.js';
import { gameScreen } from './room_game.js';
import { endCard } from './room_end.js';
import { Pacer } from './pace.js';
import { privateRoomRefused } from './share.js';

export { dieFace, swatch } from './room_parts.js';

export function mountRoom(main, ref) {
  const params = new URLSearchParams(location.search);
  const ctx = {
    ref, state: null, hello: null, preview: null, rest: null, conn: null, version: null,
    log: [], rolling: false, autoRoll: localStorage.getItem('parchis.autoRoll') === '1',
    // On unless the player turned it off: a turn with one legal move plays it.
    autoMove: localStorage.getItem('parchis.autoMove') !== '0',
    preselected: null, autoSentFor: null, timerId: null, mode: null, board: null, els: {}, error: '',
    proof: null, recordLoaded: false, watch: params.has('watch'),
  };
  exposeForTests(ctx);
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
        privateRoomRefused(root, ctx.rest);
        ctx.dead = true;
        return;
      }
      // The address bar names a private room by its code, so that it is the link to share: opened on another
      // device it lets in whoever has it (an id would let in only the room's own players).
      const code = ctx.rest.join_code;
      if (code && !ctx.rest.settings.public && decodeURIComponent(location.pathname.split('/').pop()) !== code) {
        history.replaceState(history.state, '', `/room/${encodeURIComponent(code)}${location.search}`);
      }
      if (!ctx.state || ctx.state.rest) { ctx.state = stateFromRest(ctx.rest); render([]); }
    } catch (x) {
      // A private room by its bare id, and we are neither its owner nor seated (nor came with the code).
      if (x.status === 403 && x.code === 'wrong_join_code') {
        privateRoomRefused(root);
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
      // Each update is shown in turn (pace.js), as it was: the connection patches its state in place. This
      // device's own roll or move at once. `acted`: who made the roll or move it shows (PROTOCOL §2).
      onState: (state, { events = [], kind, acted = null }) => {
        const own = events.some((e) => (e.type === 'rolled' || e.type === 'moved') && e.seat !== undefined && playsHere(e.seat));
        ctx.pacer.push({ state: structuredClone(state), events, kind, acted, version: ctx.conn.version, at: Date.now() }, own);
      },
      onHello: (msg) => { ctx.hello = msg; render([]); },
      onPreview: (msg) => { ctx.preview = msg; game.renderControls(); },
      onChat: (messages, { live }) => {
        const added = ctx.chat.add(messages);
        const who = me();
        if (!live) return;
        const others = added.filter((m) => (!who || m.player_id !== who.id) && !ctx.chat.isMuted(m));
        for (const m of others) announce(`${m.name || `#${m.seat + 1}`}: ${m.text}`);
        ctx.attention.chatArrived(others.length);
        ctx.chat.noteUnseen(others.length);
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

  /** Shows one update from the connection; returns how long it needs on screen before the next (pace.js). */
  function showUpdate({ state, events, kind, acted, version }, { instant }) {
    ctx.state = state;
    ctx.version = version;
    if (kind === 'snapshot') ctx.preview = null;
    // Who made the roll or move this update shows, for its line ("Time ran out: the server rolled for Ana").
    ctx.acted = acted || null;
    const ms = render(events, kind, instant);
    ctx.acted = null;
    return ms;
  }
  ctx.pacer = new Pacer(showUpdate);

  /** Draws the room as `ctx.state` holds it; in a game, returns how long its events take to see (ms). */
  function render(events, kind, instant = false) {
    if (ctx.dead || !ctx.state) return 0;
    followSeats();
    const st = ctx.state;
    const status = st.room.status;
    const hasGame = st.game && st.game.view;
    const mode = status === 'waiting' || !hasGame ? 'waiting' : 'game';
    if (mode !== ctx.mode) {
      ctx.mode = mode;
      clear(root);
      if (mode === 'waiting') waiting.build(); else game.build();
    }
    let hold = 0;
    if (mode === 'waiting') { waiting.render(); ctx.attention.setMyTurn(false); } else hold = game.render(events, kind, instant);
    ctx.chat.setCanWrite(!!ctx.hello && ctx.hello.role === 'player');
    return hold;
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


  // The parts share the room's context and these helpers; each draws its own screen.
  const r = { ctx, root, mySeatIndex, localSeats, playsHere, seatNote, seatName, sideNames, showError, render, connect, loadRest };
  const waiting = waitingRoom(r);
  const end = endCard(r);
  r.renderEnd = end.render;
  const game = gameScreen(r);

  loadRest().then(() => { if (!ctx.dead) connect(); });
  // The house rules in words (flags as yes or no, in the server's order) once the catalogue is here.
  loadRules().catch(() => null).then(() => { ctx.rulesReady = true; if (!ctx.dead && ctx.state) render([]); });
  const onVis = () => { if (!document.hidden && ctx.conn && !ctx.conn.open && ctx.connStatus === 'reconnecting') { clearTimeout(ctx.conn.timer); ctx.conn.connect(); } };
  document.addEventListener('visibilitychange', onVis);
  return () => {
    ctx.dead = true; // a request still under way must not reconnect a page that is gone
    if (ctx.conn) ctx.conn.close();
    ctx.pacer.stop();
    ctx.attention.dispose();
    clearInterval(ctx.timerId);
    clearTimeout(ctx.autoTimer);
    clearTimeout(ctx.autoRetry);
    clearInterval(ctx.restPoll);
    document.removeEventListener('visibilitychange', onVis);
    if (ctx.onKey) document.removeEventListener('keydown', ctx.onKey);
    withdrawForTests(ctx);
  };
}
// The room page's waiting room: the settings, the share link, the seats and what the viewer can do with them.
import { h, clear } from './dom.js';
import { t, rulesAndMode } from './i18n.js';
import { api, me, register, BOT_LEVELS } from './api.js';
import { houseLine } from './house.js';
import { boardInfo } from './rules.js';
import { swatch, stateFromRest, statusChip, seatRating } from './room_parts.js';
import { roomLink, sharePanel } from './share.js';

/** The waiting room of the room `r` (mountRoom's shared context and helpers): `build()` once, `render()` on every update. */
export function waitingRoom(r) {
  const { ctx, root } = r;
  const { mySeatIndex, seatNote, showError, render, connect, loadRest } = r;
  const { ref } = ctx;

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
    const share = root.querySelector('#wr-share');
    // Drawn again only when the link changes (a seat filled: the invitation becomes a link to watch), so
    // that "Copied!" stays.
    const link = roomLink(ctx.rest, st).url;
    if (share.dataset.url !== link) {
      share.dataset.url = link;
      clear(share, code ? h('p', t('room_code'), ': ', h('span.code-big', { id: 'join-code-value', dir: 'ltr' }, code)) : null, sharePanel(ctx.rest, st));
    }
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
    const actionsEl = root.querySelector('#wr-actions');
    const typed = typedInputs(actionsEl);
    const actions = clear(actionsEl);
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
        boardInfo(board).colours.map((c) => h('option', { value: c }, t('colours.' + c))));
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
    restoreTyped(actions, typed);
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
  /** What is being typed in the actions' fields (a name for a seat, a name for someone at this device): every
   * update (a spectator comes, a seat fills) rebuilds them, and a half-typed name must not vanish under the
   * player's thumb nor the keyboard close. */
  function typedInputs(container) {
    return [...container.querySelectorAll('input[id]')].map((el) => ({
      id: el.id, value: el.value, focused: document.activeElement === el, start: el.selectionStart, end: el.selectionEnd,
    }));
  }
  function restoreTyped(container, typed) {
    for (const was of typed) {
      const el = container.querySelector(`#${was.id}`);
      if (!el || el.tagName !== 'INPUT') continue;
      el.value = was.value;
      if (!was.focused) continue;
      el.focus({ preventScroll: true });
      if (was.start !== null) el.setSelectionRange(was.start, was.end);
    }
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

  return { build: buildWaiting, render: renderWaiting };
}

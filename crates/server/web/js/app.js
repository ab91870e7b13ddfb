// Entry point: router (history API; the server answers index.html for /room/…, /replay/…, /admin…),
// header with the language switch, and the home/lobby page.
import { h, clear, $ } from './dom.js';
import { t, LANGS, getLang, setLang, onLangChange, translate, dateLocale, rulesAndMode } from './i18n.js';
import { api, me, register, rename, createAccount, signIn, signOut, signOutOthers, devices, signOutDevice, refreshMe, changePassword, eraseMe, downloadMyData, BOT_LEVELS } from './api.js';
import { mountRoom } from './room.js';
import { recordItems } from './player.js';
import { loadRules, houseRulesForm, houseTag } from './house.js';
import { rulesCatalogue, modeInfo } from './rules.js';
import { navigate, banner, setRouter } from './nav.js';
import { ratingChip } from './rating.js';

const TIMERS = [null, 5, 10, 15, 20, 30, 45, 60, 120];
/** The create form's choice for a seat played by someone at this device (not a bot level). */
const LOCAL = 'local';

let unmount = null;

function route() {
  if (unmount) { try { unmount(); } catch (e) { console.warn(e); } unmount = null; }
  banner('');
  const main = $('#main');
  clear(main);
  // Every page draws and offers what the server's catalogue says (GET /api/rules): it comes first, once.
  if (!rulesCatalogue()) {
    main.append(h('p.muted', t('loading')));
    // Not there (a server restarting, a network blip): said, and asked again in a moment.
    const again = setTimeout(route, 3000);
    unmount = () => clearTimeout(again);
    loadRules().then(() => { clearTimeout(again); route(); }, (x) => clear(main, h('p.error', { role: 'alert' }, t('error', { msg: x.message })),
      h('button', { type: 'button', onclick: route }, t('refresh'))));
    return;
  }
  const path = location.pathname.replace(/\/+$/, '');
  let m;
  // The pages a first visit does not show (a replay, a player's record, the how-to page, moderation) are
  // fetched when opened, so that the home page loads less (BENCHMARKS.md, Web client).
  if ((m = path.match(/^\/room\/([^/]+)$/))) unmount = mountRoom(main, decodeURIComponent(m[1]));
  else if ((m = path.match(/^\/replay\/([^/]+)$/))) { const id = decodeURIComponent(m[1]); unmount = later(main, () => import('./replay.js'), (x) => x.mountReplay(main, id)); }
  else if ((m = path.match(/^\/(?:join|j)\/([^/]+)$/))) { navigate(`/room/${m[1]}`, true); return; }
  else if ((m = path.match(/^\/players\/([^/]+)$/))) { const name = decodeURIComponent(m[1]); unmount = later(main, () => import('./player.js'), (x) => x.mountPlayer(main, name)); }
  else if (path === '/rules') unmount = later(main, () => import('./howto.js'), (x) => x.mountHowTo(main));
  // The host's moderation page: bookmarked, linked from nowhere.
  else if (path === '/admin') unmount = later(main, () => import('./admin.js'), (x) => x.mountAdmin(main));
  else unmount = mountHome(main);
  document.title = t('title');
  scrollToHash();
}

/** A link to a section of a page (the create form's to the how-to page's rule set and mode) shows it. */
function scrollToHash() {
  const target = location.hash.length > 1 && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (target) target.scrollIntoView();
}

/**
 * Mounts a page whose module is fetched now (`load`, then `mount(module)` → its unmount); returns the unmount
 * of a page that may still be loading: left before it came, it is never mounted.
 */
function later(main, load, mount) {
  let left = false;
  let off = null;
  main.append(h('p.muted', t('loading')));
  load().then((module) => {
    if (left) return;
    clear(main);
    off = mount(module);
    document.title = t('title');
    scrollToHash();
  }, (x) => { if (!left) clear(main, h('p.error', { role: 'alert' }, t('error', { msg: x.message })), h('button', { type: 'button', onclick: route }, t('refresh'))); });
  return () => { left = true; if (off) off(); };
}

function setupHeader() {
  const sel = $('#lang');
  clear(sel, Object.entries(LANGS).map(([k, v]) => h('option', { value: k }, v)));
  sel.value = getLang();
  sel.onchange = () => setLang(sel.value);
  onLangChange(() => { translate(); route(); });
  window.addEventListener('parchis:signed-out', (e) => { route(); banner(t({ revoked: 'signed_out_here', expired: 'signed_out_idle' }[e.detail] || 'signed_out'), 'error'); });
  translate();
  document.addEventListener('click', (e) => {
    const a = e.target.closest && e.target.closest('a[data-link]');
    if (a && a.origin === location.origin && !e.metaKey && !e.ctrlKey && !e.shiftKey) {
      e.preventDefault();
      navigate(a.pathname + a.search + a.hash);
    }
  });
  window.addEventListener('popstate', route);
}

/* ---------- Home / lobby ---------- */

function nameCard(onChange) {
  const card = h('section.card', { 'aria-labelledby': 'name-h' });
  const who = me();
  const err = h('p.error', { role: 'alert' });
  if (who) {
    const input = h('input', { id: 'name', value: who.display_name, maxlength: 32, autocomplete: 'nickname' });
    const edit = h('form.row.hidden', {
      onsubmit: async (e) => {
        e.preventDefault();
        // The same player under another name: seats, running games and "Your games" stay.
        try { await rename(input.value.trim()); onChange(); } catch (x) { err.textContent = t('error', { msg: x.message }); }
      },
    }, h('label', { for: 'name' }, t('your_name')), input, h('button.primary', { type: 'submit' }, t('save_name')));
    card.append(
      h('h2', { id: 'name-h' }, t('hello', { name: who.display_name })),
      h('div.row', h('button', { type: 'button', id: 'change-name', onclick: () => { edit.classList.toggle('hidden'); input.focus(); } }, t('change_name'))),
      edit, err,
      who.username ? signedInPart(who, onChange) : accountPart(onChange),
      exportPart(),
      erasePart(who, onChange),
    );
  } else {
    const input = h('input', { id: 'name', required: true, maxlength: 32, autocomplete: 'nickname', placeholder: 'Ana' });
    card.append(
      h('h2', { id: 'name-h' }, t('your_name')),
      h('form.row', {
        onsubmit: async (e) => {
          e.preventDefault();
          const v = input.value.trim();
          if (!v) return;
          try { await register(v); onChange(); } catch (x) { err.textContent = t('error', { msg: x.message }); }
        },
      }, h('label.sr-only', { for: 'name' }, t('your_name')), input, h('button.primary', { type: 'submit', id: 'save-name' }, t('save_name'))),
      err,
      signInPart(onChange, false),
    );
  }
  return card;
}

/** Downloading your data: what the server keeps about you, as a file. */
function exportPart() {
  const err = h('p.error', { role: 'alert' });
  return h('details.account', { id: 'export-me' },
    h('summary', t('export_me')),
    h('p.muted', t('export_me_hint')),
    h('div.row', h('button', {
      type: 'button', id: 'export-me-download',
      onclick: async () => { err.textContent = ''; try { await downloadMyData(); } catch (x) { err.textContent = t('error', { msg: x.message }); } },
    }, t('export_me'))),
    err);
}

/** Deleting your data, behind a second, explicit click; an account's password too (a guest has none),
 * so that a moment at an unlocked device cannot destroy an account. */
function erasePart(who, onChange) {
  const err = h('p.error', { role: 'alert' });
  const password = who.username
    ? h('input', { id: 'erase-me-password', type: 'password', required: true, autocomplete: 'current-password', maxlength: 128 })
    : null;
  return h('details.account', { id: 'erase-me' },
    h('summary', t('erase_me')),
    h('p.muted', t('erase_me_hint')),
    h('form.stack', {
      onsubmit: async (e) => {
        e.preventDefault();
        err.textContent = '';
        try { await eraseMe(password ? password.value : undefined); onChange(); } catch (x) {
          if (password) password.value = '';
          err.textContent = t('error', { msg: x.message });
        }
      },
    },
    password ? h('label', { for: password.id }, t('erase_me_password')) : null,
    password,
    h('div.row', h('button.danger', { type: 'submit', id: 'erase-me-confirm' }, t('erase_me_confirm')))),
    err);
}

/** A username and password form (`prefix` names its fields); `submit(username, password)` acts. */
function credentialsForm(prefix, newPassword, button, submit) {
  const err = h('p.error', { role: 'alert' });
  const user = h('input', { id: `${prefix}-username`, required: true, minlength: 3, maxlength: 24, autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false' });
  const pass = h('input', { id: `${prefix}-password`, type: 'password', required: true, minlength: newPassword ? 8 : 1, maxlength: 128, autocomplete: newPassword ? 'new-password' : 'current-password' });
  return h('form.stack', {
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = '';
      try { await submit(user.value.trim(), pass.value); } catch (x) { err.textContent = t('error', { msg: x.message }); }
    },
  },
  h('label', { for: user.id }, t('username')), user,
  h('label', { for: pass.id }, t('password')), pass,
  h('div.row', h('button.primary', { type: 'submit', id: `${prefix}-submit` }, button)),
  err);
}

/** A guest: make an account to play on other devices, or sign in to one. */
function accountPart(onChange) {
  return h('div',
    h('details.account', { id: 'make-account' },
      h('summary', t('account_make')),
      h('p.muted', t('account_hint')),
      credentialsForm('account', true, t('account_create'), async (u, p) => { await createAccount(u, p); onChange(); })),
    signInPart(onChange, true));
}

/** Sign in to an account on this device (a guest here is replaced by the account's player). */
function signInPart(onChange, replacesGuest) {
  return h('details.account', { id: 'sign-in' },
    h('summary', t('sign_in_have')),
    replacesGuest ? h('p.muted', t('sign_in_replaces')) : null,
    credentialsForm('sign-in', false, t('sign_in'), async (u, p) => { await signIn(u, p); onChange(); }));
}

/** Signing every other device out (a lost phone, a shared computer), behind a second, explicit click;
 * then how many were. The password stays. */
function signOutOthersPart(onSignedOut) {
  const err = h('p.error', { role: 'alert' });
  const done = h('p.muted', { id: 'others-signed-out', role: 'status' });
  return h('details.account', { id: 'sign-out-others' },
    h('summary', t('sign_out_others')),
    h('p.muted', t('sign_out_others_hint')),
    h('div.row', h('button', {
      type: 'button', id: 'sign-out-others-confirm',
      onclick: async () => {
        err.textContent = ''; done.textContent = '';
        try {
          const n = await signOutOthers();
          onSignedOut();
          done.textContent = t('others_signed_out', { n });
        } catch (x) { err.textContent = t('error', { msg: x.message }); }
      },
    }, t('sign_out_others_confirm'))),
    done, err);
}

/** A device as the list names it: the server's words ("Firefox on Android", "Unknown device") in the
 * page's language. */
function deviceName(d) {
  if (d.device === 'Unknown device') return t('device_unknown');
  const m = /^(.+) on (.+)$/.exec(d.device);
  return m ? t('device_on', { browser: m[1], system: m[2] }) : d.device;
}

/** "Your devices": where this account is signed in (what, since when, last used; this one marked), each
 * other one with a button that signs it out (a lost phone). Read from the server when opened, and again
 * (`reload`, if open) when the other devices were signed out by another control. */
function devicesPart() {
  const err = h('p.error', { role: 'alert' });
  const done = h('p.muted', { id: 'device-signed-out', role: 'status' });
  const list = h('ul.devices', { id: 'devices-list' });
  const idle = h('p.muted', { id: 'devices-idle' });
  const when = (ms) => new Date(ms).toLocaleString(dateLocale(), { dateStyle: 'short', timeStyle: 'short' });
  async function load() {
    err.textContent = '';
    try {
      const { devices: all, signed_out_after_days: days } = await devices();
      idle.textContent = days ? t('devices_idle', { n: days }) : '';
      clear(list, all.map((d) => h('li', { 'data-device-id': d.id, 'data-current': d.current ? 'true' : 'false' },
        h('div',
          h('strong', deviceName(d)), ' ',
          d.current ? h('span.device-this', t('device_this')) : null,
          h('div.muted', t('device_times', { signed_in: when(d.signed_in_at), last_used: when(d.last_used_at) }))),
        d.current ? null : h('button', {
          type: 'button', class: 'device-sign-out', 'aria-label': t('device_sign_out_named', { device: deviceName(d) }),
          onclick: async () => {
            err.textContent = ''; done.textContent = '';
            try {
              await signOutDevice(d.id);
              done.textContent = t('device_signed_out', { device: deviceName(d) });
            } catch (x) { err.textContent = t('error', { msg: x.message }); }
            await load();
          },
        }, t('device_sign_out')))));
    } catch (x) { err.textContent = t('error', { msg: x.message }); }
  }
  const part = h('details.account', { id: 'devices', ontoggle: (e) => { if (e.target.open) load(); } },
    h('summary', t('devices')),
    h('p.muted', t('devices_hint')),
    list, idle, done, err);
  part.reload = () => { if (part.open) load(); };
  return part;
}

/** Signed in: who, signing this device out, and a new password (which signs the other devices out). */
function signedInPart(who, onChange) {
  const err = h('p.error', { role: 'alert' });
  const done = h('p.muted', { id: 'password-changed', role: 'status' });
  const current = h('input', { id: 'current-password', type: 'password', required: true, autocomplete: 'current-password', maxlength: 128 });
  const fresh = h('input', { id: 'new-password', type: 'password', required: true, autocomplete: 'new-password', minlength: 8, maxlength: 128 });
  const devicesList = devicesPart();
  const change = h('details.account', { id: 'change-password' },
    h('summary', t('change_password')),
    h('form.stack', {
      onsubmit: async (e) => {
        e.preventDefault();
        err.textContent = ''; done.textContent = '';
        try {
          await changePassword(current.value, fresh.value);
          current.value = ''; fresh.value = '';
          devicesList.reload();
          done.textContent = t('password_changed');
        } catch (x) { err.textContent = t('error', { msg: x.message }); }
      },
    },
    h('label', { for: current.id }, t('current_password')), current,
    h('label', { for: fresh.id }, t('new_password')), fresh,
    h('div.row', h('button.primary', { type: 'submit', id: 'change-password-submit' }, t('change_password')))));
  return h('div', { id: 'signed-in' },
    h('div.row',
      h('span.muted', t('signed_in_as', { name: who.username })),
      h('button', {
        type: 'button', id: 'sign-out',
        onclick: async () => { try { await signOut(); onChange(); } catch (x) { err.textContent = t('error', { msg: x.message }); } },
      }, t('sign_out'))),
    change, done, devicesList, signOutOthersPart(() => devicesList.reload()), err);
}

function createCard(onCreated, nameCardEl) {
  // The rule sets, their modes and each mode's player counts are the server's (GET /api/rules).
  const catalogue = rulesCatalogue();
  const rules = h('select', { id: 'rules' }, catalogue.rule_sets.map((r) => h('option', { value: r.name }, t('rulesets.' + r.name))));
  const mode = h('select', { id: 'mode' });
  const fillModes = () => {
    const prev = mode.value;
    const modes = catalogue.rule_sets.find((r) => r.name === rules.value).modes.map((m) => m.name);
    clear(mode, modes.map((m) => h('option', { value: m }, t('modes.' + m))));
    mode.value = modes.includes(prev) ? prev : modes[0];
  };
  fillModes();
  const players = h('select', { id: 'players' });
  const seats = h('div.seat-bots', { id: 'seat-bots' });
  const timer = h('select', { id: 'timer' }, TIMERS.map((s) => h('option', { value: s === null ? '' : s }, s === null ? t('no_limit') : t('seconds', { n: s }))));
  timer.value = '30';
  const pace = h('select', { id: 'bot-pace' }, ['normal', 'fast'].map((p) => h('option', { value: p }, t('bot_pace_' + p))));
  const preview = h('input', { type: 'checkbox', id: 'preview' });
  const pub = h('input', { type: 'checkbox', id: 'public', checked: true });
  // Ticked as the rule set's text does for the mode (`GET /api/rules`), until the player chooses.
  const draw = h('input', { type: 'checkbox', id: 'draw-seats' });
  let drawChosen = false;
  draw.onchange = () => { drawChosen = true; };
  // The form's own mistakes are said under it; the play buttons' under them.
  const err = h('p.error', { role: 'alert' });
  const playErr = h('p.error', { id: 'play-error', role: 'alert' });
  // House rules are for the rooms this form makes (Create, and Play now against bots, which uses every
  // choice of the form); a quick match seats strangers at the standard rules, and says so once the
  // player has changed one.
  const qmHint = h('p.muted.hint', { id: 'quick-match-hint' }, t('quick_match_hint'));
  const house = houseRulesForm((n) => {
    qmHint.textContent = n ? t('house_qm') : t('quick_match_hint');
  });
  const resetDraw = () => {
    if (drawChosen) return;
    const info = modeInfo(rules.value, mode.value);
    draw.checked = !!(info && info.draw_seats);
  };
  const drawField = () => ({ draw_seats: draw.checked });
  const resetHouse = () => { house.reset(catalogue, rules.value, mode.value); resetDraw(); };
  house.build(catalogue);
  resetHouse();
  const fillPlayers = () => {
    const list = modeInfo(rules.value, mode.value).players;
    const prev = Number(players.value);
    clear(players, list.map((n) => h('option', { value: n }, n)));
    players.value = list.includes(prev) ? prev : list[list.length - 1];
    fillSeats();
  };
  // Each other seat: a person who joins (a bot if none does), a bot, or someone at this device (pass and
  // play), named in a field of its own.
  const fillSeats = () => {
    const n = Number(players.value);
    const old = [...seats.querySelectorAll('select')].map((s) => s.value);
    const oldNames = [...seats.querySelectorAll('input.local-seat-name')].map((x) => x.value);
    clear(seats);
    for (let i = 1; i < n; i++) {
      const s = h('select', { id: `bot-${i}`, 'data-seat': i },
        h('option', { value: '' }, t('human_or_bot')),
        BOT_LEVELS.map((l) => h('option', { value: l }, t('bot_' + l))),
        h('option', { value: LOCAL }, t('seat_local')));
      s.value = old[i - 1] ?? 'greedy';
      const name = h('input.local-seat-name', {
        id: `local-name-${i}`, maxlength: 32, autocomplete: 'off', placeholder: t('their_name'),
        'aria-label': t('local_name_of', { n: i + 1 }), value: oldNames[i - 1] ?? '',
      });
      const showName = () => { name.hidden = s.value !== LOCAL; };
      s.onchange = () => { showName(); if (s.value === LOCAL) name.focus(); };
      showName();
      seats.append(h('div.row', h('label', { for: `bot-${i}` }, t('seat_n', { n: i + 1 })), s, name));
    }
  };
  // The seats the form gives to people at this device, `[{ seat, name }]`, or the first without a name.
  const localSeats = () => {
    const out = [];
    for (const s of seats.querySelectorAll('select')) {
      if (s.value !== LOCAL) continue;
      const seat = Number(s.dataset.seat);
      const name = seats.querySelector(`#local-name-${seat}`);
      if (!name.value.trim()) return { missing: name, seat };
      out.push({ seat, name: name.value.trim() });
    }
    return { seats: out };
  };
  // Seats the people at this device in a room just made, each where the form put them (a refusal stops
  // there: the room opens waiting, and its waiting room can seat them again).
  const seatLocals = async (room, locals) => {
    for (const { seat, name } of locals) await api.addLocal(room.id, name, seat);
  };
  // The room's `bots`: seat 0 is the player's; a seat left open gets `open` (a bot level, or null to wait
  // for a person), a seat someone here plays stays empty until they are seated.
  const formBots = (open) => {
    const bots = [null];
    for (let i = 1; i < Number(players.value); i++) {
      const v = seats.querySelector(`#bot-${i}`).value;
      bots.push(v === LOCAL ? null : v || open);
    }
    return bots;
  };
  // Checks the form's names before anything is made: the missing one is pointed at.
  const checkLocals = () => {
    const locals = localSeats();
    if (locals.missing) {
      err.textContent = t('local_name_required', { n: locals.seat + 1 });
      locals.missing.focus();
      return null;
    }
    return locals.seats;
  };
  // The how-to page's sections for the chosen rule set and mode.
  const howto = h('p.muted.hint', { id: 'howto-choice' });
  const fillHowto = () => clear(howto,
    h('a', { href: `/rules#howto-${rules.value}`, 'data-link': '', id: 'howto-rules-link' }, t('howto_of', { name: t('rulesets.' + rules.value) })),
    ' · ',
    h('a', { href: `/rules#howto-mode-${mode.value}`, 'data-link': '', id: 'howto-mode-link' }, t('modes.' + mode.value)));
  fillHowto();
  mode.onchange = () => { fillPlayers(); resetHouse(); fillHowto(); };
  rules.onchange = () => { const before = mode.value; fillModes(); if (mode.value !== before) fillPlayers(); resetHouse(); fillHowto(); };
  players.onchange = fillSeats;
  fillPlayers();
  // The same choices, every other seat a bot (a seat left to a human gets the medium bot), in a
  // private room started at once: a game in one click.
  const playNow = async () => {
    err.textContent = '';
    playErr.textContent = '';
    // A mistake in the form (opened by the player) is shown there, the form opened.
    const bad = house.invalid();
    if (bad) { custom.open = true; err.textContent = t('house_bad_number', bad); bad.el.focus(); return; }
    const houseRules = house.changed();
    const locals = checkLocals();
    if (!locals) { custom.open = true; return; }
    // A first visit plays at once: a name is made up (changed later on the home page).
    if (!me()) {
      try { await register(t('guest_name', { n: 100 + Math.floor(Math.random() * 900) })); } catch (x) { playErr.textContent = t('error', { msg: x.message }); return; }
    }
    let room = null;
    try {
      room = await api.createRoom({
        rules: rules.value, mode: mode.value, players: Number(players.value), bots: formBots('greedy'),
        turn_time_secs: timer.value === '' ? null : Number(timer.value), bot_pace: pace.value,
        preview_next_roll: preview.checked, public: false, ...drawField(),
        ...(Object.keys(houseRules).length ? { house_rules: houseRules } : {}),
      });
      await seatLocals(room, locals);
      await api.start(room.id);
      onCreated(room);
    } catch (x) {
      // A room already made is not lost: its waiting room says what is left to do.
      if (room) onCreated(room);
      else playErr.textContent = t('error', { msg: x.message });
    }
  };
  // The same rules, mode and players, online with other people: a seat in a room waiting for them, or a new
  // one that others' quick matches fill (it starts by itself once full).
  const quickMatch = async (e) => {
    playErr.textContent = '';
    // Strangers will see the name: the player chooses it (the field is right there).
    if (!me()) { playErr.textContent = t('name_required'); nameCardEl.querySelector('#name')?.focus(); return; }
    e.target.disabled = true;
    try {
      const room = await api.quickMatch({ rules: rules.value, mode: mode.value, players: Number(players.value) });
      onCreated(room);
    } catch (x) { playErr.textContent = t('error', { msg: x.message }); e.target.disabled = false; }
  };
  const form = h('form.form-grid', {
    id: 'create-form',
    // The house rules' number fields are checked here, to say which and in the page's language.
    novalidate: true,
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = '';
      if (!me()) { err.textContent = t('name_required'); return; }
      const bad = house.invalid();
      if (bad) { err.textContent = t('house_bad_number', bad); bad.el.focus(); return; }
      const locals = checkLocals();
      if (!locals) return;
      // Only what the player changed from the rule set's own values.
      const houseRules = house.changed();
      let room = null;
      try {
        room = await api.createRoom({
          rules: rules.value, mode: mode.value, players: Number(players.value), bots: formBots(null),
          turn_time_secs: timer.value === '' ? null : Number(timer.value), bot_pace: pace.value,
          preview_next_roll: preview.checked, public: pub.checked, ...drawField(),
          ...(Object.keys(houseRules).length ? { house_rules: houseRules } : {}),
        });
        await seatLocals(room, locals);
        onCreated(room);
      } catch (x) {
        if (room) onCreated(room);
        else err.textContent = t('error', { msg: x.message });
      }
    },
  },
  h('label', { for: 'rules' }, t('rules')), rules,
  h('label', { for: 'mode' }, t('mode')), mode,
  h('span'), howto,
  h('label', { for: 'players' }, t('players')), players,
  h('span', t('bots')), seats,
  h('label', { for: 'timer' }, t('turn_timer')), timer,
  h('label', { for: 'bot-pace' }, t('bot_pace')), pace,
  house.el,
  h('label', { for: 'preview' }, t('preview')), h('div', preview),
  h('label', { for: 'public' }, t('public_room')), h('div', pub),
  h('label', { for: 'draw-seats' }, t('draw_seats')), h('div', draw),
  h('span'), h('div.row', h('button.primary', { type: 'submit', id: 'create-room' }, t('create'))),
  );
  // The page leads with the two ways to play at once: against bots (the form's choices, the standard rules
  // unless changed below) and a quick match with people. A room of one's own is one click further, folded.
  const play = h('section.card.play-card', { 'aria-labelledby': 'play-h' },
    h('h2', { id: 'play-h' }, t('play_title')),
    h('div.play-buttons',
      h('div', h('button.primary.big', { type: 'button', id: 'play-now', onclick: playNow }, t('play_now')),
        h('p.muted.hint', { id: 'play-now-hint' }, t('play_now_hint'))),
      h('div', h('button.big', { type: 'button', id: 'quick-match', onclick: quickMatch }, t('quick_match')), qmHint)),
    playErr);
  // Folded on a phone, open on a wider screen, unless the player chose otherwise (remembered on this device).
  const kept = localStorage.getItem('parchis.customRoom');
  const custom = h('details.card.custom-room', { id: 'custom-room', open: kept ? kept === 'open' : !ONE_COLUMN.matches },
    h('summary', h('h2', { id: 'create-h' }, t('create_room')), h('span.muted.hint', t('custom_room_hint'))), form, err);
  custom.addEventListener('toggle', () => localStorage.setItem('parchis.customRoom', custom.open ? 'open' : 'closed'));
  return { play, custom };
}

/** Fills a list of rooms again, the house-rule tags someone opened left open. */
function refill(list, items) {
  const open = [...list.querySelectorAll('li[data-room] details[open]')].map((d) => d.closest('li').dataset.room);
  clear(list, items);
  for (const li of list.querySelectorAll('li[data-room]')) {
    const tag = li.querySelector('details');
    if (tag && open.includes(li.dataset.room)) tag.open = true;
  }
}

function roomsCard() {
  const list = h('ul.rooms', { id: 'room-list', 'aria-live': 'polite' });
  const load = async () => {
    try {
      const [{ rooms }] = await Promise.all([api.listRooms(), loadRules().catch(() => null)]);
      refill(list, rooms.length ? rooms.map((r) => {
        const taken = r.seats.filter((s) => s.player_id || s.local_of || s.bot).length;
        const free = r.seats.length - taken;
        const owner = r.seats.find((s) => s.player_id === r.owner_id);
        return h('li', { 'data-room': r.id },
          h('div.info',
            h('strong', rulesAndMode(r.settings.rules, r.settings.mode)), ' ',
            h('span.muted', owner ? [h('bdi', owner.display_name), ' · '] : null, `${taken}/${r.seats.length} · ${t('seats_free', { n: free })}`),
            houseTag(r.settings.house_rules)),
          // A room whose seats are all taken (by people or bots) can only be watched.
          free > 0 ? h('a', { href: `/room/${r.id}`, 'data-link': true, class: 'button join-link' }, t('join')) : null,
          h('a', { href: `/room/${r.id}?watch=1`, 'data-link': true }, t('watch')));
      }) : h('li.muted', t('no_rooms')));
    } catch (x) {
      clear(list, h('li.error', t('error', { msg: x.message })));
    }
  };
  load();
  const timer = setInterval(load, 5000);
  const card = h('section.card', { 'aria-labelledby': 'rooms-h' },
    h('div.row', h('h2', { id: 'rooms-h', style: 'flex:1' }, t('public_rooms')), h('button', { type: 'button', onclick: load, id: 'refresh-rooms' }, t('refresh'))),
    list);
  return { card, stop: () => clearInterval(timer) };
}

/** Public games being played with someone at the table, newest first: to watch. */
function liveGamesCard() {
  const list = h('ul.rooms', { id: 'live-games', 'aria-live': 'polite' });
  const load = async () => {
    try {
      const [{ rooms }] = await Promise.all([api.listGames(), loadRules().catch(() => null)]);
      refill(list, rooms.length
        ? rooms.map((r) => h('li', { 'data-room': r.id },
          h('div.info',
            h('strong', rulesAndMode(r.settings.rules, r.settings.mode)), ' ',
            h('span.muted', r.seats.map((s, i) => [i ? ' · ' : '', h('bdi', s.display_name || t('bot_n', { n: i + 1 }))])),
            houseTag(r.settings.house_rules)),
          h('a', { href: `/room/${r.id}?watch=1`, 'data-link': true, class: 'button watch-link' }, t('watch'))))
        : h('li.muted', t('no_live_games')));
    } catch (x) {
      clear(list, h('li.error', t('error', { msg: x.message })));
    }
  };
  load();
  const timer = setInterval(load, 10000);
  const card = h('section.card', { 'aria-labelledby': 'live-h' },
    h('div.row', h('h2', { id: 'live-h', style: 'flex:1' }, t('live_games')), h('button', { type: 'button', onclick: load, id: 'refresh-live' }, t('refresh'))),
    list);
  return { card, stop: () => clearInterval(timer) };
}

/**
 * The leaderboard of the last 30 days, per rule set (players with an account, rated games): by most wins, or
 * by skill rating (only ratings past their 5 provisional games). Every row shows the rating the server sends.
 */
function leaderboardCard() {
  const list = h('ol.leaders', { id: 'leaders', 'aria-live': 'polite' });
  const rules = h('select', { id: 'leaders-rules', 'aria-label': t('rules') },
    ['playgridia', 'ludoteka', 'morocco'].map((r) => h('option', { value: r }, t('rulesets.' + r))));
  const by = h('select', { id: 'leaders-by', 'aria-label': t('leaders_by') },
    ['wins', 'rating'].map((b) => h('option', { value: b }, t('leaders_by_' + b))));
  const period = h('p.muted', { id: 'leaders-period' }, t('leaders_period'));
  let asked = 0;
  const load = async () => {
    const mine = ++asked;
    const byRating = by.value === 'rating';
    period.textContent = t(byRating ? 'leaders_period_rating' : 'leaders_period');
    try {
      const board = await api.leaderboard(rules.value, 30, by.value);
      if (mine !== asked) return; // an answer for a choice since changed
      // Said once the rows are this ranking's (not while the previous one's are still shown).
      list.dataset.by = by.value;
      clear(list, board.players.length
        ? board.players.slice(0, 10).map((p) => h('li', { 'data-username': p.username },
          h('span.rank', `${p.rank}.`), ' ', h('a', { href: `/players/${encodeURIComponent(p.username)}`, 'data-link': true, class: 'player-link' }, h('strong', { dir: 'auto' }, p.display_name)), ' ', h('span.muted', { dir: 'ltr' }, `@${p.username}`), ' ',
          // Ranked by rating: the rating first; by wins: the wins first.
          byRating ? [ratingChip(p.rating), ' '] : null,
          h('span.chip', t('wins_games', { wins: p.wins, games: p.games })),
          byRating ? null : [' ', ratingChip(p.rating)]))
        : h('li.muted', t(byRating ? 'leaders_none_rating' : 'leaders_none')));
    } catch (x) {
      if (mine !== asked) return;
      clear(list, h('li.error', t('error', { msg: x.message })));
    }
  };
  rules.onchange = load;
  by.onchange = load;
  load();
  return h('section.card', { 'aria-labelledby': 'leaders-h' },
    h('div.row', h('h2', { id: 'leaders-h' }, t('leaderboard')), by, rules),
    period,
    list);
}

/** The rooms you sit in: games to resume first, then rooms waiting to start, then results. */
function myRoomsCard() {
  const list = h('ul.rooms', { id: 'my-rooms' });
  // Your record per rule set played: every finished game, apart those against people, and your figures.
  const stats = h('ul.stats', { id: 'my-stats', 'aria-label': t('my_stats') });
  const card = h('section.card.hidden', { 'aria-labelledby': 'my-rooms-h' }, h('h2', { id: 'my-rooms-h' }, t('my_games')), stats, list);
  const load = async () => {
    if (!me()) { card.classList.add('hidden'); return; }
    let rooms; let record;
    try { [{ rooms }, record] = await Promise.all([api.myRooms(), api.myStats(), loadRules().catch(() => null)]); } catch { return; /* a stale identity or a blip: the card stays as it was */ }
    clear(stats, recordItems(record.rules));
    const rank = { playing: 0, waiting: 1, finished: 2 };
    rooms.sort((a, b) => rank[a.status] - rank[b.status] || b.created_at - a.created_at);
    card.classList.toggle('hidden', rooms.length === 0 && record.games === 0);
    clear(list, rooms.map((r) => {
      const result = r.game && r.game.won !== null && r.game.won !== undefined
        ? h('span.chip', { class: r.game.won ? 'ok' : '', 'data-result': r.game.won ? 'won' : 'lost' }, r.game.won ? t('won') : t('lost'))
        : h('span.chip', { class: r.status === 'playing' ? 'away' : '' }, t('status.' + r.status));
      const when = new Date(r.game ? r.game.started_at : r.created_at).toLocaleString(dateLocale(), { dateStyle: 'short', timeStyle: 'short' });
      const open = r.status === 'finished' && r.game
        ? h('a', { href: `/replay/${r.game.id}`, 'data-link': true, class: 'button' }, t('replay'))
        : h('a', { href: `/room/${r.room_id}`, 'data-link': true, class: r.status === 'playing' ? 'button primary resume-link' : 'button resume-link' }, r.status === 'playing' ? t('resume') : t('open'));
      return h('li', { 'data-room': r.room_id, 'data-status': r.status },
        h('div.info', h('strong', rulesAndMode(r.settings.rules, r.settings.mode)), ' ', h('span.muted', when),
          houseTag(r.settings.house_rules)),
        result, open);
    }));
  };
  load();
  return { card, load };
}

function joinCard() {
  // A code is written left to right in every language.
  const input = h('input', { id: 'join-code', placeholder: 'ABC123', autocapitalize: 'characters', autocomplete: 'off', dir: 'ltr' });
  return h('section.card', { 'aria-labelledby': 'join-h' },
    h('h2', { id: 'join-h' }, t('join_by_code')),
    h('form.row', {
      onsubmit: (e) => {
        e.preventDefault();
        let v = input.value.trim();
        const m = v.match(/\/room\/([^/?#]+)/);
        if (m) v = m[1];
        if (v) navigate(`/room/${encodeURIComponent(v)}`);
      },
    }, h('label.sr-only', { for: 'join-code' }, t('code')), input, h('button.primary', { type: 'submit' }, t('go'))));
}

/**
 * Below this width the home page is one column. There the create form (quick match, play now against
 * bots) comes right after who you are, your games and the code field, before the lists: a phone would
 * otherwise scroll four screens to start playing. The page is built in that order rather than reordered
 * by CSS, so that the keyboard and screen readers meet the cards in the order they are seen.
 */
const ONE_COLUMN = window.matchMedia('(max-width: 680px)');

function mountHome(main) {
  const rooms = roomsCard();
  const live = liveGamesCard();
  const mine = myRoomsCard();
  const render = () => {
    mine.load();
    // Renamed or signed up on another device: show it (once; a failure leaves the page as it is).
    refreshMe().then((changed) => { if (changed) render(); }).catch(() => {});
    const you = nameCard(render);
    const { play, custom } = createCard((room) => navigate(`/room/${room.id}`), you);
    cards = { play, you: [you, mine.card, joinCard()], lists: [rooms.card, live.card, leaderboardCard()], custom };
    place();
  };
  let cards = null;
  // Lays the same cards out again (a phone turned, a window narrowed past the line): moved, not rebuilt,
  // so that what was typed or chosen in them stays.
  const place = () => {
    const { play, you, lists, custom } = cards;
    clear(main,
      h('p.muted', t('tagline')),
      ONE_COLUMN.matches
        ? h('div.home-one-column', play, ...you, custom, ...lists)
        : h('div.grid2', h('div', ...you, ...lists), h('div', play, custom)),
    );
  };
  render();
  ONE_COLUMN.addEventListener('change', place);
  return () => { rooms.stop(); live.stop(); ONE_COLUMN.removeEventListener('change', place); };
}

setRouter(route);
setupHeader();
route();

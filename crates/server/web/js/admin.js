// The host's moderation page (/admin, bookmarked by the host; no link to it anywhere): with the server's
// ADMIN_TOKEN, the chat messages players reported, to dismiss or to erase their writer (PROTOCOL.md,
// Moderation and Reports). The token stays in this tab's sessionStorage only, never in localStorage.
import { h, clear } from './dom.js';
import { t, dateLocale } from './i18n.js';
import { admin } from './api.js';

const KEY = 'parchis.admin-token';

function storedToken() {
  try { return sessionStorage.getItem(KEY) || ''; } catch { return ''; }
}
function storeToken(token) {
  try { if (token) sessionStorage.setItem(KEY, token); else sessionStorage.removeItem(KEY); } catch { /* storage unavailable */ }
}

export function mountAdmin(main) {
  let gone = false;
  let loads = 0; // only the latest load may draw

  const input = h('input', { id: 'admin-token', type: 'password', required: true, autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false' });
  const login = h('form.stack.hidden', {
    id: 'admin-login',
    onsubmit: (e) => {
      e.preventDefault();
      const token = input.value.trim();
      if (!token) return;
      storeToken(token);
      input.value = '';
      load();
    },
  },
  h('label', { for: 'admin-token' }, t('admin_token')), input,
  h('p.muted.hint', t('admin_token_hint')),
  h('div.row', h('button.primary', { type: 'submit', id: 'admin-open' }, t('admin_open'))));

  const session = h('div.row.hidden', { id: 'admin-session' },
    h('button', { type: 'button', id: 'admin-refresh', onclick: () => load() }, t('refresh')),
    h('button', {
      type: 'button', id: 'admin-forget',
      onclick: () => { storeToken(''); showLogin(''); input.focus(); },
    }, t('admin_forget')));

  const status = h('p.error', { id: 'admin-error', role: 'alert' });
  const info = h('p.muted', { id: 'admin-info', role: 'status' });
  const heading = h('h3.hidden', { id: 'admin-reports-h' }, t('admin_reports'));
  const list = h('ul.reports', { id: 'admin-reports', 'aria-labelledby': 'admin-reports-h' });

  clear(main, h('section.card.admin', { id: 'admin', 'aria-labelledby': 'admin-h' },
    h('h2', { id: 'admin-h' }, t('admin_title')),
    h('p.muted', t('admin_hint')),
    login, session, status, info, heading, list));

  /** The token form (with `error` said above it), nothing listed. */
  function showLogin(error) {
    login.classList.remove('hidden');
    session.classList.add('hidden');
    heading.classList.add('hidden');
    clear(list);
    info.textContent = '';
    status.textContent = error;
  }

  /** What went wrong, in the host's words. */
  function explain(x) {
    if (x.status === 403) return t('admin_wrong_token');
    if (x.status === 404 && x.code === 'not_found') return t('admin_off');
    return t('error', { msg: x.message });
  }

  /** The reported messages (or why not): asks the server with the stored token, or none to learn whether it has moderation. */
  async function load() {
    const n = ++loads;
    const token = storedToken();
    try {
      const { messages } = await admin.reports(token);
      if (gone || n !== loads) return;
      login.classList.add('hidden');
      session.classList.remove('hidden');
      heading.classList.remove('hidden');
      status.textContent = '';
      info.textContent = messages.length ? '' : t('admin_none');
      clear(list, messages.map(item));
    } catch (x) {
      if (gone || n !== loads) return;
      if (x.status === 401 && x.code === 'missing_token') { showLogin(''); return; }
      if (x.status === 403) { storeToken(''); showLogin(explain(x)); input.focus(); return; }
      if (x.status === 404 && x.code === 'not_found') {
        // No admin on this server: nothing to ask for.
        showLogin(explain(x));
        login.classList.add('hidden');
        return;
      }
      status.textContent = explain(x);
    }
  }

  /** Runs a moderation action from one of a message's buttons, then lists again. */
  async function act(buttons, action) {
    buttons.forEach((b) => { b.disabled = true; });
    status.textContent = '';
    try {
      await action(storedToken());
    } catch (x) {
      if (gone) return;
      if (x.status === 403) { storeToken(''); showLogin(explain(x)); return; }
      status.textContent = explain(x);
    }
    if (!gone) await load();
  }

  /** One reported message: writer, text, reports, reasons, when, the room, and what to do. */
  function item(m) {
    const when = new Date(m.last_reported_at).toLocaleString(dateLocale(), { dateStyle: 'short', timeStyle: 'short' });
    const dismiss = h('button', { type: 'button', class: 'admin-dismiss', 'aria-label': t('admin_dismiss_by', { name: m.display_name }) }, t('admin_dismiss'));
    const erase = h('button.danger', { type: 'button', class: 'admin-erase', 'aria-label': t('admin_erase_by', { name: m.display_name }) }, t('admin_erase'));
    const buttons = [dismiss, erase];
    dismiss.onclick = () => act(buttons, (token) => admin.dismiss(token, m.room_id, m.seq));
    erase.onclick = () => {
      if (!window.confirm(t('admin_erase_confirm', { name: m.display_name }))) return;
      act(buttons, (token) => admin.erasePlayer(token, m.player_id));
    };
    return h('li', { 'data-room': m.room_id, 'data-seq': m.seq, 'data-player': m.player_id },
      h('div.info',
        h('div', h('strong.report-writer', { dir: 'auto' }, m.display_name), ' ',
          h('span.chip.report-count', t('admin_report_count', { n: m.reports }))),
        // The message as the characters written: text, never markup.
        h('blockquote.report-text', { dir: 'auto' }, m.text),
        m.reasons.length
          ? h('div.report-reasons', h('span.muted', t('admin_reasons')), h('ul', m.reasons.map((r) => h('li', { dir: 'auto' }, r))))
          : h('p.muted.report-reasons', t('admin_no_reason')),
        h('p.muted.report-when', t('admin_last_reported', { when }), ' · ',
          h('a', { href: `/room/${encodeURIComponent(m.room_id)}?watch=1`, 'data-link': true, class: 'report-room' }, t('admin_room', { id: m.room_id })))),
      h('div.row.report-actions', dismiss, erase));
  }

  load();
  return () => { gone = true; };
}

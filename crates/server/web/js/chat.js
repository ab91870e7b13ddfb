// The room chat panel: the room's last messages, merged by `seq` (a reconnect repeats nothing), and
// for seated players a line to write and a few quick reactions. Messages are shown as text, never
// as HTML. Anyone can mute a player: their messages are hidden on this device (kept in localStorage).
// A player can report someone else's message to the host (POST /api/rooms/{id}/chat/{seq}/report).
import { h, clear } from './dom.js';
import { t } from './i18n.js';

/** Messages kept on screen. */
const KEEP = 100;
/** One-tap reactions, each with its name (`reaction.*`): a screen reader says the name, not the emoji's own. */
const QUICK = [['👍', 'thumbs_up'], ['👏', 'applause'], ['😂', 'laughing'], ['😮', 'surprised'], ['😡', 'angry'], ['🍀', 'good_luck']];
/** Where the muted players' ids are kept. */
const MUTED_KEY = 'parchis.muted';

function loadMuted() {
  try { return new Set(JSON.parse(localStorage.getItem(MUTED_KEY) || '[]')); } catch { return new Set(); }
}

export class ChatPanel {
  /**
   * send(text) → Promise (rejects with the server's error), colourOfSeat(seat) → CSS colour,
   * isMine(message) → bool, report(seq) → Promise (null: this reader cannot report).
   */
  constructor({ send, colourOfSeat, isMine, report = null }) {
    this.send = send;
    this.report = report;
    this.reported = new Set(); // seqs this reader reported here
    this.colourOfSeat = colourOfSeat;
    this.isMine = isMine;
    this.messages = [];
    this.canWrite = false;
    this.muted = loadMuted();
    this.mutedLine = h('p.muted', { id: 'chat-muted' });
    // Not live: it is drawn anew on every message, and a screen reader would hear them all again each time; the
    // room announces each new message once (room.js, onChat).
    this.list = h('ol.chat-log', { id: 'chat-log', 'aria-label': t('chat') });
    this.input = h('input', { id: 'chat-input', maxlength: 200, autocomplete: 'off', placeholder: t('chat_placeholder') });
    this.form = h('form.chat-form', { id: 'chat-form', onsubmit: (e) => { e.preventDefault(); this.submit(this.input.value, true); } },
      h('label.sr-only', { for: 'chat-input' }, t('chat_placeholder')), this.input,
      h('button', { type: 'submit', id: 'chat-send' }, t('send')));
    this.quick = h('div.chat-quick', QUICK.map(([q, name]) => h('button', { type: 'button', class: 'chat-emoji', 'aria-label': t('reaction.' + name), title: t('reaction.' + name), onclick: () => this.submit(q, false) }, q)));
    this.note = h('p.muted', { id: 'chat-note' }, t('chat_spectator'));
    this.status = h('p.error', { id: 'chat-error', role: 'alert' });
    this.info = h('p.muted', { id: 'chat-info', role: 'status' });
    this.el = h('section.card.chat', { id: 'chat', 'aria-labelledby': 'chat-h' },
      h('h2', { id: 'chat-h' }, t('chat')), this.list, this.mutedLine, this.form, this.quick, this.note, this.status, this.info);
    // On a phone the chat sits below the board: new messages from others while it is out of view
    // show on a floating button that brings it into view.
    this.unseen = 0;
    this.inView = true;
    this.badge = h('button.chat-badge.hidden', { type: 'button', id: 'chat-badge', onclick: () => this.el.scrollIntoView({ block: 'start' }) });
    if ('IntersectionObserver' in window) {
      new IntersectionObserver(([entry]) => {
        this.inView = entry.isIntersecting;
        if (this.inView) { this.unseen = 0; this.renderBadge(); }
      }).observe(this.el);
    }
    this.render();
  }

  /** `count` new messages from others arrived live. */
  noteUnseen(count) {
    if (this.inView || count <= 0) return;
    this.unseen += count;
    this.renderBadge();
  }

  renderBadge() {
    this.badge.classList.toggle('hidden', this.unseen === 0);
    this.badge.textContent = `💬 ${this.unseen}`;
    this.badge.setAttribute('aria-label', `${t('chat')}: ${this.unseen}`);
  }

  /** Adds messages (live or a history); those already shown are skipped. Returns the new ones. */
  add(messages) {
    const added = [];
    for (const m of messages) {
      if (!m || typeof m.seq !== 'number' || this.messages.some((x) => x.seq === m.seq)) continue;
      this.messages.push(m);
      added.push(m);
    }
    if (!added.length) return added;
    this.messages.sort((a, b) => a.seq - b.seq);
    if (this.messages.length > KEEP) this.messages.splice(0, this.messages.length - KEEP);
    this.renderList();
    return added;
  }

  /** Whether a message's writer is muted here. */
  isMuted(m) { return this.muted.has(m.player_id); }

  setMuted(playerId, mute) {
    if (mute) this.muted.add(playerId); else this.muted.delete(playerId);
    localStorage.setItem(MUTED_KEY, JSON.stringify([...this.muted]));
    this.renderList();
  }

  /** Seated players write; spectators only read. */
  setCanWrite(can) {
    if (can === this.canWrite) return;
    this.canWrite = can;
    this.render();
  }

  async submit(text, fromInput) {
    if (!text.trim()) return;
    this.status.textContent = '';
    try {
      await this.send(text);
      if (fromInput && this.input.value === text) this.input.value = '';
    } catch (x) {
      const known = { chat_too_fast: 'chat_too_fast', chat_too_long: 'chat_too_long' }[x.code];
      this.status.textContent = known ? t(known) : t('error', { msg: x.message });
    }
  }

  /** Asks the reader to confirm, then reports message `m` to the host. */
  async reportMessage(m) {
    const name = m.name || `#${m.seat + 1}`;
    if (!window.confirm(t('report_confirm', { name, text: m.text }))) return;
    this.status.textContent = '';
    this.info.textContent = '';
    try {
      await this.report(m.seq);
      this.reported.add(m.seq);
      this.info.textContent = t('reported_thanks');
      this.renderList();
    } catch (x) {
      this.status.textContent = t('error', { msg: x.message });
    }
  }

  renderList() {
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 24;
    const name = (m) => m.name || `#${m.seat + 1}`;
    const shown = this.messages.filter((m) => !this.isMuted(m));
    clear(this.list, shown.length
      ? shown.map((m) => h('li', { class: this.isMine(m) ? 'mine' : '', 'data-seq': m.seq },
        h('span.chat-dot', { style: `background:${this.colourOfSeat(m.seat)}`, 'aria-hidden': 'true' }),
        h('strong.chat-name', { dir: 'auto' }, name(m)), ' ', h('span.chat-text', { dir: 'auto' }, m.text),
        this.isMine(m) ? null : h('button', {
          type: 'button', class: 'chat-mute', title: t('mute_name', { name: name(m) }), 'aria-label': t('mute_name', { name: name(m) }),
          onclick: () => this.setMuted(m.player_id, true),
        }, '🔇'),
        this.isMine(m) || !this.report ? null : this.reported.has(m.seq)
          ? h('span.chat-reported', { title: t('reported') }, '⚑')
          : h('button', {
            type: 'button', class: 'chat-report', title: t('report_message'), 'aria-label': t('report_message_by', { name: name(m) }),
            onclick: () => this.reportMessage(m),
          }, '⚑')))
      : h('li.muted', t('chat_none')));
    // Who is muted here (among this room's writers), each with a way back.
    const mutedWriters = new Map(this.messages.filter((m) => this.isMuted(m)).map((m) => [m.player_id, name(m)]));
    clear(this.mutedLine, mutedWriters.size ? [t('muted'), ': ', [...mutedWriters].map(([id, who]) => h('span.chat-muted-one', h('bdi', who), ' ',
      h('button', { type: 'button', class: 'chat-unmute', 'data-player': id, onclick: () => this.setMuted(id, false) }, t('unmute')), ' '))] : []);
    // Follow new messages unless the reader scrolled up to read older ones.
    if (atBottom || this.isMine(this.messages[this.messages.length - 1] || {})) this.list.scrollTop = this.list.scrollHeight;
  }

  render() {
    this.renderList();
    this.form.classList.toggle('hidden', !this.canWrite);
    this.quick.classList.toggle('hidden', !this.canWrite);
    this.note.classList.toggle('hidden', this.canWrite);
  }
}

// The room WebSocket (PROTOCOL.md): snapshot + updates (JSON Patch) with versions, resume by
// version/epoch after a disconnect, exponential backoff, commands with ids answered by ack/error.
import { applyPatch } from './patch.js';
import { errorText, t } from './i18n.js';

/** How long a socket may take to answer when the page comes back before it is replaced. */
const WAKE_PATIENCE_MS = 5000;
/** A page hidden at least this long has its socket checked when shown again. */
const HIDDEN_CHECK_MS = 10000;

export class RoomConnection {
  /**
   * handlers: onState(state, {events, kind, acted}), onHello(msg), onPreview(msg), onChat(messages, {live}), onError(msg),
   * onStatus('connecting'|'open'|'reconnecting'|'closed', info)
   */
  constructor(roomRef, token, handlers) {
    this.roomRef = roomRef;
    this.token = token;
    this.h = handlers;
    this.state = null;
    this.version = null;
    this.epoch = null;
    this.attempt = 0;
    this.nextId = 1;
    this.pending = new Map();
    this.closed = false;
    this.ws = null;
    this.everOpened = false;
    this.wakes = 0; // how many times a silent socket was replaced on waking (read by the browser tests)
    // A phone that was locked, or lost its network, may hold a socket that is dead without the browser
    // knowing for minutes: when the page comes back, check it at once.
    // (A tab hidden for a moment is not checked: only one hidden long enough for a phone to sleep.)
    this.hiddenAt = document.hidden ? Date.now() : null;
    this.onVisibility = () => {
      if (document.hidden) { this.hiddenAt = Date.now(); return; }
      const away = this.hiddenAt === null ? 0 : Date.now() - this.hiddenAt;
      this.hiddenAt = null;
      if (away >= HIDDEN_CHECK_MS) this.wake();
    };
    this.onOnline = () => this.wake();
    // The browser knows the network is gone (no interface left): nothing can come through the socket, which
    // may not notice for a minute (the server's pings). It is given up at once, so the page says the game is
    // not live; the 'online' event then reconnects without waiting for the backoff.
    this.onOffline = () => this.lost();
    document.addEventListener('visibilitychange', this.onVisibility);
    window.addEventListener('online', this.onOnline);
    window.addEventListener('offline', this.onOffline);
    this.connect();
  }

  /** The socket's URL: no token in it (URLs end up in proxies' logs); see protocols(). */
  url() {
    const q = new URLSearchParams();
    if (this.version !== null && this.epoch) { q.set('since', String(this.version)); q.set('epoch', this.epoch); }
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const qs = q.toString();
    return `${proto}//${location.host}/api/rooms/${encodeURIComponent(this.roomRef)}/ws${qs ? '?' + qs : ''}`;
  }

  /**
   * The subprotocols offered (PROTOCOL.md §1): `parchis`, which the server answers with, and the token as
   * `parchis.token.<token>` (a browser cannot set an Authorization header on a WebSocket).
   */
  protocols() {
    return this.token ? ['parchis', `parchis.token.${this.token}`] : ['parchis'];
  }

  connect() {
    if (this.closed) return;
    this.h.onStatus?.(this.attempt ? 'reconnecting' : 'connecting');
    let ws;
    try { ws = new WebSocket(this.url(), this.protocols()); } catch { this.schedule(); return; }
    this.ws = ws;
    ws.onopen = () => { this.everOpened = true; };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      this.handle(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.dropSocket();
      // 4001: the token this socket was opened with was revoked (signed out, a new password, data deleted):
      // reconnecting with it would be refused, so the connection ends here.
      if (this.closed || (ev.code === 1000 && ev.reason === 'left') || ev.code === 4001) { this.h.onStatus?.('closed', ev); return; }
      this.schedule();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  /** Forgets the current socket; its unanswered commands fail. */
  dropSocket() {
    this.ws = null;
    for (const [, p] of this.pending) p.reject(new Error(t('reconnecting')));
    this.pending.clear();
  }

  /**
   * The page is back (shown again, or the network is): a socket that is not open is reconnected now rather
   * than at the end of its backoff; an open one must answer a resync (which also brings the latest state)
   * within WAKE_PATIENCE_MS, or it is given up for a new one.
   */
  wake() {
    if (this.closed) return;
    if (!this.ws) {
      if (this.attempt) { clearTimeout(this.timer); this.connect(); }
      return;
    }
    if (this.ws.readyState !== WebSocket.OPEN) return; // still connecting
    const ws = this.ws;
    const giveUp = setTimeout(() => {
      if (this.ws !== ws || this.closed) return;
      this.wakes++;
      ws.onclose = null;
      try { ws.close(); } catch { /* ignore */ }
      this.dropSocket();
      this.attempt++;
      this.h.onStatus?.('reconnecting', { attempt: this.attempt, delay: 0 });
      this.connect();
    }, WAKE_PATIENCE_MS);
    this.send({ type: 'resync' }).then(() => clearTimeout(giveUp), () => clearTimeout(giveUp));
  }

  /** The network is gone: the socket is dropped (its commands fail) and a reconnection scheduled. */
  lost() {
    if (this.closed || !this.ws) return;
    const ws = this.ws;
    ws.onclose = null;
    try { ws.close(); } catch { /* ignore */ }
    this.dropSocket();
    this.schedule();
  }

  schedule() {
    if (this.closed) return;
    this.attempt++;
    const base = Math.min(10000, 400 * 2 ** Math.min(this.attempt - 1, 5));
    const delay = base / 2 + Math.random() * base / 2;
    this.h.onStatus?.('reconnecting', { attempt: this.attempt, delay });
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  handle(msg) {
    switch (msg.type) {
      case 'snapshot':
        this.state = msg.state;
        this.version = msg.version;
        this.epoch = msg.epoch;
        if (this.attempt) this.h.onStatus?.('open', { resumed: false });
        this.attempt = 0;
        this.h.onState?.(this.state, { events: [], kind: 'snapshot' });
        break;
      case 'update': {
        if (this.version === null || msg.version !== this.version + 1) {
          if (this.version !== null && msg.version <= this.version) return; // already applied
          this.send({ type: 'resync' }).catch(() => {});
          return;
        }
        try {
          this.state = applyPatch(this.state, msg.patch || []);
        } catch (e) {
          this.send({ type: 'resync' }).catch(() => {});
          return;
        }
        this.version = msg.version;
        if (this.attempt) { this.attempt = 0; this.h.onStatus?.('open', { resumed: true }); }
        this.h.onState?.(this.state, { events: msg.events || [], kind: 'update', acted: msg.acted || null });
        break;
      }
      case 'hello':
        if (this.attempt) { this.attempt = 0; this.h.onStatus?.('open', { resumed: true }); }
        this.h.onStatus?.('open', {});
        this.h.onHello?.(msg);
        break;
      case 'preview':
        this.h.onPreview?.(msg);
        break;
      case 'chat':
        this.h.onChat?.([msg.message], { live: true });
        break;
      case 'chat_history':
        this.h.onChat?.(msg.messages || [], { live: false });
        break;
      case 'ack': {
        const p = this.pending.get(String(msg.id));
        if (p) { this.pending.delete(String(msg.id)); p.resolve(msg); }
        break;
      }
      case 'error': {
        // The page's own words for the refusal, in its language (the server's message otherwise).
        msg = { ...msg, message: errorText(msg.code, msg.message, msg.reason) };
        const p = this.pending.get(String(msg.id));
        if (p) { this.pending.delete(String(msg.id)); p.reject(Object.assign(new Error(msg.message || msg.code), msg)); }
        this.h.onError?.(msg);
        break;
      }
      default:
        break;
    }
  }

  /** Sends a command; resolves with its ack, rejects with its error. */
  send(cmd) {
    return new Promise((resolve, reject) => {
      // Said in the page's language where it is shown (the chat's error line).
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) { reject(new Error(t('reconnecting'))); return; }
      const id = `c${this.nextId++}`;
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...cmd, id }));
    });
  }

  get open() { return !!this.ws && this.ws.readyState === WebSocket.OPEN; }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    document.removeEventListener('visibilitychange', this.onVisibility);
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('offline', this.onOffline);
    if (this.ws) { const ws = this.ws; this.ws = null; try { ws.close(1000); } catch { /* ignore */ } }
  }
}

// Getting a player back to the table: the tab title says when it is their turn and how many chat
// messages came while they were away from the tab, and a short chime (with a buzz on phones, both
// switchable off) marks the start of their turn.

import { isRtl } from './i18n.js';

const SOUND_KEY = 'parchis.sound';

export class Attention {
  /** base() → the page title without marks (it follows the language). */
  constructor(base) {
    this.base = base;
    this.myTurn = false;
    this.unread = 0;
    this.chimes = 0; // how many turn starts were signalled (read by the browser tests)
    this.sound = localStorage.getItem(SOUND_KEY) !== '0';
    this.audio = null;
    this.onVisibility = () => {
      if (!document.hidden) this.unread = 0;
      this.update();
    };
    document.addEventListener('visibilitychange', this.onVisibility);
  }

  /** Whether the seat to act is ours; a change to true signals the start of our turn. */
  setMyTurn(mine, yourTurnText) {
    this.yourTurnText = yourTurnText;
    if (mine && !this.myTurn) this.chime();
    this.myTurn = mine;
    this.update();
  }

  /** Chat messages from others arrived; counted while the tab is hidden. */
  chatArrived(count) {
    if (!document.hidden || count <= 0) return;
    this.unread += count;
    this.update();
  }

  setSound(on) {
    this.sound = on;
    localStorage.setItem(SOUND_KEY, on ? '1' : '0');
  }

  chime() {
    this.chimes++;
    // Browsers let a page buzz or make sound only once the player has interacted with it (a tap, a
    // key): before that, stay silent rather than be refused.
    if (!this.sound || (navigator.userActivation && !navigator.userActivation.hasBeenActive)) return;
    try { navigator.vibrate?.(80); } catch { /* not a phone */ }
    try {
      this.audio ||= new AudioContext();
      if (this.audio.state === 'suspended') this.audio.resume().catch(() => {});
      const now = this.audio.currentTime;
      [660, 880].forEach((frequency, i) => {
        const start = now + i * 0.12;
        const osc = this.audio.createOscillator();
        const gain = this.audio.createGain();
        osc.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, start);
        gain.gain.exponentialRampToValueAtTime(0.15, start + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.11);
        osc.connect(gain).connect(this.audio.destination);
        osc.start(start);
        osc.stop(start + 0.12);
      });
    } catch { /* no Web Audio */ }
  }

  update() {
    const marks = [];
    if (this.unread) marks.push(`(${this.unread})`);
    // The mark points into the title the way the language reads.
    if (this.myTurn && this.yourTurnText) marks.push(`${isRtl() ? '◀' : '▶'} ${this.yourTurnText} ·`);
    document.title = [...marks, this.base()].join(' ');
  }

  dispose() {
    document.removeEventListener('visibilitychange', this.onVisibility);
    if (this.audio) this.audio.close().catch(() => {});
    this.myTurn = false;
    this.unread = 0;
    this.update();
  }
}

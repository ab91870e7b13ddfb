// The room's updates shown one after another, each as long as it takes to see it: three quick bot turns are
// three rolls and three moves a person can follow, not one jump. The server is never waited for: when the
// updates pile up (a table of fast bots, a phone back from sleep), the ones waiting are shown at once, so
// the page is never more than a few updates behind.

/** Updates waiting beyond this many are shown at once (their events still logged and announced). */
export const MAX_BEHIND = 4;

export class Pacer {
  /**
   * `show(item, { instant })` draws one update (`{ state, events, kind, version }`) and returns how many
   * milliseconds it needs on screen before the next one (0: none). `instant`: no animation (catching up).
   */
  constructor(show) {
    this.show = show;
    this.queue = [];
    this.timer = null;
    /** How many updates were shown at once to catch up (read by the browser tests). */
    this.caughtUp = 0;
  }

  /**
   * An update from the connection. A snapshot replaces whatever was waiting: it is the whole story. `now`: the
   * player's own roll or move, shown at once (cutting short what is on screen), as a tap's answer should be:
   * kept waiting, the page would still offer the move just played.
   */
  push(item, now = false) {
    if (item.kind === 'snapshot') {
      this.queue = [];
      this.stop();
    }
    this.queue.push(item);
    this.pump(now);
  }

  /** Updates received and not yet shown. */
  get behind() { return this.queue.length; }

  pump(now = false) {
    // A page nobody sees (another tab, a locked phone) keeps up at once, without animating.
    const hurry = now || document.hidden || this.queue.length > MAX_BEHIND;
    if (hurry) {
      this.stop();
      while (this.queue.length > 1) { this.caughtUp++; this.show(this.queue.shift(), { instant: true }); }
    }
    if (this.timer || !this.queue.length) return;
    const ms = this.show(this.queue.shift(), { instant: document.hidden });
    if (ms > 0) this.timer = setTimeout(() => { this.timer = null; this.pump(); }, ms);
    else this.pump();
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
  }
}

// Layout measured in the page, as a player's screen shows it (issue 34): sideways scrolling, target sizes, what
// of the turn's controls and the board lies outside the screen.

/** What overflows the screen sideways, and the controls smaller than 24 × 24 CSS px (visible ones only). */
export function measure(page) {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const seen = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e); return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !e.closest('[hidden], details:not([open]) > :not(summary)'); };
    const name = (e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.dataset.piece ? `[${e.dataset.piece}]` : ''}${e.dataset.move ? `[${e.dataset.move}]` : ''}${typeof e.className === 'string' && e.className ? '.' + e.className.split(' ')[0] : ''}`;
    const controls = [...document.querySelectorAll('button, select, input:not([type=checkbox]):not([type=radio]), a.button, label.toggle, summary, svg.board .piece[role=button], svg.board .target')].filter(seen);
    const small = controls.map((e) => ({ e, r: e.getBoundingClientRect() })).filter(({ r }) => r.width < 23.9 || r.height < 23.9)
      .map(({ e, r }) => `${name(e)} ${r.width.toFixed(1)}×${r.height.toFixed(1)}`);
    const svg = document.querySelector('svg.board');
    const box = svg ? svg.getBoundingClientRect() : null;
    return {
      scrollWidth: document.documentElement.scrollWidth, viewport: vw, height: window.innerHeight, small,
      board: box ? box.width : null,
      // The whole board on the screen as it is scrolled now (within half a pixel).
      boardInView: box ? box.top >= -0.5 && box.left >= -0.5 && box.bottom <= window.innerHeight + 0.5 && box.right <= vw + 0.5 : null,
      boardBox: box ? [box.left, box.top, box.right, box.bottom].map(Math.round).join(',') : null,
    };
  });
}

/** The roll button and every legal move (its button and its piece on the board) inside the screen. */
export function outOfView(page) {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth; const vh = window.innerHeight;
    const inside = (e) => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.left >= 0 && r.bottom <= vh + 0.5 && r.right <= vw + 0.5; };
    return [...document.querySelectorAll('#roll:not([disabled]), #moves button, svg.board .piece.movable')].filter((e) => !inside(e))
      .map((e) => `${e.id || e.dataset.move || e.dataset.piece} ${JSON.stringify(e.getBoundingClientRect())}`);
  });
}


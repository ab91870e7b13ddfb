// What every page shares with the router: going to another page, the banner and the screen reader's
// announcements. A module of its own so that the pages (room, replay…) reach them without importing app.js,
// which imports the pages: no import cycle.
import { $ } from './dom.js';

let router = () => {};

/** app.js hands its router over once: `navigate` shows the page of the new address with it. */
export function setRouter(route) { router = route; }

export function navigate(path, replace = false) {
  if (replace) history.replaceState({}, '', path); else history.pushState({}, '', path);
  router();
}

export function banner(text, kind = '') {
  const b = $('#banner');
  if (!text) { b.classList.add('hidden'); b.textContent = ''; return; }
  b.className = `banner ${kind}`;
  b.textContent = text;
}

export function announce(text) {
  const a = $('#announce');
  const p = document.createElement('p');
  p.textContent = text;
  a.appendChild(p);
  while (a.childNodes.length > 5) a.removeChild(a.firstChild);
}

/**
 * Lets the browser tests reach a page's state as `window.__parchis`: only when their harness
 * (e2e/lib/browser.js) set `window.__parchisTests` before the page loaded; a player's page has no such global.
 */
export function exposeForTests(value) {
  if (window.__parchisTests) window.__parchis = value;
}

/** Withdraws what `exposeForTests(value)` exposed (a page left), unless another page has replaced it. */
export function withdrawForTests(value) {
  if (window.__parchis === value) window.__parchis = null;
}

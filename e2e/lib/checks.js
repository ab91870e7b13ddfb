// Shared assertions: the board in the DOM matches the state the page received.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { OUT } from './server.js';

export const placeAttr = (p) => (p.at === undefined || p.at === null ? p.kind : `${p.kind}:${p.at}`);

/** Every piece of `view` is drawn once with the right data-place, and nothing else is drawn. */
export async function assertBoardMatches(page, view, label = '') {
  const drawn = await page.$$eval('svg.board [data-piece]', (els) => els.map((e) => ({ id: e.getAttribute('data-piece'), place: e.getAttribute('data-place') })));
  const want = view.pieces.map((p) => ({ id: p.id, place: placeAttr(p.place) }));
  const sort = (a) => [...a].sort((x, y) => x.id.localeCompare(y.id));
  assert.deepEqual(sort(drawn), sort(want), `board differs from state ${label}`);
  const board = await page.getAttribute('svg.board', 'data-board');
  assert.equal(board, view.board);
}

/** The board as the live page currently holds it (window.__parchis). */
export async function pageState(page) {
  return page.evaluate(() => {
    const c = window.__parchis;
    return c && c.state ? { state: JSON.parse(JSON.stringify(c.state)), version: c.version, hello: c.hello } : null;
  });
}

export async function shot(page, name) {
  mkdirSync(OUT, { recursive: true });
  await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: false });
}

export function assertNoErrors(page, allow = []) {
  const errs = page.errors.filter((e) => !allow.some((re) => re.test(e)));
  assert.deepEqual(errs, [], 'console errors');
}

/**
 * WCAG contrast of the text of every visible element matching each selector against what is painted
 * behind it: its own background over its ancestors', blended down to the page. Inputs without a
 * value are measured by their placeholder. Returns [{ what, text, fg, bg, ratio }]; a selector that
 * matches nothing visible yields { what, missing: true } so that a check cannot pass by finding nothing.
 */
export async function textContrast(page, selectors) {
  return page.evaluate((sels) => {
    const rgba = (css) => {
      const m = css.match(/rgba?\(([^)]+)\)/);
      if (!m) return [0, 0, 0, 0];
      const [r, g, b, a = 1] = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return [r, g, b, a];
    };
    const over = (top, below) => [0, 1, 2].map((i) => top[i] * top[3] + below[i] * (1 - top[3]));
    const backdrop = (el) => {
      const layers = [];
      for (let e = el; e; e = e.parentElement) layers.push(rgba(getComputedStyle(e).backgroundColor));
      return layers.reverse().reduce((below, layer) => over(layer, below), [255, 255, 255]);
    };
    const luminance = (rgb) => {
      const [r, g, b] = rgb.map((v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a, b) => { const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); };
    const out = [];
    for (const what of sels) {
      const els = [...document.querySelectorAll(what)].filter((e) => e.checkVisibility({ visibilityProperty: true }) && !e.disabled);
      if (!els.length) { out.push({ what, missing: true }); continue; }
      for (const el of els) {
        const field = el.matches('input, textarea');
        const placeholder = field && !el.value;
        const text = field ? (el.value || el.placeholder) : el.textContent.trim();
        if (!text) continue;
        const bg = backdrop(el);
        const fg = over(rgba(getComputedStyle(el, placeholder ? '::placeholder' : null).color), bg);
        out.push({ what, text: text.slice(0, 30), fg: fg.map(Math.round), bg: bg.map(Math.round), ratio: Math.round(ratio(fg, bg) * 100) / 100 });
      }
    }
    return out;
  }, selectors);
}

/** Relative luminance (0 black … 1 white) of a computed CSS colour such as `rgb(22, 19, 15)`. */
export function luminanceOf(css) {
  const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

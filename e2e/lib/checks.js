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

// The SVG boards render the saved views (fixtures/*.json, made with the rules CLI) faithfully.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startStatic } from '../lib/static.js';
import { startServer } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertBoardMatches, assertNoErrors, shot } from '../lib/checks.js';

let srv; let api; let browser;
// The dev page asks the real server for its catalogue (GET /api/rules: safe squares, slot colours).
before(async () => { api = await startServer(); srv = await startStatic(api.api); browser = await launch(); });
after(async () => { await browser?.close(); await srv?.close(); await api?.stop(); });

const fixture = (n) => JSON.parse(readFileSync(new URL(`../fixtures/${n}.json`, import.meta.url), 'utf8'));

for (const name of ['four-start', 'four-mid', 'four-late', 'morocco-mid', 'six-start', 'six-mid']) {
  test(`board renders fixture ${name}`, async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${srv.url}/fixtures/dev.html?fixture=${name}`);
    await page.waitForSelector(`body[data-ready="${name}"]`);
    const view = fixture(name);
    await assertBoardMatches(page, view, name);
    const squares = await page.$$eval('svg.board [data-square]', (e) => e.length);
    assert.equal(squares, view.board === 'six' ? 102 : 68);
    const safe = await page.$$eval('svg.board .safe-mark', (e) => e.length);
    assert.equal(safe, view.board === 'six' ? 18 : 12);
    const lanes = await page.$$eval('svg.board [data-lane]', (e) => e.length);
    assert.equal(lanes, 7 * (view.board === 'six' ? 6 : 4));
    // Legal moves are offered (targets and movable pieces) when the view has any.
    const targets = await page.$$eval('svg.board .target', (e) => e.length);
    assert.equal(targets, view.legal_moves.length);
    if (name === 'four-mid' || name === 'six-mid') await shot(page, `fixture-${name}`);
    assertNoErrors(page);
    await context.close();
  });
}

test('pieces at the goal are drawn nearly as big as on a square, not as tiny tokens (issue 34)', async () => {
  const { page, context } = await newPage(browser);
  await page.goto(`${srv.url}/fixtures/dev.html?fixture=four-late`);
  await page.waitForSelector('body[data-ready="four-late"]');
  const size = (sel) => page.$$eval(sel, (els) => els.map((e) => e.getBoundingClientRect().width));
  const goal = await size('svg.board .piece.at-goal .piece-body');
  const alone = await size('svg.board .piece[data-place^="square:"]:not(.blockade) .piece-body');
  assert.ok(goal.length >= 2 && alone.length, `${goal.length} pieces at the goal, ${alone.length} on squares`);
  const square = Math.max(...alone);
  for (const d of goal) assert.ok(d >= square * 0.85, `a piece at the goal ${d.toFixed(1)} px across, ${square.toFixed(1)} px on a square`);
  assertNoErrors(page);
  await context.close();
});

test('the board turns so that the chosen slot sits at the bottom', async () => {
  const { page, context } = await newPage(browser);
  for (const bottom of [0, 1, 2, 3]) {
    await page.goto(`${srv.url}/fixtures/dev.html?fixture=four-start&bottom=${bottom}`);
    await page.waitForSelector('body[data-ready]');
    // The exit square of the bottom slot (17k + 5) is in the lower half, right of centre.
    const box = await page.$eval(`svg.board [data-square="${17 * bottom + 5}"] polygon`, (e) => { const b = e.getBBox(); return { x: b.x + b.width / 2, y: b.y + b.height / 2 }; });
    assert.ok(box.y > 11 && box.x > 9.5, `slot ${bottom} exit at ${JSON.stringify(box)}`);
  }
  assertNoErrors(page);
  await context.close();
});

test('clicking a movable piece plays its move; keyboard Enter too', async () => {
  const { page, context } = await newPage(browser);
  await page.goto(`${srv.url}/fixtures/dev.html?fixture=four-late`);
  await page.waitForSelector('body[data-ready]');
  const view = fixture('four-late');
  const first = view.legal_moves[0];
  const samePiece = view.legal_moves.filter((m) => m.piece === first.piece);
  await page.click(`svg.board [data-piece="${first.piece}"]`);
  if (samePiece.length === 1) await page.waitForFunction((t) => document.getElementById('info').textContent === `move ${t}`, first.text);
  await page.focus(`svg.board [data-piece="${first.piece}"]`);
  await page.keyboard.press('Enter');
  assertNoErrors(page);
  await context.close();
});

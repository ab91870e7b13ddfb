// Getting a player back to the table: the tab title marks their turn and counts chat messages that
// came while the tab was hidden, a chime marks each start of their turn, and the sound switch is kept.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors } from '../lib/checks.js';
import { register, createRoom, waitBoard, actOnce, isOver } from '../lib/flows.js';

let srv; let browser;
before(async () => {
  srv = await startServer({ BOT_DELAY_MS: '40' });
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

/** Makes the page believe its tab was hidden (or shown again), as switching tabs does. */
const setHidden = (page, hidden) => page.evaluate((h) => {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
  document.dispatchEvent(new Event('visibilitychange'));
}, hidden);
const chimes = (page) => page.evaluate(() => window.__parchis.attention.chimes);

test('the title marks your turn and unread chat, each turn start chimes, and sound can be switched off', { timeout: 120000 }, async () => {
  const a = await newPage(browser);
  const b = await newPage(browser);
  await register(a.page, srv.url, 'Ana');
  await createRoom(a.page, { mode: 'individual', players: 2, bots: [''], timer: '' });
  const link = (await a.page.textContent('#share-link')).trim().replace(/^https?:\/\/[^/]+/, srv.url);
  await register(b.page, srv.url, 'Bea');
  await b.page.goto(link);
  await b.page.click('#take-seat');
  await b.page.waitForSelector('#seats li.me');
  await a.page.click('#start-game');
  await waitBoard(a.page, 'four');
  await waitBoard(b.page, 'four');

  // Ana (seat 0) starts: her title says so, Bea's does not.
  await a.page.waitForSelector('#roll:not([disabled])');
  assert.match(await a.page.title(), /^▶ Your turn · Parchís$/);
  assert.equal(await b.page.title(), 'Parchís');
  assert.equal(await chimes(a.page), 1);
  assert.equal(await chimes(b.page), 0);

  // Ana switches tabs; Bea writes twice; Ana's title counts them until she comes back.
  await setHidden(a.page, true);
  for (const text of ['¿estás?', 'te toca']) {
    await b.page.fill('#chat-input', text);
    await b.page.press('#chat-input', 'Enter');
  }
  await a.page.waitForFunction(() => document.title.startsWith('(2) '));
  await setHidden(a.page, false);
  assert.match(await a.page.title(), /^▶ Your turn · Parchís$/);
  // Her own messages never count.
  await setHidden(a.page, true);
  await a.page.fill('#chat-input', 'voy');
  await a.page.press('#chat-input', 'Enter');
  await b.page.waitForFunction(() => document.querySelectorAll('#chat-log li[data-seq]').length === 3);
  assert.doesNotMatch(await a.page.title(), /^\(/);
  await setHidden(a.page, false);

  // Play until the turn has come back to each player: every start of a turn chimed once.
  const deadline = Date.now() + 60000;
  while ((await chimes(a.page)) < 2 || (await chimes(b.page)) < 1) {
    assert.ok(Date.now() < deadline && !(await isOver(a.page)), 'the turn came round');
    const acted = (await actOnce(a.page)) || (await actOnce(b.page));
    if (!acted) await a.page.waitForTimeout(50);
  }

  // The sound switch is remembered.
  await a.page.uncheck('#sound');
  await a.page.reload();
  await waitBoard(a.page, 'four');
  assert.equal(await a.page.isChecked('#sound'), false);
  assert.equal(await a.page.evaluate(() => localStorage.getItem('parchis.sound')), '0');
  assertNoErrors(a.page);
  assertNoErrors(b.page);
});

// A phone coming back: when the page is shown again after a while, or the network comes back, a socket
// that no longer answers is replaced at once (the browser may take minutes to notice a dead one), and a
// socket that answers is kept.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors } from '../lib/checks.js';
import { register, createRoom, waitBoard, actOnce } from '../lib/flows.js';

let srv; let browser;
before(async () => {
  srv = await startServer({ BOT_DELAY_MS: '40' });
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

/** Makes the page's socket silent, as a dead connection is: what it sends goes nowhere. */
const silenceSocket = (page) => page.evaluate(() => {
  const ws = window.__parchis.conn.ws;
  window.__silenced = ws;
  ws.send = () => {};
});
const setHidden = (page, hidden) => page.evaluate((h) => {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
  document.dispatchEvent(new Event('visibilitychange'));
}, hidden);
const wakes = (page) => page.evaluate(() => window.__parchis.conn.wakes);
/** The page has a new, open socket (not the silenced one) and a game state from it. */
const reconnected = (page) => page.waitForFunction(() => {
  const c = window.__parchis.conn;
  return c.open && c.ws !== window.__silenced && window.__parchis.connStatus === 'open';
}, null, { timeout: 15000 });

test('a silent socket is replaced when the network or the page comes back; one that answers is kept', { timeout: 120000 }, async () => {
  const { page } = await newPage(browser);
  await register(page, srv.url, 'Nora');
  await createRoom(page, { mode: 'individual', players: 2, bots: ['greedy'], timer: '' });
  await page.click('#start-game');
  await waitBoard(page, 'four');
  await page.waitForFunction(() => window.__parchis.conn.open);

  // The network comes back, and the socket answers: nothing changes.
  const first = await page.evaluateHandle(() => window.__parchis.conn.ws);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await page.waitForTimeout(6000);
  assert.equal(await wakes(page), 0);
  assert.ok(await page.evaluate((ws) => window.__parchis.conn.ws === ws, first), 'the same socket');

  // The network comes back and the socket is dead: a new one within seconds, and play goes on.
  await silenceSocket(page);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await reconnected(page);
  assert.equal(await wakes(page), 1);
  let acted = false;
  for (let i = 0; i < 200 && !acted; i++) {
    acted = await actOnce(page);
    if (!acted) await page.waitForTimeout(50);
  }
  assert.ok(acted, 'the player plays on the new socket');

  // Hidden for a moment (a tab switch): not checked, even if the socket were dead.
  await silenceSocket(page);
  await setHidden(page, true);
  await setHidden(page, false);
  await page.waitForTimeout(6000);
  assert.equal(await wakes(page), 1);

  // Hidden long enough for a phone to sleep: checked when shown, and replaced.
  await setHidden(page, true);
  await page.evaluate(() => { window.__parchis.conn.hiddenAt = Date.now() - 60000; });
  await setHidden(page, false);
  await reconnected(page);
  assert.equal(await wakes(page), 2);
  assertNoErrors(page);
});

test('a phone losing its network says so at once, a tap meanwhile says why nothing happens (in its language), and play resumes when it is back', { timeout: 120000 }, async () => {
  const { page, context } = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, locale: 'es-ES' });
  await register(page, srv.url, 'Omar');
  // No bots moving meanwhile: the game waits for this player.
  await createRoom(page, { mode: 'individual', players: 2, bots: ['greedy'], timer: '' });
  await page.click('#start-game');
  await waitBoard(page, 'four');
  await page.waitForFunction(() => window.__parchis.conn.open);
  await page.waitForSelector('#roll:not([disabled])', { timeout: 15000 });
  // The browser knows the network is gone (an open socket may not notice it for a minute): the page says so.
  await context.setOffline(true);
  await page.waitForFunction(() => {
    const b = document.querySelector('#banner');
    return !b.classList.contains('hidden') && b.textContent === 'Conexión perdida — reconectando…';
  }, null, { timeout: 3000 });
  assert.equal(await page.evaluate(() => window.__parchis.conn.open), false, 'the dead socket is given up');
  // A roll tapped meanwhile is not silently dropped.
  await page.click('#roll');
  await page.waitForFunction(() => document.querySelector('#room-error').textContent !== '', null, { timeout: 3000 });
  assert.equal(await page.textContent('#room-error'), 'Error: Conexión perdida — reconectando…');
  // So does a chat message sent meanwhile, in the page's language (not the connection's own English).
  await page.fill('#chat-input', 'hola');
  await page.click('#chat-send');
  await page.waitForFunction(() => document.querySelector('#chat-error').textContent !== '', null, { timeout: 3000 });
  assert.equal(await page.textContent('#chat-error'), 'Error: Conexión perdida — reconectando…');
  assert.equal(await page.inputValue('#chat-input'), 'hola', 'the message is kept to send again');
  await context.setOffline(false);
  await page.waitForFunction(() => window.__parchis.conn.open && window.__parchis.connStatus === 'open', null, { timeout: 15000 });
  await page.waitForFunction(() => document.querySelector('#banner').classList.contains('hidden'), null, { timeout: 5000 });
  assert.equal(await page.textContent('#room-error'), '', 'the error goes once connected again');
  let acted = false;
  for (let i = 0; i < 200 && !acted; i++) {
    acted = await actOnce(page);
    if (!acted) await page.waitForTimeout(50);
  }
  assert.ok(acted, 'the player plays on once the network is back');
  // Reconnecting while offline fails, and the browser logs it.
  assertNoErrors(page, [/WebSocket connection to .* failed/, /ERR_INTERNET_DISCONNECTED/]);
});

test('the page\'s WebSocket URLs carry no token (it is offered as a subprotocol), and the page plays as its player', { timeout: 120000 }, async () => {
  const { page } = await newPage(browser);
  const urls = [];
  page.on('websocket', (ws) => urls.push(ws.url()));
  await register(page, srv.url, 'Tere');
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('parchis.player')).token);
  await createRoom(page, { mode: 'individual', players: 2, bots: ['greedy'], timer: '' });
  await page.click('#start-game');
  await waitBoard(page, 'four');
  await page.waitForFunction(() => window.__parchis.conn.open);
  assert.equal(await page.evaluate(() => window.__parchis.conn.ws.protocol), 'parchis', 'the server answered with the protocol, not the token');
  const play = async () => {
    let acted = false;
    for (let i = 0; i < 200 && !acted; i++) {
      acted = await actOnce(page);
      if (!acted) await page.waitForTimeout(50);
    }
    assert.ok(acted, 'the player plays: the socket is seated');
  };
  await play();
  // A reconnection (its URL carries since and epoch) offers the token the same way.
  await silenceSocket(page);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await reconnected(page);
  await play();
  assert.ok(urls.length >= 2, `sockets opened: ${urls}`);
  assert.ok(urls.some((u) => /since=/.test(u)), `a reconnection: ${urls}`);
  for (const u of urls) {
    assert.doesNotMatch(u, /token=/, u);
    assert.ok(!u.includes(token), `no token in ${u}`);
  }
  assertNoErrors(page);
});

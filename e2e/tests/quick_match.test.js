// Quick match: two browsers press the button with the same choices, meet in one room, and the game starts
// by itself once the room is full.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot } from '../lib/checks.js';
import { register, waitBoard, actOnce, isOver } from '../lib/flows.js';

let srv; let browser;
before(async () => {
  srv = await startServer();
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

const roomOf = (page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop());

async function pressQuickMatch(page, { rules, mode, players = null }) {
  await page.selectOption('#rules', rules);
  await page.selectOption('#mode', mode);
  if (players) await page.selectOption('#players', String(players));
  await page.click('#quick-match');
}

test('two browsers press Quick match, land in the same room, and the game starts by itself', async () => {
  // Ana's page runs under the real Content Security Policy: the new button and screen must not need inline script.
  const a = await newPage(browser, { csp: true });
  const violations = [];
  a.page.on('console', (m) => { if (/Content Security Policy|Refused to/.test(m.text())) violations.push(m.text()); });
  const b = await newPage(browser, { locale: 'es-ES' });
  await register(a.page, srv.url, 'Ana');
  await register(b.page, srv.url, 'Bea');
  assert.equal((await b.page.textContent('#quick-match')).trim(), 'Buscar partida');
  await shot(a.page, 'quick-match-home');

  await pressQuickMatch(a.page, { rules: 'ludoteka', mode: '1v1' });
  await a.page.waitForSelector('#wr-looking:not(.hidden)');
  const room = roomOf(a.page);
  assert.match(a.page.url(), /\/room\//);
  assert.equal((await a.page.textContent('#wr-looking')).trim(), 'Looking for players… 1/2');
  assert.match(await a.page.textContent('#wr-hint'), /starts by itself/);
  assert.match(await a.page.textContent('#wr-hint'), /bots take the empty seats/, 'the owner may start early, with bots');
  // Ana has the room open (her seat shows connected): it is now a room others can be matched into.
  await a.page.waitForSelector('#seats li.me [data-status="connected"]');
  await shot(a.page, 'quick-match-waiting');

  await pressQuickMatch(b.page, { rules: 'ludoteka', mode: '1v1' });
  await b.page.waitForURL(`**/room/${room}`);
  // Two of two seats taken: both pages switch to the game without anyone pressing Start.
  await a.page.waitForSelector('svg.board [data-piece]', { timeout: 20000 });
  await b.page.waitForSelector('svg.board [data-piece]', { timeout: 20000 });
  const names = await a.page.textContent('#players');
  assert.ok(names.includes('Ana') && names.includes('Bea'), names);
  await shot(b.page, 'quick-match-started');

  assert.deepEqual(violations, []);
  assertNoErrors(a.page);
  assertNoErrors(b.page);
  await a.context.close();
  await b.context.close();
});

test('a quick match played to the end and its rematch: the new room waits for its owner, not "by itself"', { timeout: 300000 }, async () => {
  const a = await newPage(browser);
  const b = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true });
  await register(a.page, srv.url, 'Carla');
  await register(b.page, srv.url, 'Dani');
  await pressQuickMatch(a.page, { rules: 'ludoteka', mode: 'quick', players: 2 });
  await a.page.waitForSelector('#wr-looking:not(.hidden)');
  await a.page.waitForSelector('#seats li.me [data-status="connected"]');
  await pressQuickMatch(b.page, { rules: 'ludoteka', mode: 'quick', players: 2 });
  await waitBoard(a.page);
  await waitBoard(b.page);
  const deadline = Date.now() + 200000;
  while (!(await isOver(a.page))) {
    assert.ok(Date.now() < deadline, 'the game ends');
    const acted = (await actOnce(a.page)) | (await actOnce(b.page));
    if (!acted) await a.page.waitForTimeout(50);
  }
  await a.page.waitForSelector('#rematch');
  await b.page.waitForSelector('#rematch');
  await b.page.click('#rematch');
  await b.page.waitForSelector('#seats li.me');
  const next = roomOf(b.page);
  await a.page.click('#rematch');
  await a.page.waitForURL(`**/room/${next}`);
  await a.page.waitForSelector('#seats li.me');
  // Both seats are taken and nothing starts by itself: the pages say who starts it.
  for (const p of [a.page, b.page]) {
    await p.waitForFunction(() => document.querySelectorAll('#seats [data-status="connected"]').length === 2, null, { timeout: 10000 });
    assert.equal(await p.$eval('#wr-looking', (e) => e.classList.contains('hidden')), true, 'not looking for players');
    assert.doesNotMatch(await p.textContent('#wr-hint'), /by itself/);
  }
  assert.equal(await a.page.textContent('#wr-hint'), 'Waiting for the owner to start…');
  assert.equal(await a.page.$('#start-game'), null);
  // Dani asked first: Dani starts it.
  await b.page.click('#start-game');
  await waitBoard(a.page);
  await waitBoard(b.page);
  assertNoErrors(a.page);
  assertNoErrors(b.page);
  await a.context.close();
  await b.context.close();
});

test('Quick match needs a name first', async () => {
  const p = await newPage(browser);
  await p.page.goto(`${srv.url}/`);
  await p.page.click('#quick-match');
  await p.page.waitForSelector('#play-error:not(:empty)');
  assert.equal(new URL(p.page.url()).pathname, '/');
  assertNoErrors(p.page);
  await p.context.close();
});

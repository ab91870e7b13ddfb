// Quick match: two browsers press the button with the same choices, meet in one room, and the game starts
// by itself once the room is full.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../lib/server.js';
import { launch, newPage } from '../lib/browser.js';
import { assertNoErrors, shot } from '../lib/checks.js';
import { register } from '../lib/flows.js';

let srv; let browser;
before(async () => {
  srv = await startServer();
  browser = await launch();
});
after(async () => { await browser?.close(); await srv?.stop(); });

const roomOf = (page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop());

async function pressQuickMatch(page, { rules, mode }) {
  await page.selectOption('#rules', rules);
  await page.selectOption('#mode', mode);
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

test('Quick match needs a name first', async () => {
  const p = await newPage(browser);
  await p.page.goto(`${srv.url}/`);
  await p.page.click('#quick-match');
  await p.page.waitForSelector('#create-form ~ .error:not(:empty)');
  assert.equal(new URL(p.page.url()).pathname, '/');
  assertNoErrors(p.page);
  await p.context.close();
});
